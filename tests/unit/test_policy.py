"""Quirks are typed policies: each quirk sets policy fields, the simulator reads only the policy.

- every quirk sets at least one field of its role's policy, and the values it
  sets have the field's type;
- folding quirks into a policy does not depend on their order in the spec: on a
  shared field the higher rank wins (``silent`` over ``unknown-32602``);
- a quirk's value reaches its field converted (``+slow=250`` -> 250 ms);
- the simulator's server and client modules never ask a peer for a quirk by name.
"""

from __future__ import annotations

import ast
import dataclasses
import types
import typing
from pathlib import Path

import pytest
from _sources import source
from _strategies import peers
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_skew.simulator import PeerSpec, parse_peer
from mcp_skew.simulator.quirks import QUIRKS
from mcp_skew.simulator.quirks._policy import ClientPolicy, Effect, ServerPolicy, compose

SIMULATOR = Path(__file__).resolve().parents[2] / "mcp_skew" / "simulator"
POLICY = {"server": ServerPolicy, "client": ClientPolicy}


def _field_types(cls: type) -> dict[str, object]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _accepts(hint: object, value: object) -> bool:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return value in typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_accepts(arg, value) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    assert isinstance(hint, type)
    return isinstance(value, hint) and not (hint is int and isinstance(value, bool))


@pytest.mark.parametrize("name", sorted(QUIRKS))
def test_every_quirk_sets_typed_fields_of_its_roles_policy(name: str) -> None:
    quirk = QUIRKS[name]
    types = _field_types(POLICY[quirk.role])
    assert quirk.effects, f"{name} sets nothing"
    sample = {"revision": "2025-06-18", "ms": "250", "code": "-32603", "count": "2", "layout": "prm",
              "none": None}[quirk.value]
    for effect in quirk.effects:
        assert effect.field in types, (name, effect.field)
        assert (effect.convert is None) == (quirk.value == "none"), name
        assert _accepts(types[effect.field], effect.resolve(sample)), (name, effect.field)


def test_the_default_policies_are_the_spec_behaviour() -> None:
    assert parse_peer("legacy:2025-11-25", "server").server_policy == ServerPolicy()
    assert parse_peer("dual:2026-07-28,2025-11-25", "client").client_policy == ClientPolicy()
    assert ServerPolicy().unknown == "-32601" and ServerPolicy().ping_before_initialize
    assert ClientPolicy().probe_timeout_ms == 3_000


def test_values_reach_their_fields_converted() -> None:
    server = parse_peer("legacy:2025-11-25,2025-06-18+slow=250+fixed=2025-06-18+not-found-code=-32603",
                        "server").server_policy
    assert (server.startup_ms, server.fixed_revision, server.not_found_code) == (250, "2025-06-18", -32603)
    assert parse_peer("dual:2026-07-28,2025-11-25+probe-timeout=10", "client").client_policy \
        .probe_timeout_ms == 10


@pytest.mark.parametrize(("quirks", "unknown"), [
    ("+silent+unknown-32602", "silent"),
    ("+unknown-32602+silent", "silent"),
    ("+silent-exit+unknown-32601", "silent-exit"),
    ("+unknown-32601+unknown-32602", "-32602"),
    ("+silent+silent-exit", "silent"),
])
def test_on_a_shared_field_the_higher_rank_wins(quirks: str, unknown: str) -> None:
    assert parse_peer(f"legacy:2025-11-25{quirks}", "server").server_policy.unknown == unknown


@settings(max_examples=100, deadline=None)
@given(peers("server"), st.randoms(use_true_random=False))
def test_a_policy_does_not_depend_on_the_order_of_quirks(peer: PeerSpec, rnd: typing.Any) -> None:
    shuffled = list(peer.quirks)
    rnd.shuffle(shuffled)
    assert dataclasses.replace(peer, quirks=tuple(shuffled)).server_policy == peer.server_policy


def test_compose_rejects_an_unknown_field_and_a_missing_value() -> None:
    with pytest.raises(ValueError, match="no field"):
        compose(ServerPolicy(), [(Effect("no_such_field"), None)])
    with pytest.raises(ValueError, match="takes a value"):
        compose(ServerPolicy(), [(Effect("startup_ms", convert=int), None)])


@pytest.mark.parametrize("module", ["_server.py", "_client.py", "_scenario.py", "_run.py"])
def test_the_simulator_reads_policies_not_quirk_names(module: str) -> None:
    """No ``spec.has(...)``, ``spec.value(...)`` or ``spec.ms(...)`` in the core."""
    asks = [node.lineno for node in source(SIMULATOR / module).nodes
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"has", "value", "ms"}
            and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "spec"]
    assert asks == [], f"{module} asks for quirks by name on lines {asks}"

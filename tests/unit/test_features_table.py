"""The named features table (``mcp_skew.versions._features``) against the profiles and the
official schemas: each carrier a revision names exists there, in the right place.

- A server request is in the schema's ``ServerRequest`` union (2024-11-05 .. 2025-11-25
  ``schema.json``); an input request is not (2026-07-28 ``basic/patterns/mrtr.mdx``: the
  request objects exist only as ``InputRequests`` values), yet its definition names the
  method (``ElicitRequest``, ``CreateMessageRequest``, ``ListRootsRequest``).
- A capability that gates a feature is a key of the schema's capability object.
- A removed feature's old methods are gone from the profile.
"""

from __future__ import annotations

import pytest
from _spec import capability_keys, schema_facts, union_methods

from mcp_skew.versions import REGISTRY, Direction
from mcp_skew.versions._features import FEATURES, carriage, lost_features

BUILTIN = REGISTRY.revisions()[:5]


def _method_defs(found: dict[str, object]) -> set[str]:
    definitions = found["definitions"]
    assert isinstance(definitions, dict)
    return {d["method"] for d in definitions.values() if d.get("method")}


@pytest.mark.parametrize("revision", BUILTIN)
def test_every_carrier_is_in_the_profile_and_the_schema(revision: str) -> None:
    profile = REGISTRY.get(revision)
    found = schema_facts(revision)
    server_requests = union_methods(found, "ServerRequest")
    client_requests = union_methods(found, "ClientRequest")
    for name, step in carriage(profile).items():
        methods = list(step.via)
        if step.how == "server request":
            assert step.via[0] in server_requests, (revision, name)
            assert profile.methods[step.via[0]].direction in (Direction.S2C, Direction.BOTH)
        elif step.how == "input request":
            assert step.via[0] not in server_requests, (revision, name)
            assert step.via[0] not in profile.methods, (revision, name)
            assert step.via[0] in _method_defs(found), (revision, name)
            assert "mrtr" in profile.names("features")
        elif step.how == "client request":
            assert step.via[0] in client_requests, (revision, name)
        elif step.how == "request _meta":  # a key of params._meta, then what it opts in to
            assert step.via[0] in profile.names("request_meta_optional"), (revision, name)
            methods = methods[1:]
        for method in methods:
            if step.how != "input request":
                assert method in profile.methods, (revision, name, method)


@pytest.mark.parametrize("revision", BUILTIN)
def test_capabilities_are_the_schemas(revision: str) -> None:
    profile = REGISTRY.get(revision)
    found = schema_facts(revision)
    carried = carriage(profile)
    for feature in FEATURES:
        if feature.capability is None or feature.name not in carried:
            continue
        side, key = feature.capability
        table = f"{side}_capabilities"
        assert key in profile.names(table), (revision, feature.name)
        schema_name = "ClientCapabilities" if side == "client" else "ServerCapabilities"
        assert key in capability_keys(found, schema_name), (revision, feature.name)


@pytest.mark.parametrize("revision", BUILTIN)
def test_the_profiles_feature_names_agree(revision: str) -> None:
    """Where the profile's features table names a feature of this table, it has it exactly
    where the table says the revision carries it (one name, two tables, no drift)."""
    profile = REGISTRY.get(revision)
    carried = set(carriage(profile))
    known = {f.name for f in FEATURES} & {n for r in BUILTIN for n in
                                          REGISTRY.get(r).names("features")}
    assert known, "the two tables share names"
    for name in known:
        assert (name in carried) == (name in profile.names("features")), (revision, name)


def test_removed_features_lose_their_methods() -> None:
    for feature in FEATURES:
        for before, step in zip(feature.history, feature.history[1:], strict=False):
            if step.how is None:
                profile = REGISTRY.get(step.revision)
                gone = [m for m in before.via if m in profile.methods]
                assert not gone, (feature.name, gone)


def test_elicitation_changes_carrier_and_is_not_lost_on_the_era_change() -> None:
    """2026-07-28 carries elicitation, sampling and roots as input requests of a multi
    round-trip result (``basic/patterns/mrtr.mdx``); 2025-11-25 as server requests: a pair
    that negotiates either keeps them. ping and tasks are what 2026-07-28 drops."""
    legacy, modern = REGISTRY.get("2025-11-25"), REGISTRY.get("2026-07-28")
    assert carriage(legacy)["elicitation"].how == "server request"
    assert carriage(modern)["elicitation"].how == "input request"
    assert lost_features(modern, legacy) == ()
    assert lost_features(legacy, modern) == ("roots-list-changed", "ping", "tasks")


def test_a_2025_03_26_client_never_gets_elicitation() -> None:
    """The server author's question: a 2025-11-25 server's elicitation never reaches a
    client that negotiated 2025-03-26 (elicitation is new in 2025-06-18
    ``client/elicitation.mdx``; URL mode and sampling tools in 2025-11-25)."""
    newest, negotiated = REGISTRY.get("2025-11-25"), REGISTRY.get("2025-03-26")
    assert lost_features(newest, negotiated) == (
        "elicitation", "url-elicitation", "sampling-with-tools", "tasks")

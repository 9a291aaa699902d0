"""The generated oracle is current, and judges instances exactly as the official schemas do.

Where ``../shared/spec`` is (developer and CI machines), these tests regenerate
``tests/generated/`` in memory and compare it with the committed files, then run a
differential check: on a corpus of instances (every official example, every
message of a broad sample of simulated runs, and mutations of them that drop a
required key or break a constant), a JSON Schema validator over the official
``schema.json`` and the generated pydantic models give the same verdict. Elsewhere
they are deselected (the test run's header says so).
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
from collections.abc import Iterator
from typing import Any

import oracle
import pytest
from jsonschema import validators
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from test_simulator_schema import CONFORMING_QUIRKS, NONCONFORMING, QUIRK_FREE, checks, simulate

pytestmark = pytest.mark.spec_files


@functools.cache
def _validator(revision: str, name: str) -> Validator:
    """A JSON Schema validator of definition ``name`` over the whole official document."""
    schema = json.loads((oracle.SPEC_DIR / "schemas" / revision / "schema.json").read_text(encoding="utf-8"))
    cls: type[Validator] = validators.validator_for(schema)
    urn = f"urn:mcp-skew:official-schema:{revision}"
    registry: Registry[Any] = Registry().with_resource(urn, Resource.from_contents(schema))
    key = "$defs" if "$defs" in schema else "definitions"
    return cls({"$ref": f"{urn}#/{key}/{name}"}, registry=registry)


def _schema_says(revision: str, name: str, instance: Any) -> bool:
    return _validator(revision, name).is_valid(instance)


def _oracle_says(revision: str, name: str, instance: Any) -> bool:
    try:
        oracle.validate(revision, name, instance)
    except AssertionError:
        return False
    return True


def _mutations(instance: Any, revision: str, name: str) -> Iterator[Any]:
    """The instance without each required key, and with its constants broken."""
    if not isinstance(instance, dict):
        return
    for key in oracle.definition(revision, name)["required"]:
        if key in instance:
            yield {k: v for k, v in instance.items() if k != key}
    if "jsonrpc" in instance:
        yield {**instance, "jsonrpc": "1.0"}
    if isinstance(instance.get("method"), str) and oracle.definition(revision, name)["method"]:
        yield {**instance, "method": instance["method"] + "x"}
    if isinstance(instance.get("id"), int):
        yield {**instance, "id": [instance["id"]]}
    if isinstance(instance.get("result"), dict) and instance["result"]:
        broken = copy.deepcopy(instance)
        first = sorted(broken["result"])[0]
        broken["result"][first] = {"not": "this"} if not isinstance(broken["result"][first], dict) else 7
        yield broken


def _corpus() -> Iterator[tuple[str, str, Any]]:
    for example in oracle.example_files():
        name, path = example
        if name in oracle.definition_names("2026-07-28"):
            yield "2026-07-28", name, json.loads(path.read_text(encoding="utf-8"))
    pairs = QUIRK_FREE[::7] + CONFORMING_QUIRKS
    pairs += [("modern:2026-07-28", f"modern:2026-07-28+{quirk}") for quirk in NONCONFORMING]
    for (client, server), scenario in itertools.product(pairs, ("default", "lists")):
        for check in checks(simulate(client, server, scenario)):
            yield check.revision, check.name, check.instance


def test_generated_models_judge_like_the_official_schemas() -> None:
    seen, disagree, rejected = 0, [], 0
    for revision, name, instance in _corpus():
        for candidate in (instance, *_mutations(instance, revision, name)):
            seen += 1
            expected = _schema_says(revision, name, candidate)
            rejected += not expected
            if _oracle_says(revision, name, candidate) != expected:
                disagree.append(f"{revision} {name}: schema says {expected} for "
                                f"{json.dumps(candidate)[:300]}")
    print(f"\n{seen} instances judged, {rejected} of them invalid by the schema")
    assert not disagree, f"{len(disagree)} disagreements:\n" + "\n".join(disagree[:20])
    assert seen > 1000 and rejected > 300

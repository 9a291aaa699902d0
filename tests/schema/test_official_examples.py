"""The official 2026-07-28 example files, loaded into the 2026-07-28 wire models.

These tests read the example files themselves (``../shared/spec/examples``), so
they run where that folder is (developer and CI machines) and are deselected
elsewhere, as the test run's header says; ``test_wire_models.py`` checks the
coverage tables against the generated facts of the examples everywhere.
"""

import json
from pathlib import Path
from typing import Any

import oracle
import pytest
from pydantic import BaseModel, ValidationError
from test_wire_models import COVERED, DIRECT, ERROR_RESPONSES, KNOWN_DEVIATIONS, M26, REQUESTS, RESPONSES

from mcp_skew.versions import models
from mcp_skew.versions.models import (
    parse_error,
    parse_message,
    parse_params,
    parse_result,
    to_wire,
    unknown_fields,
)

pytestmark = pytest.mark.spec_files


def _deviation(path: Path) -> str | None:
    """The reason an official example is known not to load, or None."""
    return KNOWN_DEVIATIONS.get(f"{path.parent.name}/{path.name}")


def _load_example(type_name: str, payload: dict[str, Any]) -> list[BaseModel]:
    """Parse one example with the 2026-07-28 models; return every model it produced."""
    rev = M26.MODELS.revision
    if type_name in DIRECT:
        return [DIRECT[type_name].inbound(payload)]
    message = parse_message(rev, payload)
    if type_name in REQUESTS:
        assert isinstance(message, models.JSONRPCRequest) and message.method == REQUESTS[type_name]
        return [message, parse_params(rev, message.method, message.params)]
    if type_name in RESPONSES:
        assert isinstance(message, models.JSONRPCResultResponse)
        return [message, parse_result(rev, RESPONSES[type_name], message.result)]
    assert isinstance(message, models.JSONRPCErrorResponse)
    error = parse_error(rev, message.error)
    assert type(error) is ERROR_RESPONSES[type_name]
    return [message, error]


def _example_params(*, covered: bool) -> list[Any]:
    return [
        pytest.param(name, path, id=f"{name}/{path.stem}")
        for name, path in oracle.example_files()
        if (name in COVERED) is covered and not _deviation(path)
    ]


@pytest.mark.parametrize(("type_name", "path"), _example_params(covered=True))
def test_official_example_loads_into_2026_models(type_name: str, path: Path) -> None:
    payload = json.loads(path.read_text(encoding="utf-8"))
    parsed = _load_example(type_name, payload)
    assert all(unknown_fields(model) == [] for model in parsed), [unknown_fields(m) for m in parsed]
    assert to_wire(parsed[0]) == payload  # the models know every field: dumping gives the example back


@pytest.mark.parametrize(("type_name", "path"), _example_params(covered=False))
def test_uncovered_official_example_message_parses_as_envelope(type_name: str, path: Path) -> None:
    payload = json.loads(path.read_text(encoding="utf-8"))
    if "jsonrpc" not in payload:
        assert isinstance(payload, dict)  # not a message (a params object, schema, ...): nothing to parse
        return
    message = parse_message(M26.MODELS.revision, payload)
    kind = {
        "Request": models.JSONRPCRequest,
        "Notification": models.JSONRPCNotification,
        "ResultResponse": models.JSONRPCResultResponse,
    }
    assert isinstance(message, next(cls for suffix, cls in kind.items() if type_name.endswith(suffix)))
    assert unknown_fields(message) == [] and to_wire(message) == payload


@pytest.mark.parametrize("relative", sorted(KNOWN_DEVIATIONS))
def test_known_example_deviation_is_real(relative: str) -> None:
    rev = M26.MODELS.revision
    payload = json.loads((oracle.SPEC_DIR / "examples" / rev / relative).read_text(encoding="utf-8"))
    oracle.validate(rev, "ReadResourceResultResponse", payload)  # the schema accepts the whole response,
    with pytest.raises(AssertionError, match="ttlMs"):
        oracle.validate(rev, "ReadResourceResult", payload["result"])  # but not its result as that type
    message = parse_message(rev, payload)
    assert isinstance(message, models.JSONRPCResultResponse)
    with pytest.raises(ValidationError) as caught:
        parse_result(rev, "resources/read", message.result)
    assert {err["loc"] for err in caught.value.errors()} == {("ttlMs",), ("cacheScope",)}

"""The ``features`` scenario: calls that need the user's input, carried as each revision
carries them (``mcp_skew.versions._features``), over stdio and Streamable HTTP.

- 2026-07-28 (``basic/patterns/mrtr.mdx`` §Basic Workflow): the call is answered with an
  ``InputRequiredResult`` (``resultType: "input_required"``, ``inputRequests``,
  ``requestState``); the client retries the original request with a new JSON-RPC id,
  ``inputResponses`` under the same keys and ``requestState`` echoed exactly.
- 2025-11-25 and 2025-06-18 (``client/elicitation.mdx``): the server sends
  ``elicitation/create`` while the call is open, the client answers it, the call returns.
- A capability the client did not declare (URL-mode elicitation; ``"elicitation": {}``
  means form only, 2025-11-25 and 2026-07-28 ``client/elicitation.mdx`` §Capabilities):
  -32021 with ``data.requiredCapabilities`` on 2026-07-28 (``basic/index.mdx`` §_meta,
  schema ``MissingRequiredClientCapabilityError``); a tool error before it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp_skew.simulator import RunRecord, parse_peer, run
from mcp_skew.transcript import Note

TRANSPORTS = ("stdio", "http")


def simulate(client: str, server: str, transport: str) -> RunRecord:
    return run(parse_peer(client, "client"), parse_peer(server, "server"), "features",
               transport=transport)  # type: ignore[arg-type]


def messages(record: RunRecord) -> list[tuple[str, dict[str, Any]]]:
    return [(item.dir, item.message) for item in record.transcript.timeline()
            if not isinstance(item, Note)]


def calls_of(record: RunRecord, tool: str) -> list[dict[str, Any]]:
    return [m for d, m in messages(record) if d == "c2s" and m.get("method") == "tools/call"
            and m["params"]["name"] == tool]


def answer_to(record: RunRecord, msg_id: Any) -> dict[str, Any]:
    return next(m for d, m in messages(record) if d == "s2c" and m.get("id") == msg_id
                and "method" not in m)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_2026_07_28_elicits_in_an_input_required_round_then_a_retry(transport: str) -> None:
    record = simulate("modern:2026-07-28", "modern:2026-07-28", transport)
    first, retry = calls_of(record, "ask-name")
    asked = answer_to(record, first["id"])["result"]
    assert asked["resultType"] == "input_required"
    (key, request), = asked["inputRequests"].items()
    assert request["method"] == "elicitation/create"
    assert retry["id"] != first["id"]
    assert retry["params"]["requestState"] == asked["requestState"]
    assert retry["params"]["inputResponses"][key]["action"] == "accept"
    assert "inputResponses" not in first["params"] and "requestState" not in first["params"]
    done = answer_to(record, retry["id"])["result"]
    assert done["resultType"] == "complete" and done["isError"] is False
    assert done["content"][0]["text"] == "Hello, octocat!"
    # no server-to-client request on a 2026-07-28 connection
    assert not [m for d, m in messages(record) if d == "s2c" and "method" in m and "id" in m]
    assert [s.ok for s in record.steps] == [True, True, True]


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("revision", ["2025-06-18", "2025-11-25"])
def test_a_legacy_server_sends_elicitation_create_and_the_client_answers(
        revision: str, transport: str) -> None:
    record = simulate(f"legacy:{revision}", f"legacy:{revision}", transport)
    said = messages(record)
    (call,) = calls_of(record, "ask-name")
    ask_at = next(i for i, (d, m) in enumerate(said) if d == "s2c"
                  and m.get("method") == "elicitation/create")
    ask = said[ask_at][1]
    answer_at = next(i for i, (d, m) in enumerate(said) if d == "c2s" and m.get("id") == ask["id"]
                     and "method" not in m)
    result_at = next(i for i, (d, m) in enumerate(said) if d == "s2c"
                     and m.get("id") == call["id"])
    assert ask_at < answer_at < result_at  # asked while the call is open, answered first
    assert said[answer_at][1]["result"] == {"action": "accept", "content": {"name": "octocat"}}
    assert said[result_at][1]["result"]["content"][0]["text"] == "Hello, octocat!"
    assert not any("inputResponses" in (m.get("params") or {}) for _, m in said)
    assert [s.ok for s in record.steps] == [True, True, True]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_an_undeclared_capability_is_32021_on_2026_07_28(transport: str) -> None:
    record = simulate("modern:2026-07-28", "modern:2026-07-28", transport)
    (call,) = calls_of(record, "open-url")
    caps = call["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
    assert caps["elicitation"] == {}  # form mode only: URL mode is not declared
    error = answer_to(record, call["id"])["error"]
    assert error["code"] == -32021
    assert error["data"] == {"requiredCapabilities": {"elicitation": {"url": {}}}}
    step = record.steps[-1]
    assert step.ok and step.expected == "error -32021" and step.got == "error -32021"


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_before_2026_07_28_an_undeclared_capability_is_a_tool_error(transport: str) -> None:
    record = simulate("legacy:2025-11-25", "legacy:2025-11-25", transport)
    (call,) = calls_of(record, "open-url")
    result = answer_to(record, call["id"])["result"]
    assert result["isError"] is True and "elicitation.url" in result["content"][0]["text"]
    assert not [m for d, m in messages(record) if m.get("method") == "elicitation/create"
                and (m.get("params") or {}).get("mode") == "url"]  # never asked


def test_a_revision_without_elicitation_gets_a_tool_error_and_still_samples() -> None:
    record = simulate("legacy:2025-03-26", "legacy:2025-03-26", "stdio")
    by_name = {s.name: s for s in record.steps}
    assert by_name["elicitation (form)"].expected == "tool error (isError)"
    assert by_name["sampling"].expected == "result" and by_name["sampling"].ok
    assert any(m.get("method") == "sampling/createMessage" for _, m in messages(record))


def test_a_dual_era_client_on_a_legacy_server_answers_server_requests() -> None:
    """A 2026-07-28 client that negotiates 2025-11-25 loses no named feature: it gets
    elicitation as a server request instead of an input request."""
    record = simulate("dual:2026-07-28,2025-11-25", "legacy:2025-11-25", "stdio")
    assert record.session.revision == "2025-11-25"
    assert any(m.get("method") == "elicitation/create" for _, m in messages(record))
    assert [s.ok for s in record.steps] == [True, True, True]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_the_transcript_is_the_same_byte_for_byte(transport: str) -> None:
    def text() -> str:
        record = simulate("dual:2026-07-28,2025-11-25", "modern:2026-07-28", transport)
        return json.dumps(record.to_dict(), sort_keys=True)

    assert text() == text()


def test_other_scenarios_never_answer_a_server_request() -> None:
    """Only the features scenario's client answers the server's requests: the asks-roots
    server's roots/list stays unanswered in the default scenario, as before."""
    record = run(parse_peer("legacy:2025-11-25", "client"),
                 parse_peer("legacy:2025-11-25+asks-roots", "server"))
    said = messages(record)
    assert any(m.get("method") == "roots/list" for _, m in said)
    assert not [m for d, m in said if d == "c2s" and "method" not in m]


def test_over_http_sse_the_server_asks_on_the_stream_and_the_answer_is_posted() -> None:
    """2024-11-05 HTTP with SSE: the server's sampling/createMessage comes on the GET
    stream, the client POSTs its answer to the endpoint the stream named, and the call's
    result follows on the stream (2024-11-05 ``basic/transports.mdx`` §HTTP with SSE)."""
    record = simulate("legacy:2024-11-05", "legacy:2024-11-05", "http")
    items = [i for i in record.transcript.timeline() if not isinstance(i, Note)]
    ask = next(i for i in items if i.message.get("method") == "sampling/createMessage")
    answer = next(i for i in items if i.dir == "c2s" and i.message.get("id") == ask.message["id"])
    assert ask.http is not None and "stream" in ask.http
    assert answer.http is not None and answer.http["path"].startswith("/messages")
    assert [s.ok for s in record.steps] == [True, True, True]

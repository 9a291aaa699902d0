"""Every message a simulated peer sends validates against its revision's official schema.

Which revision a message is "in" is the one its sender speaks at that point:

- a client request carrying ``_meta`` is in the revision it names; ``initialize``
  is in the revision it asks for; anything else is in the negotiated revision;
- a server answer is in the revision the server serves the request under: the
  requested modern revision if it supports it (else its newest modern one, for
  -32022), the revision its InitializeResult names (if it has it: else its newest
  legacy one, which is what a lying server speaks), the revision negotiated on
  this connection, or, before any of that, its newest revision.

Each message is checked as a JSON-RPC envelope of that revision (JSONRPCRequest,
JSONRPCNotification, JSONRPCResponse / JSONRPCResultResponse, JSONRPCError /
JSONRPCErrorResponse), as the request or notification definition of its method,
and, for results, as the result definition of the request's method
(InitializeResult, DiscoverResult, ListToolsResult, ...); an error whose code
has its own definition in that revision (MethodNotFoundError,
UnsupportedProtocolVersionError, ...) is checked against it too.

Excluded, because they are built not to conform: the quirks in :data:`NONCONFORMING`
(results without the fields 2026-07-28 requires);
``test_nonconforming_quirks_do_break_the_schema`` shows that they do break it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from _strategies import peers
from hypothesis import given, settings
from oracle import definition, definition_names, first_defined, validate

from mcp_skew.simulator import PeerSpec, RunRecord, SimServer, parse_peer, run
from mcp_skew.simulator.messages import _wire
from mcp_skew.transcript import Note
from mcp_skew.versions import REGISTRY, Direction, Era, Kind, unknown_fields

LEGACY = REGISTRY.of_era(Era.LEGACY)
MODERN = REGISTRY.of_era(Era.MODERN)
NEWEST = MODERN[-1]  #: the newest modern revision

#: Quirks whose messages are deliberately not what the schema says, and why.
NONCONFORMING = {
    "no-result-type": "2026-07-28 results without the required resultType",
    "no-cache-hints": "2026-07-28 cacheable results without the required ttlMs and cacheScope",
    "untyped-input-schema": "tools whose inputSchema lacks the required \"type\": \"object\"",
    "discover-incomplete": "a 2026-07-28 DiscoverResult without the required capabilities",
}
# ``echo`` and ``fixed`` lie about the revision (an InitializeResult naming one the
# server does not speak). The lie is not a schema violation, so they are checked
# like any quirk, each message in the revision the server really speaks (its newest
# legacy one); what the lie does to the client is the no-leak property's business
# (test_simulator_properties.py).


def _specs() -> list[str]:
    """A broad sample of quirk-free peers of every kind, from the registry."""
    specs = [f"legacy:{r}" for r in LEGACY] + [f"modern:{r}" for r in MODERN]
    specs += [f"dual:{NEWEST},{r}" for r in LEGACY]
    specs += [f"legacy:{','.join(LEGACY)}", f"dual:{','.join(REGISTRY.revisions())}"]
    return specs


QUIRK_FREE = [(c, s) for c, s in itertools.product(_specs(), _specs())]

#: Pairs with quirks whose messages still conform (each quirk changes what is sent or when).
CONFORMING_QUIRKS = [
    (f"dual:{NEWEST},2025-11-25", "legacy:2025-11-25+unknown-32602"),
    (f"dual:{NEWEST},2024-11-05", "legacy:2024-11-05+silent"),
    (f"dual:{NEWEST},2025-11-25+restart", "legacy:2025-11-25+silent-exit"),
    (f"modern:{NEWEST}", "legacy:2025-11-25+lenient"),
    (f"modern:{NEWEST}", "legacy:2025-06-18+early-32602"),
    (f"modern:{NEWEST}+discover+strict", f"dual:{NEWEST},2025-06-18+sticky-era"),
    (f"dual:{NEWEST},2025-11-25", f"dual:{NEWEST},2025-11-25+slow=5000+sticky-era"),
    (f"dual:{NEWEST},2025-11-25", f"modern:{NEWEST}+slow=5000"),
    ("legacy:2025-06-18", f"dual:{NEWEST},2025-06-18+sticky-era+strict-lifecycle"),
    ("legacy:2025-11-25,2025-06-18", "legacy:2025-11-25,2025-06-18+fixed=2025-06-18"),
    ("legacy:2025-11-25", "legacy:2025-06-18+reject"),
    ("legacy:2025-11-25,2025-03-26+exact", "legacy:2025-03-26"),
    (f"dual:{NEWEST},2025-03-26+fallback-32601+probe-timeout=50", "legacy:2025-03-26+silent"),
    ("legacy:2025-11-25", "legacy:2025-11-25+not-found-code=0"),
    (f"modern:{NEWEST}", f"modern:{NEWEST}+not-found-code=-32603"),
    ("legacy:2024-11-05", "legacy:2025-11-25+echo"),
    ("legacy:2025-11-25", "legacy:2024-11-05+echo"),
    ("legacy:2025-11-25,2024-11-05", "legacy:2025-11-25+fixed=2024-11-05"),
]


# -- which revision, which definitions -----------------------------------------------------------

@dataclass(frozen=True)
class Check:
    where: str
    revision: str
    name: str
    instance: Any
    method: str = ""  #: for a request's params or a result: the method it answers or asks
    part: str = ""  #: "params" or "result": the part of a request or response checked


@cache
def request_definitions(revision: str) -> dict[str, str]:
    """method -> the name of its request or notification definition in ``revision``."""
    return {
        definition(revision, name)["method"]: name
        for name in definition_names(revision)
        if name.endswith(("Request", "Notification")) and definition(revision, name)["method"]
    }


def result_definition(revision: str, method: str) -> str:
    request = request_definitions(revision)[method]
    name = request.removesuffix("Request") + "Result"
    return name if name in definition_names(revision) else "EmptyResult"


@cache
def error_definitions(revision: str) -> dict[int, tuple[str, bool]]:
    """code -> (definition, whether it describes the whole response) in ``revision``."""
    out: dict[int, tuple[str, bool]] = {}
    for name in sorted(definition_names(revision)):
        found = definition(revision, name)
        if found["code"] is not None:
            out[found["code"]] = (name, found["whole_response"])
    return out


def _meta_version(message: dict[str, Any]) -> str | None:
    meta = (message.get("params") or {}).get("_meta") or {}
    version = meta.get(_wire.VERSION_KEY) if isinstance(meta, dict) else None
    return version if isinstance(version, str) else None


def _client_checks(message: dict[str, Any], revision: str, where: str) -> Iterator[Check]:
    kind = "JSONRPCRequest" if "id" in message else "JSONRPCNotification"
    yield Check(where, revision, kind, message)
    yield Check(where, revision, request_definitions(revision)[message["method"]], message,
                message["method"], "params" if "id" in message else "")


def _server_checks(message: dict[str, Any], request: dict[str, Any], revision: str,
                   where: str) -> Iterator[Check]:
    if "error" in message:
        yield Check(where, revision,
                    first_defined(revision, "JSONRPCErrorResponse", "JSONRPCError"), message)
        code = message["error"]["code"]
        if code in error_definitions(revision):
            name, whole = error_definitions(revision)[code]
            yield Check(where, revision, name, message if whole else message["error"])
        return
    yield Check(where, revision,
                first_defined(revision, "JSONRPCResultResponse", "JSONRPCResponse"), message)
    result = message["result"]
    name = result_definition(revision, request["method"])
    if isinstance(result, dict) and result.get("resultType") == "input_required":
        name = "InputRequiredResult"  # a multi round-trip answer (2026-07-28 mrtr.mdx)
    yield Check(where, revision, name, result, request["method"], "result")


def checks(record: RunRecord) -> Iterator[Check]:
    """What to validate for every message of a run, in the revision its sender speaks."""
    server = record.server
    requests: dict[Any, tuple[dict[str, Any], str]] = {}
    server_asks: dict[Any, tuple[dict[str, Any], str]] = {}  # the server's requests
    legacy_revision: str | None = None  # negotiated by initialize on this connection
    for index, item in enumerate(record.transcript.timeline()):
        if isinstance(item, Note):
            if item.text == "client restarts the server process":
                legacy_revision = None
            continue
        message, where = item.message, f"#{index} {item.dir} at {item.t_ms} ms"
        if item.dir == "c2s" and "method" not in message:  # the client answers the server
            request, revision = server_asks[message["id"]]
            yield from _server_checks(message, request, revision, where)
            continue
        if item.dir == "c2s":
            revision = _meta_version(message) or (
                message["params"]["protocolVersion"] if message["method"] == "initialize"
                else record.revision)
            assert revision is not None, f"{where}: no revision for {message}"
            if "id" in message:
                requests[message["id"]] = (message, revision)
            yield from _client_checks(message, revision, where)
            continue
        if "method" in message and "id" in message:  # the server's own request (asks-roots)
            server_asks[message["id"]] = (message, legacy_revision or server.revisions[0])
            yield from _client_checks(message, legacy_revision or server.revisions[0], where)
            continue
        if "id" not in message:  # a server notification (on a listen stream): the run's revision
            assert record.revision is not None, f"{where}: no revision for {message}"
            yield from _client_checks(message, record.revision, where)
            continue
        request, asked = requests[message["id"]]
        sticky_legacy = server.has("sticky-era") and legacy_revision is not None
        if _meta_version(request) and server.modern and not sticky_legacy:
            revision = asked if asked in server.modern else server.modern[0]
        elif request["method"] == "initialize" and server.legacy and "result" in message:
            named = message["result"]["protocolVersion"]  # a lie (echo, fixed) is not spoken
            revision = legacy_revision = named if named in server.legacy else server.legacy[0]
        else:
            revision = legacy_revision or server.revisions[0]
        yield from _server_checks(message, request, revision, where)


def problems(record: RunRecord) -> list[str]:
    found = []
    for check in checks(record):
        try:
            validate(check.revision, check.name, check.instance)
        except AssertionError as exc:
            found.append(f"{check.where} as {check.name} ({check.revision}): {exc}")
    return found


def simulate(client: str, server: str, scenario: str = "default") -> RunRecord:
    return run(parse_peer(client, "client"), parse_peer(server, "server"), scenario)


# -- runs ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("client", "server"), QUIRK_FREE,
                         ids=[f"{c} x {s}" for c, s in QUIRK_FREE])
def test_every_message_of_a_quirk_free_run_validates(client: str, server: str) -> None:
    for scenario in ("default", "lists"):
        found = problems(simulate(client, server, scenario))
        assert not found, "\n".join(found)


@pytest.mark.parametrize(("client", "server"), CONFORMING_QUIRKS,
                         ids=[f"{c} x {s}" for c, s in CONFORMING_QUIRKS])
def test_every_message_of_a_run_with_conforming_quirks_validates(client: str,
                                                                 server: str) -> None:
    record = simulate(client, server)
    assert not {name for name, _ in record.server.quirks} & set(NONCONFORMING)
    found = problems(record)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("scenario", ["cache", "listen", "long"])
@pytest.mark.parametrize(("client", "server"), [
    (f"modern:{NEWEST}", f"modern:{NEWEST}"), (f"dual:{NEWEST},2025-11-25", f"dual:{NEWEST},2025-11-25"),
    (f"dual:{NEWEST},2025-11-25", "legacy:2025-11-25"), ("legacy:2025-11-25", f"modern:{NEWEST}+ttl=0")])
def test_every_message_of_a_caching_run_validates(client: str, server: str, scenario: str) -> None:
    """The caching scenarios' messages too: subscriptions/listen, its acknowledgement, the
    list_changed notification on the stream, results under ttl=0."""
    record = simulate(client, server, scenario)
    found = problems(record)
    assert not found, "\n".join(found)


def test_the_listen_run_checks_the_stream_messages() -> None:
    seen = {check.name for check in checks(simulate(f"modern:{NEWEST}", f"modern:{NEWEST}", "listen"))}
    assert {"SubscriptionsListenRequest", "SubscriptionsAcknowledgedNotification",
            "ToolListChangedNotification"} <= seen


def test_the_sample_checks_every_kind_of_message() -> None:
    seen = {check.name for c, s in QUIRK_FREE for check in checks(simulate(c, s))}
    seen |= {check.name for c, s in QUIRK_FREE for check in checks(simulate(c, s, "lists"))}
    assert {"JSONRPCRequest", "JSONRPCNotification", "JSONRPCResponse", "JSONRPCResultResponse",
            "JSONRPCError", "JSONRPCErrorResponse", "InitializeRequest", "InitializedNotification",
            "DiscoverRequest", "ListToolsRequest", "CallToolRequest", "InitializeResult",
            "DiscoverResult", "ListToolsResult", "CallToolResult", "ListResourcesResult",
            "MethodNotFoundError", "InvalidParamsError"} <= seen


#: Left out of random runs: the non-conforming quirks, and one whose value can make it so.
RANDOM_EXCLUDED = {
    **NONCONFORMING,
    "not-found-code": "a random code can be one with its own definition (-32022, -32021), "
    "whose required data a resource-not-found error does not carry; fixed codes are sampled "
    "in CONFORMING_QUIRKS",
}


@settings(max_examples=100, deadline=None)
@given(peers("client"), peers("server", exclude=frozenset(RANDOM_EXCLUDED)))
def test_every_message_of_a_random_run_validates(client: PeerSpec, server: PeerSpec) -> None:
    found = problems(run(client, server))
    assert not found, "\n".join(found)


# -- every answer a server can give, without a client -------------------------------------------

def _server_for(revision: str) -> PeerSpec:
    kind = "modern" if REGISTRY.get(revision).era is Era.MODERN else "legacy"
    return parse_peer(f"{kind}:{revision}", "server")


#: (method, params) the scenarios send, with the variants the server tells apart
REQUESTS = [
    ("tools/list", {}),
    ("tools/call", {"name": "echo", "arguments": {"text": "hi"}}),
    ("tools/call", {"name": "fail", "arguments": {}}),
    ("tools/call", {"name": "nope", "arguments": {}}),
    ("resources/list", {}),
    ("resources/read", {"uri": "mem://hello"}),
    ("resources/read", {"uri": "mem://missing"}),
    ("prompts/list", {}),
]


def _validate_all(found: list[str], seen: set[str], these: Iterator[Check]) -> None:
    for check in these:
        seen.add(check.name)
        try:
            validate(check.revision, check.name, check.instance)
        except AssertionError as exc:
            found.append(f"{check.where} as {check.name}: {exc}")


@pytest.mark.parametrize("revision", REGISTRY.revisions())
def test_every_answer_of_a_server_validates(revision: str) -> None:
    """Sans I/O: the answer to every client request of the revision, in that revision.

    The scenarios' requests (client messages checked too), then every other
    client-to-server request the profile lists, with empty params.
    """
    profile = REGISTRY.get(revision)
    srv = SimServer(_server_for(revision))
    opening = (_wire.request(profile, 0, "server/discover") if profile.era is Era.MODERN else
               _wire.request(profile, 0, "initialize", {
                   "protocolVersion": revision, "capabilities": {},
                   "clientInfo": _wire.implementation("t")}))
    others = sorted(profile.method_names(Kind.REQUEST, Direction.C2S)
                    - {m for m, _ in REQUESTS} - {opening["method"]})
    found: list[str] = []
    seen: set[str] = set()
    plan = [(opening["method"], None), *REQUESTS, *((m, None) for m in others)]
    for msg_id, (method, params) in enumerate(plan):
        request = opening if msg_id == 0 else _wire.request(profile, msg_id, method, params or {})
        if msg_id == 0 or params is not None:
            _validate_all(found, seen, _client_checks(request, revision, f"request {method}"))
        (reply,) = srv.receive(request).replies
        _validate_all(found, seen, _server_checks(reply, request, revision,
                                                  f"answer to {method} {params or ''}"))
    assert not found, "\n".join(found)
    assert {"ListResourcesResult", "ReadResourceResult", "CallToolResult"} <= seen


@pytest.mark.parametrize("asked", ["2099-01-01", *LEGACY])
def test_minus_32022_validates_as_unsupported_protocol_version_error(asked: str) -> None:
    srv = SimServer(parse_peer(f"modern:{NEWEST}", "server"))
    request = _wire.request(REGISTRY.get(NEWEST), 1, "tools/list")
    request["params"]["_meta"][_wire.VERSION_KEY] = asked
    (reply,) = srv.receive(request).replies
    assert reply["error"]["code"] == -32022
    validate(NEWEST, "UnsupportedProtocolVersionError", reply)
    validate(NEWEST, "JSONRPCErrorResponse", reply)



@pytest.mark.parametrize("message", [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"}}},
    {"jsonrpc": "2.0", "id": 1, "method": "ping"},
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 1, "method": "server/discover"},
], ids=["initialize", "ping", "tools/list", "server/discover"])
def test_legacy_32022_validates_as_unsupported_protocol_version_error(message: dict[str, Any]) -> None:
    """The ``legacy-32022`` answer to a request naming no modern revision carries ``data.requested``."""
    srv = SimServer(parse_peer(f"modern:{NEWEST}+legacy-32022", "server"))
    (reply,) = srv.receive(message).replies
    assert reply["error"]["code"] == -32022
    validate(NEWEST, "UnsupportedProtocolVersionError", reply)
    validate(NEWEST, "JSONRPCErrorResponse", reply)

# -- the excluded quirks really are non-conforming ----------------------------------------------

@pytest.mark.parametrize(("quirk", "client", "server"), [
    ("no-result-type", f"modern:{NEWEST}", f"modern:{NEWEST}+no-result-type"),
    ("no-cache-hints", f"modern:{NEWEST}", f"modern:{NEWEST}+no-cache-hints"),
    ("untyped-input-schema", "legacy:2025-11-25", "legacy:2025-11-25+untyped-input-schema"),
    ("discover-incomplete", f"dual:{NEWEST},2025-11-25", f"dual:{NEWEST},2025-11-25+discover-incomplete"),
])
def test_nonconforming_quirks_do_break_the_schema(quirk: str, client: str, server: str) -> None:
    """Why they are excluded: their runs hold messages the schema rejects."""
    assert quirk in NONCONFORMING
    record = simulate(client, server)
    assert record.status == "ok"
    assert problems(record), f"{quirk}: expected schema violations, found none"


# -- sending is exact: no result carries a field its revision does not define -----------------

def unknown_field_problems(record: RunRecord) -> list[str]:
    """Results with fields the official schema of their revision does not define."""
    return [f"{check.where} {check.method} result ({check.revision}): {extra}"
            for check in checks(record) if check.part == "result"
            for extra in [unknown_fields(check.revision, check.method, check.instance)] if extra]


@pytest.mark.parametrize(("client", "server"), QUIRK_FREE,
                         ids=[f"{c} x {s}" for c, s in QUIRK_FREE])
def test_no_result_of_a_run_carries_an_unknown_field(client: str, server: str) -> None:
    record = simulate(client, server)
    assert unknown_field_problems(record) == []


def test_the_unknown_field_check_catches_a_field_of_a_newer_revision() -> None:
    record = simulate("legacy:2024-11-05", "legacy:2024-11-05", "lists")
    for entry in record.transcript.entries:
        tools = (entry.message.get("result") or {}).get("tools") if entry.dir == "s2c" else None
        if tools:
            tools[0]["title"] = "Echo"  # Tool.title is added in 2025-06-18
    assert any("tools/list result" in p and "tools[0].title" in p for p in unknown_field_problems(record))


@pytest.mark.parametrize(("client", "server"), [
    *((f"legacy:{r}", f"legacy:{r}") for r in LEGACY), (f"modern:{NEWEST}", f"modern:{NEWEST}"),
    (f"dual:{NEWEST},2025-11-25", "legacy:2025-11-25")])
def test_every_message_of_a_features_run_validates(client: str, server: str) -> None:
    """The features scenario's messages: server requests (elicitation/create,
    sampling/createMessage) and the client's answers on legacy revisions; on 2026-07-28 the
    InputRequiredResult, the retry with inputResponses and requestState, and the
    MissingRequiredClientCapabilityError (-32021)."""
    record = simulate(client, server, "features")
    found = problems(record)
    assert not found, "\n".join(found)
    assert all(step.ok for step in record.steps), record.steps


def test_the_features_run_checks_the_mrtr_and_32021_messages() -> None:
    seen = {check.name for check in checks(simulate(f"modern:{NEWEST}", f"modern:{NEWEST}",
                                                    "features"))}
    assert {"InputRequiredResult", "MissingRequiredClientCapabilityError"} <= seen, seen

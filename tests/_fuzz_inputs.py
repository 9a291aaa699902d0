"""Typed mutations of the files and addresses a person gives mcp-skew, as Hypothesis strategies.

Beside :mod:`_fuzz` (junk and random mutations): here a valid document is changed the
way a schema can be broken, one node at a time: a value of another JSON type where a
string, number, flag, list or table goes; a required key dropped; an unknown key added;
a row a revision needs removed. Shared by ``tests/property/test_fuzz_inputs.py`` and
``benchmarks/fuzz_corpus.py``.
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

from hypothesis import strategies as st

#: A valid profile file using every kind of edit: set and mapping tables added, removed and
#: replaced, settings, steps, a severity. ``2099-01-01`` extends ``2026-07-28``.
FULL_PROFILE: dict[str, Any] = {
    "revision": "2099-01-01",
    "extends": "2026-07-28",
    "title": "A fuzzed draft",
    "changes": [
        {
            "id": "fuzz-search",
            "summary": "Adds x/search, an error, a cache rule",
            "impact": "additive",
            "cite": {"revision": "2099-01-01", "source": "https://example.com", "section": "1"},
            "add": {
                "features": ["x-search"],
                "cacheable_results": ["x/search"],
                "methods": {"x/search": {"kind": "request", "direction": "client->server",
                                         "capability": "tools", "answer": {"hits": []}},
                            "notifications/x": {"kind": "notification",
                                                "direction": "server->client"}},
                "errors": {"XQuota": {"code": -32050, "message": "Quota", "data": ["retry"],
                                      "note": "n"}},
                "cache_invalidations": {"notifications/x": {"methods": ["x/search"],
                                                            "match": "q", "listen": "x"}},
                "deprecations": {"X old": {"since": "2099-01-01", "removal": "later",
                                           "migration": "x/search",
                                           "cite": {"revision": "2099-01-01",
                                                    "source": "deprecated.mdx"}}},
            },
            "steps": ["Servers: answer x/search.", "Clients: call it."],
            "severity": {"server": {"level": "SHOULD", "rule": "servers SHOULD answer it"}},
        },
        {
            "id": "fuzz-batching",
            "summary": "Batches again; a message reworded",
            "impact": "breaking",
            "cite": {"revision": "2099-01-01", "source": "basic/index.mdx"},
            "remove": {"features": ["stateless"]},
            "replace": {"errors": {"InternalError": {"code": -32603, "message": "Oops"}}},
            "settings": {"batching": True, "tool_input_errors": "protocol error"},
        },
    ],
}

#: Values of every JSON type, to put where another type goes.
WRONG_TYPES: list[Any] = [
    None, True, False, 0, -1, 2**31, 10**30, 1.5, 1e308, "", "x", "\x1b[2J", "2026-07-28",
    [], ["x"], [1], [["x"]], [{"a": 1}], {}, {"a": 1}, {"kind": "request"}, {"1": [1]},
]
#: Rows a revision needs (``mcp_skew/versions/_needs.py``) and names a change may remove.
NEEDED = {"errors": ["UnsupportedProtocolVersion", "MethodNotFound", "InvalidParams",
                     "ResourceNotFound", "HeaderMismatch"],
          "modern_error_codes": ["UnsupportedProtocolVersion"],
          "methods": ["server/discover", "tools/list", "tools/call", "ping", "initialize"],
          "result_fields_required": ["resultType"],
          "request_meta_required": ["io.modelcontextprotocol/protocolVersion"]}


def _wrong(draw: st.DrawFn) -> Any:
    """A value of some JSON type, a fresh copy (a later mutation may change it in place)."""
    return copy.deepcopy(draw(st.sampled_from(WRONG_TYPES)))


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every node's path in ``value`` (the root excluded)."""
    found: list[tuple[Any, ...]] = []
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, child in items:
        found.append((*at, key))
        found.extend(_paths(child, (*at, key)))
    return found


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


@st.composite
def typed_mutation(draw: st.DrawFn, document: Any) -> Any:
    """``document`` with one to three typed breakages."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        action = draw(st.sampled_from(["type", "type", "type", "drop", "unknown", "needs",
                                       "setting"]))
        if action == "needs" and isinstance(doc, dict) and isinstance(doc.get("changes"), list) \
                and doc["changes"] and isinstance(doc["changes"][0], dict):
            table = draw(st.sampled_from(sorted(NEEDED)))
            doc["changes"][0].setdefault("remove", {})
            if isinstance(doc["changes"][0]["remove"], dict):
                doc["changes"][0]["remove"][table] = draw(
                    st.lists(st.sampled_from(NEEDED[table]), min_size=1, max_size=2, unique=True))
            continue
        if action == "setting" and isinstance(doc, dict) and isinstance(doc.get("changes"), list) \
                and doc["changes"] and isinstance(doc["changes"][-1], dict):
            name = draw(st.sampled_from(["era", "batching", "http_transport", "sessions",
                                         "version_header_absent", "stdio_framing",
                                         "resource_not_found", "tool_input_errors", "colour"]))
            value = copy.deepcopy(draw(st.sampled_from(
                [*WRONG_TYPES, "legacy", "modern", "http+sse", "ResourceNotFound",
                 "InvalidParams", "XQuota"])))
            doc["changes"][-1].setdefault("settings", {})
            if isinstance(doc["changes"][-1]["settings"], dict):
                doc["changes"][-1]["settings"][name] = value
            continue
        if not paths:
            return _wrong(draw)
        path = draw(st.sampled_from(paths))
        parent = _parent(doc, path)
        if action == "drop":
            del parent[path[-1]]
        elif action == "unknown":
            target = parent[path[-1]]
            if isinstance(target, dict):
                target[draw(st.sampled_from(["colour", "", "Kind", "1"]))] = _wrong(draw)
            elif isinstance(target, list):
                target.append(_wrong(draw))
        else:
            parent[path[-1]] = _wrong(draw)
    return doc


def toml_text(value: dict[str, Any]) -> str:
    """``value`` as TOML (top-level keys, inline tables); ``None`` values are left out,
    as TOML has no null; a top level that is not a table is written as a key."""
    lines = [f"{json.dumps(str(k))} = {_toml_value(v)}" for k, v in value.items()
             if v is not None]
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") \
            if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value if v is not None) + "]"
    assert isinstance(value, dict)
    return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml_value(v)}"
                           for k, v in value.items() if v is not None) + "}"


@st.composite
def profile_file(draw: st.DrawFn) -> tuple[str, str]:
    """(suffix, text): the full profile, typed-mutated, as JSON or TOML."""
    doc = draw(st.one_of(st.just(FULL_PROFILE), typed_mutation(FULL_PROFILE)))
    if draw(st.booleans()) and isinstance(doc, dict):
        return ".toml", toml_text(doc)
    return ".json", json.dumps(doc)


#: A wire log as ``record`` writes it (header, start, a request and its answer, an exit),
#: as records to mutate.
LOG_RECORDS: list[dict[str, Any]] = [
    {"format": "mcp-skew-transcript", "format_version": 1, "source": "record", "clock": "wall"},
    {"t": "2026-08-30T09:15:02.123456Z", "ms": 0, "dir": "event", "event": "start",
     "text": "started pid 5: x", "argv": ["x"], "pid": 5},
    {"t": "2026-08-30T09:15:02.200000Z", "ms": 76.5, "dir": "c2s", "line": json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "c", "version": "1"}}})},
    {"t": "2026-08-30T09:15:02.300000Z", "ms": 176.5, "dir": "s2c", "line": json.dumps(
        {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18",
                                               "capabilities": {},
                                               "serverInfo": {"name": "s", "version": "1"}}})},
    {"t": "2026-08-30T09:15:02.400000Z", "ms": 276.5, "dir": "stderr", "line": "log line"},
    {"t": "2026-08-30T09:15:02.500000Z", "ms": 376.5, "dir": "event", "event": "exit",
     "side": "server", "code": 0, "signal": None, "text": "server exited with code 0"},
]
#: Values a log's times and numbers may be given instead of the right ones.
WRONG_TIMES: list[Any] = [10**400, 10**16, 1e308, -1, "2026-08-30T09:15:03",
                          "2026-08-30T09:15:03+05:00", "9999-12-31T23:59:59Z", "yesterday",
                          "0001-01-01T00:00:00", True]


@st.composite
def log_text(draw: st.DrawFn) -> str:
    """A wire log with typed breakages: a record's field of another type, a time too large
    or of the other kind (naive among aware), the header dropped, a record's key dropped."""
    records = copy.deepcopy(LOG_RECORDS)
    if draw(st.booleans()):
        records = records[1:]  # an unversioned log: times from ``t`` where ``ms`` is absent
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(records) - 1))
        record = records[index]
        key = draw(st.sampled_from(sorted({*record, "t", "ms", "code", "argv", "http"})))
        action = draw(st.sampled_from(["type", "time", "time", "drop"]))
        if action == "drop":
            record.pop(key, None)
        elif action == "time":
            record[draw(st.sampled_from(["t", "ms", "t_ms"]))] = copy.deepcopy(
                draw(st.sampled_from(WRONG_TIMES)))
        else:
            record[key] = _wrong(draw)
    return "".join(json.dumps(r) + "\n" for r in records)


#: Pieces of addresses: hosts (good and not), ports (in range and not).
HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1", "[::1", "::1]", "[zz]", "[]", "",
         "1.2.3.4.5", "999.1.1.1", "a b", "-x", "x-", "é", "a" * 64, "example.com.", "[::1]x"]
PORTS = ["0", "1", "8808", "65535", "65536", "-1", "", "x", "+1", "١", "0x10", "99999999"]


@st.composite
def address(draw: st.DrawFn) -> str:
    """``HOST:PORT`` as typed: pieces joined, or text."""
    return draw(st.one_of(
        st.builds(lambda h, p: f"{h}:{p}", st.sampled_from(HOSTS), st.sampled_from(PORTS)),
        st.sampled_from(PORTS), st.sampled_from(["]:0", ":8808", "a:b:1", "[::1]:", ":"]),
        st.text(alphabet="[]:.0123456789abcdef-x ", max_size=16)))


@st.composite
def url(draw: st.DrawFn, schemes: tuple[str, ...] = ("http", "https")) -> str:
    """A URL as typed: a scheme (known or not), a host, a port, a path."""
    scheme = draw(st.sampled_from([*schemes, "ftp", "", "HTTP"]))
    host = draw(st.sampled_from(HOSTS))
    port = draw(st.one_of(st.none(), st.sampled_from(PORTS)))
    return f"{scheme}://{host}{'' if port is None else ':' + port}/mcp"


# -- issue 33 (inputs): every --format x --view of ``matrix --from``, format versions 2 and 3,
# lone surrogates in every JSON file read back, control characters in labels and names -------

#: Every ``matrix --format`` and ``--view`` (``mcp_skew.matrix.FORMATS``, ``VIEWS``).
MATRIX_FORMATS = ["text", "grid", "markdown", "github", "html", "json", "csv", "junit"]
MATRIX_VIEWS = ["pairs", "features"]
#: Text a terminal would act on, or HTML would read as markup: ESC sequences (colour, clear,
#: title), C0 and C1 controls, DEL, a bidirectional override, a tag.
CONTROL_TEXT = ["\x1b[31m", "\x1b[0m", "\x1b[2J", "\x1b]0;owned\x07", "\x07", "\x00", "\r",
                "\x08", "\x7f", "\x9b31m", "\u202e", "<script>x</script>", "\x1b[32m"]
#: A peer saved by ``probe --save-peer`` (``docs/api.md``: ``mcp-skew-probe-peer/1``).
SAVED_PEER: dict[str, Any] = {"format": "mcp-skew-probe-peer/1", "peer": "legacy:2025-06-18",
                              "role": "server", "label": "saved server", "target": "x",
                              "sentence": "inferred"}
#: Lone surrogates as a JSON file spells them (``\\ud800``) and as raw text.
LONE_SURROGATES = ["\ud800", "\udfff", "\udc80", "a\ud83d"]


def matrix_v2(document: dict[str, Any]) -> dict[str, Any]:
    """A format-version-3 matrix document as version 2 wrote it: each cell's transcript
    records split into messages (``{t_ms, dir, message}``) and events
    (``{t_ms, event, after}``)."""
    doc = copy.deepcopy(document)
    doc["format_version"] = 2
    for row in doc.get("cells", []):
        for cell in row:
            records = cell.pop("transcript", None)
            if records is None:
                continue
            messages: list[Any] = []
            events: list[Any] = []
            for record in records:
                if record.get("dir") == "event":
                    events.append({"t_ms": record.get("ms"), "event": record.get("event"),
                                   "after": len(messages)})
                else:
                    messages.append({"t_ms": record.get("ms"), "dir": record.get("dir"),
                                     "message": record.get("message", record.get("line"))})
            cell["transcript"], cell["events"] = messages, events
    return doc


@st.composite
def matrix_from_case(draw: st.DrawFn, document: dict[str, Any]) -> tuple[Any, str, str]:
    """(document, format, view): ``document`` as version 3 or 2, typed-mutated, with every
    ``--format`` x ``--view``."""
    doc = draw(st.sampled_from([document, matrix_v2(document)]))
    return (draw(typed_mutation(doc)), draw(st.sampled_from(MATRIX_FORMATS)),
            draw(st.sampled_from(MATRIX_VIEWS)))


def _string_paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[str, tuple[Any, ...]]]:
    """("value" | "key", path) of every string and every object key in ``value``."""
    found: list[tuple[str, tuple[Any, ...]]] = []
    if isinstance(value, dict):
        for key, child in value.items():
            found.append(("key", (*at, key)))
            found.extend(_string_paths(child, (*at, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(_string_paths(child, (*at, index)))
    elif isinstance(value, str):
        found.append(("value", at))
    return found


@st.composite
def with_inserted(draw: st.DrawFn, document: Any, pieces: list[str]) -> Any:
    """``document`` with one of ``pieces`` put into one to three of its strings or keys."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        paths = _string_paths(doc)
        if not paths:
            return draw(st.sampled_from(pieces))
        kind, path = draw(st.sampled_from(paths))
        piece = draw(st.sampled_from(pieces))
        parent = doc if len(path) == 1 and kind == "key" else _parent(doc, path)
        if kind == "key":
            parent[path[-1] + piece] = parent.pop(path[-1])
        else:
            text = parent[path[-1]]
            cut = draw(st.integers(0, len(text)))
            parent[path[-1]] = text[:cut] + piece + text[cut:]
    return doc


def with_lone_surrogates(document: Any) -> st.SearchStrategy[Any]:
    """``document`` with a lone surrogate in some of its strings or keys (written with
    :func:`json.dumps`: as ``\\udXXX`` escapes)."""
    return with_inserted(document, LONE_SURROGATES)


def with_control_text(document: Any) -> st.SearchStrategy[Any]:
    """``document`` with ESC sequences, controls or markup in some of its strings or keys."""
    return with_inserted(document, CONTROL_TEXT)

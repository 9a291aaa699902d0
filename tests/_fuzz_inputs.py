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


# -- probe --url: what a hostile server or authorization server sends (issue 33) ------------

#: What an HTTP+SSE ``endpoint`` event may name: the stream's origin (``{origin}``) or not.
ENDPOINTS = ["/messages", "messages?session=1", "{origin}/messages", "//127.0.0.1:1/messages",
             "http://127.0.0.1:1/messages", "https://{host}/messages", "file:///etc/passwd",
             "data:text/plain,hello", "javascript:alert(1)", "http://[::1/messages",
             "http://{host}:99999/m", "http://{host}:x/m", "{origin}@evil.example/m",
             "http:///m", "", " ", "\x00", "ftp://{host}/m", "HTTP://{host}/M", "?x=1", "#f"]


@st.composite
def endpoint_event(draw: st.DrawFn, origin: str = "http://127.0.0.1:8000") -> str:
    """The data of an ``endpoint`` event a server sends: a URI (relative, absolute, of
    another origin or scheme, malformed), or text."""
    host = origin.split("://", 1)[1].rsplit(":", 1)[0]
    return draw(st.one_of(
        st.sampled_from(ENDPOINTS).map(lambda e: e.format(origin=origin, host=host)),
        st.builds(lambda s, h, p, path: f"{s}://{h}{'' if p is None else ':' + p}{path}",
                  st.sampled_from(["http", "https", "file", "data", "HTTP", ""]),
                  st.sampled_from([host, *HOSTS]), st.one_of(st.none(), st.sampled_from(PORTS)),
                  st.sampled_from(["/m", "", "/../m", "?a#b"])),
        st.text(max_size=40)))


@st.composite
def metadata_body(draw: st.DrawFn) -> bytes:
    """An authorization metadata body: nested deep, not JSON, not an object, oversized
    numbers, URLs that are no URLs where URLs go."""
    bad_url = st.one_of(st.sampled_from([f"http://{h}:{p}/x" for h in HOSTS[:6]
                                         for p in PORTS]), st.text(max_size=20))
    doc = st.fixed_dictionaries({}, optional={
        "resource": bad_url, "authorization_servers": st.lists(bad_url, max_size=3),
        "issuer": bad_url, "authorization_endpoint": bad_url, "token_endpoint": bad_url,
        "registration_endpoint": bad_url,
        "code_challenge_methods_supported": st.one_of(st.just(["S256"]), st.integers())})
    depth = draw(st.integers(1, 200_000))
    return draw(st.one_of(
        doc.map(lambda d: json.dumps(d).encode()),
        st.just(b"[" * depth + b"]" * depth), st.just(b'{"a":' * depth + b"1" + b"}" * depth),
        st.binary(max_size=64), st.just(b"1" * 5000), st.just(b"[1e400, NaN]")))


# -- issue 33: request targets and redirect URIs of serve --http ... +auth=LAYOUT --------------

#: Pieces a request target is put together from: the attacks of ``tests/_auth_attacks.py``
#: and what makes a guard and an endpoint read one target two ways.
_TARGET_HEADS = ["", "http://mcp.example", "HTTP://MCP.EXAMPLE", "https://127.0.0.1:8000",
                 "http://other.example", "http://u@mcp.example", "http://", "//", "*", "mcp"]
_TARGET_PATHS = ["/mcp", "/", "", "/messages", "/mcp/", "//mcp", "/MCP", "/mcp%23",
                 "/auth/token", "/auth/register", "/token", "/.well-known/oauth-protected-resource",
                 "/.well-known/oauth-protected-resource/mcp", "/x/../mcp", "/%2e/mcp"]
_TARGET_TAILS = ["", "#", "#x", "?", "?session_id=x", "?a=1#b", "/#/", " ", "\t", "\x00", "é",
                 "?#", "%", "?session_id=x&session_id=y"]


@st.composite
def request_target(draw: st.DrawFn) -> str:
    """A request target as an attacker sends it: a head (origin or absolute form, or junk),
    a path, a tail (fragment, query, characters no target may have), or text."""
    from _auth_attacks import BYPASS_TARGETS, MALFORMED_TARGETS

    return draw(st.one_of(
        st.builds(lambda h, p, t: h + p + t, st.sampled_from(_TARGET_HEADS),
                  st.sampled_from(_TARGET_PATHS), st.sampled_from(_TARGET_TAILS)),
        st.sampled_from([*BYPASS_TARGETS, *MALFORMED_TARGETS]),
        st.text(alphabet="/mcp#?:.@%[]hts xe", max_size=24)))


@st.composite
def redirect_uri(draw: st.DrawFn) -> Any:
    """A redirect URI as a registration may name one: good ones, the refused kinds, pieces
    joined, a wrong type."""
    from _auth_attacks import BAD_REDIRECT_URIS, FOREIGN_REDIRECTS, GOOD_REDIRECT_URIS

    scheme = draw(st.sampled_from(["http", "https", "HTTPS", "javascript", "file", "data", ""]))
    host = draw(st.sampled_from(["127.0.0.1", "localhost", "[::1]", "evil.example",
                                 "127.0.0.1.evil.example", "u@127.0.0.1", "", "app.example"]))
    tail = draw(st.sampled_from(["/cb", "", "/cb#x", "/cb?x=1", ":1/cb", " /cb"]))
    return draw(st.one_of(
        st.just(f"{scheme}://{host}{tail}"),
        st.sampled_from([*GOOD_REDIRECT_URIS, *BAD_REDIRECT_URIS, *FOREIGN_REDIRECTS]),
        st.text(max_size=30)))


# -- census databases from elsewhere (issue 33; the procs part) -----------------------------------
# A census database is untrusted input: what its schema carries runs in SQLite (a view's query,
# a trigger's statements), and its values may be of any type. ``census_db_edits`` draws
# statements that break a valid census database so; ``write_census_db`` makes one.

#: Schema objects a hostile database may carry (each refused before a table is touched).
CENSUS_SCHEMA_ATTACKS: list[str] = [
    # ``results`` a view: with the same columns, endless, or of another shape
    "DROP TABLE results; CREATE VIEW results AS SELECT * FROM runs",
    "DROP TABLE results; CREATE VIEW results ({cols}) AS SELECT {xs} FROM (WITH RECURSIVE "
    "c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c)",
    "DROP TABLE results; CREATE VIEW results ({cols}) AS SELECT {nulls}",
    # triggers that delete, write or loop when the census writes
    "CREATE TRIGGER wipe AFTER INSERT ON runs BEGIN DELETE FROM results; END",
    "CREATE TRIGGER grow AFTER INSERT ON results BEGIN INSERT INTO runs (started, source, jobs,"
    " executor) VALUES (0, 'x', 0, 'x'); END",
    "CREATE TRIGGER t BEFORE UPDATE ON meta BEGIN SELECT RAISE(ABORT, 'no'); END",
    # other objects: a view, an index of an expression, a table of another name
    "CREATE VIEW v AS SELECT 1",
    "CREATE INDEX i ON results (lower(server))",
    "CREATE TABLE extra (a)",
    # the census's tables defined otherwise (a check that runs, a type changed, no key)
    "DROP TABLE meta; CREATE TABLE meta (name, value CHECK (length(randomblob(10)) > 0)); "
    "INSERT INTO meta VALUES ('schema', '1')",
    "DROP TABLE runs; CREATE TABLE runs (run, started, source, jobs, executor)",
    "UPDATE meta SET value = '2' WHERE name = 'schema'",
    "UPDATE meta SET value = x'00ff' WHERE name = 'schema'",
    "DELETE FROM meta",
]
#: Values of every SQLite type, to put in a column of another (text gets affinity-converted).
CENSUS_WRONG_VALUES: list[Any] = [
    None, 0, -1, 2**62, 1.5, float("inf"), "", "x", "\x1b[2J", b"", b"\x00\xff", "{bad",
    "[]", "[1]", "{}", '{"legacy": 5}', '{"modern": "yes"}', '{"dual_fallback_ms": true}',
    '{"mcp": 1}', '{"name": 7}', "[" * 200 + "]" * 200, "\u202e", "x" * 5000,
]


@st.composite
def census_db_edits(draw: st.DrawFn) -> list[tuple[str, tuple[Any, ...]]]:
    """Statements (SQL, parameters) that break a valid census database: a schema object it
    must refuse, or values of the wrong type in its rows (or both)."""
    from mcp_skew.census._store import COLUMNS

    edits: list[tuple[str, tuple[Any, ...]]] = []
    if draw(st.booleans()):
        sql = draw(st.sampled_from(CENSUS_SCHEMA_ATTACKS))
        edits.append((sql.format(cols=", ".join(COLUMNS), xs=", ".join(["x"] * len(COLUMNS)),
                                 nulls=", ".join(["'k'", *["NULL"] * (len(COLUMNS) - 1)])), ()))
    for _ in range(draw(st.integers(0 if edits else 1, 3))):
        column = draw(st.sampled_from([c for c in COLUMNS if c != "key"]))
        value = draw(st.sampled_from(CENSUS_WRONG_VALUES))
        edits.append((f"UPDATE results SET {column} = ? WHERE key = ?", (value, "k1")))
    return edits


def write_census_db(path: Any, edits: list[tuple[str, tuple[Any, ...]]]) -> None:
    """A valid census database of two probed rows at ``path`` (replaced), then ``edits``."""
    import sqlite3
    from pathlib import Path

    from mcp_skew.census._store import CensusDB

    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    db = CensusDB(path)
    run = db.start_run("fuzz", 2, "local 1")
    for i in range(2):
        db.put({"key": f"k{i}", "server": f"io.x/s{i}", "version": "1", "kind": "package",
                "idx": 0, "status": "probed", "peer": "legacy:2025-06-18",
                "readiness": {"modern": False, "dual": True, "legacy": {"2025-06-18": True}},
                "dependencies": {"mcp": "1.0"}, "server_info": {"name": "s", "version": "1"}},
               run)
    db.close()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for sql, params in edits:
            try:
                if params:
                    conn.execute(sql, params)
                else:
                    conn.executescript(sql)
            except sqlite3.Error:
                continue  # an edit this database does not take (a dropped table): the next
    finally:
        conn.close()


# -- listings with strings that are not text (issue 33; the procs part) ----------------------------
#: Lone surrogates (a JSON escape such as ``"\ud800"`` carries them), and where they go.
SURROGATES = ["\ud800", "\udfff", "\udc80", "\ud83d", "a\ud800b", "\ud800" * 3]
SURROGATE_FIELDS = ["name", "version", "description", "identifier", "package version",
                    "argument", "env name", "env default", "remote url", "key"]


def _listed_server(name: str) -> dict[str, Any]:
    return {"name": name, "version": "1.0.0", "description": "d", "packages": [{
        "registryType": "local", "identifier": "sim_stdio_server.py", "version": "1.0.0",
        "transport": {"type": "stdio"},
        "packageArguments": [{"type": "positional", "value": "legacy:2025-06-18"}],
        "environmentVariables": [{"name": "LOG", "default": "info"}]}],
        "remotes": [{"type": "streamable-http", "url": "http://127.0.0.1:1/mcp"}]}


@st.composite
def surrogate_listing(draw: st.DrawFn) -> tuple[str, int, int]:
    """(a listing's JSON text, entries whose strings are all text, entries with a lone
    surrogate): the bad entries hold one in a drawn field."""
    good = draw(st.integers(0, 2))
    bad = draw(st.integers(1, 3))
    servers = []
    for i in range(bad):
        server = _listed_server(f"io.x/bad-{i}")
        lone = draw(st.sampled_from(SURROGATES))
        field = draw(st.sampled_from(SURROGATE_FIELDS))
        package = server["packages"][0]
        target: dict[str, Any] = {
            "name": server, "version": server, "description": server,
            "identifier": package, "package version": package,
            "argument": package["packageArguments"][0],
            "env name": package["environmentVariables"][0],
            "env default": package["environmentVariables"][0],
            "remote url": server["remotes"][0], "key": server}[field]
        key = {"name": "name", "version": "version", "description": "description",
               "identifier": "identifier", "package version": "version", "argument": "value",
               "env name": "name", "env default": "default", "remote url": "url",
               "key": f"x{lone}"}[field]
        target[key] = f"{target.get(key, '')}{lone}" if field != "key" else 1
        servers.append(server)
    servers += [_listed_server(f"io.x/good-{i}") for i in range(good)]
    order = draw(st.permutations(servers))
    pages = draw(st.sampled_from(["page", "jsonl"]))
    if pages == "jsonl":
        return "".join(json.dumps(s) + "\n" for s in order), good, bad
    return json.dumps({"servers": [{"server": s} for s in order]}), good, bad


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

"""A -32022 whose ``data.supported`` lists, of what the client has, handshake-era revisions
only: what each client kind does (a draft profile makes it happen: a client whose newest
revision is a draft the server lacks, and a server that lists every revision it supports,
as 2026-07-28 ``basic/versioning.mdx``'s example does: ``"supported": ["2026-07-28",
"2025-11-25"]``).

The rules (2026-07-28 ``basic/versioning.mdx``): "The client SHOULD select a mutually
supported version from the supported list and retry the request, or surface an error to
the user if no compatible version exists", and "a recognized modern JSON-RPC error (such
as UnsupportedProtocolVersionError) identifies a modern server: the client retries with a
supported version rather than falling back". A modern-only client has no mutual version:
it fails once, never retrying into the same error, and says why. A dual-era client that
follows the spec does not fall back on the -32022 either, and says why; quirk
``fallback-denylist`` (the Python ``mcp`` 2.x client) does fall back to ``initialize``
with its newest revision once the list names a handshake revision it has, and over HTTP
the path says it read a modern error as a legacy server (it said "no modern error in the
answer").
"""

from __future__ import annotations

import json

import pytest

from mcp_skew.simulator import RunRecord, parse_peer, run
from mcp_skew.versions import REGISTRY, Registry
from mcp_skew.versions._plugins import load_profile_file

SERVER = "dual:2026-07-28,2025-11-25+supported-all"
TRANSPORTS = ("stdio", "http")


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Registry:
    draft = tmp_path_factory.mktemp("draft") / "draft.json"
    cite = {"revision": "2026-12-draft", "source": "https://example.com/draft"}
    draft.write_text(json.dumps({
        "revision": "2026-12-draft", "extends": "2026-07-28",
        "changes": [{"id": "draft-next", "summary": "the revision after 2026-07-28",
                     "impact": "clarification", "cite": cite}]}), encoding="utf-8")
    return REGISTRY.with_profile(load_profile_file(draft))


def _run(client: str, server: str, registry: Registry, transport: str) -> RunRecord:
    return run(parse_peer(client, "client", registry), parse_peer(server, "server", registry),
               transport=transport)  # type: ignore[arg-type]


def _requests(record: RunRecord) -> list[str]:
    return [str(e.message.get("method")) for e in record.transcript.entries
            if e.dir == "c2s" and "id" in e.message]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_the_server_lists_a_legacy_revision_the_client_shares(registry: Registry,
                                                             transport: str) -> None:
    record = _run("modern:2026-12-draft", SERVER, registry, transport)
    error = next(e.message["error"] for e in record.transcript.entries
                 if e.dir == "s2c" and "error" in e.message)
    assert error["code"] == -32022
    assert error["data"]["supported"] == ["2026-07-28", "2025-11-25"]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_modern_client_fails_once_and_says_why(registry: Registry, transport: str) -> None:
    record = _run("modern:2026-12-draft", SERVER, registry, transport)
    assert record.status == "failed"
    assert list(record.session.path) == ["tools/list 2026-12-draft", "error -32022"]
    assert _requests(record) == ["tools/list"]  # no retry into the same error
    assert "(2025-11-25: handshake era, not a revision this client supports; it does not " \
        "retry)" in record.reason


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_dual_era_client_that_follows_the_spec_stays_modern_and_says_why(
        registry: Registry, transport: str) -> None:
    record = _run("dual:2026-12-draft,2025-11-25,2025-06-18", SERVER, registry, transport)
    assert record.status == "failed"
    assert list(record.session.path) == ["discover 2026-12-draft", "error -32022"]
    assert _requests(record) == ["server/discover"]
    assert "(2025-11-25: handshake era; a -32022 identifies a modern server, so this client " \
        "does not fall back to initialize: 2026-07-28 basic/versioning.mdx)" in record.reason


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_the_python_style_client_falls_back_with_its_newest(registry: Registry,
                                                           transport: str) -> None:
    record = _run("dual:2026-12-draft,2025-11-25,2025-06-18+fallback-denylist", SERVER,
                  registry, transport)
    assert record.status == "ok", record.reason
    assert record.revision == "2025-11-25" and record.session.mark == "era-fallback"
    assert _requests(record)[:2] == ["server/discover", "initialize"]
    rules = [s for s in record.session.path if s.startswith("http:")]
    assert rules == ([] if transport == "stdio" else [
        "http: error -32022 read as a legacy server (quirk fallback-denylist), fall back"])


def test_a_python_style_client_sharing_no_listed_revision_fails(registry: Registry) -> None:
    record = _run("dual:2026-12-draft,2025-06-18+fallback-denylist", SERVER, registry, "stdio")
    assert record.status == "failed"
    assert _requests(record) == ["server/discover"]
    assert "not a revision this client supports" in record.reason


def test_a_sticky_server_that_then_refuses_initialize_ends_it_once(registry: Registry) -> None:
    """The server keeps the modern era it saw first: the fallback's initialize gets a -32022;
    the client fails there instead of going round again."""
    record = _run("dual:2026-12-draft,2025-11-25+fallback-denylist", SERVER + "+sticky-era",
                  registry, "stdio")
    assert record.status == "failed"
    assert _requests(record) == ["server/discover", "initialize"]

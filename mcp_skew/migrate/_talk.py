"""Talk to both eras: what a dual-era client must do, and the simulator's proof that it works.

Theory of operation
-------------------
The client's side of :mod:`._eras`. A guide from a legacy revision to a modern
one, for clients, gets a checklist (:func:`client_checklist`) for a client that
keeps talking to legacy servers while it adds modern ones: probe with
``server/discover`` on stdio and read its three outcomes (a ``DiscoverResult``;
an error, modern or not; silence or exit), never key the fallback to one error
code, cache the era per server, read the body of an HTTP 400, and fall back to
HTTP+SSE only on 400, 404 or 405 without a modern error body. Every item cites
the revision that made the era modern (``basic/transports/stdio.mdx`` and
``streamable-http.mdx`` §Backward Compatibility, ``basic/versioning.mdx``).

The proof (:func:`client_proof`) turns the server guide's table around: the
columns are clients (FROM only, TO only and probing first, the dual-era client
the checklist describes, and one that speaks every revision), plus the last of
these keying its fallback to -32601 (what the checklist forbids); the rows
are the matrix's built-in servers over stdio, then over Streamable HTTP with the
servers whose HTTP answers differ (:data:`HTTP_SERVERS`). A cell is *as
expected* when it works exactly where :func:`talk_expected` says the spec lets
that client work with that server.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ..peers import BUILTIN_SERVERS
from ..simulator import PeerSpec, Transport, split_notation
from ..versions import BUILTIN, Cite, Era, Profile, registry_for
from ._eras import SCENARIO, BothEras, Item, ProofRow, cell, expected, modern_base

__all__ = [
    "HTTP_SERVERS",
    "client_checklist",
    "client_columns",
    "client_proof",
    "proof_server_rows",
    "talk_expected",
]

#: Servers whose Streamable HTTP answer to a dual-era client's first modern request differs
#: from stdio (``{legacy}`` is the guide's FROM revision): a 400 with -32000, a 400 with an
#: empty body, and a server that serves 2024-11-05 over Streamable HTTP only (GET gets 405).
HTTP_SERVERS: Final = (
    "legacy:{legacy}+not-initialized-32000",
    "legacy:{legacy}+empty-400",
    "legacy:{legacy},2024-11-05+no-get",
)
#: Rows of the matrix's built-in servers left out over HTTP: silence is a stdio outcome
#: (an HTTP server answers every POST with a status).
_STDIO_ONLY: Final = frozenset({"silent", "silent-exit"})


def client_checklist(source: Profile, target: Profile) -> tuple[Item, ...]:
    """What a client must do to talk to ``source`` (legacy) and ``target`` (modern) servers."""
    modern = modern_base(target)
    stdio = Cite(modern, "basic/transports/stdio.mdx", "Backward Compatibility")
    http = Cite(modern, "basic/transports/streamable-http.mdx", "Backward Compatibility")
    versioning = Cite(modern, "basic/versioning.mdx",
                      "Backward Compatibility with Initialization-Based Versions")
    sse = Cite(modern, "basic/transports/streamable-http.mdx", "HTTP+SSE Transport (2024-11-05)")
    return (
        Item(
            "Probe with server/discover first (stdio)",
            "Before any other request, send server/discover with your preferred modern "
            "version in _meta (SHOULD). A DiscoverResult means the server is modern: pick a "
            "version from supportedVersions and stay modern.",
            (stdio,), "stdio",
        ),
        Item(
            "A modern error means a modern server",
            "-32022 UnsupportedProtocolVersion, -32021 or -32020 in answer to the probe means "
            "the server is modern: retry with a version from data.supported (or fix the "
            "request), and do not fall back to initialize.",
            (stdio, Cite(modern, "basic/versioning.mdx", "Protocol Version Negotiation")),
        ),
        Item(
            "Any other error, silence or exit means a legacy server",
            f"Any other error (-32601, -32602, -32000, ...), no answer within a reasonable "
            f"timeout, or a server process that exits: fall back to initialize with your latest "
            f"legacy revision ({source.revision}); if the process exited, restart it first.",
            (stdio,), "stdio",
        ),
        Item(
            "Never key the fallback to one error code",
            "The fallback MUST NOT be keyed to one specific error code: legacy servers answer "
            "an early unknown request with -32601, -32602, other codes, or not at all.",
            (stdio,),
        ),
        Item(
            "Cache the era per server",
            "The era is a property of the server: cache it for the server process (stdio) or "
            "the origin (HTTP) (SHOULD), persist it across restarts of the same configuration "
            "if you like (MAY), and probe again when the cached assumption fails.",
            (versioning,),
        ),
        Item(
            "On Streamable HTTP, read the body of a 400",
            "Send a modern request first. On 400 Bad Request, read the body before falling "
            "back (SHOULD): a recognised modern error (-32022, -32021, -32020) means a modern "
            "server (retry or fix the request); an empty body or any other error means "
            "initialize, keeping the legacy version for later requests. A 404 whose body is "
            "-32601 is a modern server without that method.",
            (http, Cite(modern, "basic/transports/streamable-http.mdx",
                        "Protocol Version Header")), "http",
        ),
        Item(
            "Fall back to HTTP+SSE only on 400, 404 or 405 without a modern error",
            "If the POST fails with 400, 404 or 405 and the body is not a recognised modern "
            "error, GET the URL and expect an SSE stream whose first event is endpoint; when it "
            "arrives the server speaks the deprecated HTTP+SSE transport (2024-11-05).",
            (sse,), "http",
        ),
    )


def client_columns(source: Profile, target: Profile) -> tuple[tuple[str, str], ...]:
    """(label, client spec) of the proof's columns; the third is the checklist's client."""
    src, dst = source.revision, target.revision
    revisions = ",".join(p.revision for p in reversed(BUILTIN))  # the built-ins, newest first
    return (
        (f"{src} only", src),
        (f"{dst} only, probing first", f"modern:{dst}+discover"),
        (f"dual {dst} + {src}", f"dual:{dst},{src}+restart"),
        ("dual, every revision", f"dual:{revisions}+restart+post-first"),
        ("dual, every revision, fallback on -32601 only",
         f"dual:{revisions}+restart+post-first+fallback-32601"),
    )


def _quirk_names(spec: str) -> set[str]:
    return set(split_notation(spec).quirk_names)


def _streamable_legacy(source: Profile) -> str:
    """FROM if it speaks Streamable HTTP, else the newest built-in legacy revision that does.

    The HTTP rows are about how a legacy Streamable HTTP server refuses a request outside
    a session; a 2024-11-05 server speaks HTTP+SSE, where they do not arise.
    """
    if source.settings["http_transport"] != "http+sse":
        return source.revision
    return [p.revision for p in BUILTIN if p.era is Era.LEGACY][-1]


def _dedupe(spec: str) -> str:
    """``legacy:2024-11-05,2024-11-05+q`` -> ``legacy:2024-11-05+q`` (FROM may be 2024-11-05)."""
    notation = split_notation(spec)
    return replace(notation, revisions=tuple(dict.fromkeys(notation.revisions))).text


def proof_server_rows(source: Profile) -> tuple[tuple[Transport, str], ...]:
    """(transport, server spec) of each row: the built-in servers over stdio, then over HTTP."""
    builtin = BUILTIN_SERVERS
    http = tuple(s for s in builtin if not _STDIO_ONLY & _quirk_names(s))
    extra = tuple(_dedupe(spec.format(legacy=_streamable_legacy(source)))
                  for spec in HTTP_SERVERS)
    return (*(("stdio", s) for s in builtin), *(("http", s) for s in (*http, *extra)))


def _probe_answer(server: PeerSpec, transport: Transport) -> str:
    """How a legacy server answers a request before initialize, on ``transport``."""
    policy = server.server_policy
    if transport == "http" and policy.http_presession == "-32000":
        return "-32000"
    if transport == "http" and policy.http_presession == "empty":
        return "an empty 400"
    return {"silent": "nothing", "silent-exit": "nothing, then exits"}.get(policy.unknown,
                                                                         policy.unknown)


def _sse_first(client: PeerSpec, server: PeerSpec) -> bool:
    """Whether ``client`` asks ``server`` for an HTTP+SSE revision without POSTing first."""
    shared = [r for r in client.legacy if r in server.legacy]
    if not shared or client.client_policy.http_post_first:
        return False
    return bool(client.profile(shared[0]).settings["http_transport"] == "http+sse")


def talk_expected(client: PeerSpec, server: PeerSpec, transport: Transport) -> tuple[bool, str]:
    """Whether the spec lets ``client`` work with ``server`` on ``transport``, and if not, why.

    As :func:`~._eras.expected` (a shared revision, and a shared modern one for two
    modern-capable peers); then, for a dual-era client that must fall back from a
    legacy-only server: a client that falls back only on -32601 fails on any other
    answer (the spec forbids keying the fallback to one code), and a server that exits
    on the fallback's initialize works only with a client that restarts it.
    """
    ok, why = expected(client, server)
    if not ok:
        return ok, why
    if transport == "http" and server.server_policy.http_no_get and _sse_first(client, server):
        return False, ("the client opens the HTTP+SSE stream with GET first, and the server "
                       "answers GET with 405")
    if client.kind != "dual" or server.modern:
        return ok, why
    answer = _probe_answer(server, transport)
    policy = client.client_policy
    if policy.fallback_only_32601 and answer != "-32601":
        return False, f"the fallback is keyed to -32601 and the server answers {answer}"
    if answer == "nothing, then exits" and not policy.restart:
        return False, "the server exits after the probe and the client does not restart it"
    return True, ""


def client_proof(source: Profile, target: Profile) -> BothEras:
    """The checklist and proof of a client guide from ``source`` (legacy) to ``target``."""
    columns = client_columns(source, target)
    registry = registry_for(source, target)
    rows = tuple(
        ProofRow(server, tuple(
            cell(spec, server, registry, column=spec, transport=transport, judge=talk_expected)
            for _, spec in columns), transport)
        for transport, server in proof_server_rows(source)
    )
    modern = modern_base(target)
    return BothEras(
        checklist=client_checklist(source, target),
        columns=columns,
        dual=tuple(spec for _, spec in columns[2:4]),
        rows=rows,
        scenario=SCENARIO,
        cites=(Cite(modern, "basic/versioning.mdx", "Compatibility Matrix"),
               Cite(modern, "basic/transports/stdio.mdx", "Backward Compatibility"),
               Cite(modern, "basic/transports/streamable-http.mdx", "Backward Compatibility")),
        role="client",
        title="Talk to both eras",
    )

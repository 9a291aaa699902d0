"""What each finding about a client means: the ``client-*`` codes, as ``probe-client``
reports them of a real client against simulated servers (data; the sections of
``docs/findings.md``, in the order of :data:`~._codes.FindingCode`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ...versions import Cite
from ._codes import LEGACY, LIFECYCLE, MODERN, PROBE, STDIO_LEGACY, FindingCode, FindingInfo

__all__ = ["CLIENT_FINDINGS"]

#: The client's codes, in the order of :data:`~._codes.FindingCode`.
CLIENT_FINDINGS: Final[Mapping[FindingCode, FindingInfo]] = {
    "client-fallback-keyed-to-code": FindingInfo(
        summary="a dual-era client falls back from its probe on one error code only",
        when="probe-client: the client fell back from `server/discover` to `initialize` when a "
        "legacy server answered -32601, and gave up when another legacy server answered the "
        "probe with another error (-32602, as Python mcp 1.10-1.30 servers do). Every legacy "
        "server that answers so is unreachable for it.",
        rule="2026-07-28 stdio backward compatibility: any error that is not a recognised modern "
        "error, or no reply within a reasonable timeout, means a legacy server: fall back to "
        "`initialize`. The fallback MUST NOT be keyed to one specific error code.",
        fix="Clients: fall back on every error but the modern ones (-32022 naming no handshake "
        "revision you support, -32020, -32021), whatever its code; see `mcp-skew migrate "
        "2025-11-25 2026-07-28 --role client`.",
        severities=("error",),
        cites=(PROBE,),
        reported_by=("probe-client",),
        quirks=("unknown-32602",),
    ),
    "client-no-fallback-on-timeout": FindingInfo(
        summary="a dual-era client does not fall back when its probe gets no answer",
        when="probe-client: a legacy server that never answers an unknown request (Python mcp "
        "1.0-1.9 servers) left the client's `server/discover` unanswered, and the client gave up "
        "(or waited to the deadline) instead of sending `initialize`.",
        rule="2026-07-28 stdio backward compatibility: no reply within a reasonable timeout means "
        "a legacy server: fall back to the `initialize` handshake.",
        fix="Clients: bound the probe's wait (a few seconds: legacy servers that stay silent are "
        "common) and fall back to `initialize` when it runs out, before any overall connect "
        "timeout ends the attempt.",
        severities=("warning",),
        cites=(PROBE,),
        reported_by=("probe-client",),
        quirks=("silent",),
    ),
    "client-no-fresh-process": FindingInfo(
        summary="a dual-era client falls back on a server process that has exited",
        when="probe-client: the server exited after an unanswered probe (Python mcp 1.0-1.9 stdio "
        "servers end on the next input), and the client sent `initialize` to the dead process "
        "instead of starting a new one.",
        rule="Not a spec rule: the stdio probe page does not say what to do when the server dies; "
        "the client's connection ends with the process (basic/transports stdio). A client that "
        "starts a fresh process for the fallback reaches such servers; one that does not, never.",
        fix="Clients: when the server process exits during the probe (or after a probe timeout), "
        "start a new one and fall back to `initialize` on it (the TypeScript v2 client probes in a "
        "throwaway process).",
        severities=("info",),
        cites=(PROBE, STDIO_LEGACY),
        reported_by=("probe-client",),
        quirks=("silent-exit",),
    ),
    "client-hangs": FindingInfo(
        summary="the client did not finish before the deadline",
        when="probe-client: the client program ran until `--timeout`, and was ended with its "
        "process family (the server it started included): a request it never stopped waiting "
        "for, or a program that waits for input.",
        rule="Implementations SHOULD establish timeouts for all sent requests, and on a timeout "
        "SHOULD issue a cancellation and stop waiting.",
        fix="Clients: time out every request (the probe included) and report the failure; a "
        "program driven by probe-client should connect, do its work and exit without input.",
        severities=("warning",),
        cites=(Cite(LEGACY, "basic/lifecycle.mdx", "Timeouts"),),
        reported_by=("probe-client",),
    ),
    "client-refuses-result": FindingInfo(
        summary="the client fails a 2026-07-28 result that lacks a field its revision requires",
        when="probe-client: the client negotiated 2026-07-28 with a server whose results lack "
        "`resultType` (or `ttlMs` and `cacheScope`), then failed; against the same server with "
        "conforming results it worked.",
        rule="2026-07-28: every result MUST include `resultType`, and cacheable results the "
        "caching hints; the server departs from the spec, and a client may refuse. For servers "
        "of earlier revisions a client MUST read an absent `resultType` as `complete`.",
        fix="Nothing, for conforming servers. To reach servers that leave the fields out, read "
        "an absent `resultType` as `complete` and an absent `ttlMs` as 0 (immediately stale) "
        "instead of failing.",
        severities=("info",),
        cites=(Cite(MODERN, "basic/index.mdx", "ResultType"),
               Cite(MODERN, "server/utilities/caching.mdx", "Cacheable Results")),
        reported_by=("probe-client",),
        quirks=("no-result-type", "no-cache-hints"),
    ),
    "client-prefers-legacy": FindingInfo(
        summary="a dual-era client chose the legacy era with a server that speaks the modern one",
        when="probe-client: against a dual-era server the client sent `initialize` first and "
        "stayed in the legacy era, though it also speaks a modern revision the server serves.",
        rule="2026-07-28 stdio backward compatibility: a dual-era client SHOULD probe with "
        "`server/discover` before sending any other request, and stays modern when the server "
        "answers it.",
        fix="Clients: open with `server/discover` (or, over HTTP, a modern request) and use "
        "`initialize` only as the fallback.",
        severities=("warning",),
        cites=(PROBE, Cite(MODERN, "basic/versioning.mdx", "Compatibility Matrix")),
        reported_by=("probe-client",),
    ),
    "client-keeps-legacy-after-upgrade": FindingInfo(
        summary="a dual-era client stays on the legacy era after its server was upgraded",
        when="probe-client, upgrade case (`BEFORE->AFTER`): the client ran against a legacy-only "
        "server, then, with the same server command (or URL) now serving both eras, ran again, "
        "opened with `initialize` and stayed legacy; the plain dual-era client probes the "
        "restarted server and reaches the modern era (and the same upgraded spec served fresh "
        "kept this client modern, where the card has it). The client keeps its era decision "
        "across restarts: quirk `keeps-era`.",
        rule="2026-07-28 versioning: the era determination is a property of the server; clients "
        "SHOULD cache it for the lifetime of the server process (stdio) or origin (HTTP), and "
        "MAY persist it across restarts of the same server configuration, re-probing if the "
        "cached assumption later fails. A kept legacy decision never fails against a dual-era "
        "server, so the client never sees the modern era it now offers.",
        fix="Clients: scope the cached era to one server process (stdio), or re-probe with "
        "`server/discover` whenever the server process starts (or on a new connection to the "
        "origin) instead of reusing a persisted legacy decision; where you persist it, give it "
        "an expiry.",
        severities=("warning",),
        cites=(Cite(MODERN, "basic/versioning.mdx",
                    "Backward Compatibility with Initialization-Based Versions"), PROBE),
        reported_by=("probe-client",),
        quirks=("keeps-era",),
    ),
    "client-never-reads-app": FindingInfo(
        summary="a client advertises MCP Apps and never reads the app's ui:// resource",
        when="probe-client: the client declared `io.modelcontextprotocol/ui` in "
        "`capabilities.extensions`, a served server (`+ext=ui`) listed it a tool whose "
        "`_meta.ui.resourceUri` names a `ui://` resource, and the client never sent "
        "`resources/read` for it: the app never mounts, the user sees the text fallback. "
        "Quirk `no-ui-read` (docs/extensions.md).",
        rule="MCP Apps (github.com/modelcontextprotocol/ext-apps, "
        "specification/2026-01-26/apps.mdx, Resource Discovery): if `ui.resourceUri` "
        "is present and the host supports MCP Apps, the host renders tool results using the "
        "specified UI resource; the host MUST use `resources/read` to fetch it.",
        fix="Clients: read the `ui://` resource a tool's `_meta.ui.resourceUri` names (at "
        "listing or at the call) and render it; or stop advertising the extension, so servers "
        "serve text.",
        severities=("warning",),
        cites=(Cite(MODERN, "basic/versioning.mdx", "Extension Negotiation"),),
        reported_by=("probe-client",),
        quirks=("no-ui-read",),
    ),
    "client-fails-where-spec-works": FindingInfo(
        summary="the client cannot reach a server the spec says it can",
        when="probe-client: the client failed against a server that the plain client of its "
        "inferred kind and revisions reaches in the simulator (for a server without quirks, the "
        "era table's row for the pair with a shared revision), and no more specific finding says "
        "why.",
        rule="2026-07-28 compatibility matrix: a legacy client with a legacy or dual-era server, "
        "a modern client with a modern or dual-era one, and a dual-era client with any of them "
        "work; the legacy lifecycle's counter-offer lets two peers agree on a shared revision.",
        fix="Read the path of that server's row: the step where the client stopped is the one to "
        "change (a counter-offer it supports, an answer it could read).",
        severities=("error",),
        cites=(Cite(MODERN, "basic/versioning.mdx", "Compatibility Matrix"), LIFECYCLE),
        reported_by=("probe-client",),
    ),
    "client-model-disagrees": FindingInfo(
        summary="the inferred model predicts another outcome than the client's real run",
        when="probe-client: the simulator ran the inferred client against the same server, and "
        "it came out otherwise (another outcome or revision): the client does something the "
        "inferred quirks do not model, so `--save-peer` predicts that pair wrongly.",
        rule="Not a spec rule: the citation is the lifecycle page the negotiation follows.",
        fix="Read both paths. If the client is right, it has a quirk mcp-skew lacks (file it); "
        "else the other findings say what to change.",
        severities=("info",),
        cites=(LIFECYCLE,),
        reported_by=("probe-client",),
    ),
}

"""The quirks of released AI apps' clients (issue 39; docs/apps.md): how Claude Code and
GitHub Copilot CLI were seen or reported to depart from the spec's dual-era client. Part of
:data:`~._table.QUIRKS`, in its order: after the clients' era quirks, before the extension
quirks.
"""

from __future__ import annotations

from typing import Final

from ._policy import Effect
from ._quirk import Quirk

__all__ = ["APP_QUIRKS"]

#: The apps' client quirks, each with the release it was seen in and the report.
APP_QUIRKS: Final[tuple[Quirk, ...]] = (
    Quirk("init-after-discover", "client",
       "sends initialize after a successful server/discover, on the same connection, and "
       "keeps what that answer says: a server that fixed the modern era on the probe "
       "(sticky-era) or speaks no legacy revision refuses it (-32022) and the connect "
       "fails; a dual-era server that is not sticky accepts it and the connection is "
       "legacy (the spec's client stays modern: 2026-07-28 basic/versioning.mdx)",
       "Claude Code 2.1.280 with its stdio negotiation flag on (reported: "
       "https://github.com/anthropics/claude-code/issues/96183); GitHub Copilot CLI "
       "1.0.85 and 1.0.86-2 against FastMCP 4.0.3/4.0.4 on Python mcp 2.2.0 (reported: "
       "https://github.com/github/copilot-cli/issues/4888)",
       kinds=("dual",),
       against_spec=True,
       effects=(Effect("init_after_discover"),)),
    Quirk("both-at-once", "client",
       "sends server/discover and initialize back to back (ids 0 and 1) before any answer, "
       "takes initialize's answer and does not probe again: a server that reads the probe "
       "first and fixes the modern era (sticky-era) refuses the handshake with -32022 and "
       "the connect fails; it overrides probe-timeout (a wait of 0 ms) and implies "
       "no-reprobe",
       "GitHub Copilot CLI 1.0.81-1.0.86: both requests on the wire before either answer, "
       "\"server/discover timed out; retrying with legacy initialize\" (reported: "
       "https://github.com/github/copilot-cli/issues/4525, wire timings in its comments)",
       kinds=("dual",),
       against_spec=True,
       effects=(Effect("probe_timeout_ms", 0, rank=1), Effect("no_reprobe"))),
    Quirk("exit-fatal", "client",
       "takes the exit of a server during its server/discover probe (a strict legacy "
       "server that ends on a first request other than initialize, or exits on its next "
       "input) for a broken connection and gives up, even where its model restarts a dead "
       "server (it overrides restart)",
       "GitHub Copilot CLI 1.0.83's native connector: \"broken pipe\", the server's tools "
       "lost (reported: https://github.com/github/copilot-cli/issues/4809)",
       kinds=("dual",),
       effects=(Effect("restart", False, rank=1),)),
    Quirk("restart-after-exit", "client",
       "falls back on the process that kept its probe; when that server exits on the "
       "fallback initialize (a strict legacy server: silent, then exits on its next input), "
       "it starts a fresh process and sends initialize once more (where restart starts "
       "the fresh process before the fallback)",
       "Claude Code 2.1.332 (`claude mcp list` measured by probe-client against "
       "legacy:2025-11-25+silent-exit and Python mcp 1.0's model, docs/apps.md)",
       kinds=("dual",),
       effects=(Effect("restart_after_exit"),)),
)

"""``mcp-skew matrix``: the parser (name, help, arguments); the implementation is
:mod:`mcp_skew.commands.matrix`, imported when the command runs."""

from __future__ import annotations

import argparse

from . import MATRIX_FORMATS as FORMATS
from . import SCENARIOS, TRANSPORTS, VIEWS, Later

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["TRANSPORT_CHOICES", "register"]


#: ``--transport``: one of the simulator's transports, or both in turn.
TRANSPORT_CHOICES = (*TRANSPORTS, "both")


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "matrix",
        description="Run simulated clients (rows) against simulated servers (columns) and "
        "show the revision each pair negotiates and how. With no arguments: the built-in "
        "peers (every revision, multi-revision legacy peers, modern-only, dual-era, and the "
        "legacy-server quirks that change outcomes).",
        epilog="Peer specs: KIND:REV[,REV...][+QUIRK...], e.g. legacy:2025-06-18,2025-03-26 "
        "or dual:2026-07-28,2025-11-25+restart or 2025-11-25. Example: mcp-skew matrix "
        "--clients 2025-06-18 dual:2026-07-28,2025-11-25 --servers legacy:2025-11-25+silent",
    )
    p.add_argument("--clients", nargs="+", action="extend", metavar="SPEC",
                   help="client peer specs, the rows (default: the built-in set)")
    p.add_argument("--servers", nargs="+", action="extend", metavar="SPEC",
                   help="server peer specs, the columns (default: the built-in set)")
    p.add_argument("--scenario", choices=sorted(SCENARIOS), default=None,
                   help="what each client does after negotiating (default: default)")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text (default, for the terminal), markdown, github, grid, html "
                   "(one self-contained report), json (reads back with --from), csv, junit")
    p.add_argument("--view", choices=VIEWS, default="pairs",
                   help="pairs: the negotiated revision (default); features: which features "
                   "of the client's newest revision survive")
    p.add_argument("--out", metavar="PATH", help="write to PATH instead of stdout")
    p.add_argument("--wide", action="store_true",
                   help="text format: one table however wide. Without it the table fits "
                   "COLUMNS, else the terminal (the servers come in blocks of columns); "
                   "a file or a pipe gets one table unless COLUMNS is set")
    p.add_argument("--from", dest="source", metavar="FILE",
                   help="render a JSON matrix written by --format json ('-': stdin) "
                   "instead of running the pairs")
    p.add_argument("--progress", action="store_true",
                   help="report progress on stderr even when it is not a terminal")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress on stderr, even on a terminal")
    p.add_argument("--transport", choices=TRANSPORT_CHOICES, default="stdio",
                   help="what every pair runs over: stdio (default), http (Streamable HTTP: "
                   "status codes, headers, sessions, and the dual-era client's HTTP rule), or "
                   "both: the two matrices one after the other, then the pairs that differ "
                   "(text, grid, markdown and github formats)")
    p.add_argument("--via", metavar="BRIDGE", default=None,
                   help="every pair through a bridge (client -> bridge -> server): a named "
                   "one (supergateway@4, mcp-proxy-py@0.13, ...) or bridge[:REV,...][+QUIRK...]; "
                   "the clients meet its downstream side (its transport)")
    p.add_argument("--cold-start", metavar="MS", default=None,
                   help="what if every server's first answer came MS simulated ms after it "
                   "started (its cold start, quirk slow=MS; a saved peer's measured one is "
                   "replaced): cells whose outcome then races a client's wait are marked ⏱")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the text and grid formats (auto: on a terminal, unless "
                   "NO_COLOR is set)")
    # -- named real peers (owned by mcp_skew.realpeers) ----------------------------------
    p.add_argument("--set", dest="peer_set", choices=("builtin", "real", "apps"),
                   default="builtin",
                   help="the default rows and columns: builtin (simulated peers), real (named "
                   "real implementations: py-mcp@2.3, ts-server@2.4:dual, ...) or apps (the AI "
                   "apps' named peers against the built-in server kinds: docs/apps.md)")
    p.add_argument("--run-real", action="store_true",
                   help="also run each pair of named peers with the real packages (installed "
                   "in cached environments) and mark where prediction and reality differ")
    # -- end of named real peers ----------------------------------------------------------
    p.set_defaults(func=Later("matrix", "_main"))

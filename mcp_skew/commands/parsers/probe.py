"""``mcp-skew probe``: the parser (name, help, arguments); the implementation is
:mod:`mcp_skew.commands.probe`, imported when the command runs."""

from __future__ import annotations

import argparse

from . import INSTALL_HINT, Later
from . import PROBE_FORMATS as FORMATS

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["EPILOG", "register"]


EPILOG = """\
examples:
  mcp-skew probe -- python my_server.py
  mcp-skew probe --require 2025-06-18,2026-07-28 --format junit --out probe.xml -- npx my-server
  mcp-skew probe --tool echo --args '{"text": "hi"}' --save-peer me.json -- ./server
  mcp-skew matrix --servers @me.json
  mcp-skew probe --url http://127.0.0.1:8000/mcp
"""


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "probe",
        description="Run every built-in client (each legacy revision, all legacy revisions, "
        "modern-only, dual-era, and the client quirks) against a real server, infer where it "
        "departs from the spec and which peer it behaves like.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    where = p.add_argument_group("the server")
    where.add_argument("--url", help="Streamable HTTP endpoint (instead of a command)")
    p.add_argument("--via", metavar="BRIDGE", default=None,
                   help="start the named bridge (supergateway@4, mcp-proxy-py@0.13, "
                   "mcp-proxy-js@6) in front of the server command and probe through it; the "
                   "card says what it hides (it and the servers it starts end with the probe)")
    where.add_argument("--sse-url", help="where a 2024-11-05 client opens its HTTP+SSE stream "
                       "(default: --url)")
    where.add_argument("--header", action="append", default=[], metavar="NAME:VALUE",
                       help="an extra HTTP header (repeatable)")
    where.add_argument("--token", metavar="TOKEN",
                       help="an access token for a protected server (--url): every request "
                       "carries Authorization: Bearer TOKEN, so the probe runs as an "
                       "authorized client (docs/auth.md)")
    where.add_argument("--cwd", help="working directory of the server command")
    where.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                       help="an environment variable for the server (repeatable)")
    what = p.add_argument_group("what to run")
    what.add_argument("--client", action="append", default=[], metavar="SPEC",
                      help="a client peer spec (repeatable; replaces the built-in set)")
    what.add_argument("--with", dest="with_revisions", action="append", default=[],
                      metavar="REV", help="add the clients of REV, from the registry with its "
                      "drafts (next, next+sep-3279: mcp-skew versions --seps) or a --profile "
                      "file's revision")
    what.add_argument("--thorough", action="store_true",
                      help="run every client for real, a server process each (default on "
                      "stdio with the built-in set: run the clients the server's model needs, "
                      "at most 4 starts, every client for real when a run departs from the model, and "
                      "predict the others from what those runs saw)")
    what.add_argument("--no-prober", action="store_true",
                      help="skip the extra client that asks for revision 1999-01-01")
    what.add_argument("--tool", help="the tool each client calls (by default the first tool "
                      "whose inputSchema gives arguments, never one annotated destructiveHint; "
                      "docs/calls.md)")
    what.add_argument("--args", metavar="JSON", help="arguments for --tool, a JSON object "
                      "(default {})")
    what.add_argument("--error-probes", action="store_true",
                      help="also read a resource and call a tool that do not exist "
                      "(-32002 vs -32602, unknown tool)")
    bounds = p.add_argument_group("bounds")
    bounds.add_argument("--jobs", default=4, help="clients at once, 1 to 64 (default 4)")
    bounds.add_argument("--timeout", default=5.0, metavar="SECONDS",
                        help="wait for one answer (default 5; more than 0, at most a day)")
    bounds.add_argument("--probe-timeout", default=3.0, metavar="SECONDS",
                        help="a dual-era client's server/discover probe (default 3)")
    bounds.add_argument("--client-timeout", default=60.0, metavar="SECONDS",
                        help="one client's whole conversation (default 60)")
    bounds.add_argument("--startup-timeout", default=60.0, metavar="SECONDS",
                        help="wait for the server's first answer after it starts, its cold "
                        "start (default 60; a start that times out is tried once more)")
    out = p.add_argument_group("output")
    out.add_argument("--format", choices=sorted(FORMATS), default="terminal",
                     help="terminal (the card), json, markdown, summary (Markdown for a CI job "
                     "summary), html (the card as one self-contained page), junit (a test "
                     "case per client and per --require revision)")
    out.add_argument("--out", metavar="FILE", help="write the report card here")
    out.add_argument("--require", default="", metavar="REVS",
                     help="comma-separated revisions the server must serve: revision R "
                     "passes when the plain client of R alone (legacy:R for a legacy "
                     "revision, modern:R for a modern one; run even when --client leaves it "
                     "out) negotiates R and its steps work; exit 1 when one fails, whatever "
                     "other clients run")
    out.add_argument("--record", metavar="DIR", help="write each transcript as JSON Lines as "
                     "it happens, and the server's stderr beside it")
    out.add_argument("--save-peer", metavar="FILE",
                     help="save the inferred peer for `mcp-skew matrix --servers @FILE`")
    out.add_argument("--schemas", metavar="DIR", help="the official schemas "
                     "(<revision>/schema.json) to validate messages (else $MCP_SKEW_SCHEMAS); "
                     f"needs jsonschema: {INSTALL_HINT}")
    out.add_argument("--label", metavar="NAME", help="the server's name in the card, the saved "
                     "peer and reports (default: the package the command runs, else the "
                     "script's folder and name, or the URL's host)")
    out.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("command", nargs=argparse.REMAINDER,
                   help="the server command, after --")
    p.set_defaults(func=Later("probe", "_main"))

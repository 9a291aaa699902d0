"""``mcp-skew probe-client``: the parser (name, help, arguments); the implementation is
:func:`mcp_skew.probe_client.run_command`, imported when the command runs."""

from __future__ import annotations

import argparse

from . import Later

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["EPILOG", "FORMATS", "register"]


FORMATS = ("text", "json", "junit", "summary", "html")


EPILOG = """\
examples:
  mcp-skew probe-client -- python my_client.py --server-command {server}
  mcp-skew probe-client --transport http -- node client.mjs --url {url}
  mcp-skew probe-client --server legacy:2025-06-18 --server py-mcp@1.0 -- ./client {server}
  mcp-skew probe-client --require 2025-11-25,2026-07-28 --format junit --out client.xml \\
      --save-peer me.json -- ./client -- {server}
  mcp-skew matrix --clients @me.json
"""


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "probe-client",
        description="Run a client program once per simulated server (every revision, era kind "
        "and the server quirks that change a client's path), read what it did off the wire, "
        "infer which client peer it behaves like and where it departs from the spec. In the "
        "client's words, {server} is replaced by the command of a simulated stdio server (the "
        "client spawns it) and {url} by the URL of a simulated Streamable HTTP server.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--server", action="append", default=[], metavar="SPEC",
                   help="a server peer spec (repeatable; replaces the default set)")
    p.add_argument("--with", dest="with_revisions", action="append", default=[], metavar="REV",
                   help="add the servers of REV to the default set, from the registry with its "
                   "drafts (next, next+sep-3279: mcp-skew versions --seps)")
    p.add_argument("--transport", choices=("stdio", "http"),
                   help="stdio ({server}) or http ({url}); default: the placeholder the words use")
    p.add_argument("--timeout", default=90.0, metavar="SECONDS",
                   help="one client run's deadline; then it is ended with its process family "
                   "(default 90: longer than any named client's longest wait)")
    p.add_argument("--jobs", help="client runs at once, 1 to 16 (default 2, or 1 on a machine "
                   "with one CPU)")
    p.add_argument("--cwd", help="working directory of the client")
    p.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                   help="an environment variable for the client (repeatable)")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text (the card), json, junit (a test case per server and per --require "
                   "revision), summary (Markdown for a CI job summary), html (one page)")
    p.add_argument("--out", metavar="FILE", help="write the card here")
    p.add_argument("--require", default="", metavar="REVS",
                   help="comma-separated revisions the client must reach: exit 1 when no server "
                   "of a required revision works with it (a plain server of each is added)")
    p.add_argument("--record", metavar="DIR",
                   help="keep each run's wire log here (JSON Lines; see mcp-skew show-log)")
    p.add_argument("--save-peer", metavar="FILE",
                   help="save the inferred client for `mcp-skew matrix --clients @FILE`")
    p.add_argument("--label", metavar="NAME", help="the client's name in the saved peer "
                   "(default: the package the command runs, else the script's folder and name)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("client", nargs=argparse.REMAINDER, help="the client's words, after --")
    p.set_defaults(func=Later("probe_client", "run_command", feature=True))

"""``mcp-skew verify-peer``: the parser (name, help, arguments); the implementation is
:func:`mcp_skew.realpeers.run_command`, imported when the command runs."""

from __future__ import annotations

import argparse

from . import ROLES, Later

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "verify-peer",
        description="Install the real package behind a named peer (e.g. py-mcp@1.10, "
        "ts-client@2.4:auto) in an isolated cached environment, drive it over stdio, and "
        "compare what it does with what its model predicts. A server is run against the "
        "probe's client set; a client is run against simulated servers (mcp-skew serve).",
    )
    p.add_argument("name", nargs="?", metavar="NAME",
                   help="a named peer, FAMILY@VERSION[:MODE] (see --list)")
    p.add_argument("--role", choices=ROLES,
                   help="check only this role (default: every role the name has a model for)")
    p.add_argument("--http", action="store_true",
                   help="check a server model over Streamable HTTP instead of stdio (models "
                   "with an HTTP set-up: server-everything@RELEASE)")
    p.add_argument("--jobs", default=2, metavar="N",
                   help="runs in parallel (default: %(default)s)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the reports as JSON")
    out.add_argument("--list", action="store_true", help="list the named peers and exit")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=Later("realpeers", "run_command", feature=True))

"""``mcp-skew census``: the parser (name, help, arguments); the implementation is
:func:`mcp_skew.census.run_command`, imported when the command runs."""

from __future__ import annotations

import argparse
import os

from . import Later

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["EPILOG", "TIME_BOUNDS", "register"]


EPILOG = """\
examples:
  mcp-skew census servers.json --jobs 4
  mcp-skew census --registry https://registry.example/ --max-pages 2 --db census.sqlite
  mcp-skew census servers.json --cluster local:4          (needs mcp-skew[cluster])
  mcp-skew census report --db census.sqlite --format html --out census.html
  mcp-skew matrix --servers @census.sqlite

Registry packages are code from strangers: run a census in a container (docs/census.md).
"""


#: The time bounds of each server's probe (as ``mcp-skew probe`` has them) and install.
TIME_BOUNDS = (
    ("--timeout", 5.0, "one answer"),
    ("--probe-timeout", 3.0, "a dual-era client's server/discover probe"),
    ("--client-timeout", 30.0, "one client's conversation"),
    ("--startup-timeout", 60.0, "a server's first answer after it starts (tried twice)"),
    ("--install-timeout", 600.0, "one package's install"),
)


#: ``--install-jobs``: environments built at once ahead of the probes, by threads of the
#: census process (an install mostly waits on the network; mcp_skew/census/_ahead.py)
DEFAULT_INSTALL_JOBS = 3


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "census",
        description="Install and probe each package of a listing in the MCP Registry's format "
        "(one row per package in an SQLite database), or, as `census report`, report how ready "
        "the servers are for modern-only, dual-era and legacy clients.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", nargs="*", metavar="SOURCE",
                   help="saved list-API pages (JSON), a folder of server.json files, a .jsonl "
                   "file; or the word `report`")
    p.add_argument("--db", default="census.sqlite", help="the census database (default "
                   "census.sqlite)")
    src = p.add_argument_group("the listing")
    src.add_argument("--registry", dest="registry_url", metavar="URL", help="read the registry's list API "
                     "(GET /v0/servers), page by page")
    src.add_argument("--max-pages", type=int, default=10_000, help="with --registry")
    src.add_argument("--remotes", action="store_true", help="also probe remotes over HTTP")
    src.add_argument("--local-root", metavar="DIR", help="run packages of registryType `local` "
                     "(not a registry's: tests and demos) as Python scripts under DIR")
    run = p.add_argument_group("running")
    run.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2),
                     help="local worker processes (default: half the cores; at most 4 per CPU)")
    run.add_argument("--install-jobs", metavar="N", default=str(DEFAULT_INSTALL_JOBS),
                     help="packages installed at once ahead of the probes, on this machine "
                     f"(default {DEFAULT_INSTALL_JOBS}; 0: each worker installs its own)")
    run.add_argument("--cluster", metavar="local[:N]", help="a Dask LocalCluster of N workers, "
                     "at most 4 per CPU (needs mcp-skew[cluster])")
    run.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="an existing Dask cluster")
    run.add_argument("--refresh", action="store_true", help="probe again what the database holds")
    run.add_argument("--retry-failed", action="store_true", help="probe again the rows that "
                     "failed in a way that may pass (start-failed, start-timeout, error); keep "
                     "the others")
    run.add_argument("--progress", action="store_true", help="progress on stderr even when it is "
                     "not a terminal")
    run.add_argument("-q", "--quiet", action="store_true",
                     help="no progress on stderr, even on a terminal")
    box = p.add_argument_group("isolation and bounds (per server)")
    box.add_argument("--sandbox", default="auto", choices=("auto", "bwrap", "firejail", "none"),
                     help="run each server in a sandbox tool (auto: bwrap or firejail if found)")
    box.add_argument("--no-network", action="store_true", help="no network inside the sandbox")
    box.add_argument("--cpu", type=int, default=60, metavar="SECONDS", help="RLIMIT_CPU (60)")
    box.add_argument("--memory", type=int, default=4096, metavar="MIB", help="RLIMIT_DATA (4096)")
    box.add_argument("--procs", type=int, default=4096, help="RLIMIT_NPROC (4096)")
    box.add_argument("--fsize", type=int, default=64, metavar="MIB", help="RLIMIT_FSIZE (64)")
    for flag, default, what in TIME_BOUNDS:
        box.add_argument(flag, type=float, default=default, metavar="SECONDS",
                         help=f"{what} (default {default:g})")
    box.add_argument("--probe-jobs", type=int, default=2, help="clients at once per server (2)")
    rep = p.add_argument_group("census report")
    rep.add_argument("--format", choices=("markdown", "html", "json", "text"),
                     default="markdown")
    rep.add_argument("--out", metavar="FILE", help="write the report here")
    p.set_defaults(func=Later("census", "run_command", feature=True))

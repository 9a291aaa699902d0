"""``mcp-skew census``: probe every server of an MCP Registry listing; ``census report``.

``mcp-skew census SOURCE... [--db census.sqlite]`` reads a listing (saved list-API
pages, a folder of server.json files, JSON Lines; or ``--registry URL``), installs
and probes each package in isolation, several at once (``--jobs``, or a Dask
cluster with ``--cluster``/``--scheduler``), and stores a row per package as it
completes; run again, it does only what is missing. ``mcp-skew census report``
reads the database back. Bad input is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .._output import check_output, terminal_safe, write_output
from .._stopping import exit_code
from ..errors import UsageError

__all__ = ["register"]

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


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "census", help="probe every server of an MCP Registry listing; `census report` reads it",
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
    box.add_argument("--memory", type=int, default=4096, metavar="MIB", help="RLIMIT_AS (4096)")
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
    p.set_defaults(func=_main)


#: ``--install-jobs``: environments built at once ahead of the probes, by threads of the
#: census process (an install mostly waits on the network; mcp_skew/census/_ahead.py)
DEFAULT_INSTALL_JOBS = 3


#: The largest value of a count or a limit, and of a time bound (a day, in seconds).
_MOST_COUNT = 2**31 - 1
_MOST_SECONDS = 86_400.0


def _positive(args: argparse.Namespace, *names: str) -> None:
    """Each option positive and bounded: no ``nan``, ``inf`` or 30-digit number goes on."""
    for name in names:
        value = getattr(args, name)
        high = _MOST_SECONDS if isinstance(value, float) else _MOST_COUNT
        if not 0 < value <= high:  # False for nan too
            raise UsageError(f"--{name.replace('_', '-')} must be positive and at most {high:,.0f}")


def _settings(args: argparse.Namespace) -> Any:
    from ..census import Settings  # noqa: PLC0415 - the census only when it runs

    _positive(args, "jobs", "max_pages", "cpu", "memory", "procs", "fsize", "timeout",
              "probe_timeout", "client_timeout", "startup_timeout", "probe_jobs",
              "install_timeout")
    local_root = None
    if args.local_root:
        if not Path(args.local_root).is_dir():
            raise UsageError(f"--local-root {args.local_root}: not a folder")
        local_root = str(Path(args.local_root).resolve())
    if args.sandbox not in ("auto", "none"):
        from ..census import Unsupported, sandbox_tool  # noqa: PLC0415

        try:
            sandbox_tool(args.sandbox)
        except Unsupported as exc:
            raise UsageError(str(exc)) from None
    return Settings(remotes=args.remotes, timeout_ms=int(args.timeout * 1000),
                    probe_timeout_ms=int(args.probe_timeout * 1000),
                    client_timeout_ms=int(args.client_timeout * 1000),
                    startup_timeout_ms=int(args.startup_timeout * 1000),
                    probe_jobs=args.probe_jobs, install_timeout_s=args.install_timeout,
                    cpu_s=args.cpu, memory_mb=args.memory, nproc=args.procs,
                    fsize_mb=args.fsize, sandbox=args.sandbox, network=not args.no_network,
                    local_root=local_root,
                    owner_pid=None if args.scheduler else os.getpid())


def _check_sandbox(args: argparse.Namespace, jobs: Any) -> None:
    """Before anything runs: registry packages need a working sandbox unless ``--sandbox
    none`` says otherwise, and ``--no-network`` needs one to be enforced (UsageError)."""
    from ..census import NO_NETWORK, NO_SANDBOX, SUPPORTED, Unsupported, sandbox_tool  # noqa: PLC0415

    registry = any(job.kind == "package" and job.spec.get("registryType") in SUPPORTED
                   for job in jobs)
    if args.sandbox == "none" and not args.no_network:
        return
    if not registry and not args.no_network:
        return
    try:
        tool = sandbox_tool(args.sandbox)
    except Unsupported as exc:  # a tool named outright that does not work
        raise UsageError(f"--sandbox {args.sandbox}: {exc}") from None
    if tool is None and args.no_network:
        raise UsageError(NO_NETWORK)
    if tool is None and registry:
        raise UsageError(NO_SANDBOX)


def _report(args: argparse.Namespace) -> int:
    from ..census import CensusDB, build_report, render_report  # noqa: PLC0415

    if len(args.source) > 1:
        raise UsageError("census report takes no SOURCE; give the database with --db")
    inputs = [args.db, f"{args.db}-wal", f"{args.db}-shm", *args.profile]
    if args.out:  # before the work: a path that cannot be written (or is read) fails at once
        check_output(args.out, inputs=inputs)
    db = CensusDB(args.db, create=False)
    try:
        text = render_report(build_report(db.rows(report=False)), args.format)
    finally:
        db.close()
    if args.out:
        write_output(args.out, text, inputs=inputs)
    else:
        sys.stdout.write(terminal_safe(text))  # registry names, serverInfo: shown, not obeyed
    return 0


def _jobs(args: argparse.Namespace) -> tuple[list[Any], str]:
    """The listing's jobs; each entry set aside (not text) is one line on stderr."""
    from ..census import read_listing, read_registry  # noqa: PLC0415

    if bool(args.source) == bool(args.registry_url):
        raise UsageError("give a listing (SOURCE...) or --registry URL (one of the two)")
    invalid: list[str] = []
    if args.registry_url:
        found = read_registry(args.registry_url, max_pages=args.max_pages, invalid=invalid)
        source = args.registry_url
    else:
        found, source = read_listing(args.source, invalid), " ".join(args.source)
    for line in invalid:
        print(terminal_safe(f"mcp-skew census: invalid entry: {line}"), file=sys.stderr)
    return found, source


def _main(args: argparse.Namespace) -> int:
    if args.source[:1] == ["report"]:
        return _report(args)
    from ..census import (  # noqa: PLC0415
        MAX_WORKERS_PER_CPU,
        CensusDB,
        CensusProgress,
        check_cluster,
        check_scheduler,
        max_local_workers,
        parse_cluster,
        parse_install_jobs,
        parse_scheduler,
        progress_stream,
        run_census,
    )

    settings = _settings(args)
    install_jobs = parse_install_jobs(args.install_jobs)
    if args.jobs > max_local_workers():
        raise UsageError(f"--jobs {args.jobs}: at most {max_local_workers()} "
                         f"({MAX_WORKERS_PER_CPU} per CPU)")
    if args.cluster and args.scheduler:
        raise UsageError("give --cluster or --scheduler, not both")
    if args.cluster:
        parse_cluster(args.cluster)
    if args.scheduler:
        parse_scheduler(args.scheduler)
    if args.cluster or args.scheduler:
        check_cluster()
    if args.scheduler:  # before the listing is read and the database made
        check_scheduler(args.scheduler)
    jobs, source = _jobs(args)
    if not args.scheduler:  # a cluster elsewhere checks on its own workers (job by job)
        _check_sandbox(args, jobs)
    db = CensusDB(args.db)
    stream, tty = progress_stream(args.progress)
    if args.quiet:
        stream = None
    try:
        done = run_census(jobs, db, settings, source=source, workers=args.jobs,
                          cluster=args.cluster, scheduler=args.scheduler, refresh=args.refresh,
                          retry_failed=args.retry_failed, install_jobs=install_jobs,
                          progress=lambda total: CensusProgress(total, stream, tty=tty))
    except KeyboardInterrupt as exc:
        kept = len(db.done_keys())
        db.close()
        print(f"mcp-skew census: interrupted; {args.db} keeps {kept} finished rows; run the "
              "same command again to go on", file=sys.stderr)
        return exit_code(exc)
    try:
        statuses: dict[str, int] = {}
        for row in db.rows(report=False):
            statuses[row["status"]] = statuses.get(row["status"], 0) + 1
    finally:
        db.close()
    print(f"census run {done.run}: {done.listed} entries listed, {done.kept} already in "
          f"{args.db}, {done.ran} probed now; the database holds "
          + (", ".join(f"{v} {k}" for k, v in sorted(statuses.items())) or "no rows"))
    return 0

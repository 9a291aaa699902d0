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

from .._output import check_output, emit, terminal_safe
from .._stopping import exit_code
from ..errors import UsageError

__all__ = ["run_command"]  # the census face names it: the parser's func (commands.parsers.Later)



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
    from ._work import Settings  # noqa: PLC0415 - the census only when it runs

    _positive(args, "jobs", "max_pages", "cpu", "memory", "procs", "fsize", "timeout",
              "probe_timeout", "client_timeout", "startup_timeout", "probe_jobs",
              "install_timeout")
    local_root = None
    if args.local_root:
        if not Path(args.local_root).is_dir():
            raise UsageError(f"--local-root {args.local_root}: not a folder")
        local_root = str(Path(args.local_root).resolve())
    if args.sandbox not in ("auto", "none"):
        from ._launch import Unsupported, sandbox_tool  # noqa: PLC0415

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
    from ._launch import SUPPORTED, Unsupported, sandbox_tool  # noqa: PLC0415
    from ._work import NO_NETWORK, NO_SANDBOX  # noqa: PLC0415

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
    from ._report import build_report, render_report  # noqa: PLC0415
    from ._store import CensusDB  # noqa: PLC0415

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
    emit(args.out, text, inputs)  # registry names, serverInfo: shown, not obeyed
    return 0


def _jobs(args: argparse.Namespace) -> tuple[list[Any], str]:
    """The listing's jobs; each entry set aside (not text) is one line on stderr."""
    from ._listing import read_listing, read_registry  # noqa: PLC0415

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


def run_command(args: argparse.Namespace) -> int:
    """``mcp-skew census`` (and ``census report``) on the parsed arguments; the exit code."""
    if args.source[:1] == ["report"]:
        return _report(args)
    from ._ahead import parse_install_jobs  # noqa: PLC0415
    from ._census import run_census  # noqa: PLC0415
    from ._execute import (  # noqa: PLC0415
        MAX_WORKERS_PER_CPU,
        CensusProgress,
        check_cluster,
        check_scheduler,
        max_local_workers,
        parse_cluster,
        parse_scheduler,
        progress_stream,
    )
    from ._store import CensusDB  # noqa: PLC0415

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

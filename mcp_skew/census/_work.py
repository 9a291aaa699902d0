"""One census job, start to end, in whatever process runs it (a pool worker, a Dask worker).

:func:`run_job` takes a :class:`~mcp_skew.census._listing.Job` and the census's
:class:`Settings` (both plain, picklable values) and returns the row to store: a
dict of JSON-able values. It never raises for anything a server or a registry
does: each outcome is a status.

Statuses
--------
``probed``        the probe ran; the row holds its JSON report and the inferred peer (a
                 server that exited mid-conversation is probed twice: :mod:`._again`)
``start-failed``  the server did not start: the command failed, or it exited before a word
``start-timeout``  the server said nothing within the probe's startup bound, in two tries
                 (not a verdict on the server: ``census --retry-failed`` runs it again)
``needs-config``  a required input (an API key, a path) has no value and no default
``install-failed``  the package could not be installed (no such package or version, ...)
``unsupported``   a package registry or transport the census does not run
``skipped``       a remote, without ``--remotes``
``error``         the census itself failed on this job (a bug; kept with its message)

Each server runs in isolation: a scratch folder per job that is its HOME, TMPDIR and
working directory (removed afterwards), an environment holding only PATH, the locale
and what the listing configures, the resource limits of :mod:`._limits`, an optional
sandbox tool, and the probe's own time bounds.

A worker killed outright (its census was killed, a signal stopped the census) cannot remove
its job's scratch folder. So each folder's name says whose it is:
``mcp-skew-census-PID.START.HOST-XXXX`` (the worker's pid, its start time in ``/proc``, and
a tag of this machine and PID namespace), and :func:`sweep_scratch` removes the folders of
this machine whose worker is gone: every worker process before its first job, and the census
process as it starts and as it ends (after a stop, its killed workers' folders).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import socket
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any, Final

from ..realpeers import EnvironmentUnavailable
from ..versions.r2026_07_28 import SERVER_INFO_KEY
from ._again import died_midway, settle
from ._launch import (
    InstalledPackage,
    NeedsConfig,
    Unsupported,
    install,
    limits_argv,
    resolve_config,
    sandbox_argv,
    sandbox_tool,
    visible,
)
from ._listing import Job

__all__ = ["FINAL", "RETRYABLE", "SCRATCH_PREFIX", "STATUSES", "Settings", "install_ahead", "job_row",
           "readiness", "run_job", "sweep_scratch"]

STATUSES: Final = ("probed", "start-failed", "start-timeout", "needs-config", "install-failed",
                   "unsupported", "skipped", "error", "needs-auth")
#: Statuses a re-run keeps (the others are done again): everything but skipped and error.
FINAL: Final = ("probed", "start-failed", "start-timeout", "needs-config", "install-failed",
                "unsupported", "needs-auth")
#: Statuses ``--retry-failed`` runs again: a failure that may pass another time (a start
#: that timed out, a crash at start, a census error, an install that met the network).
RETRYABLE: Final = ("start-failed", "start-timeout", "error")


@dataclass(frozen=True, slots=True)
class Settings:
    """How every job of one census runs (times in milliseconds, sizes in MiB)."""

    remotes: bool = False
    timeout_ms: int = 5_000
    probe_timeout_ms: int = 3_000
    client_timeout_ms: int = 30_000
    startup_timeout_ms: int = 60_000  #: a server's first answer (its cold start), tried twice
    probe_jobs: int = 2
    install_timeout_s: float = 600.0
    cpu_s: int = 60
    memory_mb: int = 4096
    nproc: int = 4096
    fsize_mb: int = 64
    sandbox: str = "auto"
    network: bool = True
    cache_dir: str | None = None
    local_root: str | None = None  #: test hook: registryType "local" scripts live here
    owner_pid: int | None = None  #: the census process on this machine, when it is local


def job_row(job: Job, status: str, **fields: Any) -> dict[str, Any]:
    """A database row for ``job`` (its identity, where it ran, ``status``, then ``fields``)."""
    spec = job.spec
    return {"key": job.key, "server": job.server, "version": job.version, "kind": job.kind,
            "idx": job.index, "registry_type": spec.get("registryType", spec.get("type")),
            "identifier": spec.get("identifier", spec.get("url")),
            "package_version": spec.get("version"), "status": status,
            "worker": f"{os.uname().nodename}:{os.getpid()}", **fields}


def _info_of(result: Any) -> Any:
    """A result's server identity: ``serverInfo`` (legacy InitializeResult), else its
    ``_meta["io.modelcontextprotocol/serverInfo"]`` (2026-07-28: a SHOULD on every result;
    spec DIGEST, schema ``Result._meta``)."""
    if not isinstance(result, dict):
        return None
    meta = result.get("_meta")
    return result.get("serverInfo") or (meta.get(SERVER_INFO_KEY) if isinstance(meta, dict)
                                        else None)


def _server_info(report: Any) -> dict[str, Any] | None:
    """The first server identity a result carried (what the server says it is)."""
    for run in report.runs:
        for rec in run.record.transcript.records():
            if rec.get("dir") != "s2c":
                continue
            info = _info_of((rec.get("message") or {}).get("result"))
            if isinstance(info, dict):
                return {"name": str(info.get("name", "")), "version": str(info.get("version", ""))}
    return None


def _fallback_ms(run: Any) -> int | None:
    """How long a dual-era client spent before its fallback ``initialize`` (simulator path)."""
    sent = [r for r in run.record.transcript.records() if r.get("dir") == "c2s"]
    first = sent[0]["ms"] if sent else None
    init = next((r["ms"] for r in sent if (r.get("message") or {}).get("method") == "initialize"),
                None)
    return None if first is None or init is None else int(init - first)


def readiness(report: Any) -> dict[str, Any]:
    """Which kinds of client reach this server: modern-only, dual-era (and its fallback), legacy."""
    plain = [r for r in report.runs if not r.prober and not r.record.client.quirks]
    out: dict[str, Any] = {"legacy": {}}
    for r in plain:
        client, ok = r.record.client, r.record.status == "ok"
        if client.kind == "modern":
            out["modern"] = ok
            out["modern_reason"] = None if ok else r.record.session.reason
        elif client.kind == "dual":
            out["dual"] = ok
            out["dual_mark"] = r.record.session.mark
            out["dual_fallback_ms"] = (_fallback_ms(r) if ok and r.record.session.mark
                                       == "era-fallback" else None)
        elif len(client.revisions) == 1:
            out["legacy"][client.revisions[0]] = ok
        else:
            out["legacy_any"] = ok
    return out


def _started(report: Any) -> bool:
    return any(r.first_message_ms is not None for r in report.runs)


def _probe(job: Job, settings: Settings, command: tuple[str, ...] | None,
           launch_env: dict[str, str], scratch: Path) -> Any:
    """The probe of one server: the model's clients for real, the others predicted; a server
    that does not start stops the probe after its calibrating clients (no more starts)."""
    from ..probe import ProbeOptions, Target, probe  # noqa: PLC0415 - the runner, in the worker

    opts = ProbeOptions(timeout_ms=settings.timeout_ms, probe_timeout_ms=settings.probe_timeout_ms,
                        client_timeout_ms=settings.client_timeout_ms,
                        startup_timeout_ms=settings.startup_timeout_ms, jobs=settings.probe_jobs)
    if command is None:  # a remote
        url = str(job.spec["url"])
        sse = url if job.spec.get("type") == "sse" else None
        return probe(Target(url=url, sse_url=sse, headers=launch_env or None), opts)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "HOME": str(scratch / "home"), "TMPDIR": str(scratch / "tmp"),
           "XDG_CACHE_HOME": str(scratch / "home" / ".cache"), **launch_env}
    return probe(Target(command=command, cwd=str(scratch / "work"), env=env), opts)


def _start_status(report: Any) -> str:
    """``probed``; or why not: ``start-timeout`` (silent through the startup bound, twice: it
    may be starting still) or ``start-failed``."""
    failed = report.startup.get("failed")
    if failed is None and _started(report):
        return "probed"
    if failed is not None and str(failed).startswith("no answer within"):
        return "start-timeout"
    return "start-failed"


def _command(settings: Settings, installed: InstalledPackage, package_args: tuple[str, ...],
             scratch: Path) -> tuple[str, ...]:
    tool = sandbox_tool(settings.sandbox)
    registry = installed.root is not None  # a local test script (--local-root) is ours
    if tool is None and settings.sandbox == "auto" and registry:
        raise Unsupported(NO_SANDBOX)
    if tool is None and not settings.network:
        raise Unsupported(NO_NETWORK)
    # only a registry's package has the census user's home hidden
    hide = Path.home() if registry else None
    box = sandbox_argv(tool, scratch, settings.network, hide=hide,
                       keep=visible(installed)) if tool else ()
    return (*limits_argv(settings.cpu_s, settings.memory_mb, settings.nproc, settings.fsize_mb),
            *box, *installed.command, *package_args)


#: Why a registry package is not run: ``--sandbox auto`` found no sandbox that works here.
NO_SANDBOX: Final = ("no working sandbox here (--sandbox auto found no bwrap or firejail that "
                     "works): a registry package is not run unsandboxed, as you, unless "
                     "--sandbox none is given")
#: Why nothing is run with ``--no-network`` and no sandbox: nothing would enforce it.
NO_NETWORK: Final = "--no-network needs a sandbox to enforce it (bwrap or firejail)"


def _install(job: Job, settings: Settings) -> InstalledPackage:
    return install(job, cache_dir=Path(settings.cache_dir) if settings.cache_dir else None,
                   local_root=Path(settings.local_root) if settings.local_root else None,
                   timeout=settings.install_timeout_s)


def install_ahead(job: Job, settings: Settings) -> bool:
    """Install the package :func:`run_job` will install for ``job`` (the same checks first: a
    remote, an entry that needs configuration, a transport other than stdio install nothing),
    so that its worker finds the environment built, or being built (it waits on the
    environment's lock). True when the environment is ready. Never raises: what fails here
    fails again in the job's own run, which records it."""
    if job.kind == "remote":
        return False
    try:
        resolve_config(job)
        if job.spec["transport"].get("type") != "stdio":
            return False
        _install(job, settings)
    except Exception:  # the job's own run says what it was
        return False
    return True


def _run(job: Job, settings: Settings, scratch: Path) -> dict[str, Any]:
    if job.kind == "remote" and not settings.remotes:
        return job_row(job, "skipped", error="a remote: probed only with --remotes")
    try:
        launch = resolve_config(job)
    except NeedsConfig as exc:
        return job_row(job, "needs-config", error=str(exc))
    if job.kind == "remote":
        return _finish(job, _probe(job, settings, None, dict(launch.env), scratch), {}, {})
    transport = job.spec["transport"].get("type")
    if transport != "stdio":
        return job_row(job, "unsupported", error=f"package transport {transport!r}: the "
                       "census runs stdio packages")
    started = time.monotonic()
    try:
        installed = _install(job, settings)
    except Unsupported as exc:
        return job_row(job, "unsupported", error=str(exc))
    except EnvironmentUnavailable as exc:
        return job_row(job, "install-failed", error=str(exc),
                       install_s=round(time.monotonic() - started, 2))
    timings = {"install_s": round(time.monotonic() - started, 2),
               "install_cached": installed.cached}

    def probe_in(folder: Path) -> Any:
        """A probe of the installed package, its home, temp and working folders in ``folder``."""
        for sub in ("home", "tmp", "work"):
            (folder / sub).mkdir(parents=True)
        # package arguments follow the package's own command (registry
        # Package.packageArguments); runtime arguments are for the runtimeHint's command
        # (npx, uvx, docker), which the census replaces with the installed package, so they
        # are checked (needs-config) but not passed
        command = _command(settings, installed, launch.package_args, folder)
        return _probe(job, settings, command, dict(launch.env), folder)

    try:
        report = probe_in(scratch)
    except Unsupported as exc:
        return job_row(job, "unsupported", error=str(exc), **timings)
    row = _finish(job, report, timings, dict(installed.dependencies))
    if row["status"] != "probed" or not died_midway(report):
        return row
    # it exited mid-conversation: probed once more (in a scratch folder of its own), and the
    # row says what both probes saw (census/_again.py)
    second = probe_in(scratch / "again")
    return settle(row, _finish(job, second, timings, dict(installed.dependencies)))


def _finish(job: Job, report: Any, timings: dict[str, Any], deps: dict[str, str]
            ) -> dict[str, Any]:
    from ..probe import render  # noqa: PLC0415 - see _probe

    elapsed = [r.elapsed_ms for r in report.runs]
    row = job_row(job, _start_status(report), **timings,
               start_ms=report.startup.get("cold_start_ms"), probe_ms=report.elapsed_ms,
               client_ms=int(median(elapsed)) if elapsed else None,
               server_info=_server_info(report), dependencies=deps,
               report=render(report, "json"))
    if row["status"] != "probed":
        first = report.runs[0] if report.runs else None
        reason = report.startup.get("failed") or (first.record.session.reason if first
                                                  else "no clients ran")
        row["error"] = _start_error(reason, first.stderr if first else "")
        return row
    row.update(peer=report.peer.spec.notation if report.peer.spec else None,
               sentence=report.peer.sentence, readiness=readiness(report))
    if getattr(report, "auth", None) is not None:  # a protected remote: not incompatible
        row["status"] = "needs-auth"
        found = [e["revision"] for e in report.auth.revisions if e["found"]]
        row["sentence"] = (f"authorization required (HTTP {report.auth.status}); clients "
                           f"that find its authorization server: {', '.join(found) or 'none'}")
        row["error"] = row["sentence"]  # the report's failures list says why, in these words
    return row


def _start_error(reason: str | None, stderr: str) -> str:
    """Why a server did not start: the client's reason and the last lines of its stderr."""
    tail = [line.strip() for line in stderr.strip().splitlines() if line.strip()][-2:]
    return (reason or "no answer") + (f"; stderr: {' | '.join(tail)[-400:]}" if tail else "")


_watched: list[int] = []


def _start_time(pid: int) -> bytes | None:
    """A process's start time (``/proc/PID/stat`` field 22), None when it is gone (a zombie,
    killed and not yet collected by its parent, is gone); on a machine without ``/proc``,
    whether it can be signalled."""
    try:
        fields = (Path("/proc") / str(pid) / "stat").read_bytes().rpartition(b")")[2].split()
        return None if fields[0] in (b"Z", b"X") else fields[19]
    except FileNotFoundError:
        if Path("/proc/self").is_dir():
            return None
    except (OSError, IndexError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except OSError:
        pass
    return b"alive"


def watch_owner(pid: int, every_s: float = 0.2) -> None:
    """Once per worker process: exit at once when the census process ``pid`` is gone (killed
    outright, it ended no one), so no worker goes on probing for nobody; the servers the
    worker started go with it (their supervisors see it die: :mod:`mcp_skew.wire._procs`)."""
    if _watched == [os.getpid()] or pid == os.getpid():
        return
    _watched[:] = [os.getpid()]
    born = _start_time(pid)

    def watch() -> None:
        while born is not None and _start_time(pid) == born:
            time.sleep(every_s)
        with contextlib.suppress(OSError):
            os.write(2, f"mcp-skew census worker {os.getpid()}: the census process is gone; "
                     "stopping\n".encode())
        os._exit(1)

    threading.Thread(target=watch, name="census-owner-watch", daemon=True).start()


SCRATCH_PREFIX: Final = "mcp-skew-census-"
_SCRATCH_NAME: Final = re.compile(re.escape(SCRATCH_PREFIX) + r"(\d+)\.(\d+)\.([0-9a-f]{8})-")
_swept: list[int] = []


def _machine_tag() -> str:
    """This machine and PID namespace, in 8 hex digits: a pid means the same process only
    where both are the same (a /tmp may be shared with containers of other namespaces)."""
    try:
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        namespace = 0
    return hashlib.sha256(f"{socket.gethostname()}/{namespace}".encode()).hexdigest()[:8]


def _scratch_prefix() -> str:
    """The name prefix of this process's scratch folders: its pid, start time and machine."""
    born = _start_time(os.getpid()) or b""
    return (f"{SCRATCH_PREFIX}{os.getpid()}.{int(born) if born.isdigit() else 0}."
            f"{_machine_tag()}-")


def sweep_scratch(root: str | Path | None = None) -> int:
    """Remove the scratch folders (in ``root``, default the temporary folder) that a census
    worker of this machine left when it was killed: those whose worker is gone. Folders of
    other users, of other machines or namespaces, of live workers, and anything that is not
    a folder of this name, are left. Returns how many were removed."""
    base = Path(root if root is not None else tempfile.gettempdir())
    tag, removed = _machine_tag(), 0
    try:
        entries = list(base.iterdir())
    except OSError:
        return 0
    for entry in entries:
        found = _SCRATCH_NAME.match(entry.name)
        if found is None or found[3] != tag:
            continue
        try:
            info = entry.lstat()
        except OSError:
            continue
        if not entry.is_dir() or entry.is_symlink() or info.st_uid != os.getuid():
            continue
        born = _start_time(int(found[1]))
        if born is not None and (found[2] == "0" or born == found[2].encode()):
            continue  # its worker runs: the folder is in use
        shutil.rmtree(entry, ignore_errors=True)
        removed += not entry.exists()
    return removed


def _sweep_once() -> None:
    """:func:`sweep_scratch`, once per worker process (before its first job)."""
    if _swept != [os.getpid()]:
        _swept[:] = [os.getpid()]
        with contextlib.suppress(OSError):
            sweep_scratch()


def run_job(job: Job, settings: Settings) -> dict[str, Any]:
    """Install, isolate, probe one job; the row to store (never raises for a server's fault)."""
    if settings.owner_pid is not None:
        watch_owner(settings.owner_pid)
    _sweep_once()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=_scratch_prefix()) as tmp:
        try:
            row = _run(job, settings, Path(tmp))
        except Exception as exc:  # a bug in the census: keep the job's row, say what happened
            row = job_row(job, "error", error=f"mcp-skew error: {exc!r}")
    row["total_s"] = round(time.monotonic() - started, 2)
    return row

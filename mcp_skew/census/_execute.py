"""Run census jobs in parallel: a local process pool, or a Dask cluster (``mcp-skew[cluster]``).

Theory of operation
-------------------
Both executors call :func:`~mcp_skew.census._work.run_job` in worker processes
and hand each row, as it completes, to one callback in this process (the only
writer of the database). A worker that dies takes its job with it: the local
pool is rebuilt and the jobs it lost are run again (up to ``retries`` times, then
stored as ``error``); Dask's scheduler moves a lost task to another worker by
itself, and ``retries`` covers a task that raised. Dask is imported only here, and
only when a cluster is asked for, so ``mcp-skew --help`` and the default install
never import it.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import logging
import multiprocessing
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import SpawnProcess
from typing import Any, ClassVar, Final, TextIO

from .. import _stopping
from .._input import AddressError, parse_url
from .._stopping import Terminated
from ..errors import UsageError
from ._listing import Job
from ._work import Settings, job_row, run_job

__all__ = ["CLUSTER_HINT", "SCHEDULER_BOUND_S", "CensusProgress", "check_cluster", "check_scheduler",
           "parse_cluster", "parse_scheduler", "progress_stream", "run_dask", "run_local"]

Store = Callable[[dict[str, Any]], None]
CLUSTER_HINT: Final = "pip install 'mcp-skew[cluster]'"
_FAILED: Final = ("start-failed", "install-failed", "error")


class CensusProgress:
    """``done / failed / remaining`` and the rate, on one stderr line that rewrites itself."""

    def __init__(self, total: int, stream: TextIO | None, *, tty: bool) -> None:
        self.total, self.stream, self.tty = total, stream, tty
        self.done = self.failed = 0
        self.started = time.monotonic()

    def __call__(self, row: dict[str, Any]) -> None:
        self.done += 1
        self.failed += row.get("status") in _FAILED
        if self.stream is None:
            return
        minutes = max(time.monotonic() - self.started, 1e-6) / 60
        text = (f"census: {self.done} done, {self.failed} failed, {self.total - self.done} "
                f"remaining, {self.done / minutes:.1f} servers/min")
        end = "" if self.tty and self.done < self.total else "\n"
        self.stream.write(("\r\x1b[K" if self.tty else "") + text + end)
        self.stream.flush()


def _lost(job: Job, why: str) -> dict[str, Any]:
    return job_row(job, "error", error=why, worker=None)


def _pool_round(jobs: Sequence[Job], settings: Settings, store: Store, workers: int) -> list[Job]:
    """Run ``jobs`` on one pool; the jobs lost when a worker died (the pool breaks)."""
    lost: list[Job] = []
    with ProcessPoolExecutor(max_workers=max(1, min(workers, len(jobs))),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        futures: dict[Future[dict[str, Any]], Job] = {
            pool.submit(run_job, job, settings): job for job in jobs}
        stored: set[Future[dict[str, Any]]] = set()
        try:
            for future in _stopping.finished(futures):
                stored.add(future)
                try:
                    store(future.result())
                except BrokenProcessPool:
                    lost.append(futures[future])
        except Terminated:
            # SIGTERM or SIGHUP: stop now; the running jobs are lost (run again on resume)
            # and their workers killed, with the servers they started (wire._procs)
            for worker in multiprocessing.active_children():
                worker.kill()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        except KeyboardInterrupt:
            # start nothing new; the running jobs end within their bounds, and are kept
            pool.shutdown(wait=True, cancel_futures=True)
            for future in futures.keys() - stored:
                if not future.cancelled() and future.exception() is None:
                    store(future.result())
            raise
    return lost


def run_local(jobs: Sequence[Job], settings: Settings, store: Store, *, workers: int,
              retries: int = 2) -> None:
    """Run ``jobs`` on ``workers`` local processes (spawned: the probe uses threads).

    When a worker dies, every job the broken pool still held is lost, not only the one
    that killed it; those jobs run again in a new pool of the same width (a crash does not
    make the census narrower). The jobs lost a second time run one at a time, each in a
    pool of its own, so a job that kills its worker ``retries + 1`` times more is stored as
    ``error`` and takes no other job with it.
    """
    lost = _pool_round(jobs, settings, store, workers)
    if len(lost) > 1:  # the jobs a crash took with it: again, as wide as before
        lost = _pool_round(lost, settings, store, workers)
    for job in lost:  # lost twice: one of them kills its worker; each alone now
        for attempt in range(1, retries + 2):
            if not _pool_round([job], settings, store, 1):
                break
            if attempt > retries:
                store(_lost(job, f"a worker died running it {attempt + 1} times"))


def check_cluster() -> None:
    """UsageError with the install line when the ``cluster`` extra is absent."""
    if importlib.util.find_spec("distributed") is None:
        raise UsageError(f"--cluster and --scheduler need Dask: {CLUSTER_HINT}")


def _distributed() -> Any:
    """``dask.distributed`` (the cluster extra), imported on first use; untyped, hence Any."""
    return importlib.import_module("dask.distributed")


#: The configuration of a ``--cluster local:N``: no HTTP routes (see :func:`_client`), and
#: none of Dask's samplers that a census does not read, which take CPU from the jobs on a
#: small machine (measured: the same jobs ran about 30 % longer in Dask's workers than in
#: the local pool's): the statistical profiler (every 10 ms in each worker), the system
#: monitor (every 500 ms in the scheduler, each nanny and each worker: 10 s here) and the
#: nannies' memory monitor (every 100 ms: 2 s here). An existing cluster (``--scheduler``)
#: keeps its own configuration.
LOCAL_CLUSTER_CONFIG: Final[dict[str, object]] = {
    "distributed.scheduler.http.routes": [],
    "distributed.worker.http.routes": [],
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "10s",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.worker.memory.monitor-interval": "2s",
    # Dask's default, stated: the nannies start their workers by spawn, the context that
    # SpawnGate watches
    "distributed.worker.multiprocessing-method": "spawn",
}

#: How long a stop waits for a worker process whose start is under way to be started: a
#: start is a pickle of about 8 kB, a vfork and exec, and a write to a pipe: milliseconds
#: on a busy machine. A start that takes longer is stuck (its child does not read its
#: pipe); its child is killed as it is (:func:`_end_spawned`).
START_BOUND_S: Final = 5.0


class StartRefused(RuntimeError):
    """A worker process was to start after the census began to stop."""


class SpawnGate:
    """The door each worker process of a ``--cluster local`` goes through as it starts.

    Dask's nannies start their workers from threads of Dask's (``multiprocessing`` spawn):
    the child is forked, and then the parent writes what the child is to run into a pipe;
    a child whose parent exits before that write ends reads a closed pipe and prints an
    ``EOFError`` traceback (or, reading after the census unlinked the nanny's semaphores at
    exit, a ``FileNotFoundError`` one). And a child becomes one of
    ``multiprocessing.active_children()``, which a stop kills, only once its start is
    over. So every start holds this gate's lock; :meth:`close` lets a start under way
    finish and refuses every later one, after which ``active_children()`` is every worker
    process this census started."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.shut = False

    def start(self, begin: Callable[[], None]) -> None:
        """Run ``begin`` (a process's start), one at a time; :class:`StartRefused` once shut."""
        with self._lock:
            if self.shut:
                raise StartRefused("the census is stopping: no new worker process")
            begin()

    def close(self, bound_s: float) -> bool:
        """Refuse every start from now on; wait up to ``bound_s`` for one under way to end.
        False when it did not end (it is stuck: its child is to be killed as it is)."""
        self.shut = True  # a start waiting for the lock is refused when it gets it
        if not self._lock.acquire(timeout=bound_s):
            return False
        self._lock.release()
        return True

    def reopen(self) -> None:
        """Let starts through again: the cluster failed to start, no stop came, and the
        process goes on (:func:`_gated_spawns` then takes the gate away)."""
        self.shut = False


class _GatedProcess(SpawnProcess):
    """A spawn ``Process`` that starts through :attr:`gate` (see :func:`_gated_spawns`)."""

    gate: ClassVar[SpawnGate] = SpawnGate()

    def start(self) -> None:
        type(self).gate.start(super().start)


@contextlib.contextmanager
def _gated_spawns() -> Iterator[SpawnGate]:
    """Every process of the spawn context (Dask's nannies take it from
    ``multiprocessing.get_context``) starts through a new :class:`SpawnGate` inside. A gate
    that was closed (the census stopped) stays in place to the end of the process: Dask's
    loop runs on, and a nanny whose worker was killed would start another."""
    context = multiprocessing.get_context("spawn")
    gate = _GatedProcess.gate = SpawnGate()
    vars(context)["Process"] = _GatedProcess
    try:
        yield gate
    finally:
        if not gate.shut:
            vars(context).pop("Process", None)


def is_spawn_child(cmdline: Sequence[str]) -> bool:
    """Whether a process's command line is a ``multiprocessing`` spawn child's (as the
    parent execs it: ``python -c 'from multiprocessing.spawn import spawn_main; ...'
    --multiprocessing-fork``; the resource tracker's has no such flag)."""
    return cmdline[-1:] == ["--multiprocessing-fork"]


def _end_spawned(*, stuck: bool) -> None:
    """Kill every worker process this census started; when a start was ``stuck``, its
    child too, which ``active_children()`` does not hold yet (found among this process's
    children by its command line)."""
    for child in multiprocessing.active_children():
        child.kill()
    if not stuck:
        return
    try:
        psutil = importlib.import_module("psutil")  # Dask's dependency: here with Dask
    except ImportError:
        return
    for proc in psutil.Process().children():
        with contextlib.suppress(psutil.Error):
            if is_spawn_child(proc.cmdline()):
                proc.kill()


def _client(cluster: str | None, scheduler: str | None, gate: SpawnGate) -> tuple[Any, Any]:
    dd = _distributed()
    if scheduler is not None:
        check_scheduler(scheduler)
        try:
            return dd.Client(scheduler, timeout="10s"), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise UsageError(f"--scheduler {scheduler}: cannot connect: {exc}") from None
    _, _, count = (cluster or "local").partition(":")
    # On loopback, and no dashboard (of the scheduler or of a worker): no port for others.
    # Dask's scheduler and workers start an HTTP server whatever the dashboard setting (the
    # scheduler's on the dashboard's well-known 8787): theirs get no routes (no /metrics,
    # /health, /json) and the scheduler's a port of its own (0: free, never 8787). The
    # nannies pass this configuration on to the worker processes they start.
    local = None
    try:
        with importlib.import_module("dask").config.set(LOCAL_CLUSTER_CONFIG):
            local = dd.LocalCluster(n_workers=int(count) if count else None,
                                    threads_per_worker=1, processes=True, host="127.0.0.1",
                                    dashboard_address=None, worker_dashboard_address=None,
                                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
        return dd.Client(local), local
    except BaseException as exc:  # a stop (Ctrl-C, SIGTERM) while the cluster starts
        _abandon_cluster(local, gate)
        _stopping.check()  # a stop that came out of Dask's wait as another error
        if not isinstance(exc, KeyboardInterrupt):  # a failure, not a stop: the process
            gate.reopen()  # goes on (a library's caller), its spawns and logging as they were
            logging.disable(logging.NOTSET)
        raise


def _abandon_cluster(local: Any, gate: SpawnGate) -> None:
    """After a stop while a ``LocalCluster`` started: end its worker processes, close what
    can be closed, and take every unfinished cluster out of Dask's own list, which an
    ``atexit`` hook of Dask closes again at exit (a cluster whose workers were still
    starting fails there with an ``AssertionError`` traceback: ``Status.init``)."""
    # the command is stopping, its one line said: what Dask's threads log of the start it
    # cut short (a nanny's task "never retrieved", a worker it lost, a start refused) is not
    # news; Dask's loggers below "distributed" write through its handler, so all of them
    logging.disable(logging.CRITICAL)
    # no worker process starts from now on, and one whose start is under way is started
    # (or stuck) before the kill: a worker killed before its start ended, or left to read
    # its pipe after the census exits, prints a traceback (SpawnGate); and the workers end
    # before the close, which unlinks the nannies' semaphores that a starting worker reads
    _end_spawned(stuck=not gate.close(START_BOUND_S))
    if local is not None:
        with contextlib.suppress(Exception):
            local.close(timeout=2)
    spec = sys.modules.get("distributed.deploy.spec")
    instances = getattr(getattr(spec, "SpecCluster", None), "_instances", None)
    if instances is not None:
        for cluster in list(instances):
            if getattr(getattr(cluster, "status", None), "name", "") != "closed":
                instances.discard(cluster)


#: The most workers ``--cluster local:N`` starts: each is a process that installs and runs
#: servers, so more than a few per CPU only contend (and a typo such as 99999 would fork
#: until the machine stops).
MAX_WORKERS_PER_CPU: Final = 4


def max_local_workers() -> int:
    """The cap on ``local:N``: :data:`MAX_WORKERS_PER_CPU` per CPU this process may use."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return MAX_WORKERS_PER_CPU * max(1, cpus or 1)


def parse_cluster(text: str) -> str:
    """``local`` or ``local:N`` (1 <= N <= :func:`max_local_workers`); UsageError otherwise."""
    kind, sep, count = text.partition(":")
    cap = max_local_workers()
    if kind != "local" or (sep and not (count.isascii() and count.isdigit() and len(count) < 7
                                        and 1 <= int(count) <= cap)):
        raise UsageError(f"--cluster {text[:40]!r}: expected local or local:N (N workers, "
                         f"1 to {cap}: {MAX_WORKERS_PER_CPU} per CPU)")
    return text


def parse_scheduler(text: str) -> str:
    """``tcp://HOST:PORT`` (or ``tls://``): a Dask scheduler's address; UsageError otherwise."""
    try:
        return parse_url(text, ("tcp", "tls"), need_port=True)
    except AddressError as exc:
        raise UsageError(f"--scheduler: {exc}") from None


#: How long ``--scheduler`` is given to accept a connection and say its first words.
SCHEDULER_BOUND_S: Final = 10.0
#: The most frames a Dask message's prelude may announce, and the most bytes it may hold,
#: for the first message of a scheduler to be taken as one (its handshake is a few hundred).
_MOST_FRAMES: Final = 64
_MOST_MESSAGE: Final = 64 << 20


def _read_exactly(conn: socket.socket, size: int) -> bytes:
    got = b""
    while len(got) < size:
        chunk = conn.recv(size - len(got))
        if not chunk:
            break
        got += chunk
    return got


def check_scheduler(address: str, bound_s: float = SCHEDULER_BOUND_S) -> None:
    """That ``address`` (``tcp://HOST:PORT``) is a Dask scheduler, in ``bound_s``: UsageError
    (one line) for a closed port, a server that says nothing, or one that does not speak Dask.

    Dask's client waits without end on a server that accepts and never answers (an HTTP
    server waits for a request; a port that accepts and says nothing), so this looks first.
    A Dask server speaks first: on a new connection it writes its handshake, one message in
    Dask's TCP framing (``distributed/comm/tcp.py``: an 8-byte length, then the frames'
    prelude, ``distributed/protocol/utils.py`` ``pack_frames_prelude``: an 8-byte count of
    frames and their lengths). Over ``tls://`` the client speaks first: only the connection
    is checked."""
    parts = urllib.parse.urlsplit(address)
    host, port = parts.hostname or "", parts.port or 0
    where = f"--scheduler {address}"
    try:
        with socket.create_connection((host, port), timeout=bound_s) as conn:
            if parts.scheme.lower() != "tcp":
                return
            conn.settimeout(bound_s)
            head = _read_exactly(conn, 16)
    except TimeoutError:
        raise UsageError(f"{where}: not a Dask scheduler: it accepted the connection and "
                         f"said nothing within {bound_s:g} s") from None
    except OSError as exc:
        raise UsageError(f"{where}: cannot connect: {exc.strerror or exc}") from None
    if len(head) < 16:
        raise UsageError(f"{where}: not a Dask scheduler: it closed the connection "
                         "without a Dask handshake")
    total, frames = struct.unpack("QQ", head)
    if not (1 <= frames <= _MOST_FRAMES and 8 * (1 + frames) <= total <= _MOST_MESSAGE):
        raise UsageError(f"{where}: not a Dask scheduler: its first bytes are not a Dask "
                         "message")


def run_dask(jobs: Sequence[Job], settings: Settings, store: Store, *, cluster: str | None,
             scheduler: str | None, retries: int = 2) -> None:
    """Run ``jobs`` as Dask tasks; each row is stored here as its task completes, and the
    task's result is released then: the cluster holds no finished job's result, so a
    worker lost later costs only the jobs it was running (nothing finished is recomputed)."""
    with _gated_spawns() as gate:
        client, local = _client(cluster, scheduler, gate)
        try:
            futures = {client.submit(run_job, job, settings, key=f"census-{job.key}",
                                     retries=retries, pure=False): job for job in jobs}
            waiting = _distributed().as_completed(list(futures))
            for future in waiting:
                job = futures.pop(future)
                try:
                    store(future.result())
                except Exception as exc:  # KilledWorker, a lost scheduler: the row says so
                    store(_lost(job, f"dask: {type(exc).__name__}: {exc}"))
                finally:
                    future.release()
                del future
        finally:
            client.close()
            if local is not None:
                local.close()


def progress_stream(enabled: bool) -> tuple[TextIO | None, bool]:
    """Where progress goes: stderr when it is a terminal or when asked (``--progress``)."""
    tty = sys.stderr.isatty()
    return (sys.stderr if enabled or tty else None), tty

"""``probe_client()``: run a client program against every server, read it, infer it, judge it.

The runs go one or a few at a time (``jobs``), each with its own wire log in a
working directory (``record_dir``, or a temporary one that is removed); the
observations then give the inferred client (:func:`~._infer.infer`), and the
simulator gives, per server, what the spec's plain client and the inferred model
do (:mod:`._expect`). Deterministic for a deterministic client: rows are in the
order of the server set, whatever order the runs finish in.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from .._stopping import gather
from ..simulator import PeerSpec
from ..versions import Registry
from ._expect import era_table_says, plain, predict
from ._extensions import with_extensions
from ._findings import Row, client_findings
from ._infer import InferredClient, infer
from ._launch import Launch, RealClientRun, Running, Transport, run_client, run_upgrade
from ._observe import Observation, observe
from ._servers import ServerCase, split_upgrade

__all__ = ["DEFAULT_DEADLINE_S", "ClientReport", "ProbeClientOptions", "Server", "probe_client"]

Progress = Callable[[str], None]
#: One client run's deadline (``--timeout``), seconds: longer than the longest wait of any
#: named client (the TypeScript v2 client's and the Inspector's 60 s probe wait), so that a
#: client's own waits end before the run does (issue 37; tested against the catalogue).
DEFAULT_DEADLINE_S: Final = 90.0


@dataclass(frozen=True, slots=True)
class Server:
    """A server of the set: as given, resolved, and what it is for."""

    spec: str
    peer: PeerSpec
    why: str = ""
    #: an upgrade case (``BEFORE->AFTER``): the server of the first run; ``peer`` is AFTER
    before: PeerSpec | None = None


@dataclass(frozen=True, slots=True)
class ProbeClientOptions:
    """Everything one ``probe-client`` needs but the client's words."""

    servers: tuple[Server, ...]
    registry: Registry
    transport: Transport = "stdio"
    deadline_s: float = DEFAULT_DEADLINE_S
    jobs: int = 1
    record_dir: Path | None = None
    cwd: str | None = None
    env: Mapping[str, str] | None = None
    profile_args: tuple[str, ...] = ()
    required: tuple[str, ...] = ()


@dataclass(slots=True)
class ClientReport:
    """The card: the client's words, a row per server, the inferred model, the findings."""

    argv: tuple[str, ...]
    transport: str
    rows: list[Row]
    runs: list[RealClientRun]
    inferred: InferredClient
    findings: list[Any] = field(default_factory=list)
    required: tuple[str, ...] = ()

    def reached(self, revision: str) -> list[str]:
        """The servers the client negotiated ``revision`` with (and then worked)."""
        return [r.server for r in self.rows
                if r.observed.revision == revision and r.observed.outcome == "works"]

    def required_failures(self) -> list[str]:
        """One line per required revision the client reached with no server."""
        return [f"{rev}: no server of {rev} was reached" for rev in self.required
                if not self.reached(rev)]


def cases(servers: Sequence[ServerCase], resolve: Callable[[str], PeerSpec]) -> tuple[Server, ...]:
    """Server cases resolved to peers (``resolve`` raises a one-line error on a bad spec);
    an upgrade case (``BEFORE->AFTER``) resolves both."""
    out = []
    for c in servers:
        before, after = split_upgrade(c.spec)
        out.append(Server(c.spec, resolve(after), c.why,
                          resolve(before) if before is not None else None))
    return tuple(out)


def _row(index: int, server: Server, obs: Observation, inferred: InferredClient,
         transport: str) -> Row:
    spec = model = None
    table = None
    if inferred.spec is not None:
        spec = predict(plain(inferred.spec), server.peer, transport, before=server.before)
        model = predict(inferred.spec, server.peer, transport, before=server.before)
        if not server.peer.quirks:
            table = era_table_says(inferred.spec, server.peer)
    return Row(index, server.spec, server.peer.kind, server.why, obs, spec, model, table)


def _run_all(argv: tuple[str, ...], opts: ProbeClientOptions, workdir: Path,
             progress: Progress | None) -> list[RealClientRun]:
    running = Running()
    launch = Launch(argv, opts.transport, opts.deadline_s, workdir, opts.cwd, opts.env,
                    opts.profile_args, running)

    def one(item: tuple[int, Server]) -> RealClientRun:
        index, server = item
        if server.before is not None:
            run = run_upgrade(server.before, server.peer, index, launch)
        else:
            run = run_client(server.peer.notation, server.peer, index, launch)
        run.server = server.spec
        if progress and not running.stopped:  # a stopped run is no news
            how = "ended at the deadline" if run.timed_out else f"exit {run.exit_code}"
            progress(f"{server.spec}: {run.spawn_error or how} ({run.seconds:g} s)")
        return run

    pool = ThreadPoolExecutor(max(1, opts.jobs))
    try:
        return gather([pool.submit(one, item) for item in enumerate(opts.servers, 1)])
    except BaseException:
        # a signal (KeyboardInterrupt, _stopping.Terminated) or an error: end every client
        # running now with its family, so the threads waiting on them return at once (not
        # at --timeout), and start no other
        running.stop()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def probe_client(argv: Sequence[str], opts: ProbeClientOptions,
                 progress: Progress | None = None) -> ClientReport:
    """Run the client ``argv`` (with ``{server}`` / ``{url}``) against every server."""
    words = tuple(argv)
    if opts.record_dir is not None:
        opts.record_dir.mkdir(parents=True, exist_ok=True)
        runs = _run_all(words, opts, opts.record_dir, progress)
    else:
        with tempfile.TemporaryDirectory(prefix="mcp-skew-probe-client-") as tmp:
            runs = _run_all(words, opts, Path(tmp), progress)
    observations = [observe(s.spec, r.entries, r.stamps, r.exit_code, r.timed_out,
                            registry=opts.registry)
                    for s, r in zip(opts.servers, runs, strict=True)]
    inferred = with_extensions(infer(observations, opts.registry, label=""),
                               [o.extensions for o in observations])
    rows = [_row(i, s, o, inferred, opts.transport)
            for i, (s, o) in enumerate(zip(opts.servers, observations, strict=True), 1)]
    kind = inferred.spec.kind if inferred.spec else None
    report = ClientReport(words, opts.transport, rows, runs, inferred,
                          required=opts.required)
    report.findings = client_findings(rows, kind)
    return report

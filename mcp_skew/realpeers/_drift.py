"""Drift checks: does a named peer's model still behave like the real package?

Theory of operation
-------------------
A **server** model is checked by installing the real package (:mod:`._installs`),
starting its server script over stdio (:class:`~mcp_skew.wire.StdioLink`)
and running the probe's client set against it, each client in a fresh process,
with the simulator's own client code (``SimClient.negotiate`` then the drift
scenario). The same clients run against the model on a ``MemoryLink``; both
runs are reduced to :class:`~._facets.Facets` (status, revision, era, mark, path, the
error codes seen, each step's answer) and compared (:mod:`._facets`). Over Streamable
HTTP (:func:`verify_server_http`) the real server listens on a local port instead.

A **client** model is checked the other way round (:mod:`._client_drift`): the real
client package is driven by a small script against ``mcp-skew serve SPEC``, and
:func:`._verify.verify` checks a name in each role it has a model for.

Both sides use the same timeouts. The model side is what ``run()`` does, minus
its omniscient era-mismatch verdict, which nothing on a real wire can make.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from .._stopping import gather
from ..peers import Resolved, label_for, probe_clients
from ..simulator import SCENARIOS, Link, MemoryLink, PeerSpec, Scenario, SimServer, rule_for
from ..simulator.machine import Reply, Timeout
from ..versions import Message
from ..wire import end, family_usage, spawn
from ._envs import EnvironmentUnavailable
from ._facets import SERVER_FACETS, Comparison, DriftReport, Facets, install_for, report_for, run_client
from ._installs import server_command

if TYPE_CHECKING:
    from ..wire import StdioLink

__all__ = [
    "DRIFT_SCENARIO",
    "drift_clients",
    "verify_server",
    "verify_server_http",
]
HTTP: Final = rule_for("http")

#: Steps the real servers answer from the SDK's protocol layer: the default scenario
#: without the unknown tool and prompts/list, which the test server's application
#: layer answers (see each model's gaps).
DRIFT_SCENARIO: Final = Scenario(
    "drift", "the protocol-level steps of the default scenario",
    tuple(s for s in SCENARIOS["default"].steps
          if s.name not in ("unknown tool", "undeclared capability (prompts)")))
#: For a server with tools of its own (the reference servers): the steps any server answers
#: from its protocol layer alone.
PROTOCOL_SCENARIO: Final = Scenario(
    "protocol", "list the tools, read a missing resource",
    tuple(s for s in SCENARIOS["default"].steps if s.name in ("list tools", "missing resource")))
DRIFT_SCENARIOS: Final = {"drift": DRIFT_SCENARIO, "protocol": PROTOCOL_SCENARIO}

#: Per-request timeout on both sides of a server check (ms).
REQUEST_TIMEOUT_MS: Final = 5_000
#: The least a raw probe waits for each answer before calling it "none", and for the server's
#: exit after the end of its stdin before calling it "outlives stdin" (ms); the first answer
#: of each process has the startup allowance on top (:func:`cold_start_ms`).
RAW_TIMEOUT_MS: Final = 2_000
#: Each raw wait is this many times the slowest the same server was seen to be in this run
#: (its cold start, or an answer of the same process): see :func:`raw_wait_ms`.
RAW_FACTOR: Final = 4
#: The most a raw wait lasts however slow the server was (ms): the probe's startup bound.
RAW_CEILING_MS: Final = 60_000


def raw_wait_ms(slowest_ms: int | None) -> int:
    """How long a raw probe waits for an answer, or for an exit after stdin's end, before it
    says "none" or "outlives stdin": :data:`RAW_FACTOR` times ``slowest_ms`` (the slowest the
    same server was seen to be in this run: its cold start, the same process's start until it
    was idle, or the slowest answer of the same process so far), never under
    :data:`RAW_TIMEOUT_MS` nor over :data:`RAW_CEILING_MS`.

    The wait ends at the event (the answer, the exit); only a silence is waited out. A load
    that slows the server slows its cold start as much, so the bound grows with the load; a
    server that answers or exits at once is read the same, and one that never does is still
    read as silent or outliving its stdin, only later. So on a quiet machine every probe
    reads as it did with a fixed 2 s, where a server answers in milliseconds or not at all.
    """
    if slowest_ms is None:
        return RAW_TIMEOUT_MS
    return max(RAW_TIMEOUT_MS, min(RAW_CEILING_MS, RAW_FACTOR * slowest_ms))


def _raw_request(msg_id: int, method: str, params: Message | None = None, *,
                 modern: bool = False) -> Message:
    body = dict(params or {})
    if modern:
        body["_meta"] = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                         "io.modelcontextprotocol/clientCapabilities": {},
                         "io.modelcontextprotocol/clientInfo": {"name": "mcp-skew-drift",
                                                                "version": "0"}}
    message: Message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if body:
        message["params"] = body
    return message


def _raw_initialize(msg_id: int, revision: str) -> Message:
    return _raw_request(msg_id, "initialize", {
        "protocolVersion": revision, "capabilities": {},
        "clientInfo": {"name": "mcp-skew-drift", "version": "0"}})


_INITIALIZED: Final[Message] = {"jsonrpc": "2.0", "method": "notifications/initialized"}


@dataclass(frozen=True, slots=True)
class RawLine:
    """A line sent as it is (not JSON): the answer is read as one with id null."""

    text: str


@dataclass(frozen=True, slots=True)
class CloseStdin:
    """Close the server's standard input; the answer is whether the process outlives it
    (waited for as long as an answer: :func:`raw_wait_ms`)."""


#: One item of a raw probe: a message, a raw line, or the end of standard input.
RawItem = Message | RawLine | CloseStdin

#: A modern request and a handshake, sent at once: a server of either era answers one.
_EITHER_ERA: Final[tuple[Message, Message]] = (
    _raw_request(1, "server/discover", modern=True), _raw_initialize(2, "2025-11-25"))

#: Raw message sequences, each in a fresh process: the columns of the measured table in
#: docs/real-peers.md (what the probe's clients never send: early ping, early tools/list,
#: an unknown method, a bogus revision).
RAW_PROBES: Final[tuple[tuple[str, tuple[RawItem, ...]], ...]] = (
    ("raw: discover+_meta, initialize", _EITHER_ERA),
    ("raw: discover, initialize", (_raw_request(1, "server/discover"),
                                   _raw_initialize(2, "2025-11-25"))),
    ("raw: ping, initialize", (_raw_request(1, "ping"), _raw_initialize(2, "2025-06-18"))),
    ("raw: foo/bar, initialize", (_raw_request(1, "foo/bar"), _raw_initialize(2, "2025-06-18"))),
    ("raw: tools/list, initialize", (_raw_request(1, "tools/list"),
                                     _raw_initialize(2, "2025-06-18"))),
    ("raw: initialize 1999-01-01, foo/bar, missing resource",
     (_raw_initialize(1, "1999-01-01"), _INITIALIZED, _raw_request(2, "foo/bar"),
      _raw_request(3, "resources/read", {"uri": "mem://missing"}),
      _raw_request(4, "tools/list"))),
    ("raw: malformed line, initialize, stdin closed",
     (RawLine("{not json"), _raw_initialize(1, "2025-06-18"), CloseStdin())),
    ("raw: tools/list without a version (_meta without one)",
     (_raw_request(1, "tools/list", {"_meta": {
         "io.modelcontextprotocol/clientCapabilities": {}}}),)),
)


# -- servers -----------------------------------------------------------------------------------

def _cpu_sample(pid: int) -> tuple[str, int] | None:
    """The state and CPU ticks of the process ``pid`` started (:func:`~mcp_skew.wire.spawn`'s
    process is the supervisor, which sleeps at once; the server runs under it): its whole
    family's ticks, summed, and ``R`` if one of them is runnable, ``D`` if one is in disk
    sleep, else the state of ``pid`` itself, from one scan of ``/proc``
    (:func:`~mcp_skew.wire.family_usage`). None once ``pid`` is gone (or without /proc)."""
    members = family_usage(pid)
    if pid not in members:
        return None
    states = {state for state, _ in members.values()}
    ticks = sum(t for _, t in members.values())
    return next((s for s in ("R", "D") if s in states), members[pid][0]), ticks


def wait_until_idle(pid: int, limit_s: float = 20.0, quiet_polls: int = 3,
                    poll_s: float = 0.1) -> float:
    """Wait until a freshly started server stops using CPU (it is waiting for input).

    A real client does not wait, but a probe timeout of a few seconds must not
    race an interpreter's imports. A poll is quiet when the process used no CPU since
    the last one *and* is asleep (:func:`_quiet`): on a busy machine a process still
    importing can wait its turn for longer than a poll without using CPU, and it is then
    runnable (``R``) or reading its files (``D``), not asleep on its input. Returns the
    seconds waited.
    """
    started = time.monotonic()
    sample, quiet = _cpu_sample(pid), 0
    if sample is None:  # no /proc: a fixed grace period
        time.sleep(1.0)
        return time.monotonic() - started
    last = sample[1]
    while time.monotonic() - started < limit_s and quiet < quiet_polls:
        time.sleep(poll_s)
        sample = _cpu_sample(pid)
        if sample is None:
            break
        state, ticks = sample
        quiet = quiet + 1 if _quiet(state, ticks, last) else 0
        last = ticks
    return time.monotonic() - started


def _quiet(state: str, ticks: int, last: int) -> bool:
    """A poll of a process that waits for something (its input, a connection): no CPU used
    since the last one and asleep (``S``). Runnable (``R``: it waits its turn for a CPU) and
    disk sleep (``D``: it reads its files, as an interpreter loading modules on a busy
    machine does) are still starting."""
    return ticks == last and state == "S"


def wait_listening(proc: subprocess.Popen[bytes], port: int, idle_s: float = 5.0,
                   ceiling_s: float = 600.0, poll_s: float = 0.1) -> bool:
    """Wait until ``proc`` accepts connections on ``port`` (True), or it exits, or it has been
    idle for ``idle_s`` without listening (:func:`_quiet` at each poll), or ``ceiling_s``
    passed (False).

    A server still starting uses CPU or waits its turn for one; a busy machine stretches that
    time, never the time it sits idle without listening, so the wait ends at the event or at
    a silence, not at a time the load can pass (a fixed 20 s did not cover fastmcp's start
    at load 20). Without ``/proc`` the idle streak is not seen: ``ceiling_s`` ends it.
    """
    import socket  # noqa: PLC0415 - I/O only when checking

    started = time.monotonic()
    idle_since: float | None = None
    last: int | None = None
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1.0).close()
            return True
        except OSError:
            pass
        now = time.monotonic()
        if proc.poll() is not None or now - started > ceiling_s:
            return False
        sample = _cpu_sample(proc.pid)
        if sample is not None and last is not None and _quiet(sample[0], sample[1], last):
            idle_since = now if idle_since is None else idle_since
            if now - idle_since > idle_s:
                return False
        else:
            idle_since = None
        last = sample[1] if sample is not None else None
        time.sleep(poll_s)


def _short(peer: PeerSpec) -> str:
    """The short label of a built-in client (the matrix's labels)."""
    return peer.label or label_for(peer)


def drift_clients() -> tuple[PeerSpec, ...]:
    """The probe's client set (every built-in client peer)."""
    return probe_clients()


def _real_server_run(command: list[str], client: PeerSpec,
                     scenario: Scenario = DRIFT_SCENARIO, allowance_ms: int = 0) -> Facets:
    """``client`` against a fresh process of ``command``; its first answer may come
    ``allowance_ms`` late (the cold start: the model starts at once, so a client's wait, such
    as a dual-era client's 3 s for server/discover, is measured from the server's start-up)."""
    link = _real_link(command, RUN_BUDGET_MS + allowance_ms)
    link.startup_allowance_ms = allowance_ms
    return run_client(client, link, scenario, REQUEST_TIMEOUT_MS)


def _answer(event: Any) -> str:
    if isinstance(event, Reply):
        if event.error is not None:
            data = event.error.get("data")
            if event.code == -32022 and isinstance(data, dict):  # what it says was requested
                requested = data.get("requested", "(none)")
                return f"error {event.code} requested={requested}"
            return f"error {event.code}"
        version = (event.result or {}).get("protocolVersion")
        return f"result {version}" if isinstance(version, str) else "result"
    return "none" if isinstance(event, Timeout) else "exit"


def _raw_run(link: Link, items: Sequence[RawItem], slowest_ms: int | None = None) -> Facets:
    """Each item in turn over a real stdio link or a model's :class:`MemoryLink`; the
    answers as read (a raw line and the end of stdin are the edge's, :mod:`mcp_skew.serve`).
    On a real link each wait is :func:`raw_wait_ms` of the slowest the server was seen to be:
    ``slowest_ms`` (its start in this run) or an answer of this process so far."""
    from ..wire import StdioLink  # noqa: PLC0415 - I/O only when checking

    answers: list[str] = []
    slowest = slowest_ms

    def timed(ask: Callable[[Any, int], Any], what: Any) -> str:
        nonlocal slowest
        started = time.monotonic()
        event = ask(what, raw_wait_ms(slowest))
        if isinstance(event, Reply):  # an answer: how long this server takes to give one
            took = int((time.monotonic() - started) * 1000)
            slowest = took if slowest is None else max(slowest, took)
        return _answer(event)

    for item in items:
        if isinstance(item, RawLine):
            if isinstance(link, StdioLink):
                answers.append(timed(link.request_line, item.text))
            else:
                assert isinstance(link, MemoryLink)
                reaction = link.server.unparsable("not JSON")
                answers.append(f"error {reaction.replies[0]['error']['code']}"
                               if reaction.replies else "none")
        elif isinstance(item, CloseStdin):
            if isinstance(link, StdioLink):
                alive = link.outlives_stdin(raw_wait_ms(slowest))
            else:
                assert isinstance(link, MemoryLink)
                alive = link.server.policy.outlives_stdin
            answers.append("outlives stdin" if alive else "exits on stdin EOF")
        elif "id" not in item:
            link.notify(item)
        else:
            answers.append(timed(link.request, item))
    link.close()
    return Facets("ok", None, None, answers=answers)


def startup_bound_ms() -> int:
    """The longest a server's first answer is waited for: the probe's startup bound."""
    from ..probe import ProbeOptions  # noqa: PLC0415 - the runner only when checking

    return ProbeOptions().startup_timeout_ms


#: What the cold start is measured with when :data:`_EITHER_ERA` got no answer before the
#: process ended: the handshake alone (mcp 1.0 to 1.9.3 say nothing to a request before
#: ``initialize`` and exit on the next message, so the pair ends them unanswered).
_HANDSHAKE_ONLY: Final[tuple[Message]] = (_raw_initialize(1, "2025-11-25"),)


def _first_answer_ms(command: list[str], messages: Sequence[Message]) -> tuple[int | None, bool]:
    """``messages`` written at once to a fresh process of ``command``; when its first message
    came (None: none before :func:`startup_bound_ms` or its exit), and whether it exited."""
    link = _real_link(command)
    try:
        for message in messages:
            link.notify(message)  # written as it is: the first answer to any is the one
        give_up = time.monotonic() + startup_bound_ms() / 1000
        while (link.first_message_ms is None and link.proc is not None
               and link.proc.poll() is None and time.monotonic() < give_up):
            time.sleep(0.02)
        exited = link.proc is None or link.proc.poll() is not None
        return link.first_message_ms, exited
    finally:
        link.close()


def cold_start_ms(command: list[str]) -> int | None:
    """How long the real server takes to give its first answer, measured in a process of its
    own: :data:`_EITHER_ERA` sent at once, waited for up to :func:`startup_bound_ms`; if the
    process ended without an answer, :data:`_HANDSHAKE_ONLY` in another. None when it said
    nothing. Some servers import lazily on their first request, so the cold start is the first
    answer, not the end of the interpreter's start."""
    first, exited = _first_answer_ms(command, _EITHER_ERA)
    if first is None and exited:
        first, _ = _first_answer_ms(command, _HANDSHAKE_ONLY)
    return first


def _startup_allowance(cold_ms: int | None, jobs: int) -> int:
    """The extra wait for each raw probe's and client run's first answer: the probe's
    allowance for the measured cold start, or the whole startup bound when none was measured
    (a server silent at its cold start: nothing says how late its first answer may come on
    this machine now, and a wait that ends at the answer costs nothing where one comes)."""
    from ..probe import allowance  # noqa: PLC0415 - the runner only when checking

    if cold_ms is None:
        return startup_bound_ms()
    return allowance(cold_ms, jobs, startup_bound_ms())


#: The overall deadline of a client run against a real server process, from its idle start
#: (ms), on top of its startup allowance: far above the client's timeouts summed.
RUN_BUDGET_MS: Final = 120_000


def _real_link(command: list[str], budget_ms: int = RUN_BUDGET_MS) -> StdioLink:
    """A fresh process of ``command``, once idle (:func:`wait_until_idle`); its overall deadline
    is ``budget_ms`` from then: the start, which a busy machine stretches, is not counted."""
    from ..wire import StdioLink  # noqa: PLC0415 - I/O only when checking

    env = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1", "FASTMCP_LOG_LEVEL": "WARNING",
           "FASTMCP_SHOW_CLI_BANNER": "false"}
    link = StdioLink(command, env=env, deadline_ms=budget_ms)
    if link.proc is not None:
        wait_until_idle(link.proc.pid)
        link.deadline_ms = link.now_ms() + budget_ms
    return link


def _model_server_run(model: PeerSpec, client: PeerSpec,
                      scenario: Scenario = DRIFT_SCENARIO) -> Facets:
    link = MemoryLink(lambda: SimServer(model))
    return run_client(client, link, scenario, REQUEST_TIMEOUT_MS)


def raw_comparison(command: list[str], model: PeerSpec, probe: tuple[str, tuple[RawItem, ...]],
                   cold_ms: int | None, allowance_ms: int) -> Comparison:
    """One raw probe against a fresh process of ``command`` and against ``model``: the real
    process's first answer may come ``allowance_ms`` late (:func:`_startup_allowance`), and
    each wait is :func:`raw_wait_ms` of the slowest it was seen to be."""
    started = time.monotonic()
    name, messages = probe
    # a deadline no wait can reach: each wait at its ceiling, the first with the allowance
    link = _real_link(command, allowance_ms + len(messages) * RAW_CEILING_MS)
    link.startup_allowance_ms = allowance_ms
    # the slowest this server was seen to be: its cold start, or this process's own start
    # until idle (all there is where the cold start is unknown)
    real = _raw_run(link, messages, max(cold_ms or 0, link.now_ms()))
    mine = _raw_run(MemoryLink(lambda: SimServer(model)), messages)
    return Comparison(name, mine, real, ("answers",), time.monotonic() - started)


def verify_server(resolved: Resolved, *, jobs: int = 2,
                  clients: Sequence[PeerSpec] | None = None, raw_probes: bool = True,
                  progress: Callable[[str], None] | None = None) -> DriftReport:
    """Check a named server model against its real package."""
    model = resolved.peer()
    report = report_for(resolved, model)
    env = install_for(resolved.line, report)
    if env is None:
        return report
    command = server_command(resolved.family, resolved.model, env)
    chosen = tuple(clients) if clients is not None else drift_clients()
    scenario = DRIFT_SCENARIOS[resolved.model.drift_scenario]

    # each real process may answer its first request late by the measured cold start, scaled
    # by the processes starting at once: the model has no start-up, and a client's wait that
    # raced a busy machine's cold start (fastmcp 4.2.3 past a 3 s discover wait at load 12)
    # was a difference of timing, not of protocol (time is modelled apart, issue 37); with
    # no cold start measured, by the whole startup bound (py-mcp 1.9 was silent to its first
    # raw request past a 2 s wait at load 20 while its cold start was unknown)
    cold_ms = cold_start_ms(command)
    extra_ms = _startup_allowance(cold_ms, jobs)

    def one(client: PeerSpec) -> Comparison:
        started = time.monotonic()
        real = _real_server_run(command, client, scenario, extra_ms)
        mine = _model_server_run(model, client, scenario)
        c = Comparison(_short(client), mine, real, SERVER_FACETS, time.monotonic() - started)
        if progress:
            progress(f"{resolved.name} x {c.counterpart}: {'agrees' if c.agrees else 'DIFFERS'}")
        return c

    def raw(probe: tuple[str, tuple[RawItem, ...]]) -> Comparison:
        c = raw_comparison(command, model, probe, cold_ms, extra_ms)
        if progress:
            progress(f"{resolved.name} x {c.counterpart}: {'agrees' if c.agrees else 'DIFFERS'}")
        return c

    started = time.monotonic()
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        runs = [pool.submit(one, c) for c in chosen]
        runs += [pool.submit(raw, p) for p in (RAW_PROBES if raw_probes else ())]
        report.comparisons = gather(runs)
    report.run_seconds = time.monotonic() - started
    return report


# -- servers over Streamable HTTP -------------------------------------------------------------

def _free_port() -> int:
    import socket  # noqa: PLC0415 - I/O only when checking

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@contextlib.contextmanager
def _http_server(command: list[str], port: int) -> Iterator[str]:
    """Run ``command`` (listening on ``port``) in a session of its own (wire._procs); yield its
    MCP URL once it listens (:func:`wait_listening`), then end it and its family (SIGTERM,
    then SIGKILL)."""
    proc = spawn(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
    try:
        if not wait_listening(proc, port):
            raise EnvironmentUnavailable(
                f"the HTTP server did not listen on {port}: {' '.join(command)}")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        end(proc)


def _http_client(client: PeerSpec) -> PeerSpec:
    """A probe client as it goes over HTTP: a handshake-era client POSTs initialize first."""
    from ..simulator import with_quirks  # noqa: PLC0415

    if client.kind == "modern" or client.has("post-first"):
        return client
    return with_quirks(client, ["post-first"], "client", client.name)


def verify_server_http(resolved: Resolved, *, jobs: int = 2,
                       clients: Sequence[PeerSpec] | None = None,
                       progress: Callable[[str], None] | None = None) -> DriftReport:
    """Check a named server model over Streamable HTTP: each probe client against a fresh real
    server process (its ``http_args``, on a free port) and against the model on the simulator's
    HTTP link; the same facets as :func:`verify_server` (status, revision, path, codes, steps)."""
    from ..simulator.http import HttpClient, HttpEndpoint, HttpMemoryLink  # noqa: PLC0415
    from ..wire import HttpLink  # noqa: PLC0415

    model = resolved.peer()
    report = report_for(resolved, model)
    if not resolved.model.http_args:
        report.unavailable = f"{resolved.name} has no Streamable HTTP set-up"
        return report
    env = install_for(resolved.line, report)
    if env is None:
        return report
    scenario = DRIFT_SCENARIOS[resolved.model.drift_scenario]
    chosen = tuple(clients) if clients is not None else drift_clients()
    http_model = replace(resolved.model, args=resolved.model.http_args)

    def one(client: PeerSpec) -> Comparison:
        started = time.monotonic()
        spec = _http_client(client)
        port = _free_port()
        command = [*server_command(resolved.family, http_model, env), "--port", str(port)]
        with _http_server(command, port) as url:
            real = run_client(spec, HttpLink(url, deadline_ms=120_000), scenario,
                               REQUEST_TIMEOUT_MS, HTTP)
        mine = run_client(spec, HttpMemoryLink(
            HttpEndpoint(model), client=HttpClient(spec.registry, post_first=spec.client_policy
                                                   .http_post_first)), scenario,
                           REQUEST_TIMEOUT_MS, HTTP)
        c = Comparison(_short(client), mine, real, SERVER_FACETS, time.monotonic() - started)
        if progress:
            progress(f"{resolved.name} (http) x {c.counterpart}: "
                     f"{'agrees' if c.agrees else 'DIFFERS'}")
        return c

    started = time.monotonic()
    try:
        with ThreadPoolExecutor(max(1, jobs)) as pool:
            report.comparisons = gather([pool.submit(one, c) for c in chosen])
    except EnvironmentUnavailable as exc:
        report.unavailable = str(exc)
    report.run_seconds = time.monotonic() - started
    return report

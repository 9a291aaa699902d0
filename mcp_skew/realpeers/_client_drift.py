"""Client drift checks: does a named client model still behave like the real package?

The real client package is driven by a small script (``servers/py_mcp_client.py``,
``servers/ts_client.mjs``; :func:`run_driver`) against ``mcp-skew serve SPEC`` (a
simulated server over stdio, which writes a wire log), for a set of servers chosen to hit
the client's decision points (:data:`CLIENT_DRIFT_SERVERS`, and the model's own). The real
outcome (connected or not, the revision, and the requests the server received, read from
the wire log) is compared with the model run against the same simulated server.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from .._stopping import gather
from ..peers import (
    Model,
    Resolved,
    builtin_peer,
)
from ..simulator import (
    LIST_TOOLS,
    MemoryLink,
    PeerSpec,
    Scenario,
    SimClient,
    SimServer,
    Step,
    parse_peer,
    play,
)
from ..simulator.messages import request_text
from ..versions import BUILTIN
from ..wire import end, spawn
from ._drift import cold_start_ms
from ._facets import CLIENT_FACETS, Comparison, DriftReport, Facets, install_for, report_for
from ._installs import client_command, serve_command
from ._stall import StallWatch

__all__ = [
    "CLIENT_DRIFT_SERVERS",
    "CONNECT_SCENARIO",
    "DriverRun",
    "drift_servers_for",
    "run_driver",
    "verify_client",
]

#: the prefix of the 2026-07-28 ``_meta`` keys (basic/index.mdx §_meta)
MCP_META: Final = "io.modelcontextprotocol/"
#: What a real client driver does once connected: list the tools.
CONNECT_SCENARIO: Final = Scenario("connect", "connect, then list the tools", (LIST_TOOLS,))
#: What an app whose health check pings instead does once connected (a client model's
#: ``drift_scenario`` ``ping``: Gemini CLI's `mcp list`).
PING_SCENARIO: Final = Scenario("ping", "connect, then ping",
                                (Step("ping", "ping", {}, "result", gated=True),))
_CONNECT_SCENARIOS: Final = {"drift": CONNECT_SCENARIO, "ping": PING_SCENARIO}
#: Simulated servers a real client is driven against: each hits a decision point.
CLIENT_DRIFT_SERVERS: Final[tuple[str, ...]] = (
    "py-mcp@1.0",  # silent on the probe, exits on the next input; answers 2024-11-05 always
    "py-mcp@1.9.4",  # -32602 to the probe; negotiates up to 2025-03-26
    "py-mcp@2.3",  # dual, sticky era: DiscoverResult
    "ts-sdk@1",  # -32601 to the probe, lenient; up to 2025-11-25
    "ts-server@2.4:modern",  # modern only: initialize -> -32022
    "legacy:2025-11-25+silent",  # silent on the probe, stays alive: the probe timeout
    "legacy:2025-11-25+fixed=2025-11-25",  # answers 2025-11-25 whatever is asked
)


def _requests(log: Path) -> tuple[list[str], int]:
    """What a served simulated server received (``method [revision]``), and how many processes."""
    requests: list[str] = []
    starts = 0
    try:
        text = log.read_text(encoding="utf-8")
    except OSError:
        return requests, starts
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("dir") == "event" and record.get("event") == "start":
            starts += 1
        message = record.get("message")
        if record.get("dir") != "c2s" or not isinstance(message, dict) or "method" not in message:
            continue
        requests.append(request_text(message))
    return requests, starts


def _negotiated(log: Path) -> str | None:
    """The revision a served simulated server's wire log shows in use: the last answered
    ``initialize``'s ``protocolVersion``, or the revision in the ``_meta`` of the last answered
    modern request after the probe (None: nothing answered)."""
    asked: dict[object, tuple[str, object]] = {}
    revision: str | None = None
    try:
        text = log.read_text(encoding="utf-8")
    except OSError:
        return None
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        message = record.get("message") if isinstance(record, dict) else None
        if not isinstance(message, dict):
            continue
        if record.get("dir") == "c2s" and "method" in message and "id" in message:
            params = message.get("params")
            meta = params.get("_meta") if isinstance(params, dict) else None
            rev = meta.get(f"{MCP_META}protocolVersion") if isinstance(meta, dict) else None
            asked[json.dumps(message["id"])] = (str(message["method"]), rev)
        elif record.get("dir") == "s2c" and isinstance(message.get("result"), dict):
            method, rev = asked.get(json.dumps(message.get("id")), ("", None))
            if method == "initialize":
                answered = message["result"].get("protocolVersion")
                revision = answered if isinstance(answered, str) else revision
            elif method and method != "server/discover" and isinstance(rev, str):
                revision = rev
    return revision


def _era_of(revision: str | None) -> str | None:
    """The era of a built-in revision (what a real package speaks), else None."""
    return next((p.era.value for p in BUILTIN if p.revision == revision), None)


@dataclass(slots=True)
class DriverRun:
    """What a client driver script printed: its RESULT (empty: none), and its stderr."""

    result: dict[str, Any]
    stderr: str
    #: the driver printed its RESULT but did not exit within the grace period (its close hung)
    hung_on_close: bool = False
    #: why the run was ended before any RESULT: its outcome was decided (a stall observed)
    stalled: str = ""


def run_driver(command: list[str], timeout_s: float = 150.0, grace_s: float = 5.0,
               decided: Callable[[int], str | None] | None = None,
               poll_s: float = 0.1) -> DriverRun:
    """Run a client driver (``servers/*_client.*``) in a session of its own (:mod:`..wire._procs`)
    until it prints ``RESULT {json}``; give it ``grace_s`` to close, then end it and every
    process it started (a server that outlives its stdin, too). A client whose close hangs
    (the ``mcp`` 1.0 client waits for a server that outlives its stdin) still reports.

    ``decided``, polled every ``poll_s`` with the driver's pid while no RESULT has come, may
    end the run early with a reason (:class:`._stall.StallWatch`: a stall observed), which
    :attr:`DriverRun.stalled` then holds; the driver is ended at once, without the grace."""
    import threading  # noqa: PLC0415

    proc = spawn(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                 stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    found = threading.Event()
    result: dict[str, Any] = {}
    err: list[str] = []

    def read_out() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace")
            if line.startswith("RESULT ") and not found.is_set():
                with contextlib.suppress(ValueError):
                    result.update(json.loads(line[len("RESULT "):]))
                found.set()
        found.set()

    def read_err() -> None:
        assert proc.stderr is not None
        err.append(proc.stderr.read().decode("utf-8", "replace"))

    readers = [threading.Thread(target=read_out, daemon=True),
               threading.Thread(target=read_err, daemon=True)]
    for thread in readers:
        thread.start()
    hung, stalled = False, ""
    give_up = time.monotonic() + timeout_s
    while not found.is_set() and (left := give_up - time.monotonic()) > 0:
        if found.wait(min(left, poll_s) if decided is not None else left):
            break
        if decided is not None and (stalled := decided(proc.pid) or ""):
            break
    if not found.is_set() and not stalled:
        err.append(f"the client did not finish within {timeout_s:g} s")
    try:
        proc.wait(timeout=0 if stalled else grace_s)
    except subprocess.TimeoutExpired:
        hung = bool(result)
    end(proc)  # the driver and what it started (a server that outlives its stdin, too)
    for thread in readers:
        thread.join(timeout=2)
    return DriverRun(result, "".join(err), hung, stalled)


def _real_client_run(command_for: Callable[[list[str]], list[str]], server_spec: str,
                     stall_predicted: bool = False) -> Facets:
    """The real client against ``mcp-skew serve server_spec``. Where its model predicts a
    stall (``stall_predicted``), the stall is watched for (:class:`._stall.StallWatch`) and
    ends the run once observed, instead of ``run_driver``'s whole bound."""
    with tempfile.TemporaryDirectory(prefix="mcp-skew-drift-") as tmp:
        log = Path(tmp) / "wire.jsonl"
        run = run_driver(command_for(serve_command(server_spec, log)),
                         decided=StallWatch(log) if stall_predicted else None)
        result, err = run.result, run.stderr
        requests, _ = _requests(log)
        if result.get("ok") and "protocol_version" not in result:
            # an app's own check does not say the revision (servers/app_client.mjs): the wire does
            result["protocol_version"] = _negotiated(log)
    if run.stalled and not result:
        return Facets("failed", None, None, requests=requests, detail=run.stalled)
    if not result:
        tail = " ".join(err.strip().splitlines()[-3:])[:300]
        return Facets("failed", None, None, requests=requests, detail=f"no RESULT: {tail}")
    if not result.get("ok"):
        return Facets("failed", None, None, requests=requests, detail=str(result.get("error")))
    revision = result.get("protocol_version")
    revision = revision if isinstance(revision, str) else None
    return Facets("ok", revision, _era_of(revision), requests=requests,
                  detail=f"{result.get('elapsed_s')} s")


def _server_peer(spec: str) -> PeerSpec:
    """A server spec of the drift sets: a named server of the catalogue, or the notation."""
    return builtin_peer(spec, "server") if "@" in spec else parse_peer(spec, "server")


def _model_client_run(model: PeerSpec, server_spec: str, scenario: str = "drift"
                      ) -> tuple[Facets, bool]:
    """The model against the simulated server: its facets, and whether it stalled (its
    ``stalls-on-server-request``, met: the real run may then end at the stall observed)."""
    server = _server_peer(server_spec)
    link = MemoryLink(lambda: SimServer(server),
                      stalls_on_server_request=model.client_policy.stalls_on_server_request)
    sim = SimClient(model)
    session = sim.negotiate(link)
    status = session.status
    if status == "ok":
        results, _, _ = play(_CONNECT_SCENARIOS[scenario], sim, link, session)
        if not all(r.got == "result" for r in results):
            status = "failed"
    link.close()
    requests = [request_text(e.message) for e in link.transcript.entries
                if e.dir == "c2s" and isinstance(e.message, dict) and "method" in e.message]
    ok = status == "ok"
    return Facets(status, session.revision if ok else None,
                  session.era.value if ok and session.era else None, requests=requests,
                  detail=session.reason), link.stalled


def drift_servers_for(model: Model) -> tuple[str, ...]:
    """The simulated servers a client model is checked against: the common set, then the
    model's own (:attr:`Model.drift_servers`)."""
    return CLIENT_DRIFT_SERVERS + tuple(s for s in model.drift_servers
                                        if s not in CLIENT_DRIFT_SERVERS)


def _with_probe(model: PeerSpec, probe_ms: int | None) -> PeerSpec:
    if probe_ms is None:
        return model
    quirks = tuple((n, str(probe_ms) if n == "probe-timeout" else v) for n, v in model.quirks)
    return replace(model, quirks=quirks)


#: A real client's probe wait is at least this many times the served server's cold start.
PROBE_FACTOR: Final = 4


def probe_wait_ms(drift_probe_ms: int | None, quirk_ms: int | None,
                  serve_cold_ms: int | None) -> int | None:
    """The probe wait a real client (``--probe-timeout``) and its model are given in a drift
    check, None for the client's own: its model's ``drift_probe_ms``, or (None) the model's
    ``probe-timeout`` (``quirk_ms``, the package's default), but at least :data:`PROBE_FACTOR`
    times ``serve_cold_ms``, the cold start measured of ``mcp-skew serve`` in this check.

    The real client's wait runs from the moment it spawns its server, so on a busy machine a
    3 s wait can end before a served Python server has started (load 20: several seconds),
    and the client falls back where its model, which has no start-up, was answered: a
    difference of timing, not of protocol. Both sides get the longer wait; a server that is
    meant to outlast it (silent on the probe) still does, only later."""
    base = drift_probe_ms if drift_probe_ms is not None else quirk_ms
    if base is None or serve_cold_ms is None:
        return drift_probe_ms  # no probe to race, or nothing measured
    need = PROBE_FACTOR * serve_cold_ms
    return need if need > base else drift_probe_ms


def _serve_cold_ms() -> int | None:
    """The cold start of ``mcp-skew serve`` now (``_drift.cold_start_ms``), of a server that
    answers either era's first request."""
    with tempfile.TemporaryDirectory(prefix="mcp-skew-drift-") as tmp:
        return cold_start_ms(serve_command("legacy:2025-11-25", Path(tmp) / "wire.jsonl"))


def _probe_quirk_ms(model: PeerSpec) -> int | None:
    value = dict(model.quirks).get("probe-timeout")
    return int(value) if value else None


def verify_client(resolved: Resolved, *, jobs: int = 2, servers: Sequence[str] | None = None,
                  progress: Callable[[str], None] | None = None) -> DriftReport:
    """Check a named client model against its real package, driven against simulated servers."""
    probe_ms = resolved.model.drift_probe_ms
    peer = resolved.peer()
    report = report_for(resolved, _with_probe(peer, probe_ms))
    if resolved.model.checked_by:
        report.unavailable = (f"{resolved.name} speaks Streamable HTTP upstream only: its "
                              f"model is checked by {resolved.model.checked_by} (its "
                              "authorization against serve --http), not against stdio servers")
        return report
    env = install_for(resolved.line, report)
    if env is None:
        return report
    quirk_ms = _probe_quirk_ms(peer)
    if probe_ms is not None or quirk_ms is not None:
        # measured once the install succeeded: nothing to measure for a check that cannot
        # run, and the cold start is the machine's now, not while it was installing
        probe_ms = probe_wait_ms(probe_ms, quirk_ms, _serve_cold_ms())
    model = _with_probe(peer, probe_ms)
    report.notation = model.notation
    chosen = tuple(servers) if servers is not None else drift_servers_for(resolved.model)

    def command_for(server: list[str]) -> list[str]:
        return client_command(resolved.family, resolved.model, env, server, probe_ms)

    def one(server_spec: str) -> Comparison:
        started = time.monotonic()
        mine, stalls = _model_client_run(model, server_spec, resolved.model.drift_scenario)
        real = _real_client_run(command_for, server_spec, stalls)
        c = Comparison(server_spec, mine, real, CLIENT_FACETS, time.monotonic() - started)
        if progress:
            progress(f"{resolved.name} x {server_spec}: {'agrees' if c.agrees else 'DIFFERS'}")
        return c

    started = time.monotonic()
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        report.comparisons = gather([pool.submit(one, c) for c in chosen])
    report.run_seconds = time.monotonic() - started
    return report

"""Drift checks: does a named peer's model still behave like the real package?

Theory of operation
-------------------
A **server** model is checked by installing the real package (``_envs``),
starting its server script over stdio (:class:`~mcp_skew.wire.StdioLink`)
and running the probe's client set against it, each client in a fresh process,
with the simulator's own client code (``SimClient.negotiate`` then the drift
scenario). The same clients run against the model on a ``MemoryLink``; both
runs are reduced to :class:`Facets` (status, revision, era, mark, path, the
error codes seen, each step's answer) and compared.

A **client** model is checked the other way round: the real client package is
driven by a small script (``servers/py_mcp_client.py``, ``servers/ts_client.mjs``)
against ``mcp-skew serve SPEC`` (a simulated server over stdio, which writes a
wire log), for a set of servers chosen to hit the client's decision points. The
real outcome (connected or not, the revision, and the requests the server
received, read from the wire log) is compared with the model run against the
same simulated server.

Both sides use the same timeouts. The model side is what ``run()`` does, minus
its omniscient era-mismatch verdict, which nothing on a real wire can make.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from ..errors import UsageError
from ..peers import (
    ROLES,
    Family,
    Line,
    Model,
    Package,
    Resolved,
    builtin_peer,
    known_names,
    resolve,
)
from ..simulator import (
    LIST_TOOLS,
    SCENARIOS,
    STDIO,
    Link,
    MemoryLink,
    PeerSpec,
    Reply,
    Scenario,
    SimClient,
    SimServer,
    Timeout,
    Transcript,
    TransportRule,
    parse_peer,
    play,
    request_text,
    rule_for,
)
from ..versions import BUILTIN, Message, Role
from ..wire import end, spawn
from ._envs import EnvironmentUnavailable, ensure_npm_env, ensure_python_env

__all__ = [
    "CLIENT_DRIFT_SERVERS",
    "DRIFT_SCENARIO",
    "Comparison",
    "DriftReport",
    "Facets",
    "Install",
    "client_command",
    "drift_clients",
    "drift_servers_for",
    "install",
    "prepare",
    "run_driver",
    "server_command",
    "verify",
    "verify_client",
    "verify_server",
    "verify_server_http",
]

SERVERS_DIR: Final = Path(__file__).resolve().parent / "servers"
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
#: What a real client driver does once connected: list the tools.
CONNECT_SCENARIO: Final = Scenario("connect", "connect, then list the tools", (LIST_TOOLS,))

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

#: Every facet, in the order reports show them.
FACETS: Final = ("status", "revision", "era", "mark", "path", "codes", "steps", "requests",
                 "answers")
#: Compared for a server model (the simulated client runs on both sides) ...
SERVER_FACETS: Final = ("status", "revision", "era", "mark", "path", "codes", "steps")
#: ... and for a client model (only the outcome and the wire are visible).
CLIENT_FACETS: Final = ("status", "revision", "era", "requests")

#: Per-request timeout on both sides of a server check (ms).
REQUEST_TIMEOUT_MS: Final = 5_000
#: How long a raw probe waits for each answer before calling it "none" (ms).
RAW_TIMEOUT_MS: Final = 2_000



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
    """Close the server's standard input; the answer is whether the process outlives it."""

    wait_ms: int = 2_000


#: One item of a raw probe: a message, a raw line, or the end of standard input.
RawItem = Message | RawLine | CloseStdin

#: Raw message sequences, each in a fresh process: the columns of the measured table in
#: docs/real-peers.md (what the probe's clients never send: early ping, early tools/list,
#: an unknown method, a bogus revision).
RAW_PROBES: Final[tuple[tuple[str, tuple[RawItem, ...]], ...]] = (
    ("raw: discover+_meta, initialize", (_raw_request(1, "server/discover", modern=True),
                                         _raw_initialize(2, "2025-11-25"))),
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


# -- installing ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Install:
    """A ready environment for one package."""

    package: Package
    root: Path  #: the venv, or the npm prefix's node_modules
    seconds: float
    cached: bool

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"


def install(package: Package) -> Install:
    """Build (or reuse) the environment; raises :class:`EnvironmentUnavailable`."""
    if package.ecosystem == "pypi":
        env = ensure_python_env(package.requirements)
        return Install(package, env.root, env.install_seconds, env.cached)
    npm = ensure_npm_env(package.requirements)
    return Install(package, npm.node_modules, npm.install_seconds, npm.cached)


def prepare(packages: Sequence[Package], jobs: int = 2) -> dict[Package, Install | str]:
    """Install several packages in parallel; each maps to its environment or the reason it
    could not be built (so a test can skip with it)."""
    unique = list(dict.fromkeys(packages))

    def one(package: Package) -> Install | str:
        try:
            return install(package)
        except EnvironmentUnavailable as exc:
            return str(exc)

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        return dict(zip(unique, pool.map(one, unique), strict=True))


def server_command(family: Family, model: Model, env: Install) -> list[str]:
    """The command that starts the real server of ``model``."""
    script = str(SERVERS_DIR / family.server_script)
    if env.package.ecosystem == "pypi":
        return [str(env.python), script, *model.args]
    return ["node", script, str(env.root), *model.args]


def client_command(family: Family, model: Model, env: Install, server: Sequence[str],
                   probe_ms: int | None = None) -> list[str]:
    """The command that runs the real client of ``model`` against ``server``."""
    script = str(SERVERS_DIR / family.client_script)
    if env.package.ecosystem == "pypi":
        extra = ["--probe-timeout", f"{probe_ms / 1000:g}"] if probe_ms else []
        return [str(env.python), script, *model.args, *extra, "--", *server]
    extra = ["--probe-timeout", str(probe_ms)] if probe_ms else []
    return ["node", script, str(env.root), *model.args, *extra, "--", *server]


def serve_command(spec: str, log: Path) -> list[str]:
    """``mcp-skew serve SPEC`` as a child process, writing its wire log to ``log``."""
    return [sys.executable, "-m", "mcp_skew", "serve", spec, "--record", str(log), "-q"]


# -- facets -------------------------------------------------------------------------------------

@dataclass(slots=True)
class Facets:
    """What is compared between the model and the real package."""

    status: str
    revision: str | None
    era: str | None
    mark: str = ""
    path: list[str] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)  #: error codes of the answers, in order
    steps: list[str] = field(default_factory=list)  #: ``name: got``
    requests: list[str] = field(default_factory=list)  #: what the server received (clients)
    answers: list[str] = field(default_factory=list)  #: raw probes: each answer, as read
    detail: str = ""  #: the reason or error text (shown, not compared)

    def summary(self) -> str:
        if self.answers:
            return ", ".join(self.answers)
        if self.status != "ok":
            return "failed" + (f": {self.detail}" if self.detail else "")
        return f"ok {self.revision}" + (f" {self.mark}" if self.mark else "")

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in (*FACETS, "detail")}


def _codes(transcript: Transcript) -> list[int]:
    out: list[int] = []
    for entry in transcript.entries:
        message = entry.message
        if entry.dir == "s2c" and isinstance(message, dict) and "method" not in message:
            error = message.get("error")
            if isinstance(error, dict) and isinstance(error.get("code"), int):
                out.append(error["code"])
    return out


def _run_client(client: PeerSpec, link: Link, scenario: Scenario,
                request_timeout_ms: int, transport: TransportRule = STDIO) -> Facets:
    sim = SimClient(client, request_timeout_ms=request_timeout_ms, transport=transport)
    session = sim.negotiate(link)
    steps: list[str] = []
    if session.status == "ok":
        results, _, _ = play(scenario, sim, link, session)
        steps = [f"{r.name}: {r.got}" for r in results]
    link.close()
    return Facets(session.status, session.revision, session.era.value if session.era else None,
                  session.mark, list(session.path), _codes(link.transcript), steps,
                  detail=session.reason)


# -- comparisons and reports --------------------------------------------------------------------

@dataclass(slots=True)
class Comparison:
    """One counterpart (a client for a server check, a server for a client check)."""

    counterpart: str
    model: Facets
    real: Facets
    compared: tuple[str, ...]
    seconds: float = 0.0

    @property
    def differences(self) -> list[str]:
        out = []
        for key in self.compared:
            mine, theirs = getattr(self.model, key), getattr(self.real, key)
            if mine != theirs:
                out.append(f"{key}: model {_show(mine)}, real {_show(theirs)}")
        return out

    @property
    def agrees(self) -> bool:
        return not self.differences

    def to_dict(self) -> dict[str, Any]:
        return {"counterpart": self.counterpart, "agrees": self.agrees,
                "differences": self.differences, "model": self.model.to_dict(),
                "real": self.real.to_dict(), "seconds": round(self.seconds, 2)}


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


@dataclass(slots=True)
class DriftReport:
    """A named peer checked against its real package."""

    name: str
    role: str
    notation: str
    package: str
    note: str = ""
    gaps: tuple[str, ...] = ()
    unavailable: str | None = None
    install_seconds: float = 0.0
    cached: bool = False
    run_seconds: float = 0.0
    comparisons: list[Comparison] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return self.unavailable is None and all(c.agrees for c in self.comparisons)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "role": self.role, "model": self.notation,
                "package": self.package, "note": self.note, "gaps": list(self.gaps),
                "unavailable": self.unavailable, "agrees": self.agrees,
                "install_seconds": round(self.install_seconds, 1), "cached": self.cached,
                "run_seconds": round(self.run_seconds, 1),
                "comparisons": [c.to_dict() for c in self.comparisons]}

    def render(self) -> str:
        """A plain-text report: one line per counterpart, then every difference."""
        lines = [f"{self.name} ({self.role}): model {self.notation}",
                 f"  {self.note}"]
        if self.unavailable is not None:
            lines.append(f"  real package unavailable: {self.unavailable}")
            return "\n".join(lines)
        how = "cached" if self.cached else "installed"
        lines.append(f"  {self.package}: {how} (install {self.install_seconds:.1f} s), "
                     f"{len(self.comparisons)} runs in {self.run_seconds:.1f} s")
        width = max((len(c.counterpart) for c in self.comparisons), default=10)
        lines.append("")
        lines.append(f"  {'against':<{width}}  {'model':<40}  {'real':<40}  verdict")
        for c in self.comparisons:
            verdict = "agrees" if c.agrees else "DIFFERS"
            lines.append(f"  {c.counterpart:<{width}}  {_cut(c.model.summary(), 40):<40}  "
                         f"{_cut(c.real.summary(), 40):<40}  {verdict}")
        differing = [c for c in self.comparisons if not c.agrees]
        for c in differing:
            lines.append("")
            lines.append(f"  {c.counterpart}:")
            lines += [f"    {d}" for d in c.differences]
        agree = len(self.comparisons) - len(differing)
        lines.append("")
        lines.append(f"  {agree} of {len(self.comparisons)} agree" +
                     ("" if not differing else f"; {len(differing)} differ"))
        if self.gaps:
            lines.append("  known gaps of the model (not compared):")
            lines += [f"    - {g}" for g in self.gaps]
        return "\n".join(lines)


# -- servers -----------------------------------------------------------------------------------

def _cpu_sample(pid: int) -> tuple[str, int] | None:
    """The process's scheduler state (``R`` runnable, ``S`` sleeping, ...) and its CPU
    ticks so far (utime + stime), from ``/proc/PID/stat``; None without one."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[11]) + int(fields[12])


def wait_until_idle(pid: int, limit_s: float = 20.0, quiet_polls: int = 3,
                    poll_s: float = 0.1) -> float:
    """Wait until a freshly started server stops using CPU (it is waiting for input).

    A real client does not wait, but a probe timeout of a few seconds must not
    race an interpreter's imports. A poll is quiet when the process used no CPU since
    the last one *and* is not runnable: on a busy machine a process still importing can
    wait its turn for longer than a poll without using CPU, and it is then runnable
    (``R``), not asleep on its input. Returns the seconds waited.
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
        quiet = quiet + 1 if ticks == last and state != "R" else 0
        last = ticks
    return time.monotonic() - started


def _short(peer: PeerSpec) -> str:
    """The matrix's short label for a built-in client, when the matrix is there."""
    try:
        from ..matrix import label_for  # noqa: PLC0415 - optional sibling
    except ImportError:  # pragma: no cover
        return peer.name
    return peer.label or label_for(peer)


def drift_clients() -> tuple[PeerSpec, ...]:
    """The probe's client set (every built-in client peer)."""
    try:
        from ..probe import builtin_clients  # noqa: PLC0415 - optional sibling
    except ImportError:  # pragma: no cover - the probe ships with the package
        specs = ("legacy:2024-11-05", "legacy:2025-06-18", "legacy:2025-11-25",
                 "legacy:2025-11-25,2025-06-18,2025-03-26,2024-11-05", "modern:2026-07-28",
                 "dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05")
        return tuple(parse_peer(s, "client") for s in specs)
    return builtin_clients()


def _real_server_run(command: list[str], client: PeerSpec,
                     scenario: Scenario = DRIFT_SCENARIO) -> Facets:
    return _run_client(client, _real_link(command), scenario, REQUEST_TIMEOUT_MS)


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


def _raw_run(link: Link, items: Sequence[RawItem]) -> Facets:
    """Each item in turn over a real stdio link or a model's :class:`MemoryLink`; the
    answers as read (a raw line and the end of stdin are the edge's, :mod:`mcp_skew.serve`)."""
    from ..wire import StdioLink  # noqa: PLC0415 - I/O only when checking

    answers: list[str] = []
    for item in items:
        if isinstance(item, RawLine):
            if isinstance(link, StdioLink):
                answers.append(_answer(link.request_line(item.text, RAW_TIMEOUT_MS)))
            else:
                assert isinstance(link, MemoryLink)
                reaction = link.server.unparsable("not JSON")
                answers.append(f"error {reaction.replies[0]['error']['code']}"
                               if reaction.replies else "none")
        elif isinstance(item, CloseStdin):
            if isinstance(link, StdioLink):
                alive = link.outlives_stdin(item.wait_ms)
            else:
                assert isinstance(link, MemoryLink)
                alive = link.server.policy.outlives_stdin
            answers.append("outlives stdin" if alive else "exits on stdin EOF")
        elif "id" not in item:
            link.notify(item)
        else:
            answers.append(_answer(link.request(item, RAW_TIMEOUT_MS)))
    link.close()
    return Facets("ok", None, None, answers=answers)


def _real_link(command: list[str]) -> Link:
    from ..wire import StdioLink  # noqa: PLC0415 - I/O only when checking

    env = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1", "FASTMCP_LOG_LEVEL": "WARNING",
           "FASTMCP_SHOW_CLI_BANNER": "false"}
    link = StdioLink(command, env=env, deadline_ms=120_000)
    if link.proc is not None:
        wait_until_idle(link.proc.pid)
    return link


def _model_server_run(model: PeerSpec, client: PeerSpec,
                      scenario: Scenario = DRIFT_SCENARIO) -> Facets:
    link = MemoryLink(lambda: SimServer(model))
    return _run_client(client, link, scenario, REQUEST_TIMEOUT_MS)


def verify_server(resolved: Resolved, *, jobs: int = 2,
                  clients: Sequence[PeerSpec] | None = None, raw_probes: bool = True,
                  progress: Callable[[str], None] | None = None) -> DriftReport:
    """Check a named server model against its real package."""
    model = resolved.peer()
    report = _report(resolved, model)
    env = _install_for(resolved.line, report)
    if env is None:
        return report
    command = server_command(resolved.family, resolved.model, env)
    chosen = tuple(clients) if clients is not None else drift_clients()
    scenario = DRIFT_SCENARIOS[resolved.model.drift_scenario]

    def one(client: PeerSpec) -> Comparison:
        started = time.monotonic()
        real = _real_server_run(command, client, scenario)
        mine = _model_server_run(model, client, scenario)
        c = Comparison(_short(client), mine, real, SERVER_FACETS, time.monotonic() - started)
        if progress:
            progress(f"{resolved.name} x {c.counterpart}: {'agrees' if c.agrees else 'DIFFERS'}")
        return c

    def raw(probe: tuple[str, tuple[RawItem, ...]]) -> Comparison:
        started = time.monotonic()
        name, messages = probe
        real = _raw_run(_real_link(command), messages)
        mine = _raw_run(MemoryLink(lambda: SimServer(model)), messages)
        c = Comparison(name, mine, real, ("answers",), time.monotonic() - started)
        if progress:
            progress(f"{resolved.name} x {name}: {'agrees' if c.agrees else 'DIFFERS'}")
        return c

    started = time.monotonic()
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        runs = [pool.submit(one, c) for c in chosen]
        runs += [pool.submit(raw, p) for p in (RAW_PROBES if raw_probes else ())]
        report.comparisons = [f.result() for f in runs]
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
def _http_server(command: list[str], port: int, start_s: float = 20.0) -> Iterator[str]:
    """Run ``command`` (listening on ``port``) in a session of its own (wire._procs); yield its MCP URL,
    then end it and its family (SIGTERM, then SIGKILL)."""
    import socket  # noqa: PLC0415

    proc = spawn(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + start_s
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise EnvironmentUnavailable(
                        f"the HTTP server did not listen on {port}: {' '.join(command)}"
                    ) from None
                time.sleep(0.1)
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
    from ..simulator import HttpClient, HttpEndpoint, HttpMemoryLink  # noqa: PLC0415
    from ..wire import HttpLink  # noqa: PLC0415

    model = resolved.peer()
    report = _report(resolved, model)
    if not resolved.model.http_args:
        report.unavailable = f"{resolved.name} has no Streamable HTTP set-up"
        return report
    env = _install_for(resolved.line, report)
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
            real = _run_client(spec, HttpLink(url, deadline_ms=120_000), scenario,
                               REQUEST_TIMEOUT_MS, HTTP)
        mine = _run_client(spec, HttpMemoryLink(
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
            report.comparisons = list(pool.map(one, chosen))
    except EnvironmentUnavailable as exc:
        report.unavailable = str(exc)
    report.run_seconds = time.monotonic() - started
    return report


# -- clients -----------------------------------------------------------------------------------

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


def run_driver(command: list[str], timeout_s: float = 150.0, grace_s: float = 5.0) -> DriverRun:
    """Run a client driver (``servers/*_client.*``) in a session of its own (:mod:`..wire._procs`)
    until it prints ``RESULT {json}``; give it ``grace_s`` to close, then end it and every
    process it started (a server that outlives its stdin, too). A client whose close hangs
    (the ``mcp`` 1.0 client waits for a server that outlives its stdin) still reports."""
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
    hung = False
    if not found.wait(timeout_s):
        err.append(f"the client did not finish within {timeout_s:g} s")
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        hung = bool(result)
    end(proc)  # the driver and what it started (a server that outlives its stdin, too)
    for thread in readers:
        thread.join(timeout=2)
    return DriverRun(result, "".join(err), hung)


def _real_client_run(command_for: Callable[[list[str]], list[str]], server_spec: str
                     ) -> Facets:
    with tempfile.TemporaryDirectory(prefix="mcp-skew-drift-") as tmp:
        log = Path(tmp) / "wire.jsonl"
        run = run_driver(command_for(serve_command(server_spec, log)))
        result, err = run.result, run.stderr
        requests, _ = _requests(log)
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


def _model_client_run(model: PeerSpec, server_spec: str) -> Facets:
    server = _server_peer(server_spec)
    link = MemoryLink(lambda: SimServer(server),
                      stalls_on_server_request=model.client_policy.stalls_on_server_request)
    sim = SimClient(model)
    session = sim.negotiate(link)
    status = session.status
    if status == "ok":
        results, _, _ = play(CONNECT_SCENARIO, sim, link, session)
        if not all(r.got == "result" for r in results):
            status = "failed"
    link.close()
    requests = [request_text(e.message) for e in link.transcript.entries
                if e.dir == "c2s" and isinstance(e.message, dict) and "method" in e.message]
    ok = status == "ok"
    return Facets(status, session.revision if ok else None,
                  session.era.value if ok and session.era else None, requests=requests,
                  detail=session.reason)


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


def verify_client(resolved: Resolved, *, jobs: int = 2, servers: Sequence[str] | None = None,
                  progress: Callable[[str], None] | None = None) -> DriftReport:
    """Check a named client model against its real package, driven against simulated servers."""
    probe_ms = resolved.model.drift_probe_ms
    model = _with_probe(resolved.peer(), probe_ms)
    report = _report(resolved, model)
    if resolved.model.checked_by:
        report.unavailable = (f"{resolved.name} speaks Streamable HTTP upstream only: its "
                              f"model is checked by {resolved.model.checked_by} (its "
                              "authorization against serve --http), not against stdio servers")
        return report
    env = _install_for(resolved.line, report)
    if env is None:
        return report
    chosen = tuple(servers) if servers is not None else drift_servers_for(resolved.model)

    def command_for(server: list[str]) -> list[str]:
        return client_command(resolved.family, resolved.model, env, server, probe_ms)

    def one(server_spec: str) -> Comparison:
        started = time.monotonic()
        real = _real_client_run(command_for, server_spec)
        mine = _model_client_run(model, server_spec)
        c = Comparison(server_spec, mine, real, CLIENT_FACETS, time.monotonic() - started)
        if progress:
            progress(f"{resolved.name} x {server_spec}: {'agrees' if c.agrees else 'DIFFERS'}")
        return c

    started = time.monotonic()
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        report.comparisons = list(pool.map(one, chosen))
    report.run_seconds = time.monotonic() - started
    return report


# -- shared ------------------------------------------------------------------------------------

def _report(resolved: Resolved, model: PeerSpec) -> DriftReport:
    installs = resolved.line.installs
    return DriftReport(resolved.name, resolved.role, model.notation,
                       installs.text if installs else "(none)", note=model.note,
                       gaps=resolved.model.gaps)


def _install_for(line: Line, report: DriftReport) -> Install | None:
    if line.installs is None:
        report.unavailable = "no installable package for this line"
        return None
    try:
        env = install(line.installs)
    except EnvironmentUnavailable as exc:
        report.unavailable = str(exc)
        return None
    report.install_seconds, report.cached = env.seconds, env.cached
    return env


def verify(name: str, role: Role | None = None, *, jobs: int = 2,
           progress: Callable[[str], None] | None = None) -> list[DriftReport]:
    """Check ``name`` in the role(s) it has a model for (both when ``role`` is None)."""
    reports: list[DriftReport] = []
    roles: tuple[Role, ...] = ROLES if role is None else (role,)
    errors: list[str] = []
    for r in roles:
        try:
            resolved = resolve(name, r)
        except UsageError as exc:
            errors.append(str(exc))
            continue
        if resolved is None:
            raise UsageError(f"unknown named peer {name!r}; known: {', '.join(known_names())}")
        check = verify_server if r == "server" else verify_client
        reports.append(check(resolved, jobs=jobs, progress=progress))
    if not reports:
        raise UsageError(errors[0] if errors else f"unknown named peer {name!r}")
    return reports

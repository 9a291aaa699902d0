"""A chain, client -> bridge -> server, for real: the real ``supergateway`` 4.0.0 (npm) and
the real ``mcp-proxy`` 0.13.0 (PyPI) in front of a real stdio server (FastMCP of the Python
SDK ``mcp`` 1.30.0, modelled as ``py-mcp@1.30``) behave as the simulator's chain predicts
(``run(client, py-mcp@1.30, via=BRIDGE)``):

- the real Python SDK 2.3 client (``Client(url)``, auto and legacy modes: ``py-mcp@2.3`` and
  ``py-mcp@2.3:legacy``) ends as the chain predicts (connected or not, at which revision);
- mcp-skew's own probe clients, each a simulated client driven over the real wire, end as
  the same client does through the simulated chain;
- the upstream leg: the server logs every line it reads (one log for all its processes,
  each line with its process id), and the processes the bridge started, and what each was
  sent first, are those of the predicted upstream leg: supergateway a process per message,
  each initialized by the bridge at 2024-11-05 with no capabilities unless the message was
  itself an initialize (sent on with capabilities {}) or a modern request (sent as it is);
  mcp-proxy one process, initialized once at 2025-11-25 with no capabilities.

Each bridge is started as ``probe --via`` starts it (:func:`mcp_skew.realpeers._bridge_start.start_bridge`:
its package installed, its table's start line, one process family with the servers it
starts), and ended when the module is done. Skipped, with the installer's reason, when an
environment cannot be built.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _waits import BOUND_S

pytestmark = pytest.mark.realpeer

#: The server behind the bridge and the bridge mcp-proxy (tests/_realpeer_envs.py builds it).
BACKEND_ENV = ("mcp-proxy==0.13.0", "mcp==1.30.0")
#: The real SDK client (the catalogue's py-mcp 2.x line).
CLIENT_ENV = ("mcp==2.3.0",)
#: supergateway (npm), the bridge's named model supergateway@4.
SUPERGATEWAY = ("supergateway@4.0.0",)
#: What the server behind the bridge is modelled as (the catalogue's 1.24.0-1.x line).
SERVER_MODEL = "py-mcp@1.30"

#: FastMCP over stdio, one tool; every line it reads is appended to the log named by argv[1]
#: with its process id, read from a pipe that a thread fills from the real standard input
BACKEND = '''
import json, os, sys, threading

from mcp.server.fastmcp import FastMCP

LOG = sys.argv[1]
ORIGINAL = os.dup(0)
READ, WRITE = os.pipe()
os.dup2(READ, 0)


def tee():
    with os.fdopen(ORIGINAL, "rb") as source, open(LOG, "a") as log:
        for raw in source:
            log.write(json.dumps({"pid": os.getpid(), "line": raw.decode()}) + "\\n")
            log.flush()
            os.write(WRITE, raw)
    os.close(WRITE)


threading.Thread(target=tee, daemon=True).start()
app = FastMCP("fastmcp1-behind-a-bridge")


@app.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


app.run()
'''


@dataclass
class Chain:
    bridge: str  #: the named bridge's model
    url: str
    log: Path  #: what the server processes read


def _env(reqs: tuple[str, ...]) -> Any:
    from mcp_skew.realpeers import EnvironmentUnavailable, ensure_python_env

    try:
        return ensure_python_env(reqs, base_python=sys.executable)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"cannot build {' with '.join(reqs)}: {exc}")


@pytest.fixture(scope="module", params=["supergateway@4", "mcp-proxy-py@0.13"])
def chain(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[Chain]:
    from mcp_skew.errors import UsageError
    from mcp_skew.peers import named_bridge
    from mcp_skew.realpeers._bridge_start import start_bridge, stop_bridge

    backend_env = _env(BACKEND_ENV)
    where = tmp_path_factory.mktemp("chain")
    script = where / "backend.py"
    script.write_text(BACKEND)
    log = where / "server-lines.jsonl"
    server = [str(backend_env.python), str(script), str(log)]
    named = named_bridge(request.param)
    assert named is not None
    try:  # the bridge as probe --via starts it: its package installed, its start line
        url, proc = start_bridge(named, server)
    except UsageError as exc:  # an install the machine cannot make skips; the rest fails
        if "cannot install" not in str(exc):
            raise
        pytest.skip(str(exc))
    try:
        yield Chain(request.param, url, log)
    finally:
        stop_bridge(proc)  # the bridge and every server it started


def _predicted(client: str, bridge: str, scenario: str = "handshake") -> Any:
    from mcp_skew.peers import resolve_bridge, resolve_peer
    from mcp_skew.simulator import run

    return run(resolve_peer(client, "client"), resolve_peer(SERVER_MODEL, "server"), scenario,
               via=resolve_bridge(bridge))


def _real_client(url: str, mode: str) -> dict[str, Any]:
    from mcp_skew.realpeers._client_drift import run_driver

    env = _env(CLIENT_ENV)
    driver = Path(__file__).resolve().parents[2] / "mcp_skew" / "realpeers" / "servers" / \
        "py_mcp_client.py"
    done = run_driver([str(env.python), str(driver), "--mode", mode, "--url", url],
                      timeout_s=BOUND_S)
    assert done.result, done.stderr[-2000:]
    result: dict[str, Any] = done.result
    return result


def _lines(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def _children(log: Path, since: int) -> list[list[dict[str, Any]]]:
    """The messages each server process read that read anything after the log's first
    ``since`` lines, processes in the order they first read (each from its first line)."""
    by_pid: dict[int, list[dict[str, Any]]] = {}
    active: set[int] = set()
    for n, text in enumerate(_lines(log)):
        record = json.loads(text)
        line = record["line"].strip()
        if line:
            by_pid.setdefault(record["pid"], []).append(json.loads(line))
            if n >= since:
                active.add(record["pid"])
    return [messages for pid, messages in by_pid.items() if pid in active]


def _opening(messages: list[dict[str, Any]], terminating: bool
             ) -> tuple[str, str | None, bool, Any]:
    """What a server process was sent first: method, revision asked, by the bridge itself
    (a terminating bridge sends everything itself; supergateway's own ids are strings, its
    clients' here numbers), the capabilities it declared."""
    first = messages[0]
    params = first.get("params") or {}
    meta = params.get("_meta") or {}
    asked = params.get("protocolVersion") or meta.get("io.modelcontextprotocol/protocolVersion")
    own = terminating or not isinstance(first.get("id"), int)
    return first["method"], asked, own, params.get("capabilities")


@pytest.mark.parametrize(("mode", "model"), [("auto", "py-mcp@2.3"),
                                             ("legacy", "py-mcp@2.3:legacy")])
def test_the_real_sdk_client_ends_as_the_chain_predicts(chain: Chain, mode: str,
                                                        model: str) -> None:
    since = len(_lines(chain.log))
    real = _real_client(chain.url, mode)
    predicted = _predicted(model, chain.bridge)
    assert (real["ok"], real.get("protocol_version")) == (
        predicted.status == "ok", predicted.revision), (real, list(predicted.session.path))
    # the upstream leg: the server processes the bridge started and what each met first
    from mcp_skew.peers import resolve_bridge

    terminating = resolve_bridge(chain.bridge).terminating
    real_openings = [_opening(m, terminating) for m in _children(chain.log, since)]
    for method, _, _, capabilities in real_openings:
        if method == "initialize":  # whoever sent it, the server was told of no capability
            assert capabilities == {}, real_openings
    bridge_inits = {asked for method, asked, own, _ in real_openings
                    if method == "initialize" and own}
    predicted_inits = {step.split()[2] for step in predicted.upstream_path
                       if " initialize " in step and "(bridge)" in step}
    assert bridge_inits == predicted_inits, (real_openings, predicted.upstream_path)
    if chain.bridge.startswith("supergateway"):  # a process per message, as predicted
        firsts = [(method, asked) for method, asked, _, _ in real_openings]
        assert ("server/discover", "2026-07-28") in firsts or mode == "legacy", firsts
        assert len(real_openings) >= 3, real_openings
    else:  # one process, opened by the bridge's own session before any client came
        assert len(real_openings) == 1, real_openings


def test_the_probe_clients_end_as_the_chain_predicts(chain: Chain) -> None:
    from mcp_skew.peers import resolve_bridge, resolve_peer
    from mcp_skew.probe import ProbeOptions, Target, probe
    from mcp_skew.simulator import run

    # waits far above a server's start: behind supergateway every request starts a server
    # process (a FastMCP start is seconds on a loaded machine), and the model's server starts
    # at once, so only waits that the starts cannot reach compare what the chain does
    report = probe(Target(url=chain.url), ProbeOptions(timeout_ms=40_000,
                                                       probe_timeout_ms=30_000))
    server = resolve_peer(SERVER_MODEL, "server")
    bridge = resolve_bridge(chain.bridge)
    differ = []
    from mcp_skew.probe._runner import NOT_CHECKED

    for seen in (r for r in report.runs if not r.prober and r.outcome != NOT_CHECKED):
        record = seen.record
        sim = run(record.client, server, record.scenario, via=bridge)
        if (record.status, record.revision) != (sim.status, sim.revision):
            differ.append((record.client.name, record.status, record.revision,
                           list(record.session.path), sim.status, sim.revision,
                           list(sim.session.path)))
    assert not differ, differ

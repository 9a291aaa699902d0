"""The official Python SDK client (``mcp`` 2.3.0) against ``mcp-skew serve``, and ``record``
between that client and real servers.

Modelling the SDK client (read from its sources, ``mcp/client/_probe.py``,
``mcp/client/session.py`` and ``mcp_types/version.py`` of 2.3.0):

- ``mode="auto"`` (its default) probes ``server/discover`` at 2026-07-28 and
  falls back to ``initialize`` on any JSON-RPC error but a -32022 naming only
  modern revisions, and on a probe timeout of ``DISCOVER_TIMEOUT_SECONDS``
  (10 s; these tests set it to 2 s against servers whose answer is itself a
  timeout, silent or slow ones, so such a server costs 2 s, and to 30 s against
  the others, so that a cold start on a busy machine, up to four Python
  processes when ``record`` sits between, never races the wait; the model gets
  the same ``probe-timeout``). Its ``initialize`` asks 2025-11-25 and accepts
  any handshake-era counter-offer. A -32022 answer to the fallback
  ``initialize`` triggers one re-probe. So: ``dual:2026-07-28,2025-11-25,
  2025-06-18,2025-03-26,2024-11-05+probe-timeout=2000``.
- ``mode="legacy"`` sends ``initialize`` 2025-11-25 only, and accepts every
  handshake revision: ``legacy:2025-11-25,2025-06-18,2025-03-26,2024-11-05``.

The named peers ``py-mcp@2.0:auto`` and ``py-mcp@2.0:legacy`` (``mcp_skew.realpeers``)
say the same; they are used when they resolve, with the probe timeout overridden, and
the specs above otherwise.

What the client does (the revision it negotiated, or that it failed) must be
what :func:`mcp_skew.simulator.run` predicts for that pair, and each scenario
step it plays must get the answer the simulator's ``default`` scenario predicts.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from _serve_helpers import readline

from mcp_skew.errors import UsageError
from mcp_skew.peers import resolve_peer
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_python_env
from mcp_skew.serve._annotate import annotate
from mcp_skew.serve._log import read_log
from mcp_skew.simulator import PeerSpec, parse_peer, run
from mcp_skew.versions import REGISTRY

pytestmark = pytest.mark.realpeer

SDK = "mcp==2.3.0"
PROBE_S = 2
ROOMY_PROBE_S = 30
CLIENTS = {
    "auto": "dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05"
            f"+probe-timeout={PROBE_S * 1000}",
    "legacy": "legacy:2025-11-25,2025-06-18,2025-03-26,2024-11-05",
}
SERVERS = [
    "legacy:2024-11-05",
    "legacy:2025-03-26",
    "legacy:2025-06-18",
    "legacy:2025-11-25",
    "modern:2026-07-28",
    "dual:2026-07-28,2025-11-25",
    "dual:2026-07-28,2025-06-18,2024-11-05",
    "legacy:2025-06-18+silent",
    "legacy:2025-06-18+silent-exit",
    "legacy:2025-03-26+unknown-32602",
    "legacy:2025-11-25+lenient",
    "dual:2026-07-28,2025-11-25+sticky-era",
    "dual:2026-07-28,2025-11-25+slow=3000",
]
HTTP_SERVERS = ["legacy:2025-06-18", "modern:2026-07-28", "dual:2026-07-28,2025-11-25",
                "legacy:2025-06-18+silent"]
STEPS = ("list tools", "call a tool", "tool error (isError)", "unknown tool", "missing resource")
TIMEOUT = 120


SERVE = [sys.executable, "-m", "mcp_skew", "serve", "-q"]
PY_MCP_SERVER = (Path(__file__).resolve().parents[2] / "mcp_skew" / "realpeers" / "servers"
                 / "py_mcp_server.py")

#: Connects, plays the scenario steps, prints one JSON object on its stdout.
SDK_CLIENT = r'''
import asyncio, json, sys, time
import mcp
import mcp.client.session as session_module
from mcp import Client, StdioServerParameters

async def main(cfg):
    if cfg.get("probe_timeout") is not None:
        session_module.DISCOVER_TIMEOUT_SECONDS = cfg["probe_timeout"]
    server = cfg.get("url") or StdioServerParameters(command=cfg["command"][0],
                                                     args=cfg["command"][1:])
    out = {"mode": cfg["mode"], "ok": False, "steps": {}}
    started = time.monotonic()
    try:
        async with Client(server, mode=cfg["mode"], read_timeout_seconds=30) as client:
            out.update(ok=True, version=client.protocol_version,
                       seconds=round(time.monotonic() - started, 2))
            async def step(name, call):
                try:
                    result = (await call).model_dump(mode="json", by_alias=True)
                    out["steps"][name] = ("tool error (isError)" if result.get("isError")
                                          else "result")
                except mcp.MCPError as exc:
                    out["steps"][name] = f"error {exc.code}"
            await step("list tools", client.list_tools())
            await step("call a tool", client.call_tool("echo", {"text": "hi"}))
            await step("tool error (isError)", client.call_tool("fail", {}))
            await step("unknown tool", client.call_tool("no-such-tool", {}))
            await step("missing resource", client.read_resource("mem://missing"))
    except BaseException as exc:
        def leaves(e):
            if isinstance(e, BaseExceptionGroup):
                for inner in e.exceptions:
                    yield from leaves(inner)
            else:
                yield e
        out["error"] = "; ".join(f"{type(e).__name__}: {e}" for e in leaves(exc))
    print(json.dumps(out), flush=True)

asyncio.run(main(json.loads(sys.argv[1])))
'''

#: A byte tap, independent of mcp-skew: copies stdin/stdout to/from a child and keeps a copy.
TAP = r'''
import os, subprocess, sys, threading
out_dir, name, argv = sys.argv[1], sys.argv[2], sys.argv[4:]
child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
def pump(src, dst, path, close=None):
    with open(path, "wb") as copy:
        while True:
            chunk = os.read(src, 65536)
            if not chunk:
                break
            copy.write(chunk)
            copy.flush()
            try:
                view = memoryview(chunk)
                while view:
                    view = view[os.write(dst, view):]
            except OSError:
                pass
    if close:
        close()
threading.Thread(target=pump, args=(0, child.stdin.fileno(), f"{out_dir}/{name}.c2s",
                                    child.stdin.close), daemon=True).start()
reader = threading.Thread(target=pump, args=(child.stdout.fileno(), 1, f"{out_dir}/{name}.s2c"))
reader.start()
code = child.wait()
reader.join(10)
sys.exit(code if code >= 0 else 128 - code)
'''


@pytest.fixture(scope="module")
def sdk_python() -> Path:
    try:
        return ensure_python_env([SDK], timeout=600).python
    except EnvironmentUnavailable as exc:
        pytest.skip(f"cannot install {SDK} (is PyPI reachable?): {exc}")


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sdk")
    (root / "client.py").write_text(SDK_CLIENT)
    (root / "tap.py").write_text(TAP)
    return root


def probe_seconds(server: str) -> int:
    """The client's discover wait against `server`: short where the wait is meant to end it.

    A silent or slow server is predicted to outlast the wait whatever the start-up costs;
    against any other a 2 s wait raced the start-up of the chain on a busy CI machine
    (the SDK fell back to 2025-11-25 after 2.24 s where 2026-07-28 was predicted).
    """
    return PROBE_S if ("+silent" in server or "slow=" in server) else ROOMY_PROBE_S


def sdk_client(python: Path, scripts: Path, mode: str, *, command: list[str] | None = None,
               url: str | None = None, probe_s: float | None = PROBE_S) -> dict[str, Any]:
    cfg = {"mode": mode, "command": command, "url": url, "probe_timeout": probe_s}
    proc = subprocess.run([str(python), str(scripts / "client.py"), json.dumps(cfg)],
                          capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert proc.stdout.strip(), proc.stderr[-2000:]
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["stderr"] = proc.stderr
    return result


def client_model(mode: str, probe_ms: int = PROBE_S * 1000) -> PeerSpec:
    """The SDK client as a peer: its named model where it resolves, else the spec above."""
    named = f"py-mcp@2.0:{mode}" + (f"+probe-timeout={probe_ms}" if mode == "auto" else "")
    try:
        return resolve_peer(named, "client")
    except UsageError:
        spec = CLIENTS[mode].replace(f"probe-timeout={PROBE_S * 1000}",
                                     f"probe-timeout={probe_ms}")
        return parse_peer(spec, "client")


def predicted(mode: str, server: str) -> Any:
    model = client_model(mode, probe_seconds(server) * 1000)
    return run(model, parse_peer(server, "server"), "default")


def assert_as_predicted(got: dict[str, Any], mode: str, server: str) -> None:
    record = predicted(mode, server)
    said = f"{mode} x {server}: SDK {got}; predicted {record.session.path}"
    assert got["ok"] == (record.status == "ok"), said
    if record.status == "ok":
        assert got["version"] == record.revision, said
        expected = {s.name: s.got for s in record.steps}
        assert {k: got["steps"][k] for k in STEPS} == {k: expected[k] for k in STEPS}, said


# -- the SDK client against `mcp-skew serve` --------------------------------------------------

@pytest.mark.parametrize("mode", sorted(CLIENTS))
@pytest.mark.parametrize("server", SERVERS)
def test_sdk_client_over_stdio_does_what_mcp_skew_predicts(sdk_python: Path, scripts: Path,
                                                           server: str, mode: str) -> None:
    got = sdk_client(sdk_python, scripts, mode, command=[*SERVE, server],
                     probe_s=probe_seconds(server))
    assert_as_predicted(got, mode, server)


@pytest.mark.parametrize("mode", sorted(CLIENTS))
@pytest.mark.parametrize("server", HTTP_SERVERS)
def test_sdk_client_over_http_does_what_mcp_skew_predicts(sdk_python: Path, scripts: Path,
                                                          server: str, mode: str) -> None:
    with subprocess.Popen([*SERVE, server, "--http", "127.0.0.1:0"], stderr=subprocess.PIPE,
                          text=True) as proc:
        try:
            assert proc.stderr
            url = readline(proc.stderr, 30).split(" on ")[-1].strip()
            got = sdk_client(sdk_python, scripts, mode, url=url, probe_s=probe_seconds(server))
        finally:
            proc.terminate()
            proc.wait(TIMEOUT)
    assert_as_predicted(got, mode, server)


def test_watch_the_default_10s_fallback_from_a_silent_server(sdk_python: Path, scripts: Path,
                                                             tmp_path: Path) -> None:
    """The issue's 'done when': the SDK client's own timeout, seen in the server's log."""
    log = tmp_path / "serve.jsonl"
    got = sdk_client(sdk_python, scripts, "auto", probe_s=None,
                     command=[*SERVE, "legacy:2025-06-18+silent", "--record", str(log)])
    record = run(client_model("auto", 10_000), parse_peer("legacy:2025-06-18+silent", "server"))
    assert got["ok"] and got["version"] == record.revision == "2025-06-18"
    assert got["seconds"] >= 10
    annotation = annotate(read_log(log)[0], REGISTRY)
    shown = re.sub(r"timeout after \d+ ms", "timeout", " -> ".join(annotation.path))
    assert shown == re.sub(r"timeout after \d+ ms", "timeout", " -> ".join(record.session.path))


# -- `record` between the SDK client and real servers ------------------------------------------

def _through_record(python: Path, scripts: Path, tmp_path: Path, server: list[str],
                    mode: str = "auto", *, probe_s: int = ROOMY_PROBE_S
                    ) -> tuple[dict[str, Any], Path]:
    log = tmp_path / "wire.jsonl"
    tap = [sys.executable, str(scripts / "tap.py"), str(tmp_path)]
    chain = [*tap, "client", "--", sys.executable, "-m", "mcp_skew", "record", "--log", str(log),
             "--", *tap, "server", "--", *server]
    got = sdk_client(python, scripts, mode, command=chain, probe_s=probe_s)
    time.sleep(0.2)  # the taps flush as they copy; let the last writes land
    return got, log


def _log_bytes(log: Path, direction: str) -> bytes:
    out = b""
    for entry in read_log(log)[0]:
        if entry.dir == direction:
            assert entry.line is not None
            out += entry.line.encode("utf-8", "surrogateescape") + (
                b"" if entry.partial else b"\n")
    return out


def _assert_transparent(tmp_path: Path, log: Path) -> None:
    sent, received = (tmp_path / "client.c2s").read_bytes(), (tmp_path / "server.c2s").read_bytes()
    answered = (tmp_path / "server.s2c").read_bytes()
    heard = (tmp_path / "client.s2c").read_bytes()
    assert sent and answered
    assert received == sent  # what the client wrote is what the server read, byte for byte
    assert heard == answered  # and the other way
    assert _log_bytes(log, "c2s") == sent
    assert _log_bytes(log, "s2c") == answered


@pytest.mark.parametrize("server", ["dual:2026-07-28,2025-11-25", "legacy:2025-06-18+silent"])
def test_record_is_byte_transparent_for_the_sdk_client_and_serve(
        sdk_python: Path, scripts: Path, tmp_path: Path, server: str) -> None:
    got, log = _through_record(sdk_python, scripts, tmp_path, [*SERVE, server],
                               probe_s=probe_seconds(server))
    assert_as_predicted(got, "auto", server)
    _assert_transparent(tmp_path, log)
    annotation = annotate(read_log(log)[0], REGISTRY)
    record = predicted("auto", server)
    assert (annotation.status, annotation.revision) == (record.status, record.revision)
    clean = re.compile(r"timeout after \d+ ms")
    assert [clean.sub("timeout", p) for p in annotation.path] == \
        [clean.sub("timeout", p) for p in record.session.path]


@pytest.mark.parametrize("mode", sorted(CLIENTS))
def test_record_is_byte_transparent_for_the_sdk_client_and_a_real_mcp_server(
        sdk_python: Path, scripts: Path, tmp_path: Path, mode: str) -> None:
    if not PY_MCP_SERVER.is_file():
        pytest.skip(f"{PY_MCP_SERVER} is absent")
    got, log = _through_record(sdk_python, scripts, tmp_path,
                               [str(sdk_python), str(PY_MCP_SERVER)], mode)
    assert got["ok"], got
    _assert_transparent(tmp_path, log)
    annotation = annotate(read_log(log)[0], REGISTRY)
    assert annotation.status == "ok" and annotation.revision == got["version"]
    assert annotation.path[0] == ("discover 2026-07-28" if mode == "auto"
                                  else "initialize 2025-11-25")

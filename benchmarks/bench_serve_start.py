"""What one ``mcp-skew serve SPEC --record LOG`` costs: the CPU time of a start, measured in one run.

A script, not a test (no test depends on the machine's speed). The client drift checks
(``tests/interop/test_drift_clients.py``) start one such server for every comparison (some
160 a run), under the real client; so does every interop test that serves. Each round sends
one session (initialize, initialized, tools/list) to a fresh ``serve`` process on stdio and
counts its CPU time (user and system, ``getrusage`` of the children: the machine's load does
not stretch it as it stretches the wall time), and the modules it has imported when it exits
(and whether pydantic is among them).

Two ways the byte-compiled files can stand, each measured: ``pyc`` (written: a first run,
not timed, writes them) and ``fresh`` (a clone's first runs with ``PYTHONDONTWRITEBYTECODE``
set, which then never writes them: the ``__pycache__`` folders of the checkout's
``mcp_skew`` are removed before each run). ``.ci/run`` compiles the clone's modules first,
so CI starts from ``pyc``.

``--before DIR`` runs another checkout's ``serve`` too, in the same rounds, alternating (its
``.venv/bin/python`` in ``DIR``, whose ``mcp_skew`` it imports): a before and after under one load.

Figures (2 CPUs shared, Python 3.11, load 6 to 7), issue 36, against the checkout before the
log writer stopped validating its records through the transcript's pydantic models and
``serve`` stopped importing record's, show-log's and replay's modules: ``pyc`` 0.146 CPU-s a
start against 0.288 (-49%), ``fresh`` 0.265 against 0.436 (-39%); at a load of 20, ``pyc``
0.175 against 0.341, ``fresh`` 0.271 against 0.442; 222 modules against 356, pydantic no
longer loaded. What is left (``pyc``): the simulator's import, 0.09 CPU-s; the
serve face's HTTP server and annotation modules, 0.03 (a stdio server uses neither).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SESSION = "".join(json.dumps(m) + "\n" for m in (
    {"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"protocolVersion": "2025-03-26", "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})).encode()
#: run in the child at exit: how many modules it imported, and whether pydantic is one
COUNT = ("import atexit, sys\n"
         "atexit.register(lambda: print(len(sys.modules), 'pydantic' in sys.modules,"
         " file=sys.stderr))\n"
         "from mcp_skew.cli import main\nraise SystemExit(main(sys.argv[1:]))\n")


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _clear(checkout: Path) -> None:
    for folder in (checkout / "mcp_skew").rglob("__pycache__"):
        shutil.rmtree(folder, ignore_errors=True)


def _start(python: str, spec: str, log: Path, env: dict[str, str], *,
           count: bool = False) -> tuple[float, str]:
    """One serve start: its CPU seconds, and (``count``) what the counting child printed."""
    argv = [python, "-c", COUNT] if count else [python, "-m", "mcp_skew"]
    before = _children_cpu()
    proc = subprocess.run([*argv, "serve", spec, "--record", str(log), "-q"], input=SESSION,
                          capture_output=True, env=env, cwd=tempfile.gettempdir(), check=False)
    spent = _children_cpu() - before
    if proc.returncode != 0 or b'"tools"' not in proc.stdout:
        raise SystemExit(f"serve failed ({python}): {proc.stderr.decode()[-400:]}")
    return spent, proc.stderr.decode().strip().splitlines()[-1] if count else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--spec", default="py-mcp@1.9.4")
    ap.add_argument("--before", type=Path, help="another checkout, run in the same rounds")
    args = ap.parse_args()
    checkouts = {"this": ROOT}
    if args.before is not None:
        checkouts["before"] = args.before.resolve()
    pythons = {name: str(path / ".venv" / "bin" / "python") for name, path in checkouts.items()}
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        log = Path(tmp) / "wire.jsonl"
        for name, python in pythons.items():  # writes the .pyc files; not timed
            _start(python, args.spec, log, base)
            _, modules = _start(python, args.spec, log, base, count=True)
            print(f"{name}: {checkouts[name]}: modules at exit, pydantic loaded: {modules}")
        totals = {(way, name): 0.0 for way in ("pyc", "fresh") for name in pythons}
        for way in ("pyc", "fresh"):
            for _ in range(args.rounds):
                for name, python in pythons.items():
                    env = base
                    if way == "fresh":
                        _clear(checkouts[name])
                        env = {**base, "PYTHONDONTWRITEBYTECODE": "1"}
                    spent, _ = _start(python, args.spec, log, env)
                    totals[(way, name)] += spent
        for python in pythons.values():  # leave the .pyc files written, as a run would
            _start(python, args.spec, log, base)
    load = os.getloadavg()[0]
    print(f"serve {args.spec} --record, {args.rounds} rounds, load {load:.1f}")
    for (way, name), total in totals.items():
        print(f"  {way:5s} {name:6s} {total / args.rounds:.3f} CPU-s a start")


if __name__ == "__main__":
    main()

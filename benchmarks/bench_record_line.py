"""Benchmark ``mcp-skew record`` on one long line (a script, not a test).

Pipes one line of ``--mb`` megabytes (default 50; a JSON string, then a
newline) through ``mcp-skew record --log FILE -- cat``, and ``--mb`` / 2 and
/ 4 for the trend, and prints for each the wall time and the proxy's peak
memory (its ``ru_maxrss`` as a child of this script, with ``cat``'s). Linear
cost shows as time and memory that double when the line does.

Run it with ``.venv/bin/python benchmarks/bench_record_line.py`` (``--json`` for a
machine-readable line); ``--python`` picks the interpreter (an older tree on
``PYTHONPATH`` gives the figures before a change).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _one(python: str, megabytes: float) -> dict[str, Any]:
    size = int(megabytes * 1_000_000)
    line = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + \
        b"x" * size + b'"}}\n'
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "wire.jsonl"
        cmd = [python, "-m", "mcp_skew", "record", "--log", str(log), "--", "cat"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        done = subprocess.run(cmd, input=line, capture_output=True, check=False)
        took = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        logged = log.stat().st_size
    ok = done.returncode == 0 and done.stdout == line
    return {"mb": megabytes, "seconds": round(took, 2), "peak_rss_mib": round(peak / 1024, 1),
            "peak_grew": peak > before, "log_mib": round(logged / 2**20, 1), "ok": ok}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=50.0)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [_one(args.python, args.mb / n) for n in (4, 2, 1)]
    if args.json:
        print(json.dumps({"python": args.python, "cpus": os.cpu_count(), "runs": rows}))
    else:
        for row in rows:
            print("  ".join(f"{k}={v}" for k, v in row.items()))
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

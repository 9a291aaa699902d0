"""Run a real-client driver (``mcp_skew/realpeers/servers/*_client.*``) and exit as a client
program would: 0 when its ``RESULT`` line says ``ok``, 1 otherwise.

The drivers always exit 0 and say how it went on their RESULT line (the drift checks read
it); ``mcp-skew probe-client`` reads a client's exit status, so the interop tests put this in
front: ``python result_exit.py DRIVER ARGS...``. Output passes through.
"""

from __future__ import annotations

import json
import subprocess
import sys


def main(argv: list[str]) -> int:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    ok = False
    for raw in proc.stdout:
        line = raw.decode("utf-8", "replace")
        sys.stdout.write(line)
        sys.stdout.flush()
        if line.startswith("RESULT "):
            try:
                ok = bool(json.loads(line[len("RESULT "):]).get("ok"))
            except ValueError:
                ok = False
    proc.wait()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

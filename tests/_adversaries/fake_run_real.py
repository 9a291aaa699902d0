"""``mcp-skew matrix --set real --run-real`` with cheap fakes for the real packages:
``fake_run_real.py TOKEN``.

Nothing is installed: every package is given an environment that is not used, and every
pair's "real client" is this script again (``client TOKEN -- SERVER...``), which starts its
"real server" (a sleeper) as its child, as the real drivers do, and then never prints a
result. So the command is busy running real peers for as long as anyone lets it, and a test
can signal it; TOKEN is in the command line of every process it starts.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SLEEPER = "import time\nwhile True:\n    time.sleep(60)\n"


def fake_client(server: list[str]) -> None:
    subprocess.Popen(server)
    while True:
        time.sleep(60)


def fake_matrix(token: str) -> int:
    import mcp_skew.realpeers._realmatrix as real
    from mcp_skew.cli import main
    from mcp_skew.realpeers._installs import Install

    def prepare(packages: Any, jobs: int = 2) -> dict[Any, Install]:
        return {p: Install(p, Path("/nonexistent"), 0.0, True) for p in packages}

    def server_command(*_: Any) -> list[str]:
        return [sys.executable, "-c", SLEEPER, f"{token}-server"]

    def client_command(_family: Any, _model: Any, _env: Any, server: list[str],
                       _probe_ms: Any = None) -> list[str]:
        return [sys.executable, __file__, "client", f"{token}-client", "--", *server]

    real.prepare = prepare  # type: ignore[assignment]
    real.server_command = server_command  # type: ignore[assignment]
    real.client_command = client_command  # type: ignore[assignment]
    return main(["matrix", "--set", "real", "--run-real"])


if __name__ == "__main__":
    if sys.argv[1] == "client":
        fake_client(sys.argv[sys.argv.index("--") + 1:])
    raise SystemExit(fake_matrix(sys.argv[1]))

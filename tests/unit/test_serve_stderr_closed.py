"""``serve`` with its standard error closed (``2>&-``) writes only JSON-RPC on standard
output: Python makes ``sys.stderr`` None there, and a ``print(file=None)`` goes to stdout."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def test_with_stderr_closed_stdout_carries_only_json_rpc() -> None:
    ping = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}) + "\n"
    proc = subprocess.run(["sh", "-c", 'exec "$0" -m mcp_skew serve legacy:2025-06-18 2>&-',
                           sys.executable], input=ping.encode() + b"not json\n",
                          capture_output=True, timeout=120, check=False)
    lines = proc.stdout.decode().splitlines()
    assert [json.loads(line).get("id") for line in lines] == [1, None]  # the two answers only
    assert proc.returncode == 0

"""``mcp-skew record`` loses nothing and holds little: every line the server wrote is
delivered and logged whatever the client's pace (a client that stops reading while the
server exits is waited for: back-pressure, not a timeout), and a line over the cap is
delivered whole, logged cut, said on stderr and in the log, with memory bounded by the cap."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from mcp_skew.serve._log import read_log

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")]

BOUND_S = 120.0
LINES = 2000  #: about 110 KB: more than the pipe to the client holds, less than that and the
#: proxy's chunk: the server writes them all and exits while the client reads none


def _alive(token: str) -> bool:
    """Whether the server (or its supervisor) runs: a process with ``token`` in its command
    line, other than ``record`` itself."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_bytes().rpartition(b")")[2].split()[0]
                cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
                if stat != b"Z" and token.encode() in cmdline and b"record" not in cmdline:
                    return True
            except (OSError, IndexError):
                continue
    return False


def test_a_client_that_pauses_reading_while_the_server_exits_gets_every_line(
        tmp_path: Path) -> None:
    token = f"flood-{uuid.uuid4().hex}"
    writer = ("import json, sys\n"
              f"for i in range({LINES}):\n"
              "    sys.stdout.write(json.dumps({'jsonrpc': '2.0', 'method': 'n', "
              "'params': {'i': i}}) + '\\n')\n")
    log = tmp_path / "w.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "mcp_skew", "record", "--log", str(log),
                             "--", sys.executable, "-c", writer, token],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        give_up = time.monotonic() + BOUND_S
        while not (log.exists() and b'"event": "start"' in log.read_bytes()):
            assert time.monotonic() < give_up
            time.sleep(0.05)
        while _alive(token):
            assert time.monotonic() < give_up, "the server did not get to write every line"
            time.sleep(0.05)
        time.sleep(8)  # the client still does not read: longer than any drain timeout
        out, err = proc.communicate(timeout=BOUND_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    delivered = out.splitlines()
    assert len(delivered) == LINES
    assert [json.loads(line)["params"]["i"] for line in delivered] == list(range(LINES))
    entries, _ = read_log(log)
    assert sum(e.dir == "s2c" for e in entries) == LINES


BIG_SERVER = """\
import sys
out = sys.stdout.buffer
out.write(b'{"jsonrpc":"2.0","id":1,"result":{"x":"')
chunk = b"x" * (1 << 20)
for _ in range(int(sys.argv[1])):
    out.write(chunk)
out.write(b'"}}\\n{"jsonrpc":"2.0","id":2,"result":{}}\\n')
"""
MEASURE = """\
import resource, subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
total = 0
while data := proc.stdout.read1(1 << 20):
    total += len(data)
proc.wait()
print(total, proc.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


def test_a_line_over_the_cap_crosses_whole_is_logged_cut_and_memory_stays_bounded(
        tmp_path: Path) -> None:
    from mcp_skew.serve._log import LINE_CAP

    mib = 100
    log = tmp_path / "big.jsonl"
    record = [sys.executable, "-m", "mcp_skew", "record", "--log", str(log), "--",
              sys.executable, "-c", BIG_SERVER, str(mib)]
    proc = subprocess.run([sys.executable, "-c", MEASURE, *record], capture_output=True,
                          timeout=BOUND_S * 3, check=True)
    total, code, peak = (int(word) for word in proc.stdout.split())
    line = len(b'{"jsonrpc":"2.0","id":1,"result":{"x":"') + (mib << 20) + len(b'"}}')
    assert code == 0
    assert total == line + 1 + len(b'{"jsonrpc":"2.0","id":2,"result":{}}\n')  # all of it
    assert peak < 2 * line  # a 100 MiB line, and the proxy's peak is far under 200 MiB
    entries, _ = read_log(log)
    s2c = [e for e in entries if e.dir == "s2c"]
    assert [len(e.line or "") for e in s2c] == [LINE_CAP, 36]
    assert s2c[0].get("cut_bytes") == line
    cut = [e for e in entries if e.kind == "line-cut"]
    assert len(cut) == 1 and f"{line} bytes" in cut[0].text
    shown = subprocess.run([sys.executable, "-m", "mcp_skew", "show-log", str(log)],
                           capture_output=True, timeout=BOUND_S, check=False)
    assert shown.returncode == 0, shown.stderr

"""``mcp-skew serve`` on stdio caps a line: a line over the cap (here 100 MiB) is read to its
end and dropped as it comes, answered ``-32700`` with its length, and the next line is served;
the process's memory stays far below the line's size (it held several times the line)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

MEASURE = """\
import resource, subprocess, sys, threading
proc = subprocess.Popen([sys.executable, "-m", "mcp_skew", "serve", "legacy:2025-06-18", "-q"],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
got = {}
def read(name):
    got[name] = getattr(proc, name).read()
readers = [threading.Thread(target=read, args=(n,)) for n in ("stdout", "stderr")]
for r in readers:
    r.start()
proc.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"')
chunk = b"x" * (1 << 20)
for _ in range(int(sys.argv[1])):
    proc.stdin.write(chunk)
proc.stdin.write(b'"}}\\n{"jsonrpc":"2.0","id":2,"method":"ping"}\\n')
proc.stdin.close()
for r in readers:
    r.join()
proc.wait()
out, err = got["stdout"], got["stderr"]
sys.stdout.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024) + "\\n")
sys.stdout.write(out.decode())
sys.stderr.write(err.decode())
"""


def test_a_line_over_the_cap_is_answered_and_memory_stays_bounded() -> None:
    mib = 100
    proc = subprocess.run([sys.executable, "-c", MEASURE, str(mib)], capture_output=True,
                          timeout=600, check=True)
    peak, *answers = proc.stdout.decode().splitlines()
    replies = [json.loads(a) for a in answers]
    assert [r.get("id") for r in replies] == [None, 2]
    assert replies[0]["error"]["code"] == -32700
    assert str((mib << 20) + 58) in replies[0]["error"].get("message", "") + json.dumps(
        replies[0]["error"].get("data", ""))
    assert replies[1]["result"] == {}
    assert int(peak) < (mib << 20)  # far under the line's size
    assert b"Traceback" not in proc.stderr

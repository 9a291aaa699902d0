"""A client that will not stop: for the tests that stop ``probe-client`` with a signal.

    stubborn_client.py PIDFILE [flood] -- SERVER_WORDS...

It ignores SIGTERM, SIGINT and SIGHUP, starts the server it is given (which it never
talks to) and a child in a session of its own that ignores them too, writes
``client CHILD SERVER`` pids to PIDFILE (through a temporary name: the file appears
whole), and never exits; with ``flood`` it writes to stdout and stderr without end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

IGNORE = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def _ignoring() -> None:
    for sig in IGNORE:
        signal.signal(sig, signal.SIG_IGN)


def main() -> None:
    pidfile, *rest = sys.argv[1:]
    flood = rest[:1] == ["flood"]
    server = rest[rest.index("--") + 1:]
    _ignoring()
    child = subprocess.Popen([sys.executable, "-c", "import signal, time\n"
                              "for s in (1, 2, 15): signal.signal(s, signal.SIG_IGN)\n"
                              "while True: time.sleep(60)"],
                             start_new_session=True, stdin=subprocess.DEVNULL)
    spawned = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    tmp = f"{pidfile}.tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(f"{os.getpid()} {child.pid} {spawned.pid}\n")
    os.replace(tmp, pidfile)
    if flood:
        block = b"x" * 65536
        threading.Thread(target=lambda: [os.write(2, block) for _ in iter(int, 1)],
                         daemon=True).start()
        while True:
            os.write(1, block)
    while True:
        time.sleep(60)


if __name__ == "__main__":
    main()

"""The stdio relay ``{server}`` runs: a script, never imported by the package.

``python -I -S _relay.py SOCKET``: connects to a simulated server that ``mcp-skew
probe-client`` already serves in its own process (on the Unix socket ``SOCKET``,
:mod:`mcp_skew.serve._relayed`) and passes bytes both ways, standard input to the
socket and the socket to standard output, as they come. Standard library only (``_socket``
and ``select``), no site: its start is the interpreter's own (121 to 319 ms from the spawn
to the first answer at a load average of 14 on 2 CPUs), not a server's (0.5 to 3 s), and
what it adds is timed from when the client started it (below): the client meets a server
that is ready, and the first answer's delay is the server's modelled latency.

Before the bytes, it sends one line of its own, ``mcp-skew-relay BEGAN PID``: BEGAN is
when the client started this process (wall clock, seconds; read from ``/proc`` where
there is one, else when the script began), so lines the client wrote before the relay
ran are timed from the moment it started its "server".

End of input from the client is passed on (``shutdown``); the relay exits when the
server closes: with 0 when the client had closed its end first, else 1 (the simulated
server ended itself, as a crashed server's exit would be). A server that outlives its
standard input keeps the relay running until it is signalled, as such a server would.
"""

import os
import select
import sys
import time
from _socket import AF_UNIX, SHUT_WR, SOCK_STREAM, socket

__all__ = ["main"]

CHUNK = 65536


def began() -> float:
    """The wall-clock time this process was started (forked), as well as can be read."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rpartition(b")")[2].split()
        ticks = int(fields[19])  # starttime, in clock ticks since boot (proc(5))
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
        if 0 <= age < 60:
            return time.time() - age
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    return time.time()


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


def relay(path: str) -> int:
    start = began()
    sock = socket(AF_UNIX, SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError as exc:
        print(f"mcp-skew relay: cannot reach the simulated server at {path}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1
    sock.sendall(f"mcp-skew-relay {start:.6f} {os.getpid()}\n".encode())
    stdin_open = True
    while True:
        watched = [0, sock.fileno()] if stdin_open else [sock.fileno()]
        ready, _, _ = select.select(watched, [], [])
        if 0 in ready:
            data = os.read(0, CHUNK)
            if data:
                sock.sendall(data)
            else:
                stdin_open = False
                sock.shutdown(SHUT_WR)
        if sock.fileno() in ready:
            data = sock.recv(CHUNK)
            if not data:
                return 1 if stdin_open else 0
            _write_all(1, data)


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: _relay.py SOCKET", file=sys.stderr)
        return 2
    try:
        return relay(sys.argv[1])
    except OSError:  # the client closed our standard output, or the server went: end as it did
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

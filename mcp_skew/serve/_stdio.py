"""A simulated server as a real MCP server on standard input and output.

Theory of operation
-------------------
One line in, one :meth:`SimServer.receive`, its replies out: newline-delimited
JSON-RPC, one message per line, flushed at once (``basic/transports`` stdio
framing of every revision). The quirks act in real time: ``slow=MS`` sleeps
before the first read (the cold start), ``latency=MS`` before each answer,
``silent`` leaves a request unanswered, ``silent-exit`` ends the process on the next
input, and any :class:`Reaction` with ``exit`` ends it (exit code 1, as a crashed
server's would be).

What the simulated server cannot read is answered here, at the edge: a line
that is not JSON gets ``-32700 Parse error`` (or nothing, under ``drop-unparsable``:
:meth:`SimServer.unparsable`); a batch (a JSON array) is served
element by element where one of the server's revisions allows batching
(2025-03-26), else refused with ``-32600``; inside a batch, ``initialize`` (which
2025-03-26 keeps out of batches) gets ``-32600`` for its element. Standard output carries only MCP
messages; everything said to a person goes to standard error.

A line is read at most :data:`~mcp_skew.serve._log.LINE_CAP` bytes (8 MiB) at a time: a
longer one is read to its end and dropped as it comes (memory stays bounded by the cap),
then answered as a line that is not JSON (``-32700``, with the line's length in the
message), logged cut (``cut_bytes``) under ``--record``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import IO, Any

from .._jsontext import dump_line
from ..simulator import PeerSpec, StdioServer
from ._log import LINE_CAP, CutLine, LogWriter, decode_line

__all__ = ["Say", "encode", "serve_stdio"]

Say = Callable[[str], None]

#: Exit code when the simulated server ends itself (``silent-exit`` and the like).
EXIT_QUIRK = 1


def encode(message: Any) -> bytes:
    """One message as a line of compact JSON, ``\\n`` included (valid UTF-8 even where a
    string holds a lone surrogate: :func:`mcp_skew._jsontext.dump_line`)."""
    return dump_line(message)


def _read_line(stdin: IO[bytes]) -> bytes:
    """The next line (with its newline), or a :class:`CutLine` of a line over the cap (its
    start and length; the rest is read and dropped)."""
    raw = stdin.readline(LINE_CAP + 1)
    if len(raw) <= LINE_CAP or raw.endswith(b"\n"):
        return raw
    size = len(raw)
    while True:
        more = stdin.readline(1 << 20)
        size += len(more)
        if not more or more.endswith(b"\n"):
            break
    cut = CutLine(raw[:LINE_CAP])
    cut.size = size - (1 if more.endswith(b"\n") else 0)
    return cut


def serve_stdio(spec: PeerSpec, stdin: IO[bytes], stdout: IO[bytes], *, say: Say,
                log: LogWriter | None = None, sleep: Callable[[float], None] = time.sleep,
                logs_input: bool = True) -> int:
    """Serve until standard input ends (exit code 0) or the server exits (1). With
    ``logs_input`` False the client's lines are logged by the caller, as they arrive (a
    server asleep in its cold start reads them later)."""
    loop = StdioServer(spec, say)
    delay = loop.server.startup_ms
    if delay:
        say(f"slow start: reading standard input in {delay} ms")
        sleep(delay / 1000)
    while True:
        raw = _read_line(stdin)
        if isinstance(raw, CutLine):
            say(f"recv a line of {raw.size} bytes, over the cap of {LINE_CAP}: answered as "
                "not JSON")
            if log and logs_input:
                log.line("c2s", raw)
            for reply in loop.server.unparsable(f"a line of {raw.size} bytes, over the "
                                                f"cap of {LINE_CAP}").replies:
                stdout.write(encode(reply))
                stdout.flush()
            continue
        if not raw:
            if log:
                log.event("client-eof", "the client closed the server's standard input")
            if loop.server.policy.outlives_stdin:
                say("standard input closed; running on until signalled (quirk outlives-stdin)")
                while True:  # as a server whose timers keep it alive: SIGTERM or ^C ends it
                    sleep(3600)
            say("standard input closed; exiting")
            return 0
        partial = not raw.endswith(b"\n")
        text = decode_line(raw[:-1] if not partial else raw)
        if log and logs_input:
            log.line("c2s", text, partial=partial)
        replies = loop.handle_line(text)
        if replies and loop.server.latency_ms:  # latency=MS: each answer that much later
            sleep(loop.server.latency_ms / 1000)
        for reply in replies:
            line = encode(reply)
            if log:  # logged before it is sent: a client may kill the process on reading it
                log.line("s2c", line[:-1])
            stdout.write(line)
            stdout.flush()
        if loop.exit:
            if log:
                log.event("exit", f"server exited with code {EXIT_QUIRK} (simulated quirk)",
                          side="server", code=EXIT_QUIRK)
            return EXIT_QUIRK

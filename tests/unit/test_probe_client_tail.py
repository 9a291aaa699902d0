"""probe-client keeps the last :data:`TAIL_BYTES` of a client's stdout and stderr, and holds
at most :data:`HELD_BYTES` of a stream while it reads, however much the client writes (a
flood: issue 33 asks for a fixed cap). In this process, over a pipe."""

from __future__ import annotations

import os
import threading

from mcp_skew.probe_client._launch import HELD_BYTES, TAIL_BYTES, _Tail

FLOOD_BYTES = 8 << 20


def test_a_flood_is_held_under_the_cap_and_its_tail_kept() -> None:
    read, write = os.pipe()
    held: list[int] = []
    with os.fdopen(read, "rb") as stream:
        tail = _Tail(stream)

        def flood() -> None:
            block = b"0123456789abcdef" * 4096  # 64 KiB
            for _ in range(FLOOD_BYTES // len(block)):
                os.write(write, block)
                held.append(len(tail.data))  # what the reader holds now, as it reads
            os.write(write, b"the end\n")
            os.close(write)

        writer = threading.Thread(target=flood)
        writer.start()
        writer.join()
        text = tail.text()
    assert max(held) <= HELD_BYTES
    assert len(tail.data) <= HELD_BYTES
    assert len(text) == TAIL_BYTES
    assert text.endswith("the end\n")

"""``python -m mcp_skew._stamp FILE ARGS...``: note when this process began, then run ``mcp-skew ARGS``.

``mcp-skew probe-client`` hands a client this command for ``{server}``: the client spawns
the simulated server, and the server's wire log times each line when the server reads
it, which is after its start-up (a second on a loaded machine). The wall-clock time
written here (one line per process, appended) is when the client started the server,
so a client's probe timeout can be measured from the moment it sent its first request.
"""

from __future__ import annotations

import sys
import time


def main(argv: list[str]) -> int:
    """Append the start time to ``argv[0]``, then run the command line ``argv[1:]``."""
    began = time.time()
    if not argv:
        print("usage: python -m mcp_skew._stamp FILE ARGS...", file=sys.stderr)
        return 2
    try:
        with open(argv[0], "a", encoding="utf-8") as stamps:
            stamps.write(f"{began:.6f}\n")
    except OSError as exc:
        print(f"mcp-skew: error: cannot write {argv[0]}: {exc.strerror}", file=sys.stderr)
        return 2
    from .cli import main as cli_main  # noqa: PLC0415 - after the stamp: the imports take time

    return cli_main(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

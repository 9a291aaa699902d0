"""A simulated server that exits mid-conversation: ``python dies_midway.py WHEN SPEC``.

It is the simulated server SPEC (``sim_stdio_server.py``) that answers its first request,
then exits (code 1) on its second request without answering it -- in every process
(WHEN ``always``: a server that crashes on a request, the same in every run), or only
outside a census job's second probe (WHEN ``first``: its working directory is not under
the job's ``again`` folder, so the census's two probes of it see two different servers, as
two runs of a server that dies at a moment of its own may). Test helper for the census;
not part of mcp-skew.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from mcp_skew.simulator import SimServer, parse_peer


def main() -> int:
    when, spec = sys.argv[1], sys.argv[2]
    dies = when == "always" or "again" not in Path(os.getcwd()).parts
    server = SimServer(parse_peer(spec, "server"))
    answered = 0
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and "id" in message and "method" in message:
            if dies and answered:
                return 1
            answered += 1
        for reply in server.receive(message).replies:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A stdio MCP server whose tools list fine and break at the call: ``tool_server.py CASE``
with a case of ``tests/_tool_servers.py`` (call-fails, draft-07, no-structured, ...)."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _tool_servers import answer

CASE = sys.argv[1]
for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    reply = answer(CASE, message) if isinstance(message, dict) else None
    if reply is not None:
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()

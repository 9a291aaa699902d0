"""A stdio server slow at everything: each answer, and its exit after the end of its stdin,
comes DELAY_MS (argv[1]) late, as a real server's does on a busy machine.

Test helper for the drift checks' raw probes; not part of mcp-skew.
"""

import json
import sys
import time

DELAY_S = int(sys.argv[1]) / 1000

for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        message = {"id": None, "method": ""}
    if not isinstance(message, dict) or "id" not in message:
        continue  # a notification
    time.sleep(DELAY_S)
    if message.get("method") == "initialize":
        answer = {"jsonrpc": "2.0", "id": message["id"], "result": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "serverInfo": {"name": "slow-answers", "version": "0"}}}
    else:
        answer = {"jsonrpc": "2.0", "id": message["id"],
                  "error": {"code": -32601, "message": "Method not found"}}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
time.sleep(DELAY_S)  # the end of stdin: a slow shutdown, then the exit

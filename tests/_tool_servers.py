"""Servers whose tools list fine and then break at the call, in this process (fast tests) or
as a process (``tests/servers/tool_server.py``, slow tests): the cases of ``docs/calls.md``.

- ``call-fails``: every call is ``isError`` whatever the arguments (a schema built with a zod
  major the server's SDK cannot read: "keyValidator._parse is not a function");
- ``draft-07``: the tool's ``outputSchema`` carries ``$schema`` draft-07 (zod-to-json-schema's
  stamp), and the result matches it;
- ``no-structured``: the tool has an ``outputSchema`` and returns text only;
- ``mismatch``: ``structuredContent`` that breaks the ``outputSchema``;
- ``destructive-first``: the first tool is annotated ``destructiveHint: true``;
- ``ok``: one tool, called and answered as its schema says.

Pure data and one function (:func:`answer`): the process script imports it without
mcp-skew; :func:`target` wraps it for the probe.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["CASES", "REVISIONS", "answer", "target"]

REVISIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
DRAFT_07 = "http://json-schema.org/draft-07/schema#"
_ECHO = {"name": "echo", "description": "echo the text back",
         "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                         "required": ["text"]}}
_DIRS = {"type": "object", "properties": {"dirs": {"type": "array", "items": {"type": "string"}}},
         "required": ["dirs"]}
CASES: dict[str, list[dict[str, Any]]] = {
    "call-fails": [{"name": "search", "description": "search the notes",
                    "inputSchema": {"type": "object",
                                    "properties": {"def": {"type": "object"},
                                                   "type": {"type": "string"}}}}],
    "draft-07": [{"name": "list_allowed_directories", "description": "the directories",
                  "inputSchema": {"$schema": DRAFT_07, "type": "object", "properties": {}},
                  "outputSchema": {"$schema": DRAFT_07, **_DIRS}}],
    "no-structured": [{"name": "list_allowed_directories", "description": "the directories",
                       "inputSchema": {"type": "object", "properties": {}},
                       "outputSchema": _DIRS}],
    "mismatch": [{"name": "list_allowed_directories", "description": "the directories",
                  "inputSchema": {"type": "object", "properties": {}}, "outputSchema": _DIRS}],
    "destructive-first": [{"name": "delete_everything", "description": "deletes it all",
                           "inputSchema": {"type": "object", "properties": {}},
                           "annotations": {"destructiveHint": True}}, _ECHO],
    "ok": [_ECHO],
}


def _text(words: str, **more: Any) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": words}], **more}


def _call(case: str, name: Any, args: dict[str, Any]) -> dict[str, Any]:
    if case == "call-fails":
        return _text("keyValidator._parse is not a function", isError=True)
    if case == "destructive-first" and name == "delete_everything":
        return _text("deleted everything")
    if case in ("destructive-first", "ok"):
        return _text(f"echo: {args.get('text')}")
    dirs = {"dirs": ["/srv/notes"]}
    if case == "no-structured":
        return _text(json.dumps(dirs))
    if case == "mismatch":
        return _text(json.dumps(dirs), structuredContent={"dirs": "/srv/notes"})
    return _text(json.dumps(dirs), structuredContent=dirs)


def answer(case: str, message: dict[str, Any]) -> dict[str, Any] | None:
    """The server's answer to one message (None: a notification, no answer). Legacy only:
    ``initialize`` gets the revision asked for when it serves it, else its newest."""
    if "id" not in message:
        return None
    method, params = message.get("method"), message.get("params") or {}
    out: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
    if method == "initialize":
        asked = params.get("protocolVersion")
        out["result"] = {"protocolVersion": asked if asked in REVISIONS else REVISIONS[0],
                         "capabilities": {"tools": {}},
                         "serverInfo": {"name": f"tools-{case}", "version": "1.0.0"}}
    elif method == "ping":
        out["result"] = {}
    elif method == "tools/list":
        out["result"] = {"tools": CASES[case]}
    elif method == "tools/call":
        out["result"] = _call(case, params.get("name"), params.get("arguments") or {})
    else:
        out["error"] = {"code": -32601, "message": f"Method not found: {method}"}
    return out


def target(case: str) -> Any:
    """A probe Target whose every link is a fresh in-process server of ``case``."""
    from _hand_servers import HandLink

    from mcp_skew.probe import Target
    from mcp_skew.simulator import parse_peer
    from mcp_skew.simulator._server import Reaction

    peer = parse_peer(f"legacy:{','.join(REVISIONS)}", "server")

    def override(message: dict[str, Any]) -> Reaction:
        reply = answer(case, message)
        return Reaction([reply] if reply is not None else [])

    return Target(inprocess=lambda: HandLink(peer, override), name=f"tools:{case}")

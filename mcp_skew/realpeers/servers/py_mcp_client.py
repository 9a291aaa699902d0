"""Drive the official Python SDK ``mcp`` as a client, any release line, against a stdio server.

Usage::

    <venv>/bin/python py_mcp_client.py --mode session|auto|legacy [--probe-timeout S] -- CMD...
    <venv>/bin/python py_mcp_client.py --mode auto|legacy --url URL

* ``--url URL``: ``Client(URL, mode=...)`` over Streamable HTTP instead of a stdio server
  (2.x; a bridge's HTTP side, tests/interop/test_bridge_chain_realpeer.py);

* ``session``: ``ClientSession(read, write).initialize()``, the classic pattern (every release);
* ``auto`` / ``legacy``: ``mcp.client.client.Client(StdioServerParameters, mode=...)`` (2.x);
* ``--probe-timeout S`` sets ``mcp.client.session.DISCOVER_TIMEOUT_SECONDS`` (2.x; default 10).

After connecting it lists the tools once, then closes. It prints one line
``RESULT {json}`` with ``ok``, ``protocol_version``, ``tools``, ``error`` and
``elapsed_s``, as soon as the tools are listed (before closing: the 1.0 client's close
waits for the server process to exit, for ever if it outlives its stdin). Run by a foreign
interpreter; not imported by mcp_skew.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from typing import Any

STARTED = time.monotonic()
REPORTED: list[bool] = []


def _report(out: dict[str, Any]) -> None:
    """Print the RESULT line once (before closing: a close that hangs must not hide it)."""
    if not REPORTED:
        REPORTED.append(True)
        out["elapsed_s"] = round(time.monotonic() - STARTED, 2)
        print("RESULT " + json.dumps(out), flush=True)


def _unwrap(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


async def _session(params: Any) -> dict[str, Any]:
    mcp: Any = importlib.import_module("mcp")
    stdio: Any = importlib.import_module("mcp.client.stdio")
    async with stdio.stdio_client(params) as (read, write), mcp.ClientSession(read, write) as s:
        res = await s.initialize()
        version = getattr(res, "protocol_version", None) or res.protocolVersion
        tools = await s.list_tools()
        out = {"ok": True, "protocol_version": version, "tools": [t.name for t in tools.tools]}
        _report(out)
        return out


async def _client(params: Any, mode: str) -> dict[str, Any]:
    client_mod: Any = importlib.import_module("mcp.client.client")
    async with client_mod.Client(params, mode=mode) as c:
        tools = await c.list_tools()
        out = {"ok": True, "protocol_version": c.protocol_version,
               "tools": [t.name for t in tools.tools]}
        _report(out)
        return out


async def _main(args: argparse.Namespace) -> dict[str, Any]:
    mcp: Any = importlib.import_module("mcp")
    params: Any = args.url
    if args.url is None:
        params = mcp.StdioServerParameters(command=args.command[0], args=list(args.command[1:]))
    if args.probe_timeout is not None:
        session_mod: Any = importlib.import_module("mcp.client.session")
        session_mod.DISCOVER_TIMEOUT_SECONDS = args.probe_timeout
    if args.mode == "session":
        return await _session(params)
    return await _client(params, args.mode)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="session", choices=("session", "auto", "legacy"))
    ap.add_argument("--probe-timeout", type=float, default=None)
    ap.add_argument("--url", default=None)
    ap.add_argument("command", nargs="*")
    args = ap.parse_args()
    if (args.url is None) == (not args.command) or (args.url and args.mode == "session"):
        ap.error("give a server command, or --url with --mode auto or legacy")
    anyio: Any = importlib.import_module("anyio")
    try:
        out = anyio.run(_main, args)
        out["ok"] = True
    except BaseException as exc:  # every failure is an outcome to report
        inner = _unwrap(exc)
        out = {"ok": False, "error": f"{type(inner).__name__}: {inner}"[:600]}
    _report(out)
    sys.exit(0)


if __name__ == "__main__":
    main()

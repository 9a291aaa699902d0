"""A small MCP client with a chosen negotiation rule, for testing ``mcp-skew probe-client``.

Usage::

    python scripted_client.py [--era legacy|modern|dual] [--revisions R,R...]
        [--fallback any|32601] [--probe-timeout S] [--strict] [--strict-discover] [--restart]
        [--hang] [--apps read|no-read]
        [--keeps-era FILE] (-- SERVER_COMMAND... | --url URL)

With ``--url`` it speaks Streamable HTTP (JSON responses, the session id and protocol
version headers; a modern request carries ``MCP-Protocol-Version`` and ``Mcp-Method``).

It starts the server command, negotiates by its rule, lists the tools once, and exits 0
when the tools were listed, 1 otherwise (a line on stderr says why). ``--hang`` makes it
wait for ever after connecting, as a client that waits for input does. ``--strict-discover``
reads a ``server/discover`` result that lacks ``supportedVersions`` or ``capabilities`` (both
required by the 2026-07-28 schema's DiscoverResult) as a failed probe: a dual client falls
back to ``initialize``, a modern one fails. ``--keeps-era FILE``
keeps the era it reached per server command (or URL) in FILE, across runs: a legacy one
kept makes the next run open with ``initialize`` at that revision, probing only when that
fails. ``--apps`` advertises MCP Apps (``io.modelcontextprotocol/ui`` in its capabilities:
``initialize``, or each request's ``_meta``) and, after listing, calls the first tool whose
``_meta.ui.resourceUri`` names an app; ``read`` then reads that ``ui://`` resource, as the
extension says a host MUST, ``no-read`` never does (a host that never mounts the app).
Standalone: it imports nothing of mcp-skew.
"""

from __future__ import annotations

import argparse
import json
import queue
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any

VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
LEGACY = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
MODERN = ("2026-07-28",)
UI = "io.modelcontextprotocol/ui"
#: the capabilities it declares (``--apps`` adds the MCP Apps extension)
CAPS: dict[str, Any] = {}


class Server:
    """A server process and a queue of the lines it writes."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            try:
                self.lines.put(json.loads(raw))
            except ValueError:
                continue
        self.lines.put(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            pass

    def request(self, method: str, params: dict[str, Any], timeout_s: float) -> Any:
        """The answer (a dict), "timeout" or "exit"."""
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                got = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return "timeout"
            if got is None:
                return "exit"
            if got.get("id") == self.next_id and "method" not in got:
                return got

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class HttpServer:
    """The same interface over Streamable HTTP: one POST per message."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.next_id = 0
        self.session: str | None = None
        self.revision: str | None = None

    def _post(self, message: dict[str, Any], timeout_s: float) -> Any:
        headers = {"Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}
        version = (message.get("params") or {}).get("_meta", {}).get(VERSION_KEY)
        if version:
            headers.update({"MCP-Protocol-Version": version, "Mcp-Method": message["method"]})
        else:
            if self.session:
                headers["Mcp-Session-Id"] = self.session
            if self.revision:
                headers["MCP-Protocol-Version"] = self.revision
        request = urllib.request.Request(self.url, json.dumps(message).encode(), headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as response:
                self.session = response.headers.get("Mcp-Session-Id") or self.session
                body = response.read().decode()
        except urllib.error.HTTPError as exc:
            body = exc.read().decode()
            if not body.strip():
                return {"error": {"code": -exc.code, "message": f"HTTP {exc.code}"}}
        except TimeoutError:
            return "timeout"
        except OSError:
            return "exit"
        for line in body.splitlines():  # an SSE stream: the data lines
            if line.startswith("data:"):
                body = line[5:]
        return json.loads(body) if body.strip() else None

    def send(self, message: dict[str, Any]) -> None:
        self._post(message, 5)

    def request(self, method: str, params: dict[str, Any], timeout_s: float) -> Any:
        self.next_id += 1
        return self._post({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                           "params": params}, timeout_s)

    def close(self) -> None:
        pass


def _modern_params(revision: str) -> dict[str, Any]:
    return {"_meta": {VERSION_KEY: revision, "io.modelcontextprotocol/clientCapabilities": CAPS,
                      "io.modelcontextprotocol/clientInfo": {"name": "scripted", "version": "1"}}}


def _initialize(server: Server | HttpServer, revisions: list[str], timeout_s: float) -> str | None:
    legacy = [r for r in revisions if r in LEGACY]
    answer = server.request("initialize", {
        "protocolVersion": legacy[0], "capabilities": CAPS,
        "clientInfo": {"name": "scripted", "version": "1"}}, timeout_s)
    if not isinstance(answer, dict) or "result" not in answer:
        return None
    agreed = answer["result"].get("protocolVersion")
    if agreed not in legacy:
        return None
    if isinstance(server, HttpServer):
        server.revision = agreed
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return str(agreed)


def _fallback(answer: Any, rule: str) -> bool:
    if answer == "timeout":
        return rule == "any"
    if answer == "exit" or "error" not in answer:
        return False
    code = answer["error"].get("code")
    if code == -32022:
        return False
    return rule == "any" or code == -32601


def _connect(args: argparse.Namespace, command: list[str]
             ) -> tuple[Server | HttpServer, str | None]:
    revisions = args.revisions.split(",")
    server: Server | HttpServer = HttpServer(args.url) if args.url else Server(command)
    if args.era == "legacy":
        return server, _initialize(server, revisions, 5)
    modern = next(r for r in revisions if r in MODERN)
    answer = server.request("server/discover", _modern_params(modern), args.probe_timeout)
    incomplete = isinstance(answer, dict) and isinstance(answer.get("result"), dict) and any(
        key not in answer["result"] for key in ("supportedVersions", "capabilities"))
    if args.strict_discover and incomplete:
        if args.era == "modern":
            return server, None
        return server, _initialize(server, revisions, 5)
    if isinstance(answer, dict) and "result" in answer:
        offered = answer["result"].get("supportedVersions") or []
        return server, modern if modern in offered else None
    if args.era == "modern" or not _fallback(answer, args.fallback):
        return server, None
    if args.restart and answer in ("timeout", "exit") and isinstance(server, Server):
        server.proc.kill()
        server = Server(command)
    return server, _initialize(server, revisions, 5)


def _kept(path: str | None, key: str) -> str | None:
    """The legacy revision kept for the server ``key`` (``--keeps-era``), if any."""
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            kept = json.load(f).get(key)
    except (OSError, ValueError):
        return None
    return kept[1] if isinstance(kept, list) and kept[0] == "legacy" else None


def _keep(path: str | None, key: str, revision: str) -> None:
    if not path:
        return
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        doc = {}
    doc[key] = ["modern" if revision in MODERN else "legacy", revision]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def _connect_keeping(args: argparse.Namespace, command: list[str]
                     ) -> tuple[Server | HttpServer, str | None]:
    key = args.url or " ".join(command)
    kept = _kept(args.keeps_era, key)
    if kept is not None:
        server: Server | HttpServer = HttpServer(args.url) if args.url else Server(command)
        revision = _initialize(server, [kept], 5)
        if revision is not None:
            return server, revision
        server.close()
    server, revision = _connect(args, command)
    if revision is not None:
        _keep(args.keeps_era, key, revision)
    return server, revision


def _open_app(server: Server | HttpServer, params: dict[str, Any], listed: dict[str, Any], *,
              read: bool) -> None:
    """Call the first tool that names an app, and read the app unless told not to."""
    for tool in listed.get("tools") or []:
        uri = ((tool.get("_meta") or {}).get("ui") or {}).get("resourceUri")
        if isinstance(uri, str):
            server.request("tools/call", {**params, "name": tool["name"], "arguments": {}}, 5)
            if read:
                server.request("resources/read", {**params, "uri": uri}, 5)
            return


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--era", choices=("legacy", "modern", "dual"), default="dual")
    parser.add_argument("--revisions", default=",".join(MODERN + LEGACY))
    parser.add_argument("--fallback", choices=("any", "32601"), default="any")
    parser.add_argument("--probe-timeout", type=float, default=1.0)
    parser.add_argument("--strict", action="store_true")
    parser.add_argument("--strict-discover", action="store_true")
    parser.add_argument("--restart", action="store_true")
    parser.add_argument("--hang", action="store_true")
    parser.add_argument("--url", help="a Streamable HTTP server, instead of a command")
    parser.add_argument("--keeps-era", metavar="FILE",
                        help="keep the era reached per server in FILE, across runs")
    parser.add_argument("--apps", choices=("read", "no-read"))
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.apps:
        CAPS["extensions"] = {UI: {"mimeTypes": ["text/html;profile=mcp-app"]}}
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    server, revision = _connect_keeping(args, command)
    if revision is None:
        print("scripted: could not connect", file=sys.stderr)
        server.close()
        return 1
    if args.hang:
        time.sleep(3600)
    params = _modern_params(revision) if revision in MODERN else {}
    answer = server.request("tools/list", params, 5)
    ok = isinstance(answer, dict) and "result" in answer
    if ok and args.strict and revision in MODERN and "resultType" not in answer["result"]:
        print("scripted: tools/list result lacks resultType", file=sys.stderr)
        ok = False
    if ok and args.apps:
        _open_app(server, params, answer["result"], read=args.apps == "read")
    print(f"scripted: {revision} {'ok' if ok else 'failed'}")
    server.close()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""Drive the real ``mcp-remote`` proxy headless against a Streamable HTTP server, and say
whether its authorization and one ``tools/list`` went through.

Usage: ``python mcp_remote_client.py NODE_MODULES URL``; prints one JSON line:
``{"ok": bool, "detail": str, "scopes": [...], "authorizations": N}``.

``mcp-remote`` (``dist/proxy.js``) is a stdio server to its local client and a Streamable
HTTP client of ``URL``. It authorizes before it reads its stdin (``runProxy``:
``connectToRemoteServer`` first, ``localTransport.start()`` after), so this script:

1. starts it with a callback port of its own choosing and ``--host 127.0.0.1``, a private
   config directory (``MCP_REMOTE_CONFIG_DIR``: no tokens from an earlier run) and
   ``BROWSER=true`` (the ``open`` package's ``xdg-open`` then opens nothing);
2. plays the browser: it reads the authorization URL the proxy prints after "Please
   authorize this client by visiting:" (``redirectToAuthorization``), GETs it (the test
   authorization server approves at once, ``302`` to the callback) and delivers the redirect
   to the proxy's callback server, which starts only after the URL is printed (it is
   retried until it listens);
3. once the proxy says "Proxy established", speaks as its local client: ``initialize``, and
   after its answer ``notifications/initialized`` and ``tools/list`` (a stdio client waits
   for the handshake's answer; sent at once, the proxy POSTs them before it knows the
   session).

Nothing here is a time limit on the work: the bounds only stop a hung proxy.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

#: how long a hung proxy may run before this script gives up on it (not a measure of work)
_HANG = 120.0
_ASKED = "Please authorize this client by visiting:"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _approve(url: str, proxy: subprocess.Popen[str]) -> str | None:
    """GET the authorization URL; deliver its redirect to the proxy's callback server.
    None once delivered; else why not (the authorization server refused: the proxy would
    wait for a code that never comes)."""
    try:
        answer = urllib.request.build_opener(_NoRedirect).open(url, timeout=10)
        return f"the authorization request was answered {answer.status}, no redirect"
    except urllib.error.HTTPError as err:
        location = err.headers.get("Location") or ""
        if err.code != 302:
            return f"the authorization request was refused: HTTP {err.code}"
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
    if "code" not in query:
        return f"the authorization server redirected without a code: {query.get('error')}"
    give_up = time.monotonic() + _HANG
    while proxy.poll() is None and time.monotonic() < give_up:
        try:
            urllib.request.urlopen(location, timeout=10).read()
            return None
        except urllib.error.HTTPError:
            return None  # delivered; the proxy refused it
        except OSError:
            time.sleep(0.05)  # its callback server is not listening yet
    return None


class _Proxy:
    """The running proxy: its stderr read for the URL and the ready line, its stdout for
    JSON-RPC answers."""

    def __init__(self, modules: Path, url: str, home: Path) -> None:
        node = shutil.which("node") or "node"
        env = {**os.environ, "HOME": str(home), "MCP_REMOTE_CONFIG_DIR": str(home / "cfg"),
               "BROWSER": "true"}
        self.proc = subprocess.Popen(
            [node, str(modules / "mcp-remote" / "dist" / "proxy.js"), url, str(_free_port()),
             "--host", "127.0.0.1"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=env)
        self.ready = threading.Event()
        self.scopes: list[str] = []
        self.tail: list[str] = []
        self.refused: str | None = None
        self.established = False
        self.answers: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._stderr, daemon=True).start()
        threading.Thread(target=self._stdout, daemon=True).start()

    def _stderr(self) -> None:
        assert self.proc.stderr is not None
        asked = False
        for line in self.proc.stderr:
            text = line.strip()
            self.tail = [*self.tail[-20:], text]
            if asked and text.startswith("http"):
                query = urllib.parse.parse_qs(urllib.parse.urlsplit(text).query)
                self.scopes.append(" ".join(query.get("scope", [""])))
                threading.Thread(target=self._browse, args=(text,), daemon=True).start()
            asked = text.endswith(_ASKED)
            if "Proxy established" in text:
                self.established = True
                self.ready.set()
        self.ready.set()  # it exited: nothing more will come

    def _browse(self, url: str) -> None:
        self.refused = _approve(url, self.proc)
        if self.refused is not None:
            self.ready.set()  # the proxy waits for a code that never comes

    def _stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self.answers.put(json.loads(line))
            except ValueError:
                continue
        self.answers.put(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def answer(self, msg_id: int) -> dict[str, Any] | None:
        give_up = time.monotonic() + _HANG
        while time.monotonic() < give_up:
            try:
                got = self.answers.get(timeout=1)
            except queue.Empty:
                continue
            if got is None:
                return None
            if got.get("id") == msg_id:
                return got
        return None

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


def _session(proxy: _Proxy) -> tuple[bool, str]:
    proxy.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                           "clientInfo": {"name": "mcp-skew-driver", "version": "0"}}})
    first = proxy.answer(1)
    if first is None or "result" not in first:
        return False, f"initialize: {first}"
    proxy.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    proxy.send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    listed = proxy.answer(2)
    tools = (listed or {}).get("result", {}).get("tools")
    if not isinstance(tools, list):
        return False, f"tools/list: {listed}"
    return True, f"{len(tools)} tools"


def main(argv: list[str]) -> int:
    modules, url = Path(argv[0]), argv[1]
    with tempfile.TemporaryDirectory(prefix="mcp-remote-") as home:
        proxy = _Proxy(modules, url, Path(home))
        try:
            proxy.ready.wait(_HANG)
            if proxy.refused is not None:
                ok, detail = False, proxy.refused
            elif not proxy.established:
                ok, detail = False, "the proxy did not connect: " + " | ".join(proxy.tail[-6:])
            else:
                ok, detail = _session(proxy)
        finally:
            proxy.close()
    print(json.dumps({"ok": ok, "detail": detail, "scopes": proxy.scopes,
                      "authorizations": len(proxy.scopes)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

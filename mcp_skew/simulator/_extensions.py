"""Extensions on the wire: what simulated peers declare, and what a transcript shows.

Theory of operation
-------------------
A peer's extensions are its spec's ``+ext=...`` (:attr:`PeerSpec.extensions`); the
table of known extensions, and where a revision carries the client's, is
:data:`~mcp_skew.versions.EXTENSIONS` (data, read from the profile).

- A simulated **client** puts ``extensions`` into the capabilities it sends: in
  ``initialize`` on a handshake revision, in every request's ``_meta`` client
  capabilities on a revision that carries them per request. The quirk
  ``ext-unadvertised`` leaves them out.
- A simulated **server** declares the extensions it offers in its capabilities
  (``initialize`` result, ``server/discover`` result). Offering MCP Apps, it lists
  one more tool, ``show``, whose ``_meta.ui.resourceUri`` names its app, to a client
  whose capabilities for that request advertise the extension (the extension's own
  advice: "Servers SHOULD check client capabilities before registering UI-enabled
  tools", ext-apps 2026-01-26 ``apps.mdx`` §Server Behavior), and serves the app's HTML
  on ``resources/read``. Under ``ext-once`` it reads the client's extensions from
  ``initialize`` only.
- :func:`read_extensions` reads any transcript (simulated, or a real peer's through the
  probes) for what each side declared, which tools point at an app, and which of those
  resources the client read: the same reading for a simulated pair and a real one.

Nothing here compares revision strings, and nothing does I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..versions import EXTENSIONS, Message, Profile
from ._peers import PeerSpec
from .messages import _wire

__all__ = [
    "APP_TOOL",
    "APP_URI",
    "UI",
    "ExtensionsSeen",
    "advertise",
    "app_html",
    "app_resource",
    "app_tool",
    "client_extensions",
    "offered",
    "read_extensions",
]

UI: Final = "io.modelcontextprotocol/ui"
#: The app a simulated server offering MCP Apps serves, and the tool that points at it.
APP_URI: Final = "ui://mcp-skew/app.html"
APP_TOOL: Final = "show"


def app_tool() -> dict[str, Any]:
    """The tool (a fresh object) whose ``_meta.ui.resourceUri`` names :data:`APP_URI`
    (ext-apps 2026-01-26 ``apps.mdx`` §Resource Discovery)."""
    return {
        "name": APP_TOOL, "title": "Show", "description": "Returns its text, with an app.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
        "_meta": {"ui": {"resourceUri": APP_URI}},
    }


def app_resource(result: Any) -> str | None:
    """The first resource a listed tool of a ``tools/list`` result points at (MCP Apps)."""
    row = EXTENSIONS.get(UI)
    tools = result.get("tools") if isinstance(result, Mapping) else None
    if row is None or not isinstance(tools, list):
        return None
    return next((uri for t in tools if isinstance(t, Mapping)
                 and (uri := row.tool_resource(t)) is not None), None)


def _settings(ids: Iterable[str], role: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for ext_id in ids:
        row = EXTENSIONS.get(ext_id)
        out[ext_id] = row.settings(role) if row is not None else {}
    return out


def advertise(message: Message, spec: PeerSpec) -> Message:
    """``message`` (a fresh request of ``spec``'s client) with its extensions declared where
    the message carries client capabilities; unchanged without extensions or under
    ``ext-unadvertised``."""
    if not spec.extensions or spec.client_policy.ext_unadvertised:
        return message
    params = message.get("params")
    if not isinstance(params, dict):
        return message
    declared = _settings(spec.extensions, "client")
    if message.get("method") == "initialize" and isinstance(params.get("capabilities"), dict):
        params["capabilities"]["extensions"] = declared
    meta = params.get("_meta")
    if isinstance(meta, dict) and isinstance(meta.get(_wire.CAPS_KEY), dict):
        meta[_wire.CAPS_KEY]["extensions"] = declared
    return message


def offered(spec: PeerSpec) -> dict[str, Any]:
    """The ``extensions`` a simulated server declares (empty: the key is left out)."""
    return _settings(spec.extensions, "server")


def client_extensions(message: Message) -> frozenset[str]:
    """The extension ids a client request declares (``initialize`` capabilities, or the
    client capabilities in its ``_meta``)."""
    params = message.get("params")
    if not isinstance(params, dict):
        return frozenset()
    found: set[str] = set()
    if message.get("method") == "initialize":
        found |= EXTENSIONS.declared(params.get("capabilities")).keys()
    meta = params.get("_meta")
    if isinstance(meta, dict):
        found |= EXTENSIONS.declared(meta.get(_wire.CAPS_KEY)).keys()
    return frozenset(found)


def app_html(profile: Profile) -> dict[str, Any]:
    """The ``resources/read`` result of the app (ext-apps ``apps.mdx`` §UI Resource Format:
    ``mimeType`` MUST be ``text/html;profile=mcp-app``)."""
    row = EXTENSIONS.get(UI)
    mime = row.mime_type if row is not None else "text/html"
    return {"contents": [{"uri": APP_URI, "mimeType": mime,
                          "text": "<!DOCTYPE html><html><body>mcp-skew app</body></html>"}]}


@dataclass(eq=False, slots=True)
class ExtensionsSeen:
    """What a transcript shows of extensions: who declared which, and the apps' fate."""

    #: extension ids the client declared, on any request
    advertised: set[str] = field(default_factory=set)
    #: extension ids the server declared (``initialize`` or ``server/discover`` result)
    offered: set[str] = field(default_factory=set)
    #: tool name -> the resource its ``_meta`` points at, per extension id
    tools: dict[str, dict[str, str]] = field(default_factory=dict)
    #: resource URIs the client asked ``resources/read`` for
    read: set[str] = field(default_factory=set)
    #: tools the client called
    called: set[str] = field(default_factory=set)

    def app_resources(self) -> set[str]:
        """Every resource a listed tool points at, under any extension."""
        return {uri for by_tool in self.tools.values() for uri in by_tool.values()}

    def unread(self) -> set[str]:
        """The apps' resources the client never read."""
        return self.app_resources() - self.read

    def to_dict(self) -> dict[str, Any]:
        return {"advertised": sorted(self.advertised), "offered": sorted(self.offered),
                "tools": {k: dict(sorted(v.items())) for k, v in sorted(self.tools.items())},
                "read": sorted(self.read), "called": sorted(self.called)}


def read_extensions(messages: Iterable[tuple[str, Any]]) -> ExtensionsSeen:
    """Read ``(direction, message)`` pairs (``"->"`` client to server, ``"<-"`` back) for
    what each side declared of extensions, the tools pointing at an extension's resource,
    and what the client read and called."""
    seen = ExtensionsSeen()
    asked: dict[Any, str] = {}
    for direction, message in messages:
        if not isinstance(message, Mapping):
            continue
        if direction == "->":
            _client_side(seen, asked, message)
        else:
            _server_side(seen, asked, message)
    return seen


def _client_side(seen: ExtensionsSeen, asked: dict[Any, str], message: Mapping[str, Any]) -> None:
    method = message.get("method")
    if not isinstance(method, str):
        return
    seen.advertised |= client_extensions(dict(message))
    params = message.get("params")
    params = params if isinstance(params, Mapping) else {}
    if "id" in message:
        asked[_key(message.get("id"))] = method
    if method == "resources/read" and isinstance(params.get("uri"), str):
        seen.read.add(params["uri"])
    if method == "tools/call" and isinstance(params.get("name"), str):
        seen.called.add(params["name"])


def _server_side(seen: ExtensionsSeen, asked: dict[Any, str], message: Mapping[str, Any]) -> None:
    result = message.get("result")
    if not isinstance(result, Mapping):
        return
    method = asked.get(_key(message.get("id")))
    if method in ("initialize", "server/discover"):
        seen.offered |= EXTENSIONS.declared(result.get("capabilities")).keys()
    if method == "tools/list" and isinstance(result.get("tools"), list):
        for tool in result["tools"]:
            if not isinstance(tool, Mapping) or not isinstance(tool.get("name"), str):
                continue
            for row in EXTENSIONS:
                uri = row.tool_resource(tool)
                if uri is not None:
                    seen.tools.setdefault(row.id, {})[tool["name"]] = uri


def _key(msg_id: Any) -> str:
    return repr(msg_id)

"""Message builders: the JSON-RPC messages simulated peers send, shaped by a profile.

Everything here reads the profile of the revision in use; nothing compares
revision strings. Messages are plain dicts in the order the spec examples use,
so a transcript serialises the same way every time.
"""

from __future__ import annotations

from typing import Any, Final

from ..versions import Message, Profile

__all__ = [
    "CAPS_KEY",
    "CLIENT_INFO_KEY",
    "SERVER_INFO_KEY",
    "VERSION_KEY",
    "client_capabilities",
    "declares",
    "error",
    "error_code",
    "notification",
    "request",
    "request_meta",
    "result",
    "server_capabilities",
]

VERSION_KEY: Final = "io.modelcontextprotocol/protocolVersion"
CAPS_KEY: Final = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY: Final = "io.modelcontextprotocol/clientInfo"
SERVER_INFO_KEY: Final = "io.modelcontextprotocol/serverInfo"



def _capabilities(keys: frozenset[str], wanted: tuple[str, ...]) -> dict[str, Any]:
    """A capability object with the ``wanted`` dotted keys the profile has."""
    caps: dict[str, Any] = {}
    for dotted in wanted:
        if dotted not in keys:
            continue
        node = caps
        parts = dotted.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node.setdefault(parts[-1], True if len(parts) > 1 else {})
    return caps


def declares(capabilities: dict[str, Any], dotted: str) -> bool:
    """Whether a capability object declares ``dotted`` (``tools``, ``resources.subscribe``).

    Each part must be present along the path; the last one must be an object
    (``"tools": {}``) or, for a flag such as ``subscribe``, ``true``.
    """
    node: Any = capabilities
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return node is True or isinstance(node, dict)


#: What a simulated client declares, where its revision has it.
CLIENT_WANTS: Final = ("roots", "roots.listChanged", "sampling", "elicitation")
#: What a simulated server declares: tools and resources, never prompts (the
#: scenario asks for prompts to see an undeclared capability refused).
SERVER_WANTS: Final = ("tools", "resources")


def client_capabilities(profile: Profile) -> dict[str, Any]:
    return _capabilities(profile.names("client_capabilities"), CLIENT_WANTS)


def server_capabilities(profile: Profile) -> dict[str, Any]:
    return _capabilities(profile.names("server_capabilities"), SERVER_WANTS)


def implementation(name: str) -> dict[str, Any]:
    return {"name": name, "version": "0.1.0"}


def request_meta(profile: Profile, client_name: str = "mcp-skew-client") -> dict[str, Any]:
    """The ``_meta`` a client puts on every request of ``profile`` (empty in the legacy era).

    Every key the profile requires, and the client's identity where the profile
    has that key. The version, capabilities and identity have their values; a
    key the simulator has no value for (one a draft adds) gets ``{}``, which is
    enough for a server that checks it is there.
    """
    required = profile.names("request_meta_required")
    if not required:
        return {}
    known: dict[str, Any] = {
        VERSION_KEY: profile.revision,
        CAPS_KEY: client_capabilities(profile),
        CLIENT_INFO_KEY: implementation(client_name),
    }
    sent = required | (profile.names("request_meta_optional") & {CLIENT_INFO_KEY})
    meta = {key: value for key, value in known.items() if key in sent}
    meta.update((key, {}) for key in sorted(required - set(known)))
    return meta


def request(
    profile: Profile, msg_id: int, method: str, params: dict[str, Any] | None = None,
    client_name: str = "mcp-skew-client",
) -> Message:
    """A request; its ``_meta`` carries what the profile requires (:func:`request_meta`)."""
    body: dict[str, Any] = dict(params or {})
    meta = request_meta(profile, client_name)
    if meta:
        body["_meta"] = meta
    message: Message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if body:
        message["params"] = body
    return message


def notification(method: str, params: dict[str, Any] | None = None) -> Message:
    message: Message = {"jsonrpc": "2.0", "method": method}
    if params:
        message["params"] = params
    return message


def result(
    profile: Profile, msg_id: Any, method: str, body: dict[str, Any], *,
    result_type: bool = True, cache_hints: bool = True, server_name: str = "mcp-skew-server",
) -> Message:
    """A result, with the fields ``profile`` requires on it (resultType, caching hints)."""
    out = dict(body)
    if result_type and "resultType" in profile.names("result_fields_required"):
        out["resultType"] = "complete"
    if cache_hints and method in profile.names("cacheable_results"):
        out["ttlMs"] = 60000
        out["cacheScope"] = "public"
    if SERVER_INFO_KEY in profile.names("result_meta_optional"):
        out["_meta"] = {SERVER_INFO_KEY: implementation(server_name)}
    return {"jsonrpc": "2.0", "id": msg_id, "result": out}


def error_code(profile: Profile, name: str) -> int:
    return profile.error(name).code


def error(msg_id: Any, code: int, message: str, data: Any = None) -> Message:
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": msg_id, "error": err}

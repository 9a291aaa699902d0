"""The simulated server's catalogue: its tools and resource, what it answers to each
method of it, and its plans (what :meth:`._server.SimServer._serve` does with a method under
a profile, worked out once per server policy and profile)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from .._memo import by_identity2
from ..versions import HTTP_HEADERS, Profile
from ._feature_calls import FEATURE_TOOLS
from .messages import _wire
from .quirks._policy import ServerPolicy

TOOLS = (
    {"name": "echo", "title": "Echo", "description": "Returns its text argument.",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                     "required": ["text"]},
     "annotations": {"readOnlyHint": True}},
    {"name": "fail", "title": "Fail", "description": "Always fails, as a tool error.",
     "inputSchema": {"type": "object", "properties": {}}},
)
RESOURCE = {"uri": "mem://hello", "name": "hello", "mimeType": "text/plain"}


#: The header a revision with ``x-mcp-header`` (2026-07-28 ``streamable-http.mdx`` §Custom
#: Headers from Tool Parameters) mirrors tool parameters in.
PARAM_HEADER = HTTP_HEADERS.named("params").name
#: tool -> (property, x-mcp-header name) the simulated server declares where it can
PARAM_HEADERS: dict[str, tuple[tuple[str, str], ...]] = {"echo": (("text", "Text"),)}


def param_headers(profile: Profile, tool: object) -> tuple[tuple[str, str], ...]:
    """The (property, header name) pairs ``tool`` declares under ``profile``."""
    if PARAM_HEADER not in profile.names("http_headers") or not isinstance(tool, str):
        return ()
    return PARAM_HEADERS.get(tool, ())


def _tool(profile: Profile, tool: dict[str, Any]) -> dict[str, Any]:
    fields = profile.names("tool_fields")
    out = {k: v for k, v in tool.items() if k in fields}
    marked = param_headers(profile, tool["name"])
    if marked and "inputSchema" in out:
        props = {k: dict(v) for k, v in out["inputSchema"]["properties"].items()}
        for prop, header in marked:
            props[prop]["x-mcp-header"] = header
        out["inputSchema"] = {**out["inputSchema"], "properties": props}
    return out


#: The tool a server lists with host-injected parameters, where its revision's Tool has
#: ``secureInputSchema`` (SEP-3221, pull request 3221 of modelcontextprotocol/
#: modelcontextprotocol: "tools/list: a sibling secureInputSchema field alongside
#: inputSchema"); only to a client that declares :data:`SECURE_PARAMS`.
SECURE_TOOL = {"name": "deploy", "title": "Deploy", "description": "Deploys to the host's project.",
               "inputSchema": {"type": "object", "properties": {}},
               "secureInputSchema": {"type": "object", "properties": {
                   "project_id": {"type": "string"}}, "required": ["project_id"]}}
SECURE_PARAMS = "io.modelcontextprotocol/secure-params"


def _secure(profile: Profile) -> bool:
    """Whether the revision's tools may have host-injected parameters (SEP-3221)."""
    return "secureInputSchema" in profile.names("tool_fields")


def _list_tools(profile: Profile, params: dict[str, Any]) -> dict[str, Any]:
    tools = [_tool(profile, t) for t in TOOLS]
    if _secure(profile) and SECURE_PARAMS in _wire.declared_extensions(params):
        tools.append(_tool(profile, SECURE_TOOL))  # hidden from the others (SEP-3221)
    return {"tools": tools}


def _call_tool(profile: Profile, params: dict[str, Any]) -> dict[str, Any]:
    name, args = params.get("name"), params.get("arguments") or {}
    if name == "echo":
        return _output(profile, [{"type": "text", "text": str(args.get("text", ""))}], False)
    if name == "fail":
        return _output(profile, [{"type": "text", "text": "the tool ran and failed"}], True)
    if name == SECURE_TOOL["name"] and _secure(profile):
        if SECURE_PARAMS not in _wire.declared_extensions(params):
            # SEP-3221: "Standard -32021 (MISSING_REQUIRED_CLIENT_CAPABILITY)"
            code = _wire.error_code(profile, "MissingRequiredClientCapability")
            return {"error": {"code": code, "message": "Missing required client capability",
                              "data": {"requiredCapabilities": {
                                  "extensions": {SECURE_PARAMS: {}}}}}}
        return _output(profile, [{"type": "text", "text": "deployed"}], False)
    return {"error": {"code": -32602, "message": f"Unknown tool: {name}"}}


def _output(profile: Profile, content: list[dict[str, Any]], is_error: bool) -> dict[str, Any]:
    """A tool's output in the shape of the revision's ``CallToolResult``: ``content``, or
    ``outputs`` where that replaces it (SEP-3279, pull request 3279: "CallToolResult.outputs
    replaces content and structuredContent"), one variant for the assistant."""
    fields = profile.names("call_tool_result_fields")
    if "content" not in fields and "outputs" in fields:
        return {"outputs": [{"audience": "assistant", "content": content}], "isError": is_error}
    return {"content": content, "isError": is_error}


def _list_resources(profile: Profile, params: dict[str, Any]) -> dict[str, Any]:
    return {"resources": [dict(RESOURCE)]}


def _read_resource(profile: Profile, params: dict[str, Any]) -> dict[str, Any]:
    uri = params.get("uri")
    if uri == RESOURCE["uri"]:
        return {"contents": [{"uri": uri, "mimeType": "text/plain", "text": "hello"}]}
    code = profile.error(profile.settings["resource_not_found"]).code
    return {"error": {"code": code, "message": "Resource not found", "data": {"uri": uri}}}


def _list_templates(profile: Profile, params: dict[str, Any]) -> dict[str, Any]:
    return {"resourceTemplates": []}


#: Methods whose result is empty (EmptyResult): answered with ``{}``.
_EMPTY_RESULTS = frozenset({"ping", "resources/subscribe", "resources/unsubscribe",
                            "logging/setLevel"})

_Handler = Callable[[Profile, dict[str, Any]], dict[str, Any]]
_HANDLERS: dict[str, _Handler] = {
    "tools/list": _list_tools, "tools/call": _call_tool, "resources/list": _list_resources,
    "resources/read": _read_resource, "resources/templates/list": _list_templates}

#: What, of a request's params, a method's answer depends on (besides its id), as a hashable
#: key; None: the params ask for what no key says (the answer is worked out afresh).
_Keyer = Callable[[dict[str, Any]], Hashable | None]

#: What :meth:`SimServer._serve` does with a method under a profile: whether the server
#: declares the method's capability, its handler, whether :func:`with_outputs` may change
#: its body, what its result carries (:func:`_wire.result_shape`), and what of the params
#: its answer depends on, where the answer is the same for the same key (:func:`_keyer`;
#: None: it depends on more, the server's own state or its spec)
_Plan = tuple[bool, _Handler | None, bool, _wire.ResultShape, _Keyer | None]


@by_identity2
def _plans(policy: ServerPolicy, profile: Profile) -> dict[str, _Plan]:
    """The plans of a server of ``policy`` under ``profile``, one for each method of the
    profile's table (:func:`_plan`), all made at once: once per policy and profile, where a
    sweep serves each method thousands of times. Never changed once made (the rule of
    :mod:`mcp_skew._memo`); a method the table lacks has none."""
    return {method: _plan(policy, profile, method, row.capability)
            for method, row in profile.methods.items()}


def _plan(policy: ServerPolicy, profile: Profile, method: str, capability: str | None) -> _Plan:
    declared = capability is None or _declares(policy, profile, capability)
    outputs = method in ("tools/list", "tools/call") and policy.output_schema is not None
    return declared, _HANDLERS.get(method), outputs, _wire.result_shape(
        profile, method, result_type=policy.result_type, cache_hints=policy.cache_hints), \
        _keyer(profile, method, declared)


def _keyer(profile: Profile, method: str, declared: bool) -> _Keyer | None:
    """What of the params the answer of a server (its policy, which the plan is made for)
    to ``method`` under ``profile`` depends on, where that is all it depends on, besides the
    request's id: read from what :meth:`SimServer._serve` and the handlers read. A server
    with extensions (``+ext=``: the app's tool and resource, what the client declared) is
    not planned this way (the server checks); neither is ``subscriptions/listen`` (it opens
    a stream) nor ``server/discover`` (the server's revisions and extensions)."""
    if method in ("subscriptions/listen", "server/discover"):
        return None
    if not declared:  # -32601 whatever the params
        return _no_key
    if method == "tools/call":
        return _call_key
    if method == "resources/read":
        return _read_key
    if method == "tools/list" and _secure(profile):
        return None  # the secure tool is listed to a client that declares it (its _meta)
    return _no_key  # the lists, the empty results, a draft's fixed answer, the -32601s


def _no_key(params: dict[str, Any]) -> Hashable:
    return ()


def _call_key(params: dict[str, Any]) -> Hashable | None:
    """The tool's name, and ``echo``'s text: what :func:`_call_tool` and :func:`with_outputs`
    read; None for a tool that may ask the client (:data:`FEATURE_TOOLS`) or reads what it
    declared (:data:`SECURE_TOOL`), and a name that is no string."""
    name = params.get("name")
    if type(name) is not str or name in FEATURE_TOOLS or name == SECURE_TOOL["name"]:
        return None
    if name != "echo":
        return name
    args = params.get("arguments") or {}
    return (name, str(args.get("text", ""))) if type(args) is dict else None


def _read_key(params: dict[str, Any]) -> Hashable | None:
    """:func:`_read_resource` reads the uri (the answer names it)."""
    uri = params.get("uri")
    return uri if type(uri) is str else None


def _declares(policy: ServerPolicy, profile: Profile, capability: str) -> bool:
    if capability == "logging" and policy.declares_logging:
        return "logging" in profile.names("server_capabilities")
    return _wire.server_declares(profile, capability)

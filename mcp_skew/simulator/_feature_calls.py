"""The ``features`` scenario's tools: a server that needs the client's input, carried as
each revision carries it, and the simulated user who answers.

The simulated server serves three tools it does not list (so every other scenario's
``tools/list`` stays as it was): ``ask-name`` needs elicitation (form mode), ``ask-model``
needs sampling, ``open-url`` needs URL-mode elicitation. How the server asks is read from
the named features table (:func:`mcp_skew.versions.carriage`), never from a revision
string:

- ``server request``: it sends ``elicitation/create`` (or ``sampling/createMessage``) to
  the client while the call is open and answers the call once the client's response
  arrives (2025-06-18 and 2025-11-25 ``client/elicitation.mdx``; ``client/sampling.mdx``);
- ``input request``: it answers the call with an ``InputRequiredResult``
  (``resultType: "input_required"``, ``inputRequests``, ``requestState``); the client
  retries the call with a new id, ``inputResponses`` under the same keys and
  ``requestState`` echoed exactly, and gets the result (2026-07-28
  ``basic/patterns/mrtr.mdx`` §Basic Workflow);
- no carrier in the revision: a tool error (``isError``) that says so.

Where the client did not declare the capability the feature needs, the server never asks
(2026-07-28 ``basic/patterns/mrtr.mdx``: servers MUST NOT send inputRequests the client
has not declared; 2025-11-25 ``client/elicitation.mdx``: servers MUST NOT send a mode the
client did not declare): a revision that defines
``MissingRequiredClientCapability`` answers -32021 with ``data.requiredCapabilities``
(2026-07-28 ``basic/index.mdx`` §_meta, schema ``MissingRequiredClientCapabilityError``),
an older one a tool error. The simulated client declares ``elicitation`` as ``{}``, which
means form mode only (2025-11-25 and 2026-07-28 ``client/elicitation.mdx``
§Capabilities), so ``open-url`` shows the -32021.
"""

from __future__ import annotations

import json
from typing import Any, Final, Literal

from ..versions import Message, Profile, carriage
from .messages import _wire

__all__ = [
    "FEATURE_TOOLS",
    "answer_request",
    "declared",
    "done",
    "feature_expect",
    "feature_request",
    "missing_capability",
    "request_state",
    "response_to",
    "serve_call",
]

#: tool name -> the named feature it needs (``mcp_skew.versions._features``).
FEATURE_TOOLS: Final = {"ask-name": "elicitation", "ask-model": "sampling",
                        "open-url": "url-elicitation"}
#: feature -> (the client capability it needs, the method that carries the ask).
_NEEDS: Final = {"elicitation": ("elicitation.form", "elicitation/create"),
                 "sampling": ("sampling", "sampling/createMessage"),
                 "url-elicitation": ("elicitation.url", "elicitation/create")}
#: The key of the one input request in ``inputRequests`` (server-assigned, any string).
INPUT_KEY: Final = "ask"
#: What the simulated user answers (``ElicitResult``, ``CreateMessageResult``, ``ListRootsResult``).
USER_NAME: Final = "octocat"


def _params(feature: str, elicitation_id: bool) -> dict[str, Any]:
    if feature == "elicitation":  # mode "form" may be left out (ElicitRequestFormParams)
        return {"message": "What is your name?",
                "requestedSchema": {"type": "object",
                                    "properties": {"name": {"type": "string"}},
                                    "required": ["name"]}}
    if feature == "sampling":
        return {"messages": [{"role": "user", "content": {"type": "text",
                                                          "text": "Say hello."}}],
                "maxTokens": 20}
    params = {"mode": "url", "message": "Sign in to continue",
              "url": "https://example.com/sign-in"}
    if elicitation_id:  # 2025-11-25: the completion notification names it
        params["elicitationId"] = "sign-in-1"
    return params


def feature_request(profile: Profile, feature: str) -> dict[str, Any]:
    """The ask for ``feature`` as ``profile`` carries it: ``{"method", "params"}``."""
    step = carriage(profile)[feature]
    notified = "notifications/elicitation/complete" in step.via
    return {"method": _NEEDS[feature][1], "params": _params(feature, notified)}


def declared(capabilities: Any, feature: str) -> bool:
    """Whether a client capability object declares what ``feature`` needs. A bare
    ``"elicitation": {}`` declares form mode (``client/elicitation.mdx`` §Capabilities)."""
    if not isinstance(capabilities, dict):
        return False
    key = _NEEDS[feature][0]
    if feature == "elicitation":
        node = capabilities.get("elicitation")
        if isinstance(node, dict) and not ({"form", "url"} & node.keys()):
            return True
    return _wire.declares(capabilities, key)


def missing_capability(feature: str) -> dict[str, Any]:
    """``data.requiredCapabilities`` for ``feature``: ``{"elicitation": {"url": {}}}``."""
    out: dict[str, Any] = {}
    node = out
    for part in _NEEDS[feature][0].split("."):
        node = node.setdefault(part, {})
    return out


def request_state(tool: str) -> str:
    """The ``requestState`` the server hands out for ``tool``: opaque to the client, the
    same every time (the simulator is deterministic; a real server protects it)."""
    import base64  # noqa: PLC0415 - only where a server asks for input (not the default run)

    return base64.urlsafe_b64encode(json.dumps({"tool": tool, "asked": INPUT_KEY},
                                               sort_keys=True).encode()).decode()


Expect = Literal["result", "tool-error", "error"]


def feature_expect(profile: Profile, feature: str) -> Expect:
    """What a call needing ``feature`` should get under ``profile`` from a simulated client:
    a result where the revision carries it and the client declares it; -32021 where the
    revision has that error and the client did not declare it; else a tool error."""
    if feature not in carriage(profile):
        return "tool-error"
    if declared(_wire.client_capabilities(profile), feature):
        return "result"
    return "error" if "MissingRequiredClientCapability" in profile.errors else "tool-error"


def answer_request(request: Any) -> dict[str, Any] | None:
    """The simulated user's answer to a server's ask (a request or an input request): the
    result body, or None for a method it does not answer."""
    if not isinstance(request, dict):
        return None
    method, params = request.get("method"), request.get("params") or {}
    if method == "elicitation/create":
        if isinstance(params, dict) and params.get("mode") == "url":
            return {"action": "accept"}
        return {"action": "accept", "content": {"name": USER_NAME}}
    if method == "sampling/createMessage":
        return {"role": "assistant", "content": {"type": "text", "text": "Hello!"},
                "model": "mcp-skew-model", "stopReason": "endTurn"}
    if method == "roots/list":
        return {"roots": []}
    return None


def response_to(request: Message) -> Message:
    """A JSON-RPC response to a server's request: the user's answer, or -32601."""
    body = answer_request(request)
    if body is None:
        return _wire.error(request.get("id"), -32601, f"Method not found: {request.get('method')}")
    return {"jsonrpc": "2.0", "id": request.get("id"), "result": body}


def _tool_result(profile: Profile, msg_id: Any, text: str, *, error: bool) -> Message:
    body = {"content": [{"type": "text", "text": text}], "isError": error}
    return _wire.result(profile, msg_id, "tools/call", body)


def done(profile: Profile, msg_id: Any, feature: str, answer: Any) -> Message:
    """The call's result once the client answered the ask (``answer``: the result body)."""
    content = answer.get("content") if isinstance(answer, dict) else None
    if feature == "elicitation":
        name = content.get("name") if isinstance(content, dict) else None
        return _tool_result(profile, msg_id, f"Hello, {name}!", error=not isinstance(name, str))
    if feature == "sampling":
        said = content.get("text") if isinstance(content, dict) else None
        return _tool_result(profile, msg_id, f"The model said: {said}", error=said is None)
    action = answer.get("action") if isinstance(answer, dict) else None
    return _tool_result(profile, msg_id, f"Sign-in: {action}", error=action != "accept")


def serve_call(profile: Profile, message: Message, capabilities: Any
               ) -> tuple[Message, tuple[Any, str] | None]:
    """A ``tools/call`` of a :data:`FEATURE_TOOLS` tool under ``profile``, from a client that
    declared ``capabilities``: (what the server sends, and for a server request the
    (call id, feature) it waits to answer). See the module docstring."""
    params = message.get("params") or {}
    msg_id, tool = message["id"], str(params.get("name"))
    feature = FEATURE_TOOLS[tool]
    step = carriage(profile).get(feature)
    if step is None:
        return _tool_result(profile, msg_id, f"{tool} needs {feature}, which "
                            f"{profile.revision} does not have", error=True), None
    if not declared(capabilities, feature):
        if "MissingRequiredClientCapability" in profile.errors:
            code = profile.error("MissingRequiredClientCapability").code
            return _wire.error(msg_id, code, f"{tool} needs the client capability "
                               f"{_NEEDS[feature][0]}",
                               {"requiredCapabilities": missing_capability(feature)}), None
        return _tool_result(profile, msg_id, f"{tool} needs the client capability "
                            f"{_NEEDS[feature][0]}, which the client did not declare",
                            error=True), None
    if step.how == "server request":
        ask = {"jsonrpc": "2.0", "id": f"{tool}-{msg_id}", **feature_request(profile, feature)}
        return ask, (msg_id, feature)
    responses = params.get("inputResponses")
    if (isinstance(responses, dict) and INPUT_KEY in responses
            and params.get("requestState") == request_state(tool)):
        return done(profile, msg_id, feature, responses[INPUT_KEY]), None
    reply = _wire.result(profile, msg_id, "tools/call", {
        "inputRequests": {INPUT_KEY: feature_request(profile, feature)},
        "requestState": request_state(tool)})
    reply["result"]["resultType"] = "input_required"
    return reply, None

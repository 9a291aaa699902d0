"""Tool output as the simulator plays it (``docs/calls.md``): the echo tool's
``outputSchema`` and ``structuredContent`` under a server's quirks, and what a client's
quirks refuse when it calls a tool it listed.

Revision-dependent facts come from the profile: whether tools carry ``outputSchema``
(``tool_fields``) and whether results carry ``structuredContent`` (the setting
``structured_content``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..versions import Profile
from .quirks._policy import ClientPolicy, ServerPolicy

__all__ = ["DIALECT_URIS", "dialect_of", "readable", "refused_before", "refused_result",
           "unreadable", "with_outputs"]

#: a dialect's short name -> the ``$schema`` URI a schema declaring it carries
DIALECT_URIS: Final = {
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "draft-06": "http://json-schema.org/draft-06/schema#",
    "draft-04": "http://json-schema.org/draft-04/schema#",
    "draft-03": "http://json-schema.org/draft-03/schema#",
}
_BY_URI: Final = {uri.rstrip("#").split("://", 1)[1]: name for name, uri in DIALECT_URIS.items()}
#: what the echo tool returns, as its output schema says
_ECHO_OUTPUT: Final = {"type": "object", "properties": {"text": {"type": "string"}},
                       "required": ["text"]}


def dialect_of(schema: object) -> str | None:
    """The dialect a schema declares in ``$schema`` (``draft-07``; the URI itself when it
    is none of the known ones); None without a ``$schema`` string."""
    if not isinstance(schema, dict) or not isinstance(schema.get("$schema"), str):
        return None
    uri = schema["$schema"].strip().rstrip("#")
    return _BY_URI.get(uri.split("://", 1)[-1]) or uri[:120]


def with_outputs(policy: ServerPolicy, profile: Profile, method: str,
                 params: Mapping[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """``body`` (a ``tools/list`` or ``tools/call`` result) with the echo tool's output
    schema and structured content, where the server has one and the revision carries it."""
    dialect = policy.output_schema
    if dialect is None or "outputSchema" not in profile.names("tool_fields") or "error" in body:
        return body
    if method == "tools/list":
        schema = dict(_ECHO_OUTPUT)
        if dialect != "2020-12":
            schema = {"$schema": DIALECT_URIS.get(dialect, dialect), **schema}
        body["tools"] = [{**t, "outputSchema": schema} if t.get("name") == "echo" else t
                         for t in body["tools"]]
    elif method == "tools/call" and params.get("name") == "echo" \
            and profile.settings["structured_content"] is not None \
            and not policy.omits_structured_content and body.get("isError") is not True:
        args = params.get("arguments") or {}
        body["structuredContent"] = {"text": str(args.get("text", ""))}
    return body


def refused_before(policy: ClientPolicy, tool: Mapping[str, Any] | None) -> str | None:
    """Why a client of ``policy`` refuses to call ``tool`` (as listed) before sending, or
    None: an ``outputSchema`` dialect its validator does not read (-32602)."""
    allowed = policy.output_dialects
    schema = tool.get("outputSchema") if tool is not None else None
    if allowed is None or not isinstance(schema, dict):
        return None
    dialect = dialect_of(schema) or "2020-12"
    if dialect in allowed.split(","):
        return None
    return f"refused before sending: outputSchema declares {dialect} (-32602)"


def refused_result(policy: ClientPolicy, tool: Mapping[str, Any] | None,
                   result: Mapping[str, Any]) -> str | None:
    """Why a client of ``policy`` fails the result of its call of ``tool``, or None: no
    ``structuredContent`` from a tool with an ``outputSchema`` (-32600)."""
    schema = tool.get("outputSchema") if tool is not None else None
    if not policy.needs_structured_content or not isinstance(schema, dict) \
            or result.get("isError") is True or "structuredContent" in result:
        return None
    return "error -32600 (an outputSchema but no structuredContent)"


#: The fields of a ``CallToolResult`` that carry a tool's output, in any revision: ``content``
#: (2024-11-05 on), ``structuredContent`` (2025-06-18 on), ``outputs`` (SEP-3279, which
#: replaces both). Which of them a revision defines is its ``call_tool_result_fields``.
OUTPUT_FIELDS = ("content", "structuredContent", "outputs")


def readable(result: dict[str, Any], known: frozenset[str]) -> bool:
    """Whether a ``tools/call`` result carries its output in a field of ``known`` (a
    revision's ``call_tool_result_fields``), or in none of :data:`OUTPUT_FIELDS` at all."""
    carried = False
    for name in OUTPUT_FIELDS:
        if name in result:
            if name in known:
                return True
            carried = True
    return not carried


def unreadable(method: str, profile: Profile, result: dict[str, Any]) -> str | None:
    """What the client got where a ``tools/call`` result carries its output only in fields
    the client's revision does not define (a SEP-3279 server's ``outputs`` to a client that
    reads ``content``: the result-shape boundary), as the step's "got"; None: readable."""
    if method != "tools/call" or readable(result, profile.names("call_tool_result_fields")):
        return None
    carried = [f for f in OUTPUT_FIELDS if f in result]
    return (f"a result in another shape: {', '.join(carried)}, which {profile.revision} does "
            "not define (result shape)")


def note_tools(listed: dict[str, dict[str, Any]], method: str,
               result: dict[str, Any] | None) -> None:
    """Keep the tools a ``tools/list`` result gave (a later call reads their schemas)."""
    tools = result.get("tools") if method == "tools/list" and result is not None else None
    if isinstance(tools, list):
        listed.clear()
        listed.update({t["name"]: t for t in tools
                       if isinstance(t, dict) and isinstance(t.get("name"), str)})

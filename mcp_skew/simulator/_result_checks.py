"""What a simulated client checks in a result it receives: the fields its revision
requires (``resultType``, 2026-07-28 basic/index.mdx), the caching hints of a cacheable
result (2026-07-28 server/utilities/caching.mdx), and the listed tools' input schemas
(every revision's ``Tool.inputSchema.type``). A finding for each departure.
"""

from __future__ import annotations

from typing import Any

from .._memo import by_identity
from ..versions import Profile
from .findings._finding import Finding

__all__ = ["check_result", "check_tools", "checked_fields", "untyped_tools"]


@by_identity
def _result_rules(profile: Profile) -> tuple[tuple[str, ...], frozenset[str], tuple[str, ...],
                                              frozenset[str], frozenset[str]]:
    """What :func:`check_result` reads from ``profile``, sorted once: the fields every result
    requires, the cacheable methods, the caching hints they carry; and the fields and hints
    as sets (a result that has them all is asked no more)."""
    required, hints = profile.names("result_fields_required"), profile.names("cache_fields")
    return (tuple(sorted(required)), profile.names("cacheable_results"), tuple(sorted(hints)),
            frozenset(required), frozenset(hints))


def checked_fields(profile: Profile, method: str) -> frozenset[str]:
    """The fields :func:`check_result` asks of ``method``'s result under ``profile``: a
    result that has them all, and is not a ``tools/list`` result (whose tools it reads
    too), has no finding."""
    _, cacheable, _, required, hints = _result_rules(profile)
    return required | hints if method in cacheable else required


def check_result(profile: Profile, method: str, result: dict[str, Any], index: int) -> list[Finding]:
    """Findings for fields the revision requires on this method's result."""
    found: list[Finding] = []
    required, cacheable, cache_fields, all_required, all_hints = _result_rules(profile)
    keys = result.keys()
    missing = [f for f in required if f not in result] if not keys >= all_required else None
    if missing:
        found.append(Finding("missing-result-type", "error",
                             f"{method} result lacks {', '.join(missing)}", index,
                             f"{profile.revision}: basic/index.mdx §ResultType"))
    if method in cacheable and not keys >= all_hints:
        absent = [f for f in cache_fields if f not in result]
        if absent:
            found.append(Finding("missing-cache-hints", "error",
                                 f"{method} result lacks {', '.join(absent)}", index,
                                 f"{profile.revision}: server/utilities/caching.mdx"))
    if method == "tools/list":
        found += check_tools(profile, result, index)
    return found


def untyped_tools(result: dict[str, Any]) -> list[str]:
    """The names of the listed tools whose ``inputSchema`` is not an object schema with
    ``"type": "object"`` (every revision's schema requires it: ``Tool.inputSchema.type``)."""
    tools = result.get("tools")
    bad = []
    for tool in tools if isinstance(tools, list) else []:
        schema = tool.get("inputSchema") if isinstance(tool, dict) else None
        if not (isinstance(schema, dict) and schema.get("type") == "object"):
            bad.append(str(tool.get("name")) if isinstance(tool, dict) else "?")
    return bad


def check_tools(profile: Profile, result: dict[str, Any], index: int) -> list[Finding]:
    """A finding for tools whose ``inputSchema`` lacks ``"type": "object"``."""
    bad = untyped_tools(result)
    if not bad:
        return []
    listed = len(result.get("tools") or [])
    return [Finding("tool-schema-not-object", "error",
                    f"{len(bad)} of {listed} tools have an inputSchema without "
                    f"\"type\": \"object\" ({', '.join(bad[:5])})", index,
                    f"{profile.revision}: schema.json Tool.inputSchema")]

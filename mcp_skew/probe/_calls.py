"""The call step: after listing, a client calls one tool as its revision would, and reads the
result as a client of its revision does (``docs/calls.md``).

Which tool: ``--tool NAME`` (with ``--args JSON``), else the first listed tool whose
``inputSchema`` a generator can satisfy, never one annotated ``destructiveHint: true``.
The arguments come from the schema (hypothesis-jsonschema, the first example of a
fixed, shrink-free search: the same schema gives the same arguments every time), and
are checked against it before they are sent.

What the result is read for, by the revision the run negotiated (its profile's
``tool_fields`` and ``structured_content``, never its name): an ``isError`` (or an error)
for arguments the schema accepts; an ``outputSchema`` declaring an older ``$schema``
dialect; no ``structuredContent`` where the tool has an ``outputSchema``;
``structuredContent`` that does not match it. Each finding names the named clients
whose quirks refuse it, as a prediction from their models (nothing was sent by them).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import random
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..simulator import PeerSpec, Step, StepResult, dialect_of, parse_peer
from ..simulator.findings import Finding
from ..simulator.quirks import QUIRKS, ClientPolicy
from ..versions import Profile, Registry
from ._exchanges import Exchange, modern_version
from ._schemas import _jsonschema

__all__ = [
    "CALL_STEP",
    "Choice",
    "arguments_for",
    "call_findings",
    "choose",
    "dialect_findings",
    "dialect_of",
    "outputs_seen",
    "refusers",
    "warm",
]

#: The name of the default call step (a checking step: never the run's verdict).
CALL_STEP: Final = "tool call"
#: At most this many tools are tried for arguments before the step gives up.
_TOOLS_TRIED: Final = 5
@dataclass(frozen=True, slots=True)
class Choice:
    """The tool the step calls and its arguments, or why nothing is called."""

    tool: dict[str, Any] | None
    arguments: dict[str, Any] | None
    why: str = ""  #: why not called (empty when called)

    def step(self) -> Step | None:
        if self.tool is None or self.arguments is None:
            return None
        return Step(CALL_STEP, "tools/call", {"name": self.tool["name"],
                                              "arguments": dict(self.arguments)}, "result")


def _destructive(tool: Mapping[str, Any]) -> bool:
    notes = tool.get("annotations")
    return isinstance(notes, dict) and notes.get("destructiveHint") is True


def choose(tools: Sequence[dict[str, Any]]) -> Choice:
    """The first listed tool (not annotated destructive) whose ``inputSchema`` gives
    arguments, at most :data:`_TOOLS_TRIED` of them tried; else why none is called."""
    if not tools:
        return Choice(None, None, "no tool listed")
    whys: list[str] = []
    tried = 0
    for tool in tools:
        name = tool.get("name")
        if not isinstance(name, str):
            continue
        if _destructive(tool):
            whys.append(f"{name}: annotated destructiveHint (--tool {name} calls it)")
            continue
        if tried == _TOOLS_TRIED:
            whys.append(f"only the first {_TOOLS_TRIED} tools are tried")
            break
        tried += 1
        found = arguments_for(tool.get("inputSchema"))
        if isinstance(found, dict):
            return Choice(tool, found)
        whys.append(f"{name}: {found}")
    return Choice(None, None, "; ".join(whys) or "no tool with a name")


# -- arguments from a schema ----------------------------------------------------------------
_lock = threading.Lock()
_made: dict[str, dict[str, Any] | str] = {}
_warming: list[threading.Thread] = []


def warm() -> None:
    """Import the generator in the background, once per process: its import (most of the
    step's own cost) then overlaps a server's cold start instead of following a list."""
    with _lock:
        if _warming:
            return
        thread = threading.Thread(target=_import_generator, name="mcp-skew-warm", daemon=True)
        _warming.append(thread)
    thread.start()


def _import_generator() -> None:
    with contextlib.suppress(ImportError):  # the step says so when it needs it
        importlib.import_module("hypothesis_jsonschema")


def arguments_for(schema: object) -> dict[str, Any] | str:
    """Arguments valid under ``schema`` (a tool's ``inputSchema``), or why there are none.
    Deterministic; made once per schema in a process (a probe's clients share them)."""
    if not isinstance(schema, dict):
        return "its inputSchema is not an object"
    key = json.dumps(schema, sort_keys=True, default=str)
    with _lock:  # Hypothesis is not thread-safe; the clients run in threads
        if key not in _made:
            _made[key] = _generate(schema)
        return _made[key]


def _generate(schema: dict[str, Any]) -> dict[str, Any] | str:
    try:
        from hypothesis import HealthCheck, Phase, Verbosity, find, settings  # noqa: PLC0415
        from hypothesis_jsonschema import from_schema  # noqa: PLC0415
    except ImportError as exc:  # a broken install: the step says so, the probe goes on
        return f"no argument generator ({exc.name} is not installed)"
    bare = {k: v for k, v in schema.items() if k != "$schema"}
    # every setting that matters given here, so a caller's Hypothesis profile (a test suite
    # using the pytest plugin, derandomize in CI) does not change the arguments
    rules = settings(database=None, max_examples=20, deadline=None, phases=[Phase.generate],
                     suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                     derandomize=False)
    try:
        found = find(from_schema(bare), lambda _value: True, settings=rules,
                     random=random.Random(0))
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return f"no arguments satisfy its inputSchema ({type(exc).__name__}: {first[:120]})"
    if not isinstance(found, dict):
        return "its inputSchema gives no object"
    problem = invalid(schema, found)
    return problem if problem is not None else found


def invalid(schema: object, instance: object) -> str | None:
    """Why ``instance`` fails ``schema`` (validated in the dialect the schema declares,
    2020-12 without one), or None; None too when jsonschema cannot read the schema."""
    if not isinstance(schema, dict):
        return None
    try:
        js = _jsonschema()
        cls = js.validators.validator_for(schema, default=js.Draft202012Validator)
        cls.check_schema(schema)
        error = js.exceptions.best_match(cls(schema).iter_errors(instance))
    except Exception:  # not installed, an invalid schema, an unresolvable $ref
        return None
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where or '(root)'}: {str(error.message)[:160]}"


# -- who refuses ----------------------------------------------------------------------------
def refusers(named: Iterable[PeerSpec], refuses: Callable[[ClientPolicy], bool],
             quirks: Iterable[str]) -> str:
    """The named clients whose models refuse it, and the releases the quirks were read
    from that no named client stands for; a sentence part, marked a prediction."""
    names = sorted({p.name for p in named if refuses(p.client_policy)})
    seen_in = []
    for quirk in quirks:
        q = QUIRKS.get(quirk)
        if q is None or any(p.has(quirk) for p in named if p.name in names):
            continue
        seen_in.append(f"+{quirk} ({q.seen_in.split(' (')[0]})")
    parts = ([", ".join(names)] if names else []) + (
        [f"clients with {' or '.join(seen_in)}"] if seen_in else [])
    return ("would refuse it (predicted from their models): " + "; ".join(parts)) if parts \
        else "no named client refuses it"


def _accepts(dialect: str) -> Callable[[ClientPolicy], bool]:
    def refuses(policy: ClientPolicy) -> bool:
        allowed = policy.output_dialects
        return allowed is not None and dialect not in allowed.split(",")
    return refuses


# -- findings -------------------------------------------------------------------------------
def dialect_findings(tools: Sequence[dict[str, Any]], profile: Profile, index: int | None,
                     named: Sequence[PeerSpec]) -> list[Finding]:
    """One finding per dialect other than 2020-12 that listed ``outputSchema`` s declare,
    on a revision whose tools have an ``outputSchema`` (``tool_fields``)."""
    if "outputSchema" not in profile.names("tool_fields"):
        return []
    by_dialect: dict[str, list[str]] = {}
    for tool in tools:
        dialect = dialect_of(tool.get("outputSchema"))
        if dialect is not None and dialect != "2020-12":
            by_dialect.setdefault(dialect, []).append(str(tool.get("name")))
    out = []
    for dialect, names in sorted(by_dialect.items()):
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        who = refusers(named, _accepts(dialect),
                       [q for q in ("dialect-2020-12-only", "declared-dialects")
                        if _accepts(dialect)(QUIRKS_POLICY[q])])
        out.append(Finding(
            "output-schema-dialect", "warning",
            f"{len(names)} of {len(tools)} tools declare $schema {dialect} on outputSchema "
            f"({shown}); {who}", index,
            f"{profile.revision}: basic/index.mdx §JSON Schema Usage"))
    return out


def _policy_of(quirk: str) -> ClientPolicy:
    return parse_peer(f"legacy:2025-11-25+{quirk}", "client").client_policy


#: each call-reading quirk's policy alone (which dialects it refuses)
QUIRKS_POLICY: Final = {q: _policy_of(q) for q in ("dialect-2020-12-only", "declared-dialects")}


def _text(result: Mapping[str, Any]) -> str:
    blocks = result.get("content")
    texts = [b.get("text") for b in blocks if isinstance(b, dict)] if isinstance(blocks, list) \
        else []
    said = " ".join(t for t in texts if isinstance(t, str)).strip()
    return said[:160] or "no text"


def call_findings(ex: Exchange, tool: Mapping[str, Any], arguments: Mapping[str, Any],
                  profile: Profile, named: Sequence[PeerSpec]) -> list[Finding]:
    """What a client of ``profile`` reads in the answer to its call of ``tool``."""
    if ex.fate != "answered":
        return []  # no answer: the culprit's finding (server-exited, stopped-answering)
    rev = profile.revision
    name = tool.get("name")
    shown = json.dumps(dict(arguments), sort_keys=True)[:160]
    valid = invalid(tool.get("inputSchema"), dict(arguments)) is None
    result = ex.result
    if ex.error is not None or (result is not None and result.get("isError") is True):
        if not valid:
            return []
        got = f"error {ex.code}" if ex.error is not None else \
            f"isError: {_text(result or {})}"
        return [Finding("tool-call-failed", "warning",
                        f"tools/call {name} with {shown} (valid under its inputSchema) got "
                        f"{got}", ex.answer_index, f"{rev}: server/tools.mdx §Error Handling")]
    shape = profile.settings.get("structured_content")
    schema = tool.get("outputSchema")
    if result is None or shape is None or "outputSchema" not in profile.names("tool_fields") \
            or not isinstance(schema, dict):
        return []
    cite = f"{rev}: server/tools.mdx §Output Schema"
    if "structuredContent" not in result:
        who = refusers(named, lambda p: p.needs_structured_content,
                       ["needs-structured-content"])
        return [Finding("structured-content-missing", "error",
                        f"tools/call {name}: the tool lists an outputSchema but its result "
                        f"has no structuredContent; {who}", ex.answer_index, cite)]
    content = result["structuredContent"]
    problem = ("not an object, which CallToolResult.structuredContent must be in " + rev) \
        if shape == "object" and not isinstance(content, dict) else invalid(schema, content)
    if problem is None:
        return []
    who = refusers(named, lambda p: p.checks_structured_content, ["checks-structured-content"])
    return [Finding("structured-content-mismatch", "error",
                    f"tools/call {name}: structuredContent does not match the outputSchema "
                    f"({problem}); {who}", ex.answer_index, cite)]


def outputs_seen(exs: Sequence[Exchange], registry: Registry) -> tuple[str | None, bool]:
    """What one run showed of the server's tool output, for the inferred peer (a saved peer
    keeps these traits, not the schemas): the first ``outputSchema`` dialect other than
    2020-12 it listed, and whether a call of a tool with an ``outputSchema`` was answered
    (not ``isError``) without ``structuredContent``; each on a revision that has them."""
    dialect: str | None = None
    missing = False
    listed: dict[Any, dict[str, Any]] = {}
    for ex in exs:
        rev = modern_version(ex.request) or ex.after_initialize
        if not isinstance(rev, str) or rev not in registry or ex.result is None:
            continue
        profile = registry.get(rev)
        if "outputSchema" not in profile.names("tool_fields"):
            continue
        if ex.method == "tools/list" and isinstance(ex.result.get("tools"), list):
            listed = {t.get("name"): t for t in ex.result["tools"] if isinstance(t, dict)}
            found = [d for t in listed.values()
                     if (d := dialect_of(t.get("outputSchema"))) not in (None, "2020-12")]
            dialect = dialect or (found[0] if found else None)
        elif ex.method == "tools/call" and profile.settings["structured_content"] is not None:
            tool = listed.get(ex.params.get("name")) or {}
            missing = missing or (isinstance(tool.get("outputSchema"), dict)
                                  and ex.result.get("isError") is not True
                                  and "structuredContent" not in ex.result)
    return dialect, missing


def not_called(why: str) -> StepResult:
    """The step's row when no tool is called."""
    return StepResult(CALL_STEP, True, "a tool to call", f"not called: {why}"[:300])

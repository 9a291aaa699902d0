"""Validate what a real server sent against the official schema of the revision in use.

Only when it can: the ``jsonschema`` package must be importable (the
``schemas`` extra: ``pip install 'mcp-skew[schemas]'``; ``probe --schemas DIR``
without it is a usage error, ``$MCP_SKEW_SCHEMAS`` without it a skip) and a schema
directory given (``--schemas DIR`` or ``$MCP_SKEW_SCHEMAS``) holding
``<revision>/schema.json`` (or ``schemas/<revision>/schema.json``), as in the
official repository's ``schema/`` folder. mcp-skew does not ship the schemas.

Each server message is checked as a ``JSONRPCMessage`` of its revision, and a
result also as the result type of the request it answers (``tools/list`` ->
``ListToolsResult``: the request type ``XRequest`` whose ``method`` is the
method names ``XResult``).
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from pathlib import Path
from typing import Any, Final

from .._input import read_user_text
from .._jsontext import FILE, JsonTextError, loads
from ..errors import UsageError
from ..simulator.findings import Finding
from ..versions import BUILTIN
from ._exchanges import Exchange, modern_version

__all__ = ["INSTALL_HINT", "SchemaCheck", "check_schemas", "find_schemas", "jsonschema_problem",
           "load_schema"]

ENV_VAR = "MCP_SKEW_SCHEMAS"
#: The revisions with official schemas: the built-in ones (a draft has none).
OFFICIAL: Final = frozenset(profile.revision for profile in BUILTIN)
#: How to get the optional dependency (the ``schemas`` extra).
INSTALL_HINT = "pip install 'mcp-skew[schemas]'"


def _jsonschema() -> Any:
    """The optional ``jsonschema`` package (and its submodules), imported on first use."""
    module = importlib.import_module("jsonschema")
    importlib.import_module("jsonschema.exceptions")
    importlib.import_module("jsonschema.validators")
    return module


def jsonschema_problem() -> str | None:
    """Why ``jsonschema`` cannot be used here (a phrase; the fix is :data:`INSTALL_HINT`), or None."""
    try:
        _jsonschema()
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and exc.name == "jsonschema":
            return "the jsonschema package is not installed"
        return f"the jsonschema package cannot be imported ({exc})"
    return None


def find_schemas(option: str | Path | None) -> tuple[Path | None, str]:
    """The schema directory to use, or None and the reason it is skipped."""
    raw = str(option) if option else os.environ.get(ENV_VAR, "")
    if not raw:
        return None, f"no schema directory (--schemas DIR or ${ENV_VAR}); schema checks skipped"
    root = Path(raw).expanduser()
    for candidate in (root, root / "schemas", root / "schema"):
        if any(candidate.glob("*/schema.json")):
            problem = jsonschema_problem()
            if problem is not None:
                return None, f"{problem} ({INSTALL_HINT}); schema checks skipped"
            return candidate, f"schemas from {candidate}"
    return None, f"no <revision>/schema.json under {root}; schema checks skipped"


#: The largest schema file read (the official ones are about 100-200 KB).
MAX_SCHEMA_BYTES = 64 << 20


def load_schema(path: Path) -> dict[str, Any]:
    """One ``schema.json``: read with a size cap, JSON within limits, an object holding
    ``$defs`` or ``definitions``; otherwise one :class:`UsageError` line."""
    text = read_user_text(path, "--schemas", max_bytes=MAX_SCHEMA_BYTES)
    try:
        doc = loads(text, FILE)
    except JsonTextError as exc:
        raise UsageError(f"--schemas {path}: not JSON: {exc}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("$defs", doc.get("definitions")),
                                                   dict):
        raise UsageError(f"--schemas {path}: not a JSON Schema with $defs or definitions")
    return doc


def check_schemas(option: str | Path | None) -> None:
    """Read every ``<revision>/schema.json`` the probe would use, before it runs: a bad
    file is one :class:`UsageError` line now, not a crash after the probe."""
    root, _ = find_schemas(option)
    if root is not None:
        for path in sorted(root.glob("*/schema.json")):
            load_schema(path)


class SchemaCheck:
    """Validators per revision and definition, built on first use."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @cache  # noqa: B019 - one checker per probe; the cache dies with it
    def _schema(self, revision: str) -> dict[str, Any] | None:
        path = self.root / revision / "schema.json"
        if not path.is_file():
            return None
        return load_schema(path)

    @cache  # noqa: B019
    def _validator(self, revision: str, name: str) -> Any:
        validators = _jsonschema().validators
        schema = self._schema(revision)
        if schema is None:
            return None
        key = "$defs" if "$defs" in schema else "definitions"
        if name not in schema[key]:
            return None
        cls = validators.validator_for(schema)
        return cls({**schema, "$ref": f"#/{key}/{name}"})

    @cache  # noqa: B019
    def _result_type(self, revision: str, method: str) -> str | None:
        schema = self._schema(revision) or {}
        defs = schema.get("$defs") or schema.get("definitions") or {}
        for name, node in defs.items():
            const = node.get("properties", {}).get("method", {}).get("const")
            if name.endswith("Request") and const == method:
                result = name.removesuffix("Request") + "Result"
                return result if result in defs else None
        return None

    def _errors(self, revision: str, name: str, instance: Any) -> str | None:
        best_match = _jsonschema().exceptions.best_match
        validator = self._validator(revision, name)
        if validator is None:
            return None
        error = best_match(validator.iter_errors(instance))
        if error is None:
            return None
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        return f"{where}: {error.message[:200]}"

    def check(self, exchange: Exchange) -> Finding | None:
        """A finding when the answer of ``exchange`` fails its revision's schema."""
        answer = exchange.answer
        revision = _revision(exchange)
        if answer is None or revision is None or exchange.synthesized:
            return None
        if self._schema(revision) is None:
            return None
        problem = self._errors(revision, "JSONRPCMessage", answer)
        what = "JSONRPCMessage"
        result_type = self._result_type(revision, exchange.method)
        if problem is None and exchange.result is not None and result_type:
            problem, what = self._errors(revision, result_type, exchange.result), result_type
        if problem is None:
            return None
        return Finding("schema-violation", "warning",
                       f"{exchange.method} answer is not a valid {what} of {revision}: {problem}",
                       exchange.answer_index, f"{revision}: schema.json {what}")


def _revision(exchange: Exchange) -> str | None:
    """The revision the answer should follow, when it is known."""
    if exchange.method == "initialize":
        answered = (exchange.result or {}).get("protocolVersion")
        asked = exchange.params.get("protocolVersion")
        for rev in (answered, asked):
            if isinstance(rev, str) and rev in OFFICIAL:
                return rev
        return None
    modern = modern_version(exchange.request)
    if modern is not None and exchange.after_initialize is None:
        return modern if modern in OFFICIAL else None
    return exchange.after_initialize

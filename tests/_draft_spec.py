"""The built-in draft (``next``) against the spec's own draft, and each SEP layer's stored
text against a spec checkout: what ``tests/check_seps.py`` prints and
``tests/schema/test_draft_schema.py`` asserts.

Where the spec is: ``$MCP_SKEW_SPEC_CHECKOUT`` (a checkout of
modelcontextprotocol/modelcontextprotocol: ``schema/draft/``, ``seps/``, ``docs/``), else
``../shared/spec`` (its ``schemas/draft/`` where present; it holds the released revisions'
schemas only today). What is compared, for the core schema (a layer that is an extension,
:attr:`~mcp_skew.versions._seps.Layer.extension`, defines nothing there):

- the draft's wire string and ``schema.ts``'s ``LATEST_PROTOCOL_VERSION``;
- ``Tool`` and ``CallToolResult``'s properties and the draft's ``tool_fields`` and
  ``call_tool_result_fields``;
- the method ``const`` of every member of ``ClientRequest`` and ``ServerRequest`` and the
  draft's requests, beside ``server/discover`` (every modern revision's).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from oracle import SPEC_DIR

from mcp_skew.versions import REGISTRY, Direction, Kind, Profile
from mcp_skew.versions._seps import LAYERS, Layer, with_drafts

__all__ = ["draft_mismatches", "layer_report", "spec_root", "stored_draft"]


def spec_root() -> Path | None:
    """The spec checkout to compare with, or None."""
    named = os.environ.get("MCP_SKEW_SPEC_CHECKOUT")
    if named:
        return Path(named)
    return SPEC_DIR if SPEC_DIR.is_dir() else None


def stored_draft(root: Path) -> tuple[dict[str, Any], str] | None:
    """The draft's ``schema.json`` and ``schema.ts`` text (empty where absent), or None."""
    for folder in (root / "schema" / "draft", root / "schemas" / "draft"):
        if (folder / "schema.json").is_file():
            ts = folder / "schema.ts"
            text = ts.read_text(encoding="utf-8") if ts.is_file() else ""
            return json.loads((folder / "schema.json").read_text(encoding="utf-8")), text
    return None


def _defs(schema: dict[str, Any]) -> dict[str, Any]:
    return schema.get("$defs") or schema.get("definitions") or {}


def _methods(schema: dict[str, Any], union: str) -> set[str]:
    defs = _defs(schema)
    found = set()
    for member in (defs.get(union) or {}).get("anyOf", []):
        name = str(member.get("$ref", "")).rsplit("/", 1)[-1]
        const = ((defs.get(name) or {}).get("properties") or {}).get("method", {}).get("const")
        if isinstance(const, str):
            found.add(const)
    return found


def _core(profile: Profile, table: str) -> set[str]:
    """The profile's rows of ``table`` that the core schema defines: without those an
    extension layer added."""
    added = {name for layer in LAYERS if layer.extension for change in layer.changes
             for name in (change.add.get(table) or ())}
    return set(profile.names(table)) - added


def draft_mismatches(schema: dict[str, Any], ts: str, profile: Profile) -> list[str]:
    """Where ``profile`` (the built-in draft) no longer says what the draft schema says."""
    out = []
    latest = re.search(r'LATEST_PROTOCOL_VERSION\s*=\s*"([^"]+)"', ts)
    if latest and latest.group(1) != profile.wire_version:
        out.append(f"wire string: the draft declares {latest.group(1)}, "
                   f"{profile.revision} puts {profile.wire_version} on the wire")
    defs = _defs(schema)
    for table, name in (("tool_fields", "Tool"), ("call_tool_result_fields", "CallToolResult")):
        want = set((defs.get(name) or {}).get("properties") or {})
        have = _core(profile, table)
        if want != have:
            out.append(f"{name} properties: draft schema {sorted(want - have)} not in "
                       f"{table}; {table} {sorted(have - want)} not in the draft schema")
    for union, direction in (("ClientRequest", Direction.C2S), ("ServerRequest", Direction.S2C)):
        want = _methods(schema, union)
        have = _core(profile, "methods") & set(profile.method_names(Kind.REQUEST, direction))
        if want != have:
            out.append(f"{union}: draft schema {sorted(want - have)} not in {profile.revision}; "
                       f"{profile.revision} {sorted(have - want)} not in the draft schema")
    return out


def builtin_draft() -> Profile:
    return with_drafts(["next"], REGISTRY).get("next")


def _status(text: str) -> str | None:
    found = re.search(r"\*\*Status\*\*:\s*([A-Za-z ]+)", text)
    return found.group(1).strip() if found else None


def layer_report(root: Path, layer: Layer) -> tuple[str, bool]:
    """One line on ``layer``'s stored text in ``root``, and whether it needs a look."""
    if not layer.path:
        return f"{layer.name}: text in a pull request only ({layer.sources[0]}): read it by hand", False
    path = root / layer.path
    if not path.is_file():
        return f"{layer.name}: {layer.path} is not in this checkout", False
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    notes = []
    if layer.digest and digest != layer.digest:
        notes.append(f"changed since {layer.checked} (sha256 {layer.digest[:12]} -> {digest[:12]})")
    elif not layer.digest:
        notes.append(f"no digest stored: now {digest}")
    status = _status(data.decode("utf-8", "replace"))
    if status is not None and status != (layer.source_status or layer.status.value):
        notes.append(f"status {status} at the source, {layer.status.value} here")
    if not notes:
        return f"{layer.name}: {layer.path} unchanged since {layer.checked}", False
    return f"{layer.name}: {layer.path}: {'; '.join(notes)}", True

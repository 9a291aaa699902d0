"""The built-in draft ``next`` matches the spec's draft schema (``schema/draft/`` of a spec
checkout, ``$MCP_SKEW_SPEC_CHECKOUT``, or ``../shared/spec/schemas/draft``): the wire
string its ``schema.ts`` declares, the fields of ``Tool`` and ``CallToolResult``, the
requests of each direction. When the spec's draft moves on (a layer becomes Final, the
draft gets its own version string), this fails: update ``mcp_skew/versions/_seps.py``
(``tests/check_seps.py`` says what moved). Skipped, with the reason, where no
draft schema is at hand.
"""

from __future__ import annotations

import pytest
from _draft_spec import builtin_draft, draft_mismatches, spec_root, stored_draft


def test_the_builtin_draft_matches_the_specs_draft_schema() -> None:
    root = spec_root()
    draft = stored_draft(root) if root is not None else None
    if draft is None:
        pytest.skip(f"no draft schema (schema/draft/schema.json) in {root or 'no spec checkout'}; "
                    "set MCP_SKEW_SPEC_CHECKOUT to a checkout of "
                    "modelcontextprotocol/modelcontextprotocol to check it")
    assert draft_mismatches(*draft, builtin_draft()) == []


def test_a_moved_draft_is_caught() -> None:
    """The comparison itself: a draft schema that renamed a field and declares its own
    version string is two mismatches, whatever the checkout holds."""
    schema = {"$defs": {
        "Tool": {"properties": dict.fromkeys(
            ["_meta", "annotations", "description", "icons", "inputSchema", "name",
             "outputVariants", "title"])},
        "CallToolResult": {"properties": dict.fromkeys(
            ["_meta", "content", "isError", "resultType", "structuredContent"])},
    }}
    found = draft_mismatches(schema, 'export const LATEST_PROTOCOL_VERSION = "2027-03-01";',
                             builtin_draft())
    assert any(f.startswith("wire string: the draft declares 2027-03-01") for f in found)
    assert any("outputVariants" in f and "outputSchema" in f for f in found)

"""Every MUST / MUST NOT of the 2026-07-28 changelog has a step on the side it binds.

The changelog is not copied here: :data:`MUSTS` holds one short quoted phrase per
requirement with where it is (``docs/specification/2026-07-28/changelog.mdx``, read
from modelcontextprotocol/modelcontextprotocol at b0f60ba), the role it binds and the
profile change that carries it. The profile must store that role's MUST with the same
words (so the profile cites the rule, and the guide quotes it), give that role steps,
and the generated guide for that role must list the change in its summary checklist.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from mcp_skew.migrate import build_guide
from mcp_skew.migrate._format import render_markdown
from mcp_skew.migrate._guide import steps_for
from mcp_skew.versions import BUILTIN, Change, Obligation, profile_for

LATEST = BUILTIN[-1].revision

#: (changelog section and item, the rule's words, the role it binds, the rule id)
MUSTS = [
    ("Major changes, item 3", "servers MUST implement this RPC", "server", "server-discover"),
    ("Major changes, item 5", "servers MUST NOT emit notifications/message for requests that "
     "did not include this field", "server", "logging-level-per-request"),
    ("Major changes, item 8", 'Clients MUST treat results from earlier-protocol servers that '
     'omit the field as "complete"', "client", "result-type"),
    ("Major changes, item 9", "clients MUST re-issue it as a new request with a new request ID",
     "client", "resumability-removed"),
    ("Minor changes, item 7", "MCP clients MUST validate a present iss against the recorded "
     "issuer", "client", "authorization-iss-validation"),
    ("Minor changes, item 9", "clients MUST key persisted credentials by the issuer identifier",
     "client", "credentials-bound-to-issuer"),
    ("Minor changes, item 9", "MUST NOT reuse them with a different authorization server",
     "client", "credentials-bound-to-issuer"),
    ("Minor changes, item 9", "MUST re-register when the authorization server changes",
     "client", "credentials-bound-to-issuer"),
]
#: Requirements the changelog states as "Require ..." rather than with a keyword; the spec
#: page each change cites says MUST or REQUIRED.
REQUIRES = [
    ("Minor changes, item 4", "Require standard MCP request headers (Mcp-Method, Mcp-Name)",
     "client", "method-name-headers"),
    ("Minor changes, item 4", "custom headers from tool parameters via x-mcp-header",
     "client", "param-headers"),
    ("Minor changes, item 5", "Require ttlMs and cacheScope fields", "server", "caching-hints"),
    ("Minor changes, item 8", "Require MCP clients to specify an appropriate application_type",
     "client", "dcr-application-type"),
]
KEYWORDS = {Obligation.MUST: ("MUST", "REQUIRED", "required"), Obligation.SHOULD: ("SHOULD",),
            Obligation.MAY: ("MAY",)}


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("`", "").replace("*", "")).strip().lower()


def change(rule: str) -> Change:
    return next(c for c in profile_for(LATEST).changes if c.id == rule)


@cache
def checklist(role: str) -> str:
    text = render_markdown(build_guide(profile_for("2025-11-25"), profile_for(LATEST), role,  # type: ignore[arg-type]
                                       proof=False))
    start = text.index(f"### Checklist for {role}s")
    return text[start:text.index("\n## ", start)]


@pytest.mark.parametrize(("where", "rule_words", "role", "rule"), MUSTS + REQUIRES)
def test_each_changelog_requirement_binds_its_side_with_steps(
    where: str, rule_words: str, role: str, rule: str
) -> None:
    found = change(rule)
    binding = found.binding(role)
    assert binding is not None and binding.level is Obligation.MUST, (rule, role)
    assert steps_for(found, role), (rule, role)  # type: ignore[arg-type]
    assert re.search(rf"^\d+\. `{re.escape(rule)}` \(", checklist(role), re.MULTILINE), rule
    if (where, rule_words, role, rule) in MUSTS:  # the profile quotes the changelog's words
        assert words(rule_words) in words(binding.rule), rule
        cite = binding.cite or found.cite
        assert cite.source == "changelog.mdx" and cite.section == where, rule


def test_every_changelog_citation_in_the_profile_is_in_the_table() -> None:
    """The table and the profile agree: a binding that cites the changelog is listed."""
    listed = {(rule, role) for _, _, role, rule in MUSTS}
    cited = {(c.id, role) for c in profile_for(LATEST).changes
             for role, b in c.severity.items()
             if b.cite is not None and b.cite.source == "changelog.mdx"
             and b.level is Obligation.MUST}
    assert cited == listed


def test_every_stored_binding_quotes_its_keyword_and_has_steps() -> None:
    for profile in BUILTIN:
        for c in profile.changes:
            for role, b in c.severity.items():
                if b.level is Obligation.NONE:
                    assert not steps_for(c, role), (c.id, role)  # type: ignore[arg-type]
                    continue
                assert any(k in b.rule for k in KEYWORDS[b.level]), (c.id, role, b.rule)
                if b.level is not Obligation.MAY:
                    assert steps_for(c, role), (c.id, role)  # type: ignore[arg-type]

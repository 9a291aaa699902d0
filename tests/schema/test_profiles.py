"""The profiles: true to the official schemas, checked deltas, no leaks, ordered registry.

Kinds of test here (STYLE §4.5): the schema oracle (every revision against its
``schema.json``), table-driven cases, generated no-leak tests (jsonschema's
``AntiDraft6LeakMixin``), the ``evolve`` checks, the registry order, and a
Hypothesis property proving that the changes and the tables agree.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from _spec import (
    cacheable_methods,
    capability_keys,
    content_types,
    error_codes,
    properties,
    request_meta_keys,
    result_fields_required,
    result_meta_keys,
    schema_facts,
    union_methods,
)
from hypothesis import given
from hypothesis import strategies as st

from mcp_skew.versions import (
    BUILTIN,
    REGISTRY,
    REVISIONS,
    Change,
    Cite,
    Direction,
    Era,
    Impact,
    Kind,
    Method,
    Profile,
    Registry,
    UnknownRevision,
    profile_for,
)
from mcp_skew.versions._diff import changes_between, table_delta
from mcp_skew.versions._plain import step_deltas
from mcp_skew.versions._profile import (
    MAPPING_TABLES,
    SET_TABLES,
    SETTINGS,
    TABLES,
    ErrorCode,
    ProfileDefinitionError,
    create,
)
from mcp_skew.versions._registry import LATEST

C2S, S2C, BOTH = Direction.C2S, Direction.S2C, Direction.BOTH
REQUEST, NOTIFICATION = Kind.REQUEST, Kind.NOTIFICATION

# -- the schema oracle --------------------------------------------------------------

#: (union in schema.json, kind, direction)
UNIONS = [
    ("ClientRequest", REQUEST, C2S),
    ("ServerRequest", REQUEST, S2C),
    ("ClientNotification", NOTIFICATION, C2S),
    ("ServerNotification", NOTIFICATION, S2C),
]


@pytest.mark.parametrize("union, kind, direction", UNIONS, ids=[u[0] for u in UNIONS])
@pytest.mark.parametrize("revision", REVISIONS)
def test_methods_match_the_schema_unions(
    revision: str, union: str, kind: Kind, direction: Direction
) -> None:
    """A method sent both ways is in both unions; a union the schema lacks is empty."""
    expected = union_methods(schema_facts(revision), union)
    assert profile_for(revision).method_names(kind, direction) == expected


def test_latest_schema_has_no_server_requests() -> None:
    assert union_methods(schema_facts("2026-07-28"), "ServerRequest") == set()
    assert profile_for("2026-07-28").method_names(REQUEST, S2C) == frozenset()


@pytest.mark.parametrize(
    "table, definition",
    [("client_capabilities", "ClientCapabilities"), ("server_capabilities", "ServerCapabilities")],
)
@pytest.mark.parametrize("revision", REVISIONS)
def test_capability_keys_match_the_schema(revision: str, table: str, definition: str) -> None:
    """Dotted keys; ``experimental`` and ``extensions`` are open maps, so one key each."""
    expected = capability_keys(schema_facts(revision), definition)
    assert profile_for(revision).names(table) == expected


@pytest.mark.parametrize(
    "table, definition",
    [
        ("content_types", "CallToolResult"),
        ("content_types", "PromptMessage"),
        ("sampling_content_types", "SamplingMessage"),
    ],
)
@pytest.mark.parametrize("revision", REVISIONS)
def test_content_types_match_the_schema(revision: str, table: str, definition: str) -> None:
    expected = content_types(schema_facts(revision), definition)
    assert profile_for(revision).names(table) == expected


@pytest.mark.parametrize(
    "table, definition",
    [("tool_fields", "Tool"), ("call_tool_result_fields", "CallToolResult")],
)
@pytest.mark.parametrize("revision", REVISIONS)
def test_fields_match_the_schema(revision: str, table: str, definition: str) -> None:
    assert profile_for(revision).names(table) == properties(schema_facts(revision), definition)


@pytest.mark.parametrize("revision", REVISIONS)
def test_request_meta_keys_match_the_schema(revision: str) -> None:
    required, optional = request_meta_keys(schema_facts(revision))
    profile = profile_for(revision)
    assert profile.names("request_meta_required") == required
    assert profile.names("request_meta_optional") == optional


@pytest.mark.parametrize("revision", REVISIONS)
def test_result_fields_and_meta_match_the_schema(revision: str) -> None:
    schema, profile = schema_facts(revision), profile_for(revision)
    assert profile.names("result_meta_optional") == result_meta_keys(schema)
    assert profile.names("result_fields_required") == result_fields_required(schema)
    methods, hints = cacheable_methods(schema)
    assert profile.names("cacheable_results") == methods
    assert profile.names("cache_fields") == hints


#: Codes a profile may define that its schema does not: the JSON-RPC 2.0 codes
#: (older schemas define no error types) and -32002, defined in prose only
#: (server/resources.mdx §Error Handling).
PROSE_ONLY_CODES = {-32700, -32600, -32601, -32602, -32603, -32002}


@pytest.mark.parametrize("revision", REVISIONS)
def test_error_codes_match_the_schema(revision: str) -> None:
    """Every error the schema defines is in the profile, with the same ``data`` keys."""
    schema_codes = error_codes(schema_facts(revision))
    profile_codes = {e.code: set(e.data) for e in profile_for(revision).errors.values()}
    assert {c: profile_codes.get(c) for c in schema_codes} == schema_codes
    assert set(profile_codes) - set(schema_codes) <= PROSE_ONLY_CODES


# -- table-driven facts --------------------------------------------------------------

METHOD_CASES = [
    ("2024-11-05", "initialize", REQUEST, C2S, True),
    ("2024-11-05", "ping", REQUEST, BOTH, True),
    ("2024-11-05", "elicitation/create", REQUEST, S2C, False),
    ("2025-03-26", "completion/complete", REQUEST, C2S, True),
    ("2025-06-18", "elicitation/create", REQUEST, S2C, True),
    ("2025-11-25", "tasks/get", REQUEST, BOTH, True),
    ("2025-11-25", "notifications/elicitation/complete", NOTIFICATION, S2C, True),
    ("2026-07-28", "initialize", REQUEST, C2S, False),
    ("2026-07-28", "ping", REQUEST, BOTH, False),
    ("2026-07-28", "logging/setLevel", REQUEST, C2S, False),
    ("2026-07-28", "server/discover", REQUEST, C2S, True),
    ("2026-07-28", "subscriptions/listen", REQUEST, C2S, True),
    ("2026-07-28", "notifications/progress", NOTIFICATION, S2C, True),
    ("2026-07-28", "sampling/createMessage", REQUEST, S2C, False),
]


@pytest.mark.parametrize(
    "revision, method, kind, direction, present",
    METHOD_CASES,
    ids=[f"{c[0]}-{c[1]}-{'yes' if c[4] else 'no'}" for c in METHOD_CASES],
)
def test_method_cases(
    revision: str, method: str, kind: Kind, direction: Direction, present: bool
) -> None:
    profile = profile_for(revision)
    assert profile.supports(method) is present
    if present:
        assert profile.methods[method] == Method(kind, direction, profile.methods[method].capability)


SETTING_CASES = [
    ("2024-11-05", "era", Era.LEGACY),
    ("2024-11-05", "http_transport", "http+sse"),
    ("2025-03-26", "batching", True),
    ("2025-06-18", "batching", False),
    ("2025-06-18", "version_header_absent", "2025-03-26"),
    ("2025-11-25", "resource_not_found", "ResourceNotFound"),
    ("2026-07-28", "resource_not_found", "InvalidParams"),
    ("2026-07-28", "era", Era.MODERN),
    ("2026-07-28", "sessions", False),
]


@pytest.mark.parametrize("revision, setting, value", SETTING_CASES, ids=str)
def test_setting_cases(revision: str, setting: str, value: Any) -> None:
    assert profile_for(revision).settings[setting] == value


ERROR_CASES = [
    ("2024-11-05", "ResourceNotFound", -32002, ("uri",)),
    ("2025-11-25", "URLElicitationRequired", -32042, ("elicitations",)),
    ("2026-07-28", "HeaderMismatch", -32020, ()),
    ("2026-07-28", "MissingRequiredClientCapability", -32021, ("requiredCapabilities",)),
    ("2026-07-28", "UnsupportedProtocolVersion", -32022, ("supported", "requested")),
]


@pytest.mark.parametrize("revision, name, code, data", ERROR_CASES, ids=str)
def test_error_cases(revision: str, name: str, code: int, data: tuple[str, ...]) -> None:
    error = profile_for(revision).error(name)
    assert (error.code, error.data) == (code, data)


def test_every_profile_defines_every_table_and_setting() -> None:
    for profile in BUILTIN:
        assert set(profile.tables) == set(TABLES)
        assert set(profile.settings) == set(SETTINGS)
        assert isinstance(profile.era, Era)


# -- no leaks across revisions (generated) -----------------------------------------


def _additions() -> list[tuple[int, str, str]]:
    """(index of the revision, table, name) for everything each revision adds."""
    found: set[tuple[int, str, str]] = set()
    for index, profile in enumerate(BUILTIN[1:], start=1):
        for change in profile.changes:
            for table, rows in change.add.items():
                found |= {(index, table, name) for name in rows}
        for delta in table_delta(BUILTIN[index - 1], profile):
            found |= {(index, delta.name, name) for name in delta.added}
    return sorted(found)


ADDITIONS = _additions()


def test_additions_are_generated_from_every_revision() -> None:
    assert {index for index, _, _ in ADDITIONS} == set(range(1, len(BUILTIN)))


@pytest.mark.parametrize(
    "index, table, name",
    ADDITIONS,
    ids=[f"{BUILTIN[i].revision}-{t}-{n}" for i, t, n in ADDITIONS],
)
def test_nothing_added_leaks_into_earlier_revisions(index: int, table: str, name: str) -> None:
    newer = BUILTIN[index]
    for older in BUILTIN[:index]:
        assert not older.has(table, name), f"{name!r} ({table}) is already in {older.revision}"
    if newer.has(table, name):
        assert newer.introduced_in(table, name) == newer.revision


# -- evolve checks ---------------------------------------------------------------------

BASE = profile_for("2025-06-18")


def _change(rule: str = "rule-x", **edits: Any) -> Change:
    return Change(id=rule, summary="s", cite=Cite("draft", "x.mdx"), impact=Impact.ADDITIVE, **edits)


EVOLVE_ERRORS = [
    ("add-existing-method", {"add": {"methods": {"tools/list": Method(REQUEST, C2S)}}},
     "methods", "cannot add 'tools/list', it already exists"),
    ("add-existing-name", {"add": {"features": ["tools"]}},
     "features", "cannot add 'tools', it already exists"),
    ("add-names-as-mapping", {"add": {"features": {"x": "y"}}},
     "features", "takes a list of names"),
    ("remove-missing", {"remove": {"methods": ["server/discover"]}},
     "methods", "cannot remove 'server/discover', it does not exist"),
    ("replace-missing", {"replace": {"errors": {"Nope": ErrorCode(-1, "x")}}},
     "errors", "cannot replace 'Nope', it does not exist"),
    ("replace-unchanged", {"replace": {"methods": {"tools/list": BASE.methods["tools/list"]}}},
     "methods", "replacing 'tools/list' changes nothing"),
    ("replace-in-set-table", {"replace": {"features": {"tools": "x"}}},
     "features", "cannot be replaced"),
    ("unknown-table", {"add": {"widgets": ["a"]}}, "widgets", "no such table"),
    ("unknown-setting", {"settings": {"colour": "blue"}}, "colour", "no such setting"),
    ("setting-unchanged", {"settings": {"batching": False}},
     "batching", "setting 'batching' is already False"),
]


@pytest.mark.parametrize(
    "edits, table, problem", [e[1:] for e in EVOLVE_ERRORS], ids=[e[0] for e in EVOLVE_ERRORS]
)
def test_evolve_rejects_a_bad_change(edits: dict[str, Any], table: str, problem: str) -> None:
    with pytest.raises(ProfileDefinitionError) as info:
        BASE.evolve(revision="2099-01-01", changes=(_change(**edits),))
    message = str(info.value)
    assert message.startswith(f"2099-01-01, change 'rule-x', table '{table}': ")
    assert problem in message
    assert isinstance(info.value, TypeError)


def test_evolve_rejects_a_rule_id_used_twice() -> None:
    with pytest.raises(ProfileDefinitionError, match=r"2099-01-01, change 'dup'.* used twice"):
        BASE.evolve(revision="2099-01-01", changes=(_change("dup"), _change("dup")))


def test_evolve_rejects_a_rule_id_of_an_earlier_revision() -> None:
    with pytest.raises(ProfileDefinitionError, match=r"'batching-removed'.* already by 2025-06-18"):
        BASE.evolve(revision="2099-01-01", changes=(_change("batching-removed"),))


def test_evolve_applies_a_good_change_and_leaves_the_base_alone() -> None:
    new = BASE.evolve(
        revision="2099-01-01",
        changes=(_change(add={"methods": {"x/y": Method(REQUEST, C2S)}},
                         remove={"features": ["titles"]}, settings={"batching": True}),),
    )
    assert new.supports("x/y") and not BASE.supports("x/y")
    assert not new.has("features", "titles") and BASE.has("features", "titles")
    assert (new.settings["batching"], BASE.settings["batching"]) == (True, False)
    assert new.changes[0].revision == "2099-01-01"
    assert new.previous is BASE


def test_create_needs_every_table_and_setting() -> None:
    with pytest.raises(ProfileDefinitionError, match=r"missing .*'methods'.*unknown.*'widgets'"):
        create(revision="x", tables={"widgets": []}, settings={})


def test_profiles_are_frozen() -> None:
    with pytest.raises(TypeError):
        LATEST.tables["methods"]["x"] = Method(REQUEST, C2S)  # type: ignore[index]


# -- rule ids and citations ---------------------------------------------------------------


def test_every_rule_id_is_in_exactly_one_delta() -> None:
    counts = Counter(c.id for p in BUILTIN for c in p.changes)
    assert [rule for rule, n in counts.items() if n > 1] == []


@pytest.mark.parametrize(
    "change", [c for p in BUILTIN for c in p.changes], ids=lambda c: f"{c.revision}-{c.id}"
)
def test_every_change_is_cited(change: Change) -> None:
    assert change.revision in REVISIONS
    assert change.cite.revision == change.revision
    assert change.cite.source.strip() and str(change.cite).strip()
    assert change.cite.url().startswith("https://github.com/modelcontextprotocol/")
    assert change.summary.strip()


def test_a_drafts_own_source_is_its_link() -> None:
    """A draft or vendor revision cites its own text: the link is that text, not the MCP repo."""
    assert Cite("2026-12-x", "https://example.com/draft#search").url() == "https://example.com/draft#search"
    assert Cite("2026-07-28", "basic/index.mdx").url().endswith("/2026-07-28/basic/index.mdx")


def test_every_deprecation_is_cited() -> None:
    for profile in BUILTIN:
        for name, deprecation in profile.deprecations.items():
            assert deprecation.cite.source, name
            assert deprecation.since in REVISIONS, name


# -- the registry ---------------------------------------------------------------------------


def test_builtins_are_a_chain_oldest_first() -> None:
    assert BUILTIN[0].previous is None
    for older, newer in itertools.pairwise(BUILTIN):
        assert newer.previous is older
    assert LATEST is BUILTIN[-1]
    assert tuple(p.revision for p in BUILTIN) == REVISIONS


@pytest.mark.parametrize("revision", REVISIONS)
def test_every_revision_is_found_by_its_string(revision: str) -> None:
    assert profile_for(revision).revision == revision
    assert revision in REGISTRY


def test_order_is_position_not_string() -> None:
    vendor = profile_for("2025-06-18").evolve(revision="0000-vendor", changes=(_change("v1"),))
    registry = Registry().with_profile(vendor)
    indexes = [registry.index(r) for r in REVISIONS]
    assert indexes == sorted(indexes) and len(set(indexes)) == len(indexes)
    assert registry.index("2025-06-18") < registry.index("0000-vendor") < registry.index("2025-11-25")
    assert registry.newest(["2024-11-05", "2026-07-28", "2025-06-18"]) == "2026-07-28"
    assert registry.newest(["0000-vendor", "2025-06-18"]) == "0000-vendor"
    assert registry.ordered(["2025-03-26", "0000-vendor", "2026-07-28"]) == (
        "2026-07-28", "0000-vendor", "2025-03-26",
    )
    assert registry.of_era(Era.MODERN) == ("2026-07-28",)


def test_unknown_revision_lists_the_known_ones() -> None:
    with pytest.raises(UnknownRevision) as info:
        profile_for("2099-01-01")
    assert info.value.revision == "2099-01-01"
    assert info.value.known == REGISTRY.revisions()
    assert str(info.value) == (
        f"unknown revision '2099-01-01'; known revisions: {', '.join(REGISTRY.revisions())}"
    )


def test_a_new_profile_needs_a_registered_base_and_a_new_name() -> None:
    registry = Registry(BUILTIN[:2])
    with pytest.raises(UnknownRevision):
        registry.with_profile(LATEST.evolve(revision="x", changes=()))
    with pytest.raises(ValueError, match="already registered"):
        registry.with_profile(BUILTIN[1])


def test_a_registry_is_a_value_adding_makes_a_new_one() -> None:
    extra = LATEST.evolve(revision="2026-12-x", changes=())
    grown = REGISTRY.with_profile(extra)
    assert "2026-12-x" in grown and "2026-12-x" not in REGISTRY
    assert grown.revisions() == (*REGISTRY.revisions(), "2026-12-x")
    assert not hasattr(REGISTRY, "register") and not hasattr(REGISTRY, "unregister")
    assert Registry() == REGISTRY and grown != REGISTRY


# -- the changes and the tables agree (Hypothesis) -------------------------------------

#: A sibling of 2026-07-28, so some paths go back and then forward ("sideways").
VENDOR = profile_for("2025-11-25").evolve(
    revision="2025-11-25-vendor",
    changes=(
        _change("vendor-search", add={"methods": {"vendor/search": Method(REQUEST, C2S)}},
                remove={"features": ["ping"]}, settings={"batching": True}),
        _change("vendor-errors", replace={"errors": {"InvalidParams": ErrorCode(-32602, "Bad")}}),
    ),
)
PROFILES = st.sampled_from((*BUILTIN, VENDOR))


def _edit(tables: dict[str, set[str]], table: str, add: Any, remove: Any) -> None:
    """Apply adds and removes, as strictly as ``evolve`` checks them."""
    names_added = {add} if isinstance(add, str) else set(add)
    names_removed = {remove} if isinstance(remove, str) else set(remove)
    assert not names_added & tables[table], (table, names_added & tables[table])
    assert names_removed <= tables[table], (table, names_removed - tables[table])
    tables[table] = (tables[table] | names_added) - names_removed


@given(a=PROFILES, b=PROFILES)
def test_replaying_changes_between_a_and_b_gives_b(a: Profile, b: Profile) -> None:
    """Adds and removes of each step (undone in reverse for downgrades) turn a into b."""
    tables = {name: set(a.names(name)) for name in TABLES}
    rows = {name: dict(a.tables[name]) for name in MAPPING_TABLES}  # type: ignore[call-overload]
    settings = dict(a.settings)
    steps = changes_between(a, b)
    for step in steps:
        change = step.change
        for table in TABLES:
            add, remove = change.add.get(table, ()), change.remove.get(table, ())
            if step.undo:
                _edit(tables, table, remove, add)
            else:
                _edit(tables, table, add, remove)
                if table in MAPPING_TABLES:
                    rows[table].update({**change.add.get(table, {}), **change.replace.get(table, {})})
        if not step.undo:
            settings.update(change.settings)
    assert tables == {name: set(b.names(name)) for name in TABLES}
    if not any(step.undo for step in steps):
        assert {t: {k: rows[t][k] for k in b.names(t)} for t in MAPPING_TABLES} == {
            t: dict(b.tables[t]) for t in MAPPING_TABLES  # type: ignore[call-overload]
        }
        assert settings == dict(b.settings)


@given(a=PROFILES, b=PROFILES)
def test_rendered_deltas_per_change_replay_to_b(a: Profile, b: Profile) -> None:
    """The per-change deltas the diff shows (names and settings) turn a into b, both ways."""
    tables = {name: set(a.names(name)) for name in TABLES}
    settings = dict(a.settings)
    for _step, deltas in step_deltas(a, b):
        for delta in deltas:
            if delta.name in SETTINGS:
                assert settings[delta.name] == delta.before
                settings[delta.name] = delta.after
            else:
                _edit(tables, delta.name, delta.added, delta.removed)
    assert tables == {name: set(b.names(name)) for name in TABLES}
    assert settings == dict(b.settings)


@given(a=PROFILES, b=PROFILES)
def test_table_delta_is_antisymmetric(a: Profile, b: Profile) -> None:
    forward = {d.name: d for d in table_delta(a, b)}
    backward = {d.name: d for d in table_delta(b, a)}
    assert forward.keys() == backward.keys()
    for name, delta in forward.items():
        assert (delta.added, delta.removed) == (backward[name].removed, backward[name].added)
        assert (delta.before, delta.after) == (backward[name].after, backward[name].before)


def test_set_tables_and_mapping_tables_partition_the_tables() -> None:
    assert set(SET_TABLES).isdisjoint(MAPPING_TABLES)
    assert set(TABLES) == {*SET_TABLES, *MAPPING_TABLES}

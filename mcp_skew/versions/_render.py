"""Profiles and diffs as documents for people, markdown and text: pure functions, no I/O.

The ``versions``, ``show`` and ``diff`` commands, the generated reference pages
(``docs/generated/profiles/<rev>.md``) and the migration guides all render from
here, from the same tables the simulator runs on, so they cannot disagree.

Theory of operation
-------------------
A document is a tuple of :class:`Section` values (a title, a few lines of prose,
and one table). :func:`render` turns sections into markdown (GitHub tables) or
text (``tabulate``'s ``simple`` format). JSON is a separate, machine-readable
view, in :mod:`._plain` (:func:`~._plain.profile_to_dict`,
:func:`~._plain.diff_to_dict`), and a document shows the same deltas
(:func:`~._plain.change_delta`, :func:`~._plain.step_deltas`).
"""

from __future__ import annotations

import enum
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from tabulate import tabulate

from .._markup import markdown_cell
from ._auth import AuthRule
from ._diff import TableDelta, table_delta
from ._plain import (
    change_delta,
    method_counts,
    path_direction,
    settings_before,
    step_deltas,
    versions_to_dict,
)
from ._profile import (
    SET_TABLES,
    SETTINGS,
    Change,
    Invalidation,
    Profile,
)

__all__ = [
    "FORMATS",
    "GENERATED_NOTE",
    "REGENERATE",
    "Section",
    "binds_text",
    "diff_document",
    "diff_sections",
    "diff_to_markdown",
    "profile_document",
    "profile_sections",
    "profile_to_markdown",
    "reference_pages",
    "render",
    "versions_section",
]

Format = Literal["text", "markdown", "json"]
TextFormat = Literal["text", "markdown"]
FORMATS: Final[tuple[Format, ...]] = ("text", "markdown", "json")

#: Section titles of the tables, in the order a profile page shows them.
_TITLES: Final[Mapping[str, str]] = {
    "methods": "Methods",
    "client_capabilities": "Client capabilities",
    "server_capabilities": "Server capabilities",
    "content_types": "Content block types (tool results, prompts)",
    "sampling_content_types": "Content block types (sampling messages)",
    "tool_fields": "Tool fields",
    "call_tool_result_fields": "CallToolResult fields",
    "request_meta_required": "Request _meta keys: required",
    "request_meta_optional": "Request _meta keys: optional",
    "result_meta_optional": "Result _meta keys: optional",
    "result_fields_required": "Fields every result carries",
    "cacheable_results": "Results with caching hints",
    "cache_fields": "Caching hints",
    "http_headers": "HTTP request headers",
    "modern_error_codes": "Errors that mark a modern server",
    "unbatched_methods": "Requests a JSON-RPC batch must not carry",
    "errors": "Error codes",
    "deprecations": "Deprecations",
    "cache_invalidations": "Notifications that invalidate cached results",
    "auth": "Authorization rules (HTTP)",
    "features": "Features",
}


@dataclass(frozen=True, slots=True)
class Section:
    """One part of a document: a title, some prose, one table."""

    title: str
    headers: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    lines: tuple[str, ...] = ()
    code: tuple[int, ...] = ()  #: columns shown as code in markdown


# -- cells and deltas as text ------------------------------------------------------


def _cell(value: Any) -> str:
    """A table cell for a scalar value."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def _delta_text(delta: TableDelta) -> str:
    if delta.name in SETTINGS:
        return f"{_cell(delta.before)} -> {_cell(delta.after)}"
    parts = [f"+{n}" for n in delta.added] + [f"-{n}" for n in delta.removed]
    return ", ".join(parts + [f"~{n}" for n in delta.changed])


# -- profiles as tables -------------------------------------------------------------


def binds_text(change: Change) -> str:
    """How the change binds each role, as stored: ``servers MUST; clients SHOULD`` (or ``-``)."""
    parts = [f"{role}s {b.level.value}" for role, b in sorted(change.severity.items(), reverse=True)
             if b.level.value != "none"]
    return "; ".join(parts) or "-"


def _setting_source(profile: Profile, name: str) -> str:
    """The revision that last set ``name`` (the base revision if none changed it)."""
    for node in reversed(profile.lineage()):
        if any(name in change.settings for change in node.changes):
            return node.revision
    return profile.lineage()[0].revision


def _method_rows(profile: Profile) -> tuple[tuple[str, ...], ...]:
    return tuple(
        (
            name,
            spec.kind.value,
            spec.direction.value,
            _cell(spec.capability),
            _cell(profile.introduced_in("methods", name)),
        )
        for name, spec in profile.methods.items()
    )


def _error_rows(profile: Profile) -> tuple[tuple[str, ...], ...]:
    return tuple(
        (
            name,
            str(err.code),
            err.message,
            ", ".join(err.data) or "-",
            err.note or "-",
            _cell(profile.introduced_in("errors", name)),
        )
        for name, err in sorted(profile.errors.items(), key=lambda item: -item[1].code)
    )


def _invalidation_rows(profile: Profile) -> tuple[tuple[str, ...], ...]:
    rows = profile.tables["cache_invalidations"]
    assert not isinstance(rows, frozenset)
    return tuple(
        (name, ", ".join(inv.methods), _cell(inv.match), _cell(inv.listen),
         _cell(profile.introduced_in("cache_invalidations", name)))
        for name, inv in rows.items()
        if isinstance(inv, Invalidation)
    )


def _deprecation_rows(profile: Profile) -> tuple[tuple[str, ...], ...]:
    return tuple(
        (name, dep.since, dep.removal, dep.migration, str(dep.cite))
        for name, dep in profile.deprecations.items()
    )


def _auth_rows(profile: Profile) -> tuple[tuple[str, ...], ...]:
    rows = profile.tables["auth"]
    assert not isinstance(rows, frozenset)
    return tuple(
        (name, rule.level.value, ", ".join(rule.values) or "-", rule.rule, str(rule.cite),
         _cell(profile.introduced_in("auth", name)))
        for name, rule in rows.items()
        if isinstance(rule, AuthRule)
    )


def _summary_lines(profile: Profile) -> tuple[str, ...]:
    req_c2s, req_s2c, note_c2s, note_s2c = method_counts(profile)
    base = profile.previous.revision if profile.previous else "none (base revision)"
    return (
        f"- Title: {profile.title or '-'}",
        f"- Era: {profile.era.value}",
        f"- Extends: {base}",
        f"- Lineage: {' -> '.join(p.revision for p in profile.lineage())}",
        f"- Requests: {req_c2s} client->server, {req_s2c} server->client; notifications: "
        f"{note_c2s} client->server, {note_s2c} server->client (a method sent both ways "
        "counts in both)",
    )


# -- changes as documents ------------------------------------------------------------

#: A change on some path: the change, whether it is undone, and its table delta.
_Item = tuple[Change, bool, tuple[TableDelta, ...]]


def _edits_text(deltas: Iterable[TableDelta]) -> str:
    return "; ".join(f"{d.name}: {_delta_text(d)}" for d in deltas) or "-"


def _change_block(change: Change, undo: bool, deltas: tuple[TableDelta, ...]) -> list[str]:
    tags = f"{change.impact.value}, undone" if undo else change.impact.value
    block = [f"{change.id} [{tags}] ({change.revision})"]
    block += textwrap.wrap(change.summary, 96, initial_indent="    ", subsequent_indent="    ")
    block += [f"    see {change.cite}: {change.cite.url()}"]
    if change.severity:
        block += [f"    binds: {binds_text(change)}"]
    block += [f"    {d.name}: {_delta_text(d)}" for d in deltas]
    return [*block, ""]


def _changes_section(
    title: str,
    items: Sequence[_Item],
    fmt: TextFormat,
    lines: tuple[str, ...] = (),
    *,
    path: bool = False,
) -> Section:
    """Changes as a table (markdown) or as indented blocks (text, where tables get too wide).

    With ``path`` (a diff), the table also says which revision made each change and
    whether the path undoes it.
    """
    if fmt == "text":
        blocks = [line for item in items for line in _change_block(*item)]
        return Section(title, lines=(*lines, *([""] if lines else []), *(blocks or ["(none)"])))
    rows = tuple(
        (
            c.id,
            *((c.revision, _cell(undo)) if path else ()),
            c.impact.value,
            binds_text(c),
            c.summary,
            f"[{c.cite}]({c.cite.url()})",
            _edits_text(deltas),
        )
        for c, undo, deltas in items
    )
    where = ("revision", "undone") if path else ()
    headers = ("rule id", *where, "impact", "binds", "summary", "citation", "edits")
    return Section(title, headers, rows, lines, code=(0,))


def _profile_items(profile: Profile) -> tuple[_Item, ...]:
    before = settings_before(profile)
    return tuple((c, False, change_delta(c, before[c.id])) for c in profile.changes)


def profile_sections(profile: Profile, fmt: TextFormat = "markdown") -> tuple[Section, ...]:
    """A profile as a document: every table and setting, flattened."""
    since = ("since",)
    sections = [
        Section("Summary", lines=_summary_lines(profile)),
        Section(
            "Settings",
            ("setting", "value", "set in"),
            tuple(
                (n, _cell(profile.settings[n]), _setting_source(profile, n)) for n in SETTINGS
            ),
            code=(0,),
        ),
        Section(
            _TITLES["methods"],
            ("method", "kind", "direction", "capability", *since),
            _method_rows(profile),
            code=(0, 3),
        ),
    ]
    for table in SET_TABLES:
        rows = tuple(
            (name, _cell(profile.introduced_in(table, name)))
            for name in sorted(profile.names(table))
        )
        sections.append(Section(_TITLES[table], (table, *since), rows, code=(0,)))
    sections.append(
        Section(
            _TITLES["errors"],
            ("name", "code", "message", "data", "note", *since),
            _error_rows(profile),
            code=(0,),
        )
    )
    sections.append(
        Section(
            _TITLES["cache_invalidations"],
            ("notification", "invalidates", "only where this param matches",
             "listen filter key", *since),
            _invalidation_rows(profile),
            code=(0, 1, 2, 3),
        )
    )
    sections.append(
        Section(
            _TITLES["auth"],
            ("rule", "level", "values (in order)", "the spec's words", "citation", *since),
            _auth_rows(profile),
            code=(0, 2),
        )
    )
    sections.append(
        Section(
            _TITLES["deprecations"],
            ("feature", "since", "removal", "migration", "citation"),
            _deprecation_rows(profile),
        )
    )
    previous = profile.previous.revision if profile.previous else None
    sections.append(
        _changes_section(
            f"Changes from {previous}" if previous else "Changes",
            _profile_items(profile),
            fmt,
            () if previous else ("The base revision: its tables are written out in full.",),
        )
    )
    return tuple(sections)


def profile_document(profile: Profile, fmt: TextFormat) -> str:
    """The full derived profile as one markdown or text document."""
    title = f"MCP {profile.revision}"
    if profile.wire:  # a draft's identity is not its wire string
        title = f"{title} (on the wire: {profile.wire})"
    title = f"{title}: {profile.title}" if profile.title else title
    return render(title, profile_sections(profile, fmt), fmt)


def profile_to_markdown(profile: Profile) -> str:
    return profile_document(profile, "markdown")


# -- diffs ---------------------------------------------------------------------------


def diff_sections(a: Profile, b: Profile, fmt: TextFormat = "markdown") -> tuple[Section, ...]:
    """A diff as a document: the changes with their deltas, then the overall delta."""
    pairs = step_deltas(a, b)
    direction = path_direction(s for s, _ in pairs)
    undoing = direction in ("downgrade", "sideways")
    undone = "; undone changes are listed newest first" if undoing else ""
    changes = _changes_section(
        "Changes",
        [(s.change, s.undo, deltas) for s, deltas in pairs],
        fmt,
        (f"From {a.revision} to {b.revision} ({direction}): {len(pairs)} changes{undone}.",),
        path=True,
    )
    overall = Section(
        "Overall table delta",
        ("table or setting", "delta"),
        tuple((d.name, _delta_text(d)) for d in table_delta(a, b)),
        code=(0,),
    )
    return (changes, overall)


def diff_document(a: Profile, b: Profile, fmt: TextFormat) -> str:
    """Every change from ``a`` to ``b`` as one markdown or text document."""
    return render(f"MCP {a.revision} -> {b.revision}", diff_sections(a, b, fmt), fmt)


def diff_to_markdown(a: Profile, b: Profile) -> str:
    return diff_document(a, b, "markdown")


# -- the versions table -------------------------------------------------------------


def versions_section(profiles: Iterable[Profile], builtin: Iterable[str]) -> Section:
    """The :func:`versions_to_dict` records as one table."""
    records = versions_to_dict(profiles, builtin)["revisions"]
    headers = ("revision", "era", "req c->s", "req s->c", "notif c->s", "notif s->c",
               "changes", "source", "headline")
    rows = tuple(tuple(str(v) for v in record.values()) for record in records)
    return Section("Revisions", headers, rows)


# -- rendering ----------------------------------------------------------------------------


def _md_cell(text: str, code: bool) -> str:
    text = f"`{text}`" if code and text != "-" else text
    return markdown_cell(text, backslash=False, newline=False)


def _md_table(section: Section) -> str:
    """A GitHub table without padding (so regenerated pages diff line by line)."""
    lines = ["| " + " | ".join(section.headers) + " |", "|" + "---|" * len(section.headers)]
    for row in section.rows:
        cells = (_md_cell(c, i in section.code) for i, c in enumerate(row))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _table(section: Section, fmt: TextFormat) -> list[str]:
    if not section.rows:
        return ["(none)", ""]
    if fmt == "markdown":
        return [_md_table(section), ""]
    table = tabulate(
        section.rows, section.headers, "simple", disable_numparse=True, maxcolwidths=72
    )
    return [table, ""]


def _render_section(section: Section, fmt: TextFormat) -> list[str]:
    title = section.title
    out = [f"## {title}", ""] if fmt == "markdown" else [title, "-" * len(title)]
    if section.lines:
        out += [*section.lines, ""]
    if section.headers:
        out += _table(section, fmt)
    return out


def render(title: str, sections: Iterable[Section], fmt: TextFormat) -> str:
    """Sections as one markdown or text document, ending in a newline."""
    head = [f"# {title}", ""] if fmt == "markdown" else [title, "=" * len(title), ""]
    for section in sections:
        head += _render_section(section, fmt)
    return "\n".join(head).rstrip("\n") + "\n"


#: The command that (re)writes the reference pages (it lives with the CLI: no I/O here).
REGENERATE: Final = "python -m mcp_skew.commands.versions --write docs/generated/profiles"
#: The first line of every generated reference page.
GENERATED_NOTE: Final = f"<!-- Generated from the profile tables by `{REGENERATE}`; do not edit. -->"


def reference_pages(profiles: Iterable[Profile]) -> dict[str, str]:
    """File name -> text of the flattened reference page of each profile."""
    return {f"{p.revision}.md": f"{GENERATED_NOTE}\n\n{profile_to_markdown(p)}" for p in profiles}

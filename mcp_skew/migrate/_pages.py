"""The generated guides under ``docs/migrations``: which pairs, the index, write and check.

The pages are the guides for each adjacent pair of built-in revisions and for
each legacy revision to the latest one, rendered as markdown for both roles,
plus an index (``README.md``). They are regenerated, never edited:
``python -m mcp_skew.migrate --write docs/migrations`` rewrites them and a test
runs the ``--check`` side, naming that command when a page is out of date.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Final

from .._pagedir import sync_pages
from ..versions import BUILTIN, Era, Impact, Profile, Registry
from ._format import GENERATED_NOTE, render_markdown
from ._guide import Guide, build_guide

__all__ = ["INDEX", "REGENERATE", "guide_page", "guide_pairs", "page_name", "pages", "write_pages"]

#: The command that regenerates the pages (quoted by the drift test).
REGENERATE: Final = "python -m mcp_skew.migrate --write docs/migrations"
INDEX: Final = "README.md"


def guide_pairs(profiles: tuple[Profile, ...] = BUILTIN) -> tuple[tuple[Profile, Profile], ...]:
    """Each adjacent pair, oldest first, then each legacy revision to the latest."""
    pairs = list(itertools.pairwise(profiles))
    latest = profiles[-1]
    for profile in profiles[:-1]:
        if profile.era is Era.LEGACY and (profile, latest) not in pairs:
            pairs.append((profile, latest))
    return tuple(pairs)


def page_name(source: Profile, target: Profile) -> str:
    return f"{source.revision}_to_{target.revision}.md"


def guide_page(registry: Registry, source: str, target: str) -> str:
    """Where the generated guide from ``source`` to ``target`` is (``docs/migrations/...``),
    or "" when those two have no generated page (:func:`guide_pairs`)."""
    pairs = {(a.revision, b.revision) for a, b in guide_pairs()}
    if (source, target) not in pairs:
        return ""
    return f"docs/migrations/{page_name(registry.get(source), registry.get(target))}"


def _index(guides: list[Guide]) -> str:
    lines = [
        f"<!-- {GENERATED_NOTE} -->",
        "",
        "# Migration guides",
        "",
        "One guide per adjacent pair of revisions and one from each legacy revision to "
        f"{guides[-1].target.revision if guides else 'the latest'}, for servers and clients. "
        "Each lists every change on the way with its rule id, citation, severity for each "
        "role and concrete steps, illustrates the breaking ones with simulator runs, and "
        "(from the legacy era to the modern one) says how to serve both eras and how to talk "
        "to both eras, each with the simulator's proof. Each opens with a summary: what breaks "
        "for whom, then the ordered checklist for each role.",
        "",
        "For any other pair, or one role, or one transport, or JSON or HTML: "
        "`mcp-skew migrate FROM TO [--role server|client|both] [--transport stdio|http] "
        "[--format markdown|json|html]`. `--transport stdio` leaves out the changes that "
        "apply only to Streamable HTTP (and authorization, which the spec defines for HTTP "
        "only) and names each one it leaves out; the HTML guide has a contents list with a "
        "link to every section and change.",
        f"Regenerate these pages with `{REGENERATE}`.",
        "",
        "| guide | eras | changes | breaking | both eras (servers, clients) |",
        "|---|---|---|---|---|",
    ]
    for guide in guides:
        src, dst = guide.source, guide.target
        link = f"[{src.revision} to {dst.revision}]({page_name(src, dst)})"
        eras = f"{src.era.value} to {dst.era.value}"
        both = ", ".join(b.title.lower() for b in guide.eras) or "-"
        lines.append(f"| {link} | {eras} | {len(guide.changes)} | "
                     f"{len(guide.group(Impact.BREAKING))} | {both} |")
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """File name -> text of every generated page, the index last."""
    guides = [build_guide(a, b, "both") for a, b in guide_pairs()]
    out = {page_name(g.source, g.target): render_markdown(g, note=True) for g in guides}
    out[INDEX] = _index(guides)
    return out


def write_pages(directory: Path, *, check: bool = False) -> list[str]:
    """Write (or, with ``check``, compare) the pages; returns the names that differ.

    A markdown file in ``directory`` that is no longer generated counts as
    different; writing removes it.
    """
    return sync_pages(directory, pages(), check=check, prune=True)

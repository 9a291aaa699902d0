"""What the server's author should change, grouped by the revision each step unlocks.

The card ends with these steps. Nothing in them is written for one server: the
errors come from the findings (each code's fix in :data:`~mcp_skew.simulator.FINDINGS`),
the steps for a revision from the migration guide between the newest revision
the server serves and that one (for the modern era the guide's serve-both-eras checklist
and the changes it labels required for new clients, :func:`mcp_skew.migrate.serve_both_eras`),
each with the guide section (``docs/migrations/<from>_to_<to>.md#anchor``), the
``mcp-skew migrate`` command that prints it, and the spec page. Where the probe saw
what a step is about, a ``now:`` line says what the server did.

Order: first the errors every client meets, then one group per revision the
server does not serve, oldest first (the modern era last).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

from ..simulator.findings import FINDINGS
from ..versions import BUILTIN, Cite, Era, Registry

if TYPE_CHECKING:
    from ._runner import ProbeReport

__all__ = ["Advice", "AdviceItem", "advise"]


# -- The steps ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AdviceItem:
    """One step: what to do, why, where it is written down, and what the probe saw."""

    title: str
    text: str
    links: tuple[str, ...] = ()  #: guide sections and spec pages
    now: str = ""  #: what this server did, where the probe saw it

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "text": self.text, "links": list(self.links),
                "now": self.now}


@dataclass(frozen=True, slots=True)
class Advice:
    """The steps that unlock one revision (``revision`` None: fix these first, for everyone)."""

    revision: str | None
    heading: str
    items: tuple[AdviceItem, ...]
    command: str = ""  #: the ``mcp-skew migrate`` command with the whole guide
    guide: str = ""  #: the guide page in the repository
    failing: tuple[str, ...] = field(default=())  #: the clients of that revision that failed

    def to_dict(self) -> dict[str, Any]:
        return {"revision": self.revision, "heading": self.heading, "command": self.command,
                "guide": self.guide, "failing": list(self.failing),
                "steps": [i.to_dict() for i in self.items]}


_NOT_ADVICE: Final = frozenset({"simulation-disagrees", "era-mismatch", "unknown-field"})
_FINDINGS_DOC: Final = "docs/findings.md"


def _anchor(heading: str) -> str:
    """The GitHub anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _guide_page(registry: Registry, source: str, target: str) -> str:
    from ..migrate import guide_page  # noqa: PLC0415 - only when advice is built

    return guide_page(registry, source, target)


def _section(page: str, heading: str) -> str:
    return f"{page}#{_anchor(heading)}" if page else ""


def _errors(report: ProbeReport) -> Advice | None:
    """Each error the server showed, once, with its fix: first, whatever the revision."""
    items: dict[str, AdviceItem] = {}
    found = [f for _, f in report.findings()] + list(report.server_findings)
    for f in found:
        if f.severity != "error" or f.code in _NOT_ADVICE or f.code in items:
            continue
        info = FINDINGS[f.code]
        links = (f"{_FINDINGS_DOC}#{f.code}", *(c.url() for c in info.cites[:1]))
        fix = info.fix.removeprefix("Servers: ")
        items[f.code] = AdviceItem(f"{f.code}: {info.summary}", fix[:1].upper() + fix[1:], links,
                                   now=f.message)
    if not items:
        return None
    return Advice(None, "first, for every client: fix what the server gets wrong",
                  tuple(items.values()))


def _failing(report: ProbeReport, revision: str) -> tuple[str, ...]:
    """The clients preferring ``revision`` that failed to negotiate (not those whose server
    died later: that is the errors' group)."""
    from ._card import short_name  # noqa: PLC0415 - the renderers import this module

    return tuple(f"#{r.index} {short_name(r.record.client)}" for r in report.runs
                 if not r.prober and r.record.status != "ok" and r.culprit is None
                 and r.outcome != "not-checked"
                 and r.record.client.revisions and r.record.client.revisions[0] == revision)


def _links(*links: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(x for x in links if x))


def _seen(report: ProbeReport, method: str, asked: str | None = None) -> str:
    """What the first non-prober request of ``method`` (``initialize`` of ``asked``) got,
    and where."""
    from ._compare import answer_shape  # noqa: PLC0415 - see the module docstring
    from ._exchanges import exchanges  # noqa: PLC0415

    for r in report.runs:
        if r.prober or not r.real:  # a predicted run's transcript is the simulator's
            continue
        for ex in exchanges(r.record.transcript, r.record.session.registry):
            if ex.method == method and asked in (None, ex.params.get("protocolVersion")):
                what = f"{method} {asked}" if asked else method
                return f"{what} got {answer_shape(ex)} (#{r.index} msg {ex.index})"
    return ""


def _modern(report: ProbeReport, base: str, target: str) -> Advice:
    from ..migrate import serve_both_eras  # noqa: PLC0415 - only when advice is built

    registry = report.peer.evidence.registry
    source, modern = registry.get(base), registry.get(target)
    page = _guide_page(registry, base, target)
    both = _section(page, "Serve both eras")
    http = report.target.transport == "http"
    now = {"Answer server/discover": _seen(report, "server/discover")}
    if report.peer.evidence.served_early:
        shaped = next((r for r in report.runs if r.shaped is not None), None)
        where = f" (#{shaped.index} msg {shaped.shaped.index})" if shaped and shaped.shaped \
            else ""
        now["Never mix the eras"] = ("a 2026-07-28 request sent before initialize was served "
                                     f"under legacy rules{where}")
    steps = serve_both_eras(source, modern)
    items = [AdviceItem(item.title, item.text, _links(both, *(c.url() for c in item.cites)),
                        now.get(item.title, ""))
             for item in steps.checklist
             if http or not item.title.startswith("On Streamable HTTP")]
    required = steps.required
    if required:
        ids = ", ".join(c.id for c in required)
        items.append(AdviceItem(
            f"Then the {len(required)} changes modern clients need", f"{ids}: each with its "
            "steps for servers in the guide.",
            _links(_section(page, f"`{required[0].id}` ({target})"), required[0].cite.url())))
    return Advice(target, f"to serve {target} clients",
                  tuple(items), f"mcp-skew migrate {base} {target} --role server", page,
                  _failing(report, target))


def _legacy(report: ProbeReport, base: str, target: str) -> Advice:
    registry = report.peer.evidence.registry
    newer = registry.ordered([base, target])[0] == target
    now = _seen(report, "initialize", target)
    url = Cite(target, "basic/lifecycle.mdx", "Version Negotiation").url()
    page = _guide_page(registry, base, target) if newer else ""
    items = [AdviceItem(f"Accept {target} in initialize",
                        f"Answer initialize {target} with {target} (a legacy server MUST "
                        "answer with the version asked when it supports it), and serve that "
                        "revision's methods and fields" + (" (the guide lists every change)."
                                                           if newer else "."),
                        _links(page, url), now)]
    command = f"mcp-skew migrate {base} {target} --role server" if newer else ""
    return Advice(target, f"to serve {target} clients", tuple(items), command, page,
                  _failing(report, target))


def advise(report: ProbeReport) -> list[Advice]:
    """Every group of steps, in order (see the module docstring)."""
    out = [a for a in (_errors(report),) if a is not None]
    ev, spec = report.peer.evidence, report.peer.spec
    if spec is None:
        return out
    served = ev.legacy | ev.modern
    registry = ev.registry
    legacy = registry.ordered(sorted(ev.legacy))
    builtin = registry.ordered([p.revision for p in BUILTIN])
    for target in reversed(builtin):  # oldest first
        if target in served:
            continue
        if not legacy:  # a modern-only server: the legacy clients it loses
            if registry.get(target).era is Era.LEGACY:
                out.append(_lost_legacy(report, target))
            continue
        if registry.get(target).era is Era.MODERN:
            out.append(_modern(report, legacy[0], target))
        else:
            out.append(_with_versions_named(report, _legacy(report, legacy[0], target)))
    out += [a for a in (_draft(report, r) for r in registry.revisions() if r not in builtin)
            if a is not None]
    return out


def _draft(report: ProbeReport, target: str) -> Advice | None:
    """A revision beyond the built-ins (``--with next+sep-3279``, a ``--profile`` draft)
    whose clients failed here: the server steps of each change it makes over the newest
    built-in revision of its lineage (a SEP layer's), with their citations, and what the
    failing run met. None where its clients all worked."""
    failed = [r for r in report.runs if not r.prober and r.record.status != "ok"
              and r.record.client.revisions and r.record.client.revisions[0] == target]
    if not failed:
        return None
    from ._card import short_name  # noqa: PLC0415 - the renderers import this module

    builtin = {p.revision for p in BUILTIN}
    lineage = report.peer.evidence.registry.get(target).lineage()
    base = [p.revision for p in lineage if p.revision in builtin][-1]
    now = f"{failed[0].record.reason} (#{failed[0].index})"
    items: list[AdviceItem] = []
    for node in lineage:
        if node.revision in builtin:
            continue
        first = True  # what the failing run met goes with the target's own first change
        for change in node.changes:
            steps = [s.removeprefix("Servers: ") for s in change.steps
                     if not s.startswith("Clients")]
            if steps:
                seen = now if node.revision == target and first else ""
                first = False
                items.append(AdviceItem(f"{change.id} ({node.revision})", " ".join(steps),
                                        _links(change.cite.url()), seen))
    return Advice(target, f"to serve {target} clients", tuple(items),
                  f"mcp-skew migrate {base} {target} --role server", "",
                  tuple(f"#{r.index} {short_name(r.record.client)}" for r in failed))


# -- the clients a server loses: keep them (separate from the vocabulary above) -------------
def _plain_refusal(report: ProbeReport, revision: str | None = None) -> str:
    """Where a real run's ``initialize`` (of ``revision``, first; else of any) was refused
    with an error whose data names no versions (no ``data.supported``): the client cannot
    say why, nor pick one; else ''."""
    if revision is not None:
        return _plain_refusal_of(report, revision) or _plain_refusal_of(report, None)
    return _plain_refusal_of(report, None)


def _plain_refusal_of(report: ProbeReport, revision: str | None) -> str:
    from ._exchanges import exchanges  # noqa: PLC0415 - see the module docstring

    for r in report.runs:
        if r.prober or not r.real:
            continue
        for ex in exchanges(r.record.transcript, r.record.session.registry):
            if ex.method != "initialize" or ex.error is None or ex.synthesized \
                    or revision not in (None, ex.params.get("protocolVersion")):
                continue
            data = ex.error.get("data")
            if not (isinstance(data, dict) and isinstance(data.get("supported"), list)):
                return (f"initialize {ex.params.get('protocolVersion')} got error {ex.code} "
                        f"whose data names no versions (#{r.index} msg {ex.index})")
    return ""


def _name_versions(report: ProbeReport, now: str) -> AdviceItem:
    registry = report.peer.evidence.registry
    modern = registry.ordered(registry.of_era(Era.MODERN))
    legacy = registry.ordered(registry.of_era(Era.LEGACY))
    links = _links(Cite(legacy[0], "basic/lifecycle.mdx", "Version Negotiation").url(),
                   *(Cite(modern[0], "basic/versioning.mdx").url() for _ in modern[:1]))
    return AdviceItem(
        "Name your versions when you refuse one",
        "An initialize you refuse gets an error whose data has supported (the revisions you "
        "serve) and requested, as the lifecycle page's example does (-32602), and a modern "
        "request for a revision you do not serve gets -32022 with data.supported and "
        "data.requested: the client can then say why, or pick one of yours.", links, now)


def _with_versions_named(report: ProbeReport, advice: Advice) -> Advice:
    """A legacy group, plus naming the versions where the server refused without them."""
    now = _plain_refusal(report, advice.revision)
    if not now:
        return advice
    return replace(advice, items=(*advice.items, _name_versions(report, now)))


def _lost_legacy(report: ProbeReport, target: str) -> Advice:
    """A modern-only server and the clients of a legacy revision: they speak only
    ``initialize``; what keeps them (answer it) and what at least tells them why."""
    registry = report.peer.evidence.registry
    served = registry.ordered(sorted(report.peer.evidence.modern))
    lifecycle = Cite(target, "basic/lifecycle.mdx", "Version Negotiation").url()
    page = _guide_page(registry, target, served[0]) if served else ""
    items = [AdviceItem(
        "Answer initialize",
        f"A {target} client opens with initialize and cannot speak the modern era: answer "
        f"initialize {target} with {target} (or your latest legacy revision as a "
        "counter-offer), then serve that session under legacy rules, while requests that "
        "carry _meta stay modern (the guide's serve-both-eras checklist).",
        _links(_section(page, "Serve both eras"), lifecycle),
        _seen(report, "initialize", target))]
    plain = _plain_refusal(report, target)
    if plain:
        items.append(_name_versions(report, plain))
    return Advice(target, f"to serve {target} clients", tuple(items), "", page,
                  _failing(report, target))

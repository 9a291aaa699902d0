"""Findings about a client, from its runs against every server (codes in ``docs/findings.md``).

Each finding names the server row it comes from (:attr:`Finding.index` is the row's
position in the card). The specific findings come first; ``client-fails-where-spec-works``
covers a failure none of them explains, and ``client-model-disagrees`` a run the inferred
model does not predict.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..simulator.findings import FINDINGS, Finding, FindingCode
from ._expect import Prediction
from ._observe import Observation
from ._servers import split_upgrade

__all__ = ["Row", "client_findings", "fix_for"]


@dataclass(slots=True)
class Row:
    """One server of the card: the real run and the two predictions."""

    index: int
    server: str
    server_kind: str
    why: str
    observed: Observation
    spec: Prediction | None  #: the plain client of the inferred kind (None: nothing inferred)
    model: Prediction | None  #: the inferred client
    era_table: bool | None  #: the era table's row (None: a server with quirks)

    @property
    def as_spec_says(self) -> bool | None:
        if self.spec is None or self.observed.waiting:  # a run cut short: its end not seen
            return None
        return (self.observed.outcome == "works") == (self.spec.outcome == "works")

    @property
    def model_agrees(self) -> bool | None:
        if self.model is None or self.observed.waiting:
            return None
        o, m = self.observed, self.model
        return (o.outcome, o.revision) == (m.outcome, m.revision)


def _cite(code: FindingCode) -> str:
    return "; ".join(str(c) for c in FINDINGS[code].cites)


def fix_for(code: str) -> str:
    """What to change, for a finding code of any command."""
    info = FINDINGS.get(code)  # type: ignore[call-overload]
    return info.fix if info is not None else ""


def _probe_findings(row: Row, kind: str) -> list[Finding]:
    o, p = row.observed, row.observed.probe
    if kind != "dual" or p is None or o.outcome != "fails" or p.then != "stop" or o.waiting:
        return []  # still waiting at the deadline: what it does next is not seen
    cite = "2026-07-28: basic/transports/stdio.mdx §Backward Compatibility"
    if p.answer == "error" and p.code not in (-32022, -32020, -32021):
        return [Finding("client-fallback-keyed-to-code", "error",
                        f"{row.server}: the probe got error {p.code} and the client gave up "
                        "instead of falling back to initialize", row.index, cite)]
    if p.answer == "timeout" or (p.answer == "none" and o.timed_out):
        waited = f" {p.waited_ms} ms" if p.waited_ms is not None else " to the deadline"
        return [Finding("client-no-fallback-on-timeout", "warning",
                        f"{row.server}: the probe got no answer and the client waited{waited}, "
                        "then gave up without initialize", row.index, cite)]
    return []


def _upgrade_findings(row: Row, kind: str, rows: list[Row]) -> list[Finding]:
    """An upgrade case the client ended on the legacy era, though the plain client of its kind
    reaches the modern one, and the same spec served fresh (when the set has it) kept it
    modern (a client that prefers legacy is ``client-prefers-legacy`` instead)."""
    o = row.observed
    before, after = split_upgrade(row.server)
    if before is None or kind != "dual" or o.status != "ok" or o.era != "legacy":
        return []
    if row.spec is None or row.spec.era != "modern":
        return []
    fresh = [r for r in rows if r.server == after]
    if any(r.observed.era == "legacy" for r in fresh):
        return []
    return [Finding("client-keeps-legacy-after-upgrade", "warning", f"{row.server}: after the "
                    f"server was upgraded the client opened with {o.first} and stayed on the "
                    f"legacy era ({o.revision}); the upgraded server offers "
                    f"{row.spec.revision}", row.index,
                    _cite("client-keeps-legacy-after-upgrade"))]


def _app_findings(row: Row) -> list[Finding]:
    """MCP Apps: the client advertised the extension, was listed an app, and never read it."""
    seen = row.observed.extensions
    if seen is None or "io.modelcontextprotocol/ui" not in seen.advertised:
        return []
    unread = sorted(seen.unread())
    if not unread:
        return []
    return [Finding("client-never-reads-app", "warning", f"{row.server}: the client advertised "
                    f"io.modelcontextprotocol/ui and never read {', '.join(unread)}, which its "
                    "tool's _meta.ui.resourceUri names", row.index,
                    _cite("client-never-reads-app"))]


def _row_findings(row: Row, kind: str, rows: list[Row]) -> list[Finding]:
    o = row.observed
    out = _probe_findings(row, kind) + _upgrade_findings(row, kind, rows) + _app_findings(row)
    if o.waiting:
        return out  # still waiting for an answer when the run ended: no hang, and no failure seen
    if o.timed_out:
        out.append(Finding("client-hangs", "warning", f"{row.server}: the client was still "
                           "running at the deadline and was ended with its process family",
                           row.index, _cite("client-hangs")))
    p = o.probe
    if (kind == "dual" and p is not None and p.answer in ("timeout", "exit")
            and p.then == "initialize" and not p.restarted and o.outcome == "fails"
            and "silent-exit" in row.server):
        out.append(Finding("client-no-fresh-process", "info", f"{row.server}: the server exited "
                           "during the probe and the client sent initialize to the same, "
                           "dead process", row.index, _cite("client-no-fresh-process")))
    refused = "+no-result-type" in row.server or "+no-cache-hints" in row.server
    if refused and o.status == "ok" and o.era == "modern" and o.outcome != "works":
        out.append(Finding("client-refuses-result", "info", f"{row.server}: negotiated "
                           f"{o.revision}, then failed on {o.failed_on}", row.index,
                           _cite("client-refuses-result")))
    if (kind == "dual" and row.server_kind == "dual" and o.era == "legacy"
            and o.first == "initialize" and split_upgrade(row.server)[0] is None):
        out.append(Finding("client-prefers-legacy", "warning", f"{row.server}: the client opened "
                           f"with initialize and stayed in the legacy era ({o.revision})",
                           row.index, _cite("client-prefers-legacy")))
    if not out and row.spec is not None and row.spec.outcome == "works" and o.outcome != "works":
        out.append(Finding("client-fails-where-spec-works", "error", f"{row.server}: the client "
                           f"{o.outcome} ({o.failed_on or o.reason}); the spec's client of its "
                           f"kind reaches {row.spec.revision}", row.index,
                           _cite("client-fails-where-spec-works")))
    if row.model_agrees is False and row.model is not None:
        out.append(Finding("client-model-disagrees", "info", f"{row.server}: the client "
                           f"{o.outcome} {o.revision or ''}".rstrip() + f"; the inferred model "
                           f"{row.model.outcome} {row.model.revision or ''}".rstrip(), row.index,
                           _cite("client-model-disagrees")))
    return out


def client_findings(rows: list[Row], kind: str | None) -> list[Finding]:
    """Every finding of the card, row by row; the wire's own findings on the client's lines."""
    out: list[Finding] = []
    for row in rows:
        out += _row_findings(row, kind or "", rows)
        out += [Finding(f.code, f.severity, f"{row.server}: {f.message}", row.index, f.cite)
                for f in row.observed.findings]
    return out

"""Facets, comparisons and reports of the drift checks: what a run is reduced to, and how
the model's run and the real package's are compared.

A run on either side is reduced to :class:`Facets` (status, revision, era, mark, path, the
error codes seen, each step's answer, the requests a server received); a
:class:`Comparison` holds one counterpart's two facets and the ones compared; a
:class:`DriftReport` is one named peer's comparisons, and says whether its model drifted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ..peers import (
    ReleaseLine,
    Resolved,
)
from ..simulator import Link, PeerSpec, Scenario, SimClient, TransportRule, play, rule_for
from ..transcript import Transcript
from ._envs import EnvironmentUnavailable
from ._installs import Install, install

__all__ = [
    "CLIENT_FACETS",
    "FACETS",
    "SERVER_FACETS",
    "Comparison",
    "DriftReport",
    "Facets",
    "install_for",
    "report_for",
    "run_client",
]

#: the stdio transport's rules, the default of a run here (the simulator's, by name)
STDIO: Final = rule_for("stdio")
#: Every facet, in the order reports show them.
FACETS: Final = ("status", "revision", "era", "mark", "path", "codes", "steps", "requests",
                 "answers")
#: Compared for a server model (the simulated client runs on both sides) ...
SERVER_FACETS: Final = ("status", "revision", "era", "mark", "path", "codes", "steps")
#: ... and for a client model (only the outcome and the wire are visible).
CLIENT_FACETS: Final = ("status", "revision", "era", "requests")


@dataclass(slots=True)
class Facets:
    """What is compared between the model and the real package."""

    status: str
    revision: str | None
    era: str | None
    mark: str = ""
    path: list[str] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)  #: error codes of the answers, in order
    steps: list[str] = field(default_factory=list)  #: ``name: got``
    requests: list[str] = field(default_factory=list)  #: what the server received (clients)
    answers: list[str] = field(default_factory=list)  #: raw probes: each answer, as read
    detail: str = ""  #: the reason or error text (shown, not compared)

    def summary(self) -> str:
        if self.answers:
            return ", ".join(self.answers)
        if self.status != "ok":
            return "failed" + (f": {self.detail}" if self.detail else "")
        return f"ok {self.revision}" + (f" {self.mark}" if self.mark else "")

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in (*FACETS, "detail")}


def _codes(transcript: Transcript) -> list[int]:
    out: list[int] = []
    for entry in transcript.entries:
        message = entry.message
        if entry.dir == "s2c" and isinstance(message, dict) and "method" not in message:
            error = message.get("error")
            if isinstance(error, dict) and isinstance(error.get("code"), int):
                out.append(error["code"])
    return out


def run_client(client: PeerSpec, link: Link, scenario: Scenario,
                request_timeout_ms: int, transport: TransportRule = STDIO) -> Facets:
    sim = SimClient(client, request_timeout_ms=request_timeout_ms, transport=transport)
    session = sim.negotiate(link)
    steps: list[str] = []
    if session.status == "ok":
        results, _, _ = play(scenario, sim, link, session)
        steps = [f"{r.name}: {r.got}" for r in results]
    link.close()
    return Facets(session.status, session.revision, session.era.value if session.era else None,
                  session.mark, list(session.path), _codes(link.transcript), steps,
                  detail=session.reason)


@dataclass(slots=True)
class Comparison:
    """One counterpart (a client for a server check, a server for a client check)."""

    counterpart: str
    model: Facets
    real: Facets
    compared: tuple[str, ...]
    seconds: float = 0.0

    @property
    def differences(self) -> list[str]:
        out = []
        for key in self.compared:
            mine, theirs = getattr(self.model, key), getattr(self.real, key)
            if mine != theirs:
                out.append(f"{key}: model {_show(mine)}, real {_show(theirs)}")
        return out

    @property
    def agrees(self) -> bool:
        return not self.differences

    def to_dict(self) -> dict[str, Any]:
        return {"counterpart": self.counterpart, "agrees": self.agrees,
                "differences": self.differences, "model": self.model.to_dict(),
                "real": self.real.to_dict(), "seconds": round(self.seconds, 2)}


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


@dataclass(slots=True)
class DriftReport:
    """A named peer checked against its real package."""

    name: str
    role: str
    notation: str
    package: str
    note: str = ""
    gaps: tuple[str, ...] = ()
    unavailable: str | None = None
    install_seconds: float = 0.0
    cached: bool = False
    run_seconds: float = 0.0
    comparisons: list[Comparison] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return self.unavailable is None and all(c.agrees for c in self.comparisons)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "role": self.role, "model": self.notation,
                "package": self.package, "note": self.note, "gaps": list(self.gaps),
                "unavailable": self.unavailable, "agrees": self.agrees,
                "install_seconds": round(self.install_seconds, 1), "cached": self.cached,
                "run_seconds": round(self.run_seconds, 1),
                "comparisons": [c.to_dict() for c in self.comparisons]}

    def render(self) -> str:
        """A plain-text report: one line per counterpart, then every difference."""
        lines = [f"{self.name} ({self.role}): model {self.notation}",
                 f"  {self.note}"]
        if self.unavailable is not None:
            lines.append(f"  real package unavailable: {self.unavailable}")
            return "\n".join(lines)
        how = "cached" if self.cached else "installed"
        lines.append(f"  {self.package}: {how} (install {self.install_seconds:.1f} s), "
                     f"{len(self.comparisons)} runs in {self.run_seconds:.1f} s")
        width = max((len(c.counterpart) for c in self.comparisons), default=10)
        lines.append("")
        lines.append(f"  {'against':<{width}}  {'model':<40}  {'real':<40}  verdict")
        for c in self.comparisons:
            verdict = "agrees" if c.agrees else "DIFFERS"
            lines.append(f"  {c.counterpart:<{width}}  {_cut(c.model.summary(), 40):<40}  "
                         f"{_cut(c.real.summary(), 40):<40}  {verdict}")
        differing = [c for c in self.comparisons if not c.agrees]
        for c in differing:
            lines.append("")
            lines.append(f"  {c.counterpart}:")
            lines += [f"    {d}" for d in c.differences]
        agree = len(self.comparisons) - len(differing)
        lines.append("")
        lines.append(f"  {agree} of {len(self.comparisons)} agree" +
                     ("" if not differing else f"; {len(differing)} differ"))
        if self.gaps:
            lines.append("  known gaps of the model (not compared):")
            lines += [f"    - {g}" for g in self.gaps]
        return "\n".join(lines)


def report_for(resolved: Resolved, model: PeerSpec) -> DriftReport:
    installs = resolved.line.installs
    return DriftReport(resolved.name, resolved.role, model.notation,
                       installs.text if installs else "(none)", note=model.note,
                       gaps=resolved.model.gaps)


def install_for(line: ReleaseLine, report: DriftReport) -> Install | None:
    if line.installs is None:
        report.unavailable = "no installable package for this line"
        return None
    try:
        env = install(line.installs)
    except EnvironmentUnavailable as exc:
        report.unavailable = str(exc)
        return None
    report.install_seconds, report.cached = env.seconds, env.cached
    return env

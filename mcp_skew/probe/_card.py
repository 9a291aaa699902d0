"""The words of the report card that every format shares (terminal, Markdown, HTML).

Read by :mod:`._report` and :mod:`._html` (and :mod:`._advice`, for the clients'
names): each renderer lays them out its own way, from one source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..simulator import PeerSpec
from ..simulator.findings import Finding

if TYPE_CHECKING:  # read only: the renderers need no runner
    from ._runner import ClientRun, ProbeReport

__all__ = ["agreement", "derived_line", "grouped", "headline", "not_checked", "plural",
           "required_lines", "short_name", "stderr_tail", "why_lines"]


def short_name(spec: PeerSpec) -> str:
    """``dual:2026-07-28..2024-11-05+strict`` for a long revision list."""
    if spec.label or len(spec.revisions) <= 2:
        return spec.name
    quirks = "".join(f"+{n}" + (f"={v}" if v is not None else "") for n, v in spec.quirks)
    return f"{spec.kind}:{spec.revisions[0]}..{spec.revisions[-1]}{quirks}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def headline(report: ProbeReport) -> str:
    clients = sum(not r.prober for r in report.runs)
    prober = " + prober" if any(r.prober for r in report.runs) else ""
    guessed = sum(not r.real and r.outcome != "not-checked" for r in report.runs)
    unchecked = sum(r.outcome == "not-checked" for r in report.runs)
    replayed = sum(r.replayed for r in report.runs)
    how = (f": {clients - guessed - unchecked} run, {guessed - replayed} predicted from the "
           "inferred peer" + (f", {replayed} replayed from observed runs" if replayed else "")
           + (f", {unchecked} not checked" if unchecked else "")
           + f", {plural(report.starts, 'server start')}" if guessed or unchecked else "")
    return (f"mcp-skew probe: {report.target.describe()}\n"
            f"({report.target.transport}, {plural(clients, 'client')}{prober}{how}, "
            f"{report.jobs} at a time, {report.elapsed_ms / 1000:.1f} s)")


def agreement(report: ProbeReport) -> str:
    clients = [r for r in report.runs if not r.prober]
    judged = [r for r in clients if r.real and r.predicted is not None]
    if not judged:
        return "simulation: no peer inferred, nothing to compare"
    off = [r for r in judged if not r.predicted or not r.predicted["agrees"]]
    line = (f"simulation: against that peer the simulator agrees with {len(judged) - len(off)} "
            f"of {len(judged)} real runs (codes and shapes of every answer)")
    if off:
        line += "; differs: " + ", ".join(f"#{r.index}" for r in off) + \
            " (see simulation-disagrees)"
    return line


def grouped(report: ProbeReport) -> list[tuple[Finding, list[str]]]:
    """Identical findings of several clients once, with where each was seen (#client msg);
    then the server-level findings (seen by the whole probe)."""
    groups: dict[tuple[str, str, str, str], tuple[Finding, list[str]]] = {}
    for r, f in report.findings():
        where = f"#{r.index}" + (f" msg {f.index}" if f.index is not None else "")
        groups.setdefault((f.severity, f.code, f.message, f.cite), (f, []))[1].append(where)
    out = list(groups.values())
    out += [(f, ["server"]) for f in report.server_findings]
    return out


def derived_line(run: ClientRun) -> str:
    """Where a predicted row comes from: nothing of it was sent to the server."""
    runs = ", ".join(f"#{i}" for i in run.derived_from) or "no real run"
    return (f"predicted (not run): the simulator's run of this client against the inferred "
            f"peer, which rests on what the real runs {runs} observed; no request of this "
            "client was sent to the server")


def not_checked(report: ProbeReport) -> list[str]:
    """The MUSTs the probe checks that no real run could check on this server, and why."""
    from ._exchanges import exchanges  # noqa: PLC0415 - only what is read

    ev = report.peer.evidence
    real = [r for r in report.runs if r.real and not r.prober]
    out = []
    if (ev.legacy or ev.answered - ev.modern) and not any(
            s.name == "ping" for r in real for s in r.record.steps):
        out.append("ping: no real client got a legacy session to send it on")
    sent = any(ex.method == "server/discover" for r in real
               for ex in exchanges(r.record.transcript, r.record.session.registry))
    if (ev.modern or ev.initialize_32022) and not sent:
        out.append("server/discover: no real client sent it")
    return out


def stderr_tail(text: str, lines: int = 5) -> list[str]:
    """The last non-empty lines a server wrote to stderr."""
    return [line for line in text.splitlines() if line.strip()][-lines:]


def why_lines(report: ProbeReport) -> list[str]:
    out: list[str] = []
    shown: dict[str, int] = {}
    for r in report.runs:
        if r.record.status == "ok" or not r.record.reason:
            continue
        out.append(f"  #{r.index} {short_name(r.record.client)}: {r.record.reason}")
        silent = not any(e.dir == "s2c" for e in r.record.transcript.entries)
        # a crash, or a server that never said a word (it died at start): its stderr says why
        tail = stderr_tail(r.stderr) if r.culprit is not None or silent else []
        if not tail:
            continue
        key = "\n".join(tail)
        if key in shown:
            out.append(f"      stderr: as #{shown[key]}")
            continue
        shown[key] = r.index
        out.append(f"      stderr (last {len(tail)} lines):")
        out += [f"      | {line[:200]}" for line in tail]
    return out


def required_lines(report: ProbeReport) -> list[str]:
    out = []
    for rev in report.required:
        failures = report.failures((rev,))
        out.append(f"  {rev}: " + ("ok" if not failures else "FAILED: " + "; ".join(
            f.partition(": ")[2] for f in failures)))
    return out

"""The probe against real servers: the official Python SDK (``mcp``) now and in its 1.x past,
and fastmcp, each installed into a cached isolated environment.

The assertions are what these servers really do, as measured (docs/real-peers.md
has the raw evidence; the probe found the same): ``mcp`` 2.3.0 and fastmcp 4.2.3
are dual-era with the era fixed by a process's first request; ``mcp`` 1.9.4
speaks 2025-03-26 and 2024-11-05 and answers anything unknown with -32602;
``mcp`` 1.0.0 answers 2024-11-05 to everything, and an unknown request is
silence and then an exit. Where a named peer models the same release
(``py-mcp@2.3``), the inferred peer must equal it except for the quirks that
only requests no built-in client sends can show.

Skipped, with the installer's reason, when an environment cannot be built
(no registry, no network).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _spec import SPEC_DIR

from mcp_skew.peers import resolve_peer
from mcp_skew.probe import ProbeOptions, ProbeReport, Target, probe
from mcp_skew.probe._clients import builtin_clients
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_python_env

pytestmark = pytest.mark.realpeer

SERVERS = Path(__file__).resolve().parents[2] / "mcp_skew" / "realpeers" / "servers"
ALL = "2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05"
LEGACY_ALL = "2025-11-25,2025-06-18,2025-03-26,2024-11-05"
#: quirks only what no built-in client sends can show (ping or a legacy request before
#: initialize, a line that is not JSON), so the probe never infers them
UNPROBED = {"strict-lifecycle", "early-32602", "fixed", "drop-unparsable"}

ENVS = {
    "mcp-2.3.0": (("mcp==2.3.0",), "py_mcp_server.py"),
    "mcp-1.9.4": (("mcp==1.9.4", "pydantic==2.11.*"), "py_mcp_server.py"),
    "mcp-1.0.0": (("mcp==1.0.0", "pydantic==2.10.*"), "py_mcp_server.py"),
    "fastmcp-4.2.3": (("fastmcp==4.2.3",), "fastmcp_server.py"),
}
_REPORTS: dict[str, ProbeReport] = {}


def probed(name: str) -> ProbeReport:
    """One probe per server per test session (each takes seconds)."""
    if name not in _REPORTS:
        requirements, script = ENVS[name]
        try:
            env = ensure_python_env(requirements, base_python=sys.executable)
        except EnvironmentUnavailable as exc:
            pytest.skip(f"cannot build {' '.join(requirements)}: {exc}")
        schemas = SPEC_DIR / "schemas" if SPEC_DIR.is_dir() else None
        opts = ProbeOptions(timeout_ms=5000, probe_timeout_ms=3000, error_probes=True,
                            tool="echo", tool_args={"text": "hi"}, schemas=schemas)
        _REPORTS[name] = probe(Target(command=(str(env.python), str(SERVERS / script))), opts)
    return _REPORTS[name]


def outcomes(report: ProbeReport) -> dict[str, tuple[str, str | None]]:
    return {r.name: (r.record.status, r.record.revision) for r in report.runs if not r.prober}


def codes(report: ProbeReport) -> set[str]:
    return {f.code for _, f in report.findings()}


def observable(named: str) -> str:
    spec = resolve_peer(named, "server")
    quirks = "".join(f"+{n}" + (f"={v}" if v is not None else "")
                     for n, v in spec.quirks if n not in UNPROBED)
    return f"{spec.kind}:{','.join(spec.revisions)}{quirks}"


def common_checks(report: ProbeReport) -> None:
    """True of every real server here: the model agrees, the messages fit their schemas."""
    assert all(r.predicted and r.predicted["agrees"] for r in report.runs if not r.prober), [
        (r.name, r.predicted) for r in report.runs if r.predicted and not r.predicted["agrees"]]
    assert "schema-violation" not in codes(report)
    assert "not-json" not in codes(report)


#: The extensions a server offers, as the peer notation says them: FastMCP 4.2.3 declares
#: MCP Apps (io.modelcontextprotocol/ui) in every initialize and discover result,
#: unconditionally (fastmcp/server/low_level.py, the capabilities' "extensions"), which the
#: probe reads since issue 38; the Python SDK declares none.
OFFERS = {"mcp-2.3.0": "", "fastmcp-4.2.3": "+ext=ui"}


@pytest.mark.parametrize("name", ["mcp-2.3.0", "fastmcp-4.2.3"])
def test_the_current_sdk_and_fastmcp_are_dual_era_and_sticky(name: str) -> None:
    report = probed(name)
    assert report.peer.spec is not None
    assert report.peer.spec.notation == \
        f"dual:{ALL}+sticky-era+not-found-code=-32602{OFFERS[name]}"
    assert report.peer.spec.notation == observable("py-mcp@2.3") + OFFERS[name]
    assert report.peer.sentence == (
        f"behaves like dual:{ALL} with the era of a process fixed by its first request and "
        "error -32602 for a missing resource")
    got = outcomes(report)
    assert all(status == "ok" for status, _ in got.values())
    assert got["modern:2026-07-28"] == ("ok", "2026-07-28")
    assert got[f"dual:{ALL}"] == ("ok", "2026-07-28")
    assert got[f"legacy:{LEGACY_ALL}+exact"] == ("ok", "2025-11-25")
    for rev in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"):
        assert got[f"legacy:{rev}"] == ("ok", rev)
        assert report.works(rev)
    assert report.works("2026-07-28")
    prober = next(r for r in report.runs if r.prober)
    assert prober.record.session.path == [
        "initialize 1999-01-01", "answered 2025-11-25", "mcp-skew/no-such-method", "error -32601",
        "restart", "discover 1999-01-01", "error -32022", "initialize 2025-11-25", "error -32022"]
    # -32602 for a missing resource is a legacy SHOULD departure (info); an unknown tool is
    # a tool error, not -32602; invalid tool input is a tool error from 2025-11-25 on, as it
    # should be
    # measured: the SDK sends 2025-06-18's outputSchema and structuredContent to clients that
    # negotiated 2024-11-05 or 2025-03-26 (the schemas of those revisions do not define them)
    assert codes(report) == {"resource-not-found-code", "unexpected-answer", "unknown-field"}
    leaks = {(run.record.revision, f.message.split(": ", 1)[1])
             for run, f in report.findings() if f.code == "unknown-field"}
    assert {rev for rev, _ in leaks} == {"2024-11-05", "2025-03-26"}
    added_in_2025_06_18 = {"outputSchema", "structuredContent", "title", "_meta"}
    for _, fields in leaks:
        assert {f.split(".")[-1] for f in fields.split(", ")} <= added_in_2025_06_18, fields
    assert {f.severity for _, f in report.findings() if f.code == "resource-not-found-code"} == {
        "info"}
    common_checks(report)


def test_mcp_1_9_4_speaks_2025_03_26_and_answers_unknown_requests_with_32602() -> None:
    report = probed("mcp-1.9.4")
    assert report.peer.spec is not None
    assert report.peer.spec.notation == \
        "legacy:2025-03-26,2024-11-05+unknown-32602+not-found-code=0"
    assert report.peer.spec.notation == observable("py-mcp@1.9.4")
    assert report.peer.sentence.startswith(
        "behaves like legacy:2025-03-26,2024-11-05 with -32602 on unknown requests")
    got = outcomes(report)
    assert got["legacy:2025-03-26"] == ("ok", "2025-03-26")
    assert got["legacy:2025-06-18"] == ("failed", None)  # counter-offer 2025-03-26: refused
    assert got[f"legacy:{LEGACY_ALL}"] == ("ok", "2025-03-26")
    assert got["modern:2026-07-28"] == ("failed", None)
    assert got[f"dual:{ALL}"] == ("ok", "2025-03-26")
    assert got[f"dual:{ALL}+fallback-32601"] == ("failed", None)  # the probe got -32602
    dual = next(r for r in report.runs if r.name == f"dual:{ALL}")
    assert dual.record.session.path[:2] == ["discover 2026-07-28", "error -32602"]
    assert dual.record.session.mark == "era-fallback"
    assert report.works("2025-03-26") and not report.works("2025-06-18")
    assert report.failures(("2025-06-18", "2026-07-28"))
    assert codes(report) == {"resource-not-found-code", "unexpected-answer"}
    common_checks(report)


def test_mcp_1_0_0_is_silent_then_exits_on_unknown_requests() -> None:
    report = probed("mcp-1.0.0")
    assert report.peer.spec is not None
    assert report.peer.spec.notation == "legacy:2024-11-05+silent-exit+not-found-code=0"
    assert report.peer.spec.notation == observable("py-mcp@1.0")
    got = outcomes(report)
    assert got["legacy:2024-11-05"] == ("ok", "2024-11-05")
    assert got["legacy:2025-11-25"] == ("failed", None)
    dual = next(r for r in report.runs if r.name == f"dual:{ALL}")
    assert dual.outcome == "exited"
    assert dual.record.session.path[-1] == "server exited"
    assert {"crash-on-unknown", "silent-on-unknown"} <= codes(report)
    assert all(r.exits for r in report.runs)
    common_checks(report)


def test_a_cold_start_is_measured_and_allowed_for() -> None:
    report = probed("mcp-2.3.0")
    assert report.startup["cold_start_ms"] > 0
    assert report.startup["allowance_ms"] >= report.startup["cold_start_ms"]
    assert all(r.first_message_ms is not None for r in report.runs)


@pytest.mark.parametrize("name", ["mcp-1.9.4", "mcp-1.0.0"])
def test_a_client_alone_gets_the_verdict_it_gets_in_the_full_probe(name: str) -> None:
    """Each client's verdict comes from its own transcript: `--client THAT` and the full probe
    agree on outcome, status, revision and reason, for every client of the default set.

    A client alone calibrates the start itself: against a server silent on its first request
    (mcp 1.0.0 to a modern or dual client) it waits the whole startup bound, twice, before it
    calls the server silent (about 130 s at the default 60 s). The full probe measured this
    server's cold start: the bound here is five times that, at least 20 s
    (``--startup-timeout``), far above any start of it."""
    report = probed(name)
    requirements, script = ENVS[name]
    env = ensure_python_env(requirements, base_python=sys.executable)
    target = Target(command=(str(env.python), str(SERVERS / script)))
    full = {r.name: r for r in report.runs if not r.prober}
    bound_ms = max(20_000, 5 * int(report.startup.get("cold_start_ms") or 0))
    for spec in builtin_clients():
        opts = ProbeOptions(timeout_ms=5000, probe_timeout_ms=3000, error_probes=True,
                            tool="echo", tool_args={"text": "hi"}, clients=(spec,),
                            prober=False, startup_timeout_ms=bound_ms)
        (alone,) = probe(target, opts).runs
        together = full[spec.name]
        assert (alone.outcome, alone.record.status, alone.record.revision,
                alone.record.session.reason) == (
            together.outcome, together.record.status, together.record.revision,
            together.record.session.reason), spec.name

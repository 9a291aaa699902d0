"""``ping`` is a MUST for the receiver (2024-11-05 to 2025-11-25 basic/utilities/ping.mdx
§Behavior Requirements: "The receiver MUST respond promptly with an empty response"), and a
finding for a MUST is an error (docs/findings.md): ``ping-unanswered`` is an error in both
probe modes, its fix is under "what to change", and the table of findings says so."""

from __future__ import annotations

import pytest

from mcp_skew.probe import ProbeOptions, probe, render
from mcp_skew.probe._advice import advise
from mcp_skew.simulator.findings import FINDINGS
from tests._hand_servers import target

ALL = "2025-11-25,2025-06-18,2025-03-26,2024-11-05"
#: servers that answer ping with -32601, each era that has ping
SERVERS = [f"legacy:{ALL}", "legacy:2025-06-18", "legacy:2024-11-05",
           f"dual:2026-07-28,{ALL}", "dual:2026-07-28,2025-11-25"]


@pytest.mark.parametrize("spec", SERVERS)
@pytest.mark.parametrize("thorough", [False, True], ids=["default", "thorough"])
def test_an_unanswered_ping_is_an_error_with_its_fix(spec: str, thorough: bool) -> None:
    report = probe(target(spec, "ping"), ProbeOptions(thorough=thorough))
    found = [f for _, f in report.findings() if f.code == "ping-unanswered"]
    assert found and {f.severity for f in found} == {"error"}
    first = next(g for g in advise(report) if g.revision is None)
    assert any(i.title.startswith("ping-unanswered:") for i in first.items)
    card = render(report, "terminal")
    assert any(line.strip().startswith("error   ping-unanswered") for line in card.splitlines())


def test_the_table_gives_ping_unanswered_the_severity_of_a_must() -> None:
    info = FINDINGS["ping-unanswered"]
    assert info.severities == ("error",) and "MUST respond promptly" in info.rule

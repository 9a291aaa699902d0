"""A server that exits mid-conversation is probed twice, and its census row says what both
probes saw (census/_again.py): the first probe's row when they agree; else a row that says
it varies, naming both observations, the same whichever probe came first.

Two rows of the census of 22 real packages changed from run to run (notion-mcp-server and
playwright-mcp: their Node process died a few seconds after its start, cutting short
whichever exchange was in flight); the census's address-space bound was the cause there
(census/_limits.py), but a server can die so of its own accord, and its row must then not
flip from one verdict to another."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from mcp_skew.census._again import died_midway, settle

ALL_OK = {"2024-11-05": True, "2025-03-26": True, "2025-06-18": True, "2025-11-25": True}
PEER = "legacy:2025-11-25,2025-06-18,2025-03-26,2024-11-05+lenient"
SHAPED = "tools/list got a result without resultType (legacy-shaped)"


def row(legacy: dict[str, bool], *, peer: str | None = PEER, sentence: str = "behaves like it",
        modern_reason: str = SHAPED, starts: int = 4, probe_ms: int = 5000) -> dict[str, Any]:
    return {"key": "io.example/x@1#package0", "status": "probed", "peer": peer,
            "sentence": sentence, "server_info": {"name": "X", "version": "1"},
            "readiness": {"modern": False, "modern_reason": modern_reason,
                          "dual": all(legacy.values()), "dual_mark": "era-fallback"
                          if all(legacy.values()) else "failed",
                          "dual_fallback_ms": 800 if all(legacy.values()) else None,
                          "legacy": legacy, "legacy_any": all(legacy.values())},
            "probe_ms": probe_ms, "start_ms": 1200,
            "report": json.dumps({"starts": starts, "peer": {"spec": peer}})}


def test_two_probes_that_agree_give_the_first_row_with_both_reports() -> None:
    first, second = row(ALL_OK), row(ALL_OK, probe_ms=6000)
    second["readiness"]["dual_fallback_ms"] = 950  # a time: not part of the verdict
    got = settle(first, second)
    assert {k: v for k, v in got.items() if k not in ("report", "probe_ms")} == \
        {k: v for k, v in first.items() if k not in ("report", "probe_ms")}
    assert got["probe_ms"] == 11000
    report = json.loads(got["report"])
    assert report["starts"] == 8 and report["again"] == json.loads(second["report"])


def test_two_probes_that_disagree_give_a_row_that_says_it_varies_naming_both() -> None:
    cut = {**ALL_OK, "2025-11-25": False, "2024-11-05": False}
    ok, short = row(ALL_OK), row(cut, peer=PEER.removesuffix("+lenient"), sentence="other")
    got = settle(ok, short)
    ready = got["readiness"]
    assert got["status"] == "probed" and got["peer"] is None
    assert ready["legacy"] == {**ALL_OK, "2025-11-25": False, "2024-11-05": False}
    assert ready["dual"] is False and ready["legacy_any"] is False
    assert ready["varies"]["legacy 2025-11-25"] in ([True, False], [False, True])
    assert sorted(ready["varies"]["peer"]) == sorted([PEER, PEER.removesuffix("+lenient")])
    assert "legacy 2025-06-18" not in ready["varies"]  # both saw it ready
    assert got["sentence"].startswith("varies from one probe to the next")
    assert "behaves like it" in got["sentence"] and "other" in got["sentence"]
    # the same row whichever probe came first (but the detail: the first probe's report)
    again = settle(short, ok)
    assert {k: v for k, v in again.items() if k != "report"} == \
        {k: v for k, v in got.items() if k != "report"}


def test_a_peer_both_probes_saw_is_kept_when_only_readiness_differs() -> None:
    got = settle(row(ALL_OK), row({**ALL_OK, "2024-11-05": False}))
    assert got["peer"] == PEER
    assert list(got["readiness"]["varies"]) == ["dual", "legacy_any", "legacy 2024-11-05",
                                                "dual_mark"]


def run(*, real: bool = True, how: str | None = None, silent: bool = False) -> Any:
    culprit = None if how is None else SimpleNamespace(how=how, silent_before=silent)
    return SimpleNamespace(real=real, culprit=culprit)


def test_only_a_real_server_that_exited_after_answering_is_probed_again() -> None:
    def midway(*runs: Any) -> bool:
        return died_midway(SimpleNamespace(runs=list(runs)))

    assert midway(run(), run(how="exited"))
    assert not midway(run(), run())
    assert not midway(run(how="exited", silent=True))  # never answered: a failed start
    assert not midway(run(how="stopped answering"))  # silent: waited for, not an exit
    assert not midway(run(real=False, how="exited"))  # predicted: nothing was sent


def test_a_second_probe_that_did_not_start_leaves_the_first_row() -> None:
    # a start that failed or timed out at a busy moment says nothing of how the server
    # answers: the row stays the first probe's (and stays one --retry-failed leaves alone)
    first = row(ALL_OK)
    for status in ("start-failed", "start-timeout", "error"):
        second = {**row({}, peer=None, sentence=""), "status": status,
                  "readiness": None, "report": json.dumps({"starts": 2})}
        got = settle(first, second)
        assert {k: v for k, v in got.items() if k not in ("report", "probe_ms")} == \
            {k: v for k, v in first.items() if k not in ("report", "probe_ms")}
        assert json.loads(got["report"])["starts"] == 6


def test_the_varies_sentence_names_no_order_it_did_not_keep() -> None:
    got = settle(row(ALL_OK), row({**ALL_OK, "2024-11-05": False}, sentence="other"))
    assert "one probe: " in got["sentence"] and "; the other: " in got["sentence"]
    assert "then" not in got["sentence"]

"""The negotiation rules (``mcp_skew.simulator.negotiation``) on plain values.

Each rule is a pure function: a table of (input, expected) tuples is the whole test,
and the simulated client, the annotation of recorded logs and the probe call the
same functions.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_skew.simulator import negotiation
from mcp_skew.versions import REGISTRY, Era

MODERN = REGISTRY.get("2026-07-28")
LEGACY = REGISTRY.get("2025-11-25")
MINE = ("2026-07-28", "2026-01-01")  # a chooser's revisions, newest (preferred) first


@pytest.mark.parametrize(("mine", "theirs", "both", "chosen"), [
    (MINE, ["2026-07-28"], ["2026-07-28"], "2026-07-28"),
    (MINE, ["2026-01-01", "2026-07-28"], ["2026-07-28", "2026-01-01"], "2026-07-28"),  # my order
    (MINE, ["2026-01-01"], ["2026-01-01"], "2026-01-01"),
    (MINE, ["2025-11-25"], [], None),
    (MINE, [], [], None),
    ((), ["2026-07-28"], [], None),
])
def test_common_and_choose_version(mine: tuple[str, ...], theirs: list[str], both: list[str],
                                   chosen: str | None) -> None:
    assert negotiation.common(mine, theirs) == both
    assert negotiation.choose_version(mine, theirs) == chosen


@pytest.mark.parametrize(("flags", "mark"), [
    ((False, True, True, True, True), "failed"),
    ((True, True, True, True, True), "era-fallback"),
    ((True, False, True, True, True), "re-probe"),
    ((True, False, False, True, True), "retry-32022"),
    ((True, False, False, False, True), "downgraded"),
    ((True, False, False, False, False), "direct"),
])
def test_mark_takes_the_first_thing_that_happened(flags: tuple[bool, ...], mark: str) -> None:
    ok, fell_back, reprobed, retried, downgraded = flags
    assert negotiation.mark(ok, fell_back=fell_back, reprobed=reprobed, retried=retried,
                            downgraded=downgraded) == mark


def _error(code: int, data: Any) -> dict[str, Any]:
    return {"code": code, "message": "Unsupported protocol version", "data": data}


@pytest.mark.parametrize(("code", "error", "retry"), [
    (-32022, _error(-32022, {"supported": ["2026-01-01"]}), "2026-01-01"),
    (-32022, _error(-32022, {"supported": ["2026-01-01", "2026-07-28"]}), "2026-07-28"),
    (-32022, _error(-32022, {"supported": ["2025-11-25"]}), None),  # nothing in common
    (-32022, _error(-32022, {"supported": "2026-01-01"}), None),  # not a list
    (-32022, _error(-32022, None), None),
    (-32022, None, None),
    (-32602, _error(-32602, {"supported": ["2026-01-01"]}), None),  # another error
])
def test_retry_revision(code: int, error: Any, retry: str | None) -> None:
    assert negotiation.retry_revision(MODERN, MINE, code, error) == retry


def test_a_profile_without_the_error_never_retries() -> None:
    assert negotiation.unsupported_code(LEGACY) is None
    assert negotiation.retry_revision(LEGACY, MINE, -32022,
                                      _error(-32022, {"supported": ["2026-01-01"]})) is None


def test_modern_codes_come_from_the_profile() -> None:
    named = MODERN.names("modern_error_codes")
    codes = {MODERN.error(n).code for n in named}
    assert negotiation.modern_codes(MODERN) == codes and -32022 in codes
    assert negotiation.modern_codes(LEGACY) == frozenset()
    for code, modern in ((-32022, True), (-32601, False), (-32602, False), (None, False)):
        assert negotiation.is_modern_error(MODERN, code) is (modern and code in codes)
    union = set().union(*(negotiation.modern_codes(REGISTRY.get(r))
                          for r in REGISTRY.of_era(Era.MODERN)))
    assert negotiation.modern_codes_of(REGISTRY) == union
    assert negotiation.unsupported_codes_of(REGISTRY) == {-32022}


@pytest.mark.parametrize(("error", "supported"), [
    ({"data": {"supported": ["a"]}}, ["a"]),
    ({"data": {"supported": "a"}}, None),
    ({"data": []}, None),
    ({}, None),
    ("not an object", None),
])
def test_supported_of(error: Any, supported: list[str] | None) -> None:
    assert negotiation.supported_of(error) == supported


@pytest.mark.parametrize(("asked", "reject", "answer"), [
    ("2025-06-18", False, "2025-06-18"),  # the one asked, when supported
    ("2024-11-05", False, "2025-11-25"),  # else the server's latest
    ("1999-01-01", True, None),  # a server that refuses instead
    (None, False, "2025-11-25"),
])
def test_answer_version(asked: Any, reject: bool, answer: str | None) -> None:
    supported = ("2025-11-25", "2025-06-18")
    assert negotiation.answer_version(asked, supported, reject=reject) == answer


def _refused(code: int, supported: Any) -> dict[str, Any]:
    return {"code": code, "message": "refused", "data": {"supported": supported}}


UNSUPPORTED = MODERN.error("UnsupportedProtocolVersion").code
#: (code, data.supported, first, denylist, what the client does)
REFUSALS = [
    (UNSUPPORTED, ["2026-01-01"], True, False, ("retry", "2026-01-01")),
    (UNSUPPORTED, ["2026-01-01"], False, False, ("fail", None)),  # once only
    (UNSUPPORTED, ["2026-07-28"], True, False, ("fail", None)),  # the same revision: no retry
    (UNSUPPORTED, ["2025-11-25"], True, False, ("fail", None)),  # nothing in common
    (UNSUPPORTED, None, True, False, ("fail", None)),
    (UNSUPPORTED, ["2026-07-28"], True, True, ("retry", "2026-07-28")),  # denylist: even same
    (UNSUPPORTED, ["2026-07-28"], False, True, ("fail", None)),
    (UNSUPPORTED, ["2025-11-25"], True, True, ("fall back", None)),  # names a legacy one
    (UNSUPPORTED, "2025-11-25", True, True, ("fall back", None)),  # not a list
    (UNSUPPORTED, ["2099-01-01"], True, True, ("fail", None)),  # stays modern
    (-32021, ["2026-07-28"], True, True, ("fall back", None)),  # denylist: not -32022
]


@pytest.mark.parametrize(("code", "supported", "first", "denylist", "does"), REFUSALS)
def test_after_modern_error(code: int, supported: Any, first: bool, denylist: bool,
                            does: tuple[str, str | None]) -> None:
    assert negotiation.after_modern_error(
        MODERN, MINE, "2026-07-28", code, _refused(code, supported), first=first,
        denylist=denylist, legacy=("2025-11-25",)) == does


#: An error a server wrote, not one the spec shapes: ``data`` (or ``data.supported``) of
#: any JSON type names nothing (a list or a number as ``data`` raised AttributeError).
MALFORMED_ERRORS: list[Any] = [
    {"code": UNSUPPORTED, "message": "refused", "data": ["2026-01-01"]},
    {"code": UNSUPPORTED, "message": "refused", "data": 7},
    {"code": UNSUPPORTED, "message": "refused", "data": "2026-01-01"},
    {"code": UNSUPPORTED, "message": "refused", "data": {"supported": 7}},
    {"code": UNSUPPORTED, "message": "refused", "data": {"supported": {"2026-01-01": 1}}},
    ["not", "an", "object"],
    None,
]


@pytest.mark.parametrize("error", MALFORMED_ERRORS)
@pytest.mark.parametrize("denylist", [False, True])
def test_a_malformed_refusal_names_nothing(error: Any, denylist: bool) -> None:
    action, again = negotiation.after_modern_error(
        MODERN, MINE, "2026-07-28", UNSUPPORTED, error, first=True, denylist=denylist,
        legacy=("2025-11-25",))
    assert again is None
    assert action == ("fall back" if denylist else "fail")
    assert negotiation.supported_of(error) is None

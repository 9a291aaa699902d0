"""Path steps are typed: every step a run records carries its kind and fields, and reads as text.

The text is what a person (and the golden docs) read; the fields are what code
reasons with. Both must say the same thing, for every step any run can record.
"""

from __future__ import annotations

import copy
import json
import pickle
import re

from _strategies import peers
from hypothesis import given, settings

from mcp_skew.simulator import PeerSpec, parse_peer, run
from mcp_skew.simulator._path import PathStep
from mcp_skew.simulator._path import timeout as timeout_step

#: What the text of each kind looks like, with the fields it names.
SHAPES = {
    "request": re.compile(r"(?P<method>\S+) (?P<revision>\S+)"),
    "result": re.compile(r"result"),
    "error": re.compile(r"error (?P<code>-?\d+|None)"),
    "timeout": re.compile(r"timeout after (?P<ms>\d+) ms"),
    "exited": re.compile(r"server exited"),
    "counter-offer": re.compile(r"counter-offer (?P<revision>\S+)"),
    "disconnect": re.compile(r"disconnect"),
    "retry": re.compile(r"retry (?P<revision>\S+)"),
    "choose": re.compile(r"choose (?P<revision>\S+)"),
    "restart": re.compile(r"restart"),
    "re-probe": re.compile(r"re-probe"),
    "accepted": re.compile(r"accepted (?P<revision>\S+)"),
    "served-legacy": re.compile(r"served under legacy rules"),
    # a DiscoverResult that names no modern revision the client has (path_steps.legacy_advert),
    # one that lacks fields the schema requires (path_steps.incomplete), or a result whose
    # output is in fields the client's revision does not define (path_steps.result_shape)
    "note": re.compile(r"no modern revision offered: fall back"
                       r"|incomplete result \(no [a-zA-Z, ]+\)(: fall back)?"
                       r"|(?P<note_method>\S+): result shape [a-zA-Z, ]+"),
}


def _agrees(step: PathStep) -> str | None:
    """Why ``step``'s text and fields disagree, or None."""
    shape = SHAPES.get(step.kind)
    if shape is None:
        return f"{step!r}: kind {step.kind!r} is never recorded by a simulated run"
    found = shape.fullmatch(step)
    if found is None:
        return f"{step!r} does not read as a {step.kind} step"
    fields = found.groupdict()
    if "revision" in fields and fields["revision"] != step.revision:
        return f"{step!r}: revision field {step.revision!r}"
    if "ms" in fields and int(fields["ms"]) != step.ms:
        return f"{step!r}: ms field {step.ms!r}"
    if "code" in fields and fields["code"] != str(step.code):
        return f"{step!r}: code field {step.code!r}"
    if step.kind == "request" and fields["method"] not in (step.method, "discover"):
        return f"{step!r}: method field {step.method!r}"
    if fields.get("note_method") is not None and fields["note_method"] != step.method:
        return f"{step!r}: method field {step.method!r}"
    return None


@settings(max_examples=150, deadline=None)
@given(peers("client"), peers("server"))
def test_every_recorded_step_is_typed_and_says_what_its_text_says(client: PeerSpec,
                                                                   server: PeerSpec) -> None:
    path = run(client, server).session.path
    assert all(type(step) is PathStep for step in path), [type(s).__name__ for s in path]
    problems = [why for step in path if (why := _agrees(step)) is not None]
    assert not problems, problems


def test_a_legacy_advertisement_is_a_note_step_of_its_shape() -> None:
    """Found by the property above: a discover-fallback client reads a DiscoverResult that
    lists only legacy revisions as a legacy advertisement, a step of kind ``note``."""
    path = run(parse_peer("dual:2026-07-28,2025-11-25+discover-fallback", "client"),
               parse_peer("dual:2026-07-28,2025-11-25+discover-legacy", "server")).session.path
    assert [step.kind for step in path] == ["request", "note", "request", "accepted"]
    assert [_agrees(step) for step in path] == [None] * 4


def test_an_incomplete_discover_result_is_a_note_step_of_its_shape() -> None:
    """Found by the property above: a strict-discover client refuses a DiscoverResult that
    lacks its capabilities (a ``note`` step) and falls back to ``initialize``."""
    path = run(parse_peer("dual:2026-07-28,2024-11-05+auth-fallback+strict-discover", "client"),
               parse_peer("modern:2026-07-28+discover-incomplete", "server")).session.path
    notes = [step for step in path if step.kind == "note"]
    assert notes == ["incomplete result (no capabilities): fall back"]
    assert [_agrees(step) for step in path] == [None] * len(path)


def test_a_fallback_path_reads_the_same_and_carries_its_fields() -> None:
    record = run(parse_peer("dual:2026-07-28,2025-11-25", "client"),
                 parse_peer("legacy:2025-11-25+silent", "server"), "handshake")
    path = record.session.path
    assert path == ["discover 2026-07-28", "timeout after 3000 ms", "initialize 2025-11-25",
                    "accepted 2025-11-25"]
    assert [s.kind for s in path] == ["request", "timeout", "request", "accepted"]
    assert (path[0].method, path[0].revision) == ("server/discover", "2026-07-28")
    assert path[1].ms == 3000 and path[3].revision == "2025-11-25"
    assert record.to_dict()["path"] == list(path)  # the JSON is the text


def test_a_step_survives_copy_pickle_and_json() -> None:
    step = timeout_step(3000)
    for again in (copy.deepcopy(step), pickle.loads(pickle.dumps(step))):
        assert again == step and again.kind == "timeout" and again.ms == 3000
    assert json.loads(json.dumps([step])) == ["timeout after 3000 ms"]

"""Documents a command reads back (profiles, ``matrix --from``, ``@FILE`` peers), issue 33:
a lone surrogate anywhere in one, or a value of the wrong type in a matrix document of any
format version, is one clear line and exit code 2 in every command, format and view, never
a traceback in whichever renderer first reads it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from _fuzz import check_outcome, run_cli
from _fuzz_inputs import FULL_PROFILE, MATRIX_FORMATS, MATRIX_VIEWS, matrix_v2

from mcp_skew import _jsontext

REV = FULL_PROFILE["revision"]


# -- lone surrogates ---------------------------------------------------------------------------

def _profile_with(path: tuple[Any, ...], key: bool = False) -> dict[str, Any]:
    doc = copy.deepcopy(FULL_PROFILE)
    parent: Any = doc
    for part in path[:-1]:
        parent = parent[part]
    if key:
        parent[path[-1] + "\ud800"] = parent.pop(path[-1])
    else:
        parent[path[-1]] += "\ud800"
    return doc


#: Places where a lone surrogate reached a report before (found by hand, issue 33).
SURROGATE_PLACES = [
    (("changes", 1, "summary"), False),
    (("changes", 1, "cite", "source"), False),
    (("changes", 0, "steps", 0), False),
    (("changes", 0, "severity", "server", "rule"), False),
    (("changes", 0, "add", "deprecations", "X old", "migration"), False),
    (("changes", 1, "replace", "errors", "InternalError", "message"), False),
]


@pytest.mark.parametrize(("place", "key"), SURROGATE_PLACES)
@pytest.mark.parametrize("command", [["versions"], ["show", REV],
                                     ["migrate", "2026-07-28", REV], ["diff", "2026-07-28", REV]])
def test_a_lone_surrogate_in_a_json_profile_is_refused_at_load(
        tmp_path: Path, place: tuple[Any, ...], key: bool, command: list[str]) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(_profile_with(place, key)), encoding="utf-8")
    argv = ["--profile", str(path), *command]
    code, _, err = run_cli(argv)
    check_outcome(argv, (code, "", err))
    assert code == 2
    assert err.startswith(f"mcp-skew: error: {path}: ") and "lone surrogate" in err, err


def test_a_surrogate_pair_is_text_and_loads(tmp_path: Path) -> None:
    doc = copy.deepcopy(FULL_PROFILE)
    doc["title"] = "draft \U0001f600"  # json.dumps writes it as a pair of escapes
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = run_cli(["--profile", str(path), "show", REV])
    assert code == 0, err
    assert "\U0001f600" in out


def test_a_lone_surrogate_in_a_peer_file_and_a_matrix_document_is_refused(
        tmp_path: Path) -> None:
    peer = tmp_path / "peer.json"
    peer.write_text(json.dumps({"format": "mcp-skew-probe-peer/1", "peer": "legacy:2025-06-18",
                                "label": "a\udc80", "role": "server"}), encoding="utf-8")
    code, _, err = run_cli(["simulate", "--client", "legacy:2025-06-18", "--server", f"@{peer}"])
    assert code == 2 and "label: a string holds a lone surrogate" in err, err
    _, out, _ = run_cli(["matrix", "--clients", "legacy:2025-06-18", "--servers",
                         "legacy:2025-06-18", "--format", "json"])
    doc = json.loads(out)
    doc["clients"][0]["label"] = "\ud800"
    source = tmp_path / "m.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run_cli(["matrix", "--from", str(source)])
    assert code == 2 and "clients[0].label: a string holds a lone surrogate" in err, err


def test_lone_surrogates_stay_data_on_the_wire_and_are_refused_in_documents() -> None:
    assert _jsontext.loads('"\\ud800"') == "\ud800"
    assert _jsontext.loads('"\\ud800"', _jsontext.FILE) == "\ud800"
    assert _jsontext.loads('{"a": ["\\ud83d\\ude00"]}', _jsontext.DOCUMENT) == {"a": ["😀"]}
    with pytest.raises(_jsontext.JsonTextError, match=r"a\[1\]: .*U\+DFFF"):
        _jsontext.loads('{"a": ["x", "\\udfff"]}', _jsontext.DOCUMENT)
    with pytest.raises(_jsontext.JsonTextError, match=r"\(the key\)"):
        _jsontext.loads(b'{"\xff": 1}', _jsontext.DOCUMENT)  # not UTF-8: read as a surrogate


# -- matrix --from: wrong types in every format version, format and view ------------------------

@pytest.fixture(scope="module")
def matrix_doc() -> dict[str, Any]:
    code, out, _ = run_cli(["matrix", "--clients", "legacy:2025-06-18", "dual:2026-07-28,2025-11-25",
                            "--servers", "dual:2026-07-28,2025-11-25", "--format", "json"])
    assert code == 0
    doc: dict[str, Any] = json.loads(out)
    return doc


def _broken(doc: dict[str, Any], change: str) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    cell = doc["cells"][0][0]
    if change == "events-int":  # version 2: 'int' object is not iterable (junit, features)
        doc = matrix_v2(doc)
        doc["cells"][0][0]["events"] = 5
    elif change == "transcript-float":
        doc = matrix_v2(doc)
        doc["cells"][0][0]["transcript"] = 1.5
    elif change == "t_ms-text":  # version 2: TranscriptError
        doc = matrix_v2(doc)
        doc["cells"][0][0]["transcript"][0]["t_ms"] = "x"
    elif change == "dir-object":  # version 2: unhashable type: 'dict' in the HTML report
        doc = matrix_v2(doc)
        doc["cells"][0][0]["transcript"][0]["dir"] = {"a": 1}
    elif change == "finding-code":
        cell["findings"] = [{"code": ["x"], "severity": "error", "message": "m"}]
    elif change == "label-long":
        doc["clients"][0]["label"] = "x" * 5000
    elif change == "seconds-text":
        cell["real"] = {"ran": True, "agrees": True, "seconds": "1"}
    return doc


@pytest.mark.parametrize("change", ["events-int", "transcript-float", "t_ms-text", "dir-object",
                                    "finding-code", "label-long", "seconds-text"])
@pytest.mark.parametrize("fmt", MATRIX_FORMATS)
@pytest.mark.parametrize("view", MATRIX_VIEWS)
def test_a_wrong_typed_matrix_document_is_one_line_in_every_format_and_view(
        tmp_path: Path, matrix_doc: dict[str, Any], change: str, fmt: str, view: str) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(_broken(matrix_doc, change)), encoding="utf-8")
    argv = ["matrix", "--from", str(path), "--format", fmt, "--view", view]
    code, _, err = run_cli(argv)
    check_outcome(argv, (code, "", err))
    assert code == 2 and "not a valid matrix document: " in err, err


@pytest.mark.parametrize("fmt", MATRIX_FORMATS)
def test_a_version_2_document_still_reads(tmp_path: Path, matrix_doc: dict[str, Any],
                                          fmt: str) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(matrix_v2(matrix_doc)), encoding="utf-8")
    code, _, err = run_cli(["matrix", "--from", str(path), "--format", fmt])
    assert code == 0, err

"""A listing entry holding a string that is not text (a lone surrogate, which a JSON escape
such as ``"\\ud800"`` carries; issue 33: it crashed ``census``, and under ``--cluster`` the
well-formed row next to it was stored as ``error``): the entry is set aside with one line
naming the file, the entry and the field, and the others are read as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.census._listing import ListingError, read_listing


def _server(name: str, version: str = "1.0.0", **more: Any) -> dict[str, Any]:
    return {"name": name, "version": version, "packages": [{
        "registryType": "local", "identifier": "sim_stdio_server.py", "version": version,
        "transport": {"type": "stdio"},
        "packageArguments": [{"type": "positional", "value": "legacy:2025-06-18"}]}], **more}


#: (what, the bad server.json, the field the line names)
BAD = [
    ("name", _server("io.x/bad\ud800"), "name"),
    ("version", _server("io.x/bad", "1.\udfff"), "version"),
    ("argument", {**_server("io.x/bad"), "packages": [{
        **_server("io.x/bad")["packages"][0], "packageArguments": [
            {"type": "positional", "value": "\ud83d"}]}]}, "packages[0].packageArguments[0].value"),
    ("key", _server("io.x/bad", **{"x\udc80": 1}), "a key of the entry"),
]


def _listing(tmp_path: Path, bad: dict[str, Any], suffix: str) -> Path:
    good = _server("io.x/good")
    path = tmp_path / f"listing{suffix}"
    if suffix == ".jsonl":  # json.dumps escapes the surrogate: the file is UTF-8
        path.write_text(f"{json.dumps(bad)}\n{json.dumps(good)}\n", encoding="utf-8")
    else:
        path.write_text(json.dumps({"servers": [{"server": bad}, {"server": good}]}),
                        encoding="utf-8")
    return path


@pytest.mark.parametrize(("bad", "field"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_an_entry_that_is_not_text_is_set_aside_and_the_others_read(
        tmp_path: Path, bad: dict[str, Any], field: str, suffix: str) -> None:
    path = _listing(tmp_path, bad, suffix)
    invalid: list[str] = []
    jobs = read_listing([str(path)], invalid)
    assert [job.key for job in jobs] == ["io.x/good@1.0.0#package0"]
    where = f"{path}:1" if suffix == ".jsonl" else f"{path} entry 0"
    assert invalid == [f"{where}: {field} is not text (a lone surrogate, \\ud800 to \\udfff); "
                       "this entry is not probed"]
    for line in invalid:
        line.encode("utf-8")  # the line itself is text
    with pytest.raises(ListingError, match="is not text"):
        read_listing([str(path)])  # a caller that takes no line: refused whole

"""``{server}`` inside a longer word of the client's (``sh -c 'client --cmd "{server}"'``):
nothing taken from a file name (``--record DIR``, a saved peer's ``@FILE``) reaches the
client's shell as syntax, however the client quotes the word (issue 33: a ``$(...)`` in
``--record DIR`` ran inside a double-quoted ``{server}``). The words go in as they are when
none needs quoting, else as the path of a launcher script that runs them."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from mcp_skew.probe_client._launch import expand, in_word, server_words

#: what no shell takes as syntax, in quotes or out of them
PLAIN = re.compile(r"[A-Za-z0-9_@%+=:,./ -]+")
HOSTILE = ["rec $(touch pwned)", "rec `touch pwned`", "rec'; touch pwned; '", 'rec"x', "r\\x",
           "rec\ntouch pwned", "rec *", "rec !1"]


@pytest.mark.parametrize("folder", HOSTILE)
@pytest.mark.parametrize("shape", ["--cmd={server}", "{server} --x", "'{server}'",
                                   '"{server}"'])
def test_a_hostile_path_never_reaches_the_word_and_the_launcher_runs_the_words(
        tmp_path: Path, folder: str, shape: str) -> None:
    log = tmp_path / folder / "01.jsonl"
    words = server_words("@" + str(tmp_path / folder / "peer.json"), log,
                         tmp_path / folder / "01.spawned")
    argv = ["sh", "-c", f"client {shape}"]
    with in_word(argv, words) as inside:
        (script,) = inside
        assert PLAIN.fullmatch(script), script
        assert expand(argv, words, "", inside) == ["sh", "-c", f"client {shape}".replace(
            "{server}", script)]
        text = Path(script).read_text(encoding="utf-8")
        assert text.startswith("#!/bin/sh\nexec ")
        assert shlex.split(text.removeprefix("#!/bin/sh\nexec ")) == [*words, "$@"]
    assert not Path(script).exists()  # removed with its folder after the run


def test_plain_words_go_in_as_they_are() -> None:
    words = ["python", "-m", "mcp_skew._stamp", "/tmp/x/01.spawned", "serve",
             "legacy:2025-11-25+slow=400", "--record", "/tmp/x/01.jsonl", "-q"]
    with in_word(["client", "--command={server}"], words) as inside:
        assert inside == words
        assert expand(["client", "--command={server}"], words, "", inside) == [
            "client", "--command=" + " ".join(words)]


def test_a_word_of_its_own_is_the_words_themselves() -> None:
    words = ["python", "/tmp/a b/$(x)"]
    with in_word(["client", "--", "{server}"], words) as inside:
        assert inside == words  # no word holds it inside: no launcher
        assert expand(["client", "--", "{server}"], words, "", inside) == ["client", "--",
                                                                          *words]

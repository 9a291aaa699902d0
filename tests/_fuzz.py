"""Inputs a hostile user gives mcp-skew, as Hypothesis strategies, and one in-process runner.

Shared by ``tests/property/test_fuzz_cli.py`` (a modest run in the default suite) and
``benchmarks/fuzz_corpus.py`` (thousands of inputs). Every strategy draws text that a
person could type or a file could hold: valid pieces, near misses and junk mixed, so that
both the checks and the code behind them are reached.

:func:`run_cli` runs ``mcp_skew.cli.main`` in this process with standard input, output and
error replaced, and returns ``(exit code, stdout, stderr)``. An exception escaping ``main``
is what a user would see as a traceback: it is *not* caught here, so the caller sees it.
:func:`check_outcome` asserts what every command promises: no traceback, a documented exit
code, and on exit code 2 one error line.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from mcp_skew.cli import main
from mcp_skew.peers import named_peer_names
from mcp_skew.simulator.quirks._table import QUIRKS
from mcp_skew.versions import REGISTRY

REVISIONS = [p.revision for p in REGISTRY]
KINDS = ["legacy", "modern", "dual"]
QUIRK_NAMES = sorted(QUIRKS)
#: Named peers as they are typed (``py-mcp@2.0`` and ``py-mcp@2.0:legacy``).
NAMED = sorted({
    base + (f":{mode}" if mode else "")
    for name in named_peer_names()
    for base, _, rest in [name.partition("[")]
    for mode in ["", *rest.strip(":]").split("|")] if rest or not mode
})

#: Text that is almost a number, or is one beyond every range.
JUNK_NUMBERS = [
    "", " ", "0", "-0", "-1", "1", "2", "5", "0.5", "0.0001", "1e3", "1e400", "nan", "NaN",
    "inf", "-inf", "Infinity", "0x10", "1_000", "1,000", " 5", "5 ", "+5", "²", "١٢", "５",
    "99999999999999999999", "9" * 5000, "1." + "0" * 400, "65535", "65536", "100000",
    "100001", "86400", "86401", "2147483648", "\x00", "5\n", "\ud800",
]
JUNK_TEXT = ["", ":", "+", "=", ",", "@", "*", "\x1b]0;t\x07", "\ud800", "\u202e", "é", "\x00",
             "legacy:", ":2025-06-18", "legacy:2025-06-18,", "+slow=", "a" * 300]


def number() -> st.SearchStrategy[str]:
    """A number as typed: in range, out of range, or not a number."""
    junk = st.sampled_from(JUNK_NUMBERS)
    return st.one_of(
        junk, junk, junk,  # the near misses most often
        st.integers(-10, 200_000).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.text(alphabet="0123456789.-+e_ ", max_size=12),
        st.text(max_size=8),
    )


def quirk(role: str | None = None) -> st.SearchStrategy[str]:
    """``+NAME`` or ``+NAME=VALUE``, with a value of any kind (or an unknown name)."""
    names = [q for q in QUIRK_NAMES if role is None or QUIRKS[q].role == role]
    name = st.one_of(st.sampled_from(names), st.sampled_from(JUNK_TEXT), st.text(max_size=6))
    value = st.one_of(st.none(), number(), st.sampled_from(REVISIONS), st.text(max_size=10))
    return st.builds(lambda n, v: f"+{n}" if v is None else f"+{n}={v}", name, value)


@st.composite
def peer_spec(draw: st.DrawFn, role: str | None = None) -> str:
    """A peer spec: ``KIND:REV,...+QUIRK``, ``REV``, a named peer, or junk."""
    head = draw(st.one_of(
        st.builds(lambda k, r: f"{k}:{','.join(r)}",
                  st.sampled_from([*KINDS, "legacyy", "", "LEGACY"]),
                  st.lists(st.one_of(st.sampled_from(REVISIONS),
                                     st.sampled_from(["2025-13-01", "", "latest", "2024-11-5"])),
                           max_size=4)),
        st.sampled_from(REVISIONS),
        st.sampled_from(NAMED),
        st.sampled_from(JUNK_TEXT),
        st.text(max_size=20),
    ))
    quirks = draw(st.lists(quirk(role), max_size=3))
    return head + "".join(quirks)


def junk_json(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Any JSON value, small."""
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                        st.text(max_size=12))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
        max_leaves=max_leaves)


#: the Hypothesis profile that draws more (``python -m pytest --hypothesis-profile thorough``)
THOROUGH = "thorough"


def examples(fast: int) -> int:
    """How many examples a fuzz test draws: ``fast`` in the default run (the whole default
    run takes about two minutes), ten times as many under the ``thorough`` profile."""
    return fast * 10 if settings.get_current_profile_name() == THOROUGH else fast


def deep(depth: int, open_: str = "[", close: str = "]") -> str:
    return open_ * depth + close * depth


@st.composite
def file_text(draw: st.DrawFn, valid: Sequence[str] = ()) -> str:
    """The text of a file: a valid document, junk JSON, deep nesting, bytes that are no JSON."""
    return draw(st.one_of(
        st.sampled_from(list(valid)) if valid else st.nothing(),
        junk_json().map(json.dumps),
        st.integers(1, 4).map(lambda n: deep(10 ** n)),
        st.integers(1, 4).map(lambda n: deep(10 ** n, '{"a":', "}").replace("}", "", 1) + "1}"),
        st.sampled_from(["", "{", "nul", "NaN", "[1e400]", "1" * 5000, "\ufeff{}", '"\\ud800"',
                         "\x1b[2J", "{\"a\": 1, \"a\": 2}"]),
        st.text(max_size=60),
    ))


@st.composite
def peer_file(draw: st.DrawFn, path: Path) -> str:
    """The text of an ``@FILE`` peer: a spec, a saved peer, junk, or a file naming itself."""
    return draw(st.one_of(
        peer_spec("server"),
        st.builds(lambda s: json.dumps({"spec": s}), peer_spec("server")),
        st.builds(lambda s: json.dumps({"notation": s, "kind": "server"}), peer_spec("server")),
        st.just(f"@{path}"),
        st.just(json.dumps({"spec": f"@{path}"})),
        file_text(),
    ))


def mutate(draw: st.DrawFn, value: Any, budget: int = 3) -> Any:
    """``value`` with up to ``budget`` nodes replaced, removed or given junk."""
    for _ in range(draw(st.integers(1, budget))):
        value = _mutate_once(draw, value)
    return value


@st.composite
def mutated(draw: st.DrawFn, value: Any, budget: int = 3) -> Any:
    """:func:`mutate` as a strategy."""
    return mutate(draw, value, budget)


def _mutate_once(draw: st.DrawFn, value: Any) -> Any:
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        action = draw(st.sampled_from(["replace", "drop", "descend", "descend", "descend"]))
        out = dict(value)
        if action == "drop":
            del out[key]
        elif action == "replace":
            out[key] = draw(junk_json(4))
        else:
            out[key] = _mutate_once(draw, value[key])
        return out
    if isinstance(value, list) and value and draw(st.booleans()):
        i = draw(st.integers(0, len(value) - 1))
        out_list = list(value)
        action = draw(st.sampled_from(["replace", "drop", "descend", "descend", "dup"]))
        if action == "drop":
            del out_list[i]
        elif action == "replace":
            out_list[i] = draw(junk_json(4))
        elif action == "dup":
            out_list.append(out_list[i])
        else:
            out_list[i] = _mutate_once(draw, value[i])
        return out_list
    return draw(junk_json(4))


#: Profile documents (``--profile``): a valid one, to mutate.
PROFILE = {
    "revision": "2099-01-01", "extends": "2026-07-28",
    "changes": {"methods": {"add": ["x/ping"]}},
}


@st.composite
def rpc_line(draw: st.DrawFn) -> str:
    """One line to ``serve`` on stdio: a valid request, a mutated one, or junk."""
    method = draw(st.sampled_from(["initialize", "tools/list", "tools/call", "ping",
                                   "server/discover", "resources/read", "notifications/initialized",
                                   "x/unknown", ""]))
    message: Any = {"jsonrpc": "2.0", "id": draw(st.one_of(st.integers(), st.text(max_size=5))),
                    "method": method, "params": {
                        "protocolVersion": draw(st.sampled_from(REVISIONS)),
                        "capabilities": {}, "clientInfo": {"name": "f", "version": "1"},
                        "_meta": {"io.modelcontextprotocol/protocolVersion":
                                  draw(st.sampled_from(REVISIONS))}}}
    if draw(st.booleans()):
        message = mutate(draw, message)
    return draw(st.one_of(
        st.just(json.dumps(message)),
        st.just(json.dumps([message, message])),
        st.just(json.dumps(message, ensure_ascii=False)),
        file_text(),
        st.sampled_from(['{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
                         '{"jsonrpc":"2.0","id":' + "9" * 5000 + ',"method":"ping"}',
                         '{"jsonrpc":"2.0","id":1,"method":7}', "[]", "[1,2]",
                         '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}']),
    ))


def outlives_stdin(spec: str) -> bool:
    """Whether ``serve SPEC`` runs on after its input ends (quirk ``outlives-stdin``, as some
    named peers have it): until a signal, by design, so no input to run in this process."""
    from mcp_skew.errors import UsageError
    from mcp_skew.peers import resolve_peer

    try:
        return bool(resolve_peer(spec, "server", REGISTRY).server_policy.outlives_stdin)
    except (UsageError, ValueError, OSError, RecursionError):
        return False


class _Bytes(io.TextIOWrapper):
    """A text stream over bytes, with ``.buffer``, as ``sys.stdin``/``sys.stdout`` are."""

    def __init__(self, data: bytes = b"") -> None:
        super().__init__(io.BytesIO(data), encoding="utf-8", errors="surrogateescape",
                         write_through=True)

    def bytes(self) -> bytes:
        raw = self.buffer
        assert isinstance(raw, io.BytesIO)
        return raw.getvalue()


def run_cli(argv: Sequence[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """``mcp-skew ARGV`` in this process: (exit code, stdout, stderr). Exceptions propagate."""
    out, err = _Bytes(), io.StringIO()
    saved = sys.stdin
    sys.stdin = _Bytes(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as exc:  # argparse: usage errors and --help
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        sys.stdin = saved
    return code, out.bytes().decode("utf-8", "replace"), err.getvalue()


def recorded_log(log: Path) -> list[str]:
    """The lines ``serve --record LOG`` writes for a short conversation (in this process)."""
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "f", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    stdin = "".join(json.dumps(m) + "\n" for m in lines).encode() + b"junk\n"
    code, _, _ = run_cli(["serve", "legacy:2025-06-18", "--record", str(log)], stdin)
    assert code == 0
    return log.read_text(encoding="utf-8").splitlines()


def check_outcome(argv: Sequence[str], outcome: tuple[int, str, str],
                  codes: frozenset[int] = frozenset({0, 2})) -> None:
    """No traceback, an allowed exit code, and exit code 2 says one error line."""
    code, _, err = outcome
    shown = [a[:80] for a in argv]
    assert "Traceback" not in err, (shown, err[-2000:])
    assert code in codes, (shown, code, err[-500:])
    if code == 2:
        errors = [line for line in err.splitlines() if "error:" in line]
        assert len(errors) == 1, (shown, err[-1000:])

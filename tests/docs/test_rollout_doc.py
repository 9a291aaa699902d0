"""Golden: the rollout examples in docs/rollout.md and README.md are real, current output.

Each example is a block marked ``<!-- rollout-example -->``: a ``text`` fence whose
first line is ``$ mcp-skew rollout ...`` and whose rest is what that command prints.
Regenerate every block with ``.venv/bin/python tests/docs/test_rollout_doc.py``.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
from pathlib import Path

import pytest

from mcp_skew.cli import main
from mcp_skew.rollout._study import FORMAT_VERSION

ROOT = Path(__file__).resolve().parents[2]
PAGES = (ROOT / "docs" / "rollout.md", ROOT / "README.md")
REGENERATE = ".venv/bin/python tests/docs/test_rollout_doc.py"
BLOCK = re.compile(r"(<!-- rollout-example -->\n```text\n)(\$ mcp-skew (.+?)\n)(.*?)(```)", re.S)


def output_of(command: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(shlex.split(command))
    assert code == 0, command
    return out.getvalue()


def regenerate(text: str) -> str:
    return BLOCK.sub(lambda m: m.group(1) + m.group(2) + output_of(m.group(3)) + m.group(5), text)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_examples_are_current(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    blocks = BLOCK.findall(text)
    assert blocks, f"{page.name} has no marked rollout example"
    for _, _, command, shown, _ in blocks:
        assert shown == output_of(command), f"{page.name} is stale: run {REGENERATE}"


def test_the_guide_has_an_example_of_each_part() -> None:
    """Fleets, a rollout, dropping a revision, and --plan: one worked example each."""
    commands = [m[2] for m in BLOCK.findall(PAGES[0].read_text(encoding="utf-8"))]
    assert any("--to" not in c for c in commands)  # a fleet, unchanged
    assert any("--to" in c and "--plan" not in c for c in commands)  # a rollout
    assert any("dropping" in output_of(c) for c in commands)  # can I drop it?
    assert any("--plan" in c for c in commands)


def test_the_guide_documents_the_json_format_and_the_columns() -> None:
    text = PAGES[0].read_text(encoding="utf-8")
    assert f'"format_version": {FORMAT_VERSION}' in text
    for word in ("requests", "ok", "retried", "fell_back", "failed", "failed_by_cause",
                 "extra_round_trips", "cache_hit_rate", "fleet", "changes", "verdict",
                 "lose_service", "already_failing", "dropped", "transcripts"):
        assert f"`{word}`" in text, word
    assert REGENERATE in text


if __name__ == "__main__":
    for page in PAGES:
        page.write_text(regenerate(page.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote {page.relative_to(ROOT)}", file=sys.stderr)

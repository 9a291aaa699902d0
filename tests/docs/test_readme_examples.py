"""Golden: the README's marked command examples are real, current output.

A block marked ``<!-- cli-example -->`` is a fence of one or more commands, each a line
``$ mcp-skew ...`` followed by what that command prints on standard output (run in this
process, as a user runs it). Regenerate every block with
``.venv/bin/python tests/docs/test_readme_examples.py``.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
from pathlib import Path

from mcp_skew.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
REGENERATE = ".venv/bin/python tests/docs/test_readme_examples.py"
BLOCK = re.compile(r"(<!-- cli-example -->\n```[a-z]*\n)(.*?)(```)", re.S)
COMMAND = re.compile(r"^\$ mcp-skew (.+)$", re.M)


def output_of(command: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(shlex.split(command))
    return out.getvalue()


def commands(body: str) -> list[str]:
    return COMMAND.findall(body)


def rendered(body: str) -> str:
    """``body`` with each command's output as the command prints it now."""
    return "".join(f"$ mcp-skew {c}\n{output_of(c)}" for c in commands(body))


def regenerate(text: str) -> str:
    return BLOCK.sub(lambda m: m.group(1) + rendered(m.group(2)) + m.group(3), text)


def test_the_marked_examples_are_current() -> None:
    blocks = BLOCK.findall(README.read_text(encoding="utf-8"))
    assert blocks, "README.md has no marked example"
    for _, body, _ in blocks:
        assert commands(body), f"a marked example with no command: {body[:200]!r}"
        assert body == rendered(body), f"README.md is stale: run {REGENERATE}"


def test_the_authorization_example_is_marked() -> None:
    """Who can authorize against whom: the failure message it shows is the one printed."""
    bodies = [body for _, body, _ in BLOCK.findall(README.read_text(encoding="utf-8"))]
    assert any("--scenario auth" in c for body in bodies for c in commands(body))


if __name__ == "__main__":
    README.write_text(regenerate(README.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {README.relative_to(ROOT)}", file=sys.stderr)

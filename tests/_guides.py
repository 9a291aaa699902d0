"""Reading a rendered migration guide in tests: its change blocks and its sections."""

from __future__ import annotations

import re

__all__ = ["blocks", "section"]


def blocks(markdown: str) -> dict[str, str]:
    """Rule id -> the text of its ``### `id``` block."""
    parts = re.split(r"^### `([^`]+)`.*$", markdown, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1].split("\n## ")[0] for i in range(1, len(parts), 2)}


def section(markdown: str, title: str) -> str:
    """The ``## title`` section, up to the next ``## `` heading."""
    start = markdown.index(f"\n## {title}")
    end = markdown.find("\n## ", start + 1)
    return markdown[start:] if end == -1 else markdown[start:end]

"""Errors shared by every part of mcp-skew."""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(ValueError):
    """Bad input from a user (a peer spec, a revision, a file): one line, exit code 2."""

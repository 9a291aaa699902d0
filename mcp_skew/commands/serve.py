"""``mcp-skew serve PEER``: a simulated server as a real MCP server, on stdio or HTTP.

The command line reads ``--http``'s address (with the parser's default host); the serving is
:func:`mcp_skew.serve.run_serve`'s."""

from __future__ import annotations

import argparse

from .._args import host_port
from .parsers.serve import DEFAULT_HOST

__all__ = ["parse_address"]


def parse_address(text: str) -> tuple[str, int]:
    """``PORT``, ``HOST:PORT`` or ``[V6]:PORT`` -> (host, port); UsageError when malformed."""
    return host_port(text, "--http", DEFAULT_HOST)


def _main(args: argparse.Namespace) -> int:
    # a malformed address is refused before the log is opened; the server (its logs:
    # pydantic) is imported when it runs, not for --help
    address = parse_address(args.http) if args.http is not None else None
    from ..serve import run_serve  # noqa: PLC0415

    return run_serve(args, address)

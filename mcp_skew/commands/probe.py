"""``mcp-skew probe``: every built-in client against a real server, and a report card.

The command's work is :func:`mcp_skew.probe.run_command`'s, in the probe's room. The command
line gives it, for ``--via``, what the probe may not import: the start of a named bridge's
real package in front of the server (:func:`mcp_skew.realpeers.bridge_running`).
"""

from __future__ import annotations

import argparse

__all__: list[str] = []


def _main(args: argparse.Namespace) -> int:
    from ..probe import run_command  # noqa: PLC0415 - the runner loads when a probe runs

    if args.via is None:
        return run_command(args)
    from ..realpeers import bridge_running  # noqa: PLC0415 - a named bridge only

    return run_command(args, bridge_running)

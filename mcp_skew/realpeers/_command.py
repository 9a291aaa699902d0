"""``mcp-skew verify-peer NAME``: check a named peer's model against the real package.

Installs the package the model was measured on in an isolated, cached
environment (``$MCP_SKEW_CACHE``, default ``~/.cache/mcp-skew``), drives it
over stdio, and compares it with the model (see ``mcp_skew.realpeers._drift``).
Exit code 0 when every run agrees, 1 when one differs, 3 when the package
cannot be installed (no registry, no ``npm``), 2 for a bad name. The command's name, help and
arguments are :mod:`mcp_skew.commands.parsers.verify_peer`'s; :func:`run_command` is its
entry point, on the real peers' face.
"""

from __future__ import annotations

import argparse
import json
import sys

from .._args import whole
from ..errors import UsageError
from ..peers import FAMILIES, ROLES, known_names, named_suggestion

__all__ = ["run_command"]

EXIT_DRIFT = 1
EXIT_UNAVAILABLE = 3


def _list() -> str:
    lines = ["Named peers (FAMILY@VERSION[:MODE]; a major alone is its newest line):", ""]
    for family in FAMILIES.values():
        for line in family.lines:
            for role in ROLES:
                for mode, model in line.models(role).items():
                    name = f"{family.name}@{line.first_text}" + (f":{mode}" if mode else "")
                    installs = line.installs.text if line.installs else "-"
                    lines.append(f"  {name:<26} {role:<6} {line.span:<14} {installs}")
                    lines.append(f"  {'':<26} {'':<6} model: {model.notation}")
    return "\n".join(lines)


def run_command(args: argparse.Namespace) -> int:
    if args.list:
        print(_list())
        return 0
    if not args.name:
        raise UsageError("verify-peer: name a peer (known: " + ", ".join(known_names()) + ")")
    from ._verify import verify  # noqa: PLC0415 - heavy only when checking

    def progress(text: str) -> None:
        if not args.json and not args.quiet:
            print(f"  .. {text}", file=sys.stderr, flush=True)

    jobs = whole(args.jobs, "--jobs", 1, 64)
    if args.http:
        from ..peers import resolve  # noqa: PLC0415
        from ._drift import verify_server_http  # noqa: PLC0415

        resolved = resolve(args.name, "server")
        if resolved is None:
            raise UsageError(f"verify-peer: unknown named peer {args.name!r}"
                             f"{named_suggestion(args.name, known_names('server'))}; known: "
                             + ", ".join(known_names("server")))
        if not resolved.model.http_args:
            raise UsageError(f"verify-peer: {args.name} has no Streamable HTTP set-up to check")
        reports = [verify_server_http(resolved, jobs=jobs, progress=progress)]
    else:
        reports = verify(args.name, args.role, jobs=jobs, progress=progress)
    if args.json:
        print(json.dumps([r.to_dict() for r in reports], indent=2))
    else:
        print("\n\n".join(r.render() for r in reports))
    if any(r.unavailable is not None for r in reports):
        return EXIT_UNAVAILABLE
    return 0 if all(r.agrees for r in reports) else EXIT_DRIFT

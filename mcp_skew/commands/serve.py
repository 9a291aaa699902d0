"""``mcp-skew serve PEER``: a simulated server as a real MCP server, on stdio or HTTP."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from .._args import host_port, whole
from .._output import terminal_safe
from .._stopping import check
from ..peers import resolve_peer
from .parsers.serve import DEFAULT_HOST

if TYPE_CHECKING:  # the server (its logs: pydantic) is imported when it runs, not for --help
    from ..serve import LogWriter

__all__ = ["parse_address"]

#: The largest ``--max-connections`` (it is lowered to fit the descriptor limit anyway).
MAX_CONNECTIONS = 1_000_000


def parse_address(text: str) -> tuple[str, int]:
    """``PORT``, ``HOST:PORT`` or ``[V6]:PORT`` -> (host, port); UsageError when malformed."""
    return host_port(text, "--http", DEFAULT_HOST)


def _say(quiet: bool) -> Any:
    def say(text: str) -> None:
        if not quiet:
            print(terminal_safe(f"mcp-skew serve: {text}"), file=sys.stderr, flush=True)
    return say


def _main(args: argparse.Namespace) -> int:
    from ..serve import LogWriter, serve_stdio  # noqa: PLC0415 - see the imports

    if args.http is not None:
        parse_address(args.http)  # a malformed address is refused before the log is opened
    if args.max_connections is not None:
        args.max_connections = whole(args.max_connections, "--max-connections", 1, MAX_CONNECTIONS)
    spec = resolve_peer(args.peer, "server", args.registry)
    say = _say(args.quiet)
    log = LogWriter(args.record, source="serve") if args.record else None
    try:
        if args.http is None:
            if log:
                log.event("start", f"mcp-skew serve {spec.notation} on stdio", peer=spec.notation)
            say(f"simulated server {spec.notation} on stdio")
            check()  # a stop already here: do not serve (a signal stops it as any command)
            return serve_stdio(spec, sys.stdin.buffer, sys.stdout.buffer, say=say, log=log)
        return _serve_http(args, spec, say, log)
    finally:
        if log:
            log.close()


def _serve_http(args: argparse.Namespace, spec: Any, say: Any, log: LogWriter | None) -> int:
    from ..serve import HttpLimits, ServedEndpoint, make_http_server, server_url  # noqa: PLC0415

    host, port = parse_address(args.http)
    limits = HttpLimits() if args.max_connections is None \
        else HttpLimits(max_connections=args.max_connections)
    endpoint = ServedEndpoint(spec, say=say, allow_remote=args.allow_remote, limits=limits)
    server = make_http_server(endpoint, host, port, log=log)
    url = server_url(server)
    endpoint.protect(url)  # a server with auth=LAYOUT: its authorization server too
    if log:
        log.event("start", f"mcp-skew serve {spec.notation} on {url}", peer=spec.notation,
                  url=url)
    print(f"mcp-skew serve: simulated server {spec.notation} on {url}", file=sys.stderr,
          flush=True)
    if endpoint.auth is not None:
        print(f"mcp-skew serve: protected ({', '.join(sorted(endpoint.auth.layout))}); test "
              f"authorization server {endpoint.auth.issuer} approves every request at once; "
              "pre-registered client: mcp-skew-preregistered / mcp-skew-secret",
              file=sys.stderr, flush=True)
    try:
        startup_ms = spec.server_policy.startup_ms
        if startup_ms:
            say(f"slow start: answering in {startup_ms} ms")
            time.sleep(startup_ms / 1000)
        check()  # a stop already here: do not serve
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:  # stopped as every command is: 128 + the signal's number
        say("interrupted; stopping")
        raise
    finally:
        server.stop_streams()
        server.server_close()
    return server.exit_code

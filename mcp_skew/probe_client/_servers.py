"""The simulated servers a client is run against by default, each for a decision point.

Every revision of the registry is served (a legacy server of each legacy revision, a
modern one of each modern revision, a dual-era one of all), and the server quirks that
change a client's path: how a legacy server answers the ``server/discover`` probe
(-32601, -32602, nothing, nothing and an exit), a modern server's -32022 to
``initialize``, modern results without ``resultType`` or the caching hints, and a
``server/discover`` result that lacks a field the schema requires (``+discover-incomplete``).

An **upgrade** case, ``BEFORE->AFTER`` (:data:`UPGRADE`): the client runs twice with
the same server command (or URL), first against ``BEFORE`` (legacy only), then, the
server upgraded (restarted as ``AFTER``, dual-era), again; the row is the second run:
does the client find the modern era, or keep the legacy one it found before?
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..versions import Era, Registry

__all__ = ["UPGRADE", "ServerCase", "default_servers", "split_upgrade"]

#: ``BEFORE->AFTER``: a server upgraded between two runs of the client.
UPGRADE: Final = "->"


def split_upgrade(spec: str) -> tuple[str | None, str]:
    """``(BEFORE, AFTER)`` of an upgrade case; ``(None, spec)`` for a plain one."""
    before, arrow, after = spec.partition(UPGRADE)
    return (before.strip(), after.strip()) if arrow else (None, spec)


@dataclass(frozen=True, slots=True)
class ServerCase:
    """A server spec and what running a client against it tells."""

    spec: str
    why: str


def default_servers(registry: Registry) -> tuple[ServerCase, ...]:
    """The default set, from the registry's revisions (newest legacy and modern first)."""
    legacy = registry.of_era(Era.LEGACY)
    modern = registry.of_era(Era.MODERN)
    out: list[ServerCase] = []
    if legacy:
        newest = legacy[-1]
        out.append(ServerCase(f"legacy:{newest}", "the newest legacy revision; -32601 to the "
                              "probe: does the client fall back?"))
        out += [ServerCase(f"legacy:{r}", f"{r} only: a counter-offer of {r} to a client that "
                           "asked for a newer revision") for r in reversed(legacy[:-1])]
        out += [
            ServerCase(f"legacy:{newest}+unknown-32602", "-32602 to the probe (Python mcp "
                       "1.10-1.30): a fallback keyed to -32601 stops here"),
            ServerCase(f"legacy:{newest}+silent", "no answer to the probe: how long does the "
                       "client wait before it falls back?"),
            ServerCase(f"legacy:{newest}+silent-exit", "no answer, then an exit on the next "
                       "input (Python mcp 1.0-1.9): a fresh process for the fallback?"),
        ]
    for r in reversed(modern):
        out += [
            ServerCase(f"modern:{r}", f"{r} only"),
            ServerCase(f"modern:{r}+legacy-32022", f"{r} only; initialize gets -32022 naming "
                       f"{r}: does the client retry in the modern era?"),
            ServerCase(f"modern:{r}+no-result-type", "results without resultType: does the "
                       "client validate results strictly?"),
            ServerCase(f"modern:{r}+no-cache-hints", "results without ttlMs and cacheScope"),
        ]
    if legacy and modern:
        every = ",".join(reversed((*legacy, *modern)))
        out.append(ServerCase(f"dual:{every}", "both eras: does the client prefer the modern "
                              "one?"))
        out.append(ServerCase(f"dual:{every}+ext=ui", "offers MCP Apps "
                              "(io.modelcontextprotocol/ui): does the client advertise it, and "
                              "read the ui:// resource its tool names?"))
        out.append(ServerCase(f"dual:{every}+discover-incomplete", "a server/discover result "
                              "that lacks the required capabilities: does the client take it, "
                              "or read it as a failed probe and fall back to initialize?"))
        out.append(ServerCase(f"legacy:{legacy[-1]}{UPGRADE}dual:{every}", "the same server "
                              "command, legacy-only for a first run, then upgraded to both eras: "
                              "does the client find the modern era, or keep the legacy one?"))
    return tuple(out)

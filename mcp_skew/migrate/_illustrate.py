"""Before and after: a change shown by two real simulator runs, one at each end of a guide.

Theory of operation
-------------------
:data:`ILLUSTRATIONS` maps a rule id to an :class:`Illustration`: which
exchanges to pull out of a run (by method: a request with its reply, or a
notification) and which peers to run. Peers are peer-spec templates:
``{rev}`` is the revision of the run (the guide's FROM for "before", TO for
"after"); ``{legacy}`` and ``{modern}`` are whichever of FROM and TO is of that
era (an illustration that names one the pair lacks is skipped).

Both runs use the same templates, so the reader sees the same exchange twice.
Messages are shown one per line, ``->`` from the client and ``<-`` from the
server, as JSON; a list of objects longer than a line is replaced by a marker
saying how many items it had, so the field the change is about stays visible.

A change with no entry here has no illustration. The runs are in memory on the
simulated clock, so the same pair gives the same lines every time.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from ..simulator import RunRecord, Transport, parse_peer, run, summary_line
from ..transcript import Entry
from ..versions import Era, Profile, Registry, registry_for

__all__ = ["ILLUSTRATIONS", "Illustration", "IllustrationSide", "Shown", "illustrate", "simulate"]


@dataclass(frozen=True, slots=True)
class Illustration:
    """How to show one change: the exchanges to extract and the peers to run."""

    title: str
    methods: tuple[str, ...]
    client: str = "{rev}"
    server: str = "{rev}"
    scenario: str = "default"


#: Rule id -> how to illustrate it. Keep titles short: they head the transcript.
ILLUSTRATIONS: Final[Mapping[str, Illustration]] = {
    "handshake-removed": Illustration(
        "opening a session: the initialize handshake, or a request carrying _meta",
        ("initialize", "notifications/initialized", "tools/list"),
    ),
    "server-discover": Illustration(
        "a dual-era client probes with server/discover",
        ("server/discover",),
        client="dual:{modern},{legacy}",
    ),
    "caching-hints": Illustration(
        "tools/list: ttlMs and cacheScope on the result",
        ("tools/list",),
    ),
    "result-type": Illustration(
        "tools/call: resultType on the result",
        ("tools/call",),
    ),
    "resource-not-found-32602": Illustration(
        "resources/read of a URI the server does not have",
        ("resources/read",),
    ),
}


@dataclass(frozen=True, slots=True)
class IllustrationSide:
    """One run's part of an illustration."""

    revision: str
    command: str  #: how to reproduce the full run
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Shown:
    """An illustration, run: the same exchange at FROM (before) and at TO (after)."""

    title: str
    before: IllustrationSide
    after: IllustrationSide


@lru_cache(maxsize=256)
def simulate(client: str, server: str, scenario: str, registry: Registry,
             transport: Transport = "stdio") -> RunRecord:
    """One simulator run, cached (runs are deterministic; callers must not mutate it)."""
    return run(parse_peer(client, "client", registry), parse_peer(server, "server", registry),
               scenario, transport=transport)


def _compact(value: Any, limit: int = 80) -> Any:
    if isinstance(value, dict):
        return {key: _compact(item, limit) for key, item in value.items()}
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value) and len(json.dumps(value)) > limit:
            return [f"… {len(value)} item{'s' if len(value) > 1 else ''}"]
        return [_compact(item, limit) for item in value]
    return value


def _line(entry: Entry) -> str:
    arrow = "->" if entry.dir == "c2s" else "<-"
    text = entry.message if isinstance(entry.message, str) else json.dumps(
        _compact(entry.message), ensure_ascii=False
    )
    return f"{arrow} {text}"


def _exchanges(record: RunRecord, methods: tuple[str, ...]) -> list[Entry]:
    """The first exchange of each method: the request and its reply, or the notification."""
    entries = record.transcript.entries
    picked: set[int] = set()
    for method in methods:
        for i, entry in enumerate(entries):
            message = entry.message
            if entry.dir != "c2s" or not isinstance(message, dict):
                continue
            if message.get("method") != method:
                continue
            picked.add(i)
            if "id" in message:
                reply = next(
                    (j for j in range(i + 1, len(entries))
                     if entries[j].dir == "s2c" and isinstance(entries[j].message, dict)
                     and entries[j].message.get("id") == message["id"]
                     and "method" not in entries[j].message),
                    None,
                )
                if reply is not None:
                    picked.add(reply)
            break
    return [entries[i] for i in sorted(picked)]


def _fill(template: str, revision: str, eras: Mapping[str, str]) -> str | None:
    try:
        return template.format(rev=revision, **eras)
    except KeyError:
        return None


def _side(shape: Illustration, revision: str, eras: Mapping[str, str],
          registry: Registry) -> IllustrationSide | None:
    client = _fill(shape.client, revision, eras)
    server = _fill(shape.server, revision, eras)
    if client is None or server is None:
        return None
    record = simulate(client, server, shape.scenario, registry)
    lines = tuple(_line(e) for e in _exchanges(record, shape.methods))
    if not lines:
        lines = (f"(no {' or '.join(shape.methods)} in this run: {summary_line(record)})",)
    command = f"mcp-skew simulate --client {client} --server {server} --trace"
    return IllustrationSide(revision, command, lines)


def illustrate(rule: str, source: Profile, target: Profile) -> Shown | None:
    """The illustration of ``rule`` on the way from ``source`` to ``target``, if it has one."""
    shape = ILLUSTRATIONS.get(rule)
    if shape is None:
        return None
    eras: dict[str, str] = {}
    for profile in (target, source):  # the source wins when both ends share an era
        eras["legacy" if profile.era is Era.LEGACY else "modern"] = profile.revision
    registry = registry_for(source, target)
    before = _side(shape, source.revision, eras, registry)
    after = _side(shape, target.revision, eras, registry)
    if before is None or after is None:
        return None
    return Shown(shape.title, before, after)

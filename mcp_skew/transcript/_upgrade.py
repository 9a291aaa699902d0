"""The older transcript formats, read as the current one: every upgrader in one place.

Three older shapes are still read:

- JSON Lines without a header (``record``'s and ``serve``'s first logs, already records
  but for the header; the probe's recordings, ``t_ms`` and an event known only by its
  sentence): :func:`upgrade_record`, one record at a time;
- a ``simulate --json`` run of format version 1, and a matrix cell of matrix format
  versions 1 and 2 (messages and events in two lists): :func:`legacy_run_records`;
- an event known only by its sentence (both of the above): :func:`classify_note`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeAlias

from ._jsonl import TranscriptError, milliseconds

__all__ = ["Elapsed", "classify_note", "legacy_run_records", "upgrade_record"]

_NOTES: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"write failed: "), "write-failed"),
    (re.compile(r"the server process exited( \(code (?P<code>-?\d+)\))?$"), "exit"),
    (re.compile(r"no answer to id .* (within|before)"), "timeout"),
    (re.compile(r"the overall deadline of .* has passed"), "deadline"),
    (re.compile(r"client restarts the server"), "restart"),
    (re.compile(r"client closes the connection$"), "client-eof"),
    (re.compile(r"started pid (?P<pid>\d+): "), "start"),
)


def classify_note(text: str) -> tuple[str, dict[str, Any]]:
    """The event name and fields of an event known only by its sentence (older formats).

    The simulator's own sentences get the names and fields it now writes; a
    simulated exit is a quirk's, with code 1.
    """
    for pattern, name in _NOTES:
        found = pattern.match(text)
        if found is None:
            continue
        fields: dict[str, Any] = {}
        if name == "exit":
            code = found.group("code")
            fields = {"side": "server", "code": int(code) if code is not None else 1}
        elif name == "start":
            fields = {"pid": int(found.group("pid"))}
        return name, fields
    return "note", {}


def _event_of(ms: Any, text: Any) -> dict[str, Any]:
    name, fields = classify_note(str(text))
    return {"ms": ms, "dir": "event", "event": name, "text": str(text), **fields}


Elapsed: TypeAlias = Callable[[str, str], float | None]


def upgrade_record(data: dict[str, Any], first_t: str | None = None,
                   elapsed: Elapsed | None = None) -> dict[str, Any]:
    """A record of an unversioned log, as a version-1 record.

    Unversioned logs are ``record``'s and ``serve``'s (``ms``; already records but for
    the header) and the probe's (``t_ms``; an event was ``{"t_ms", "event": SENTENCE}``).
    A record with neither takes ``ms`` from ``t`` (``elapsed(first_t, t)``), else 0.
    """
    if "ms" not in data:
        if "t_ms" in data:
            data = {("ms" if k == "t_ms" else k): v for k, v in data.items()}
        else:
            t = data.get("t")
            ms = elapsed(first_t, t) if elapsed and isinstance(t, str) and first_t else None
            data = {"ms": max(0.0, round(ms, 3)) if ms is not None else 0, **data}
    if "dir" not in data and "event" in data:
        rest = {k: v for k, v in data.items() if k not in ("ms", "event", "text", "after")}
        return {**_event_of(data["ms"], data["event"]), **rest}
    return data


def _run_ms(item: Mapping[str, Any], where: str) -> int | float:
    """The time of an item of an unversioned run, checked (the records are sorted by it)."""
    try:
        return milliseconds(item.get("t_ms", item.get("ms", 0)))
    except ValueError as exc:
        raise TranscriptError(f"{where}: 't_ms': {exc}") from None


def legacy_run_records(run: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The transcript of an unversioned ``simulate --json`` run (or matrix cell) as records.

    It kept messages (``{t_ms, dir, message}``) and events (``{t_ms, event,
    after}``) in two lists; ``after`` (how many messages came before) puts each
    event in its place. Without it, an event goes before messages of the same
    millisecond.
    """
    messages: list[dict[str, Any]] = []
    for index, item in enumerate(run.get("transcript") or ()):
        if not isinstance(item, dict):
            continue
        record = {"ms": _run_ms(item, f"transcript[{index}]"), "dir": item.get("dir")}
        message = item.get("message")
        record.update({"line": message} if isinstance(message, str) else {"message": message})
        messages.append(record)
    raw = [e for e in run.get("events") or () if isinstance(e, dict)]
    events = [_event_of(_run_ms(e, f"events[{i}]"), e.get("event", "")) for i, e in enumerate(raw)]
    after = [a for e in raw if isinstance(a := e.get("after"), int) and not isinstance(a, bool)]
    if len(after) != len(events):
        order = sorted([(m["ms"], 1, i, m) for i, m in enumerate(messages)]
                       + [(e["ms"], 0, i, e) for i, e in enumerate(events)],
                       key=lambda item: item[:3])
        return [record for *_, record in order]
    out: list[dict[str, Any]] = []
    queue = sorted(zip(after, events, strict=True), key=lambda pair: pair[0])
    for index, message_record in enumerate([*messages, None]):
        while queue and queue[0][0] <= index:
            out.append(queue.pop(0)[1])
        if message_record is not None:
            out.append(message_record)
    return out

"""Reading a transcript: JSON Lines of any version, or one ``simulate --json`` run.

The one reader of the format (:func:`load_text`): it takes text (the callers read the
file) and gives checked records (:mod:`._jsonl`), the older formats converted
(:mod:`._upgrade`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .. import _jsontext
from ._jsonl import (
    CheckedRecord,
    Header,
    TranscriptError,
    has_offset,
    parse_header,
    parse_record,
)
from ._names import RUN_FORMAT, RUN_FORMAT_VERSION
from ._upgrade import Elapsed, legacy_run_records, upgrade_record

__all__ = ["Loaded", "load_text"]

@dataclass(slots=True)
class Loaded:
    """What :func:`load_text` read."""

    records: list[CheckedRecord]
    headers: list[Header] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    kind: Literal["jsonl", "run"] = "jsonl"  #: JSON Lines, or one ``simulate --json`` run
    aware: bool | None = None  #: whether the times (``t``) have a UTC offset (None: no time)


def _is_run(data: dict[str, Any]) -> bool:
    if data.get("format") == RUN_FORMAT:
        return True
    return "format" not in data and "dir" not in data and isinstance(data.get("transcript"), list)


def _run_records(run: dict[str, Any], name: str) -> list[CheckedRecord]:
    version = run.get("format_version", 1) if run.get("format") == RUN_FORMAT else 1
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise TranscriptError(f"{name}: a bad format_version {version!r}")
    if version > RUN_FORMAT_VERSION:
        raise TranscriptError(f"{name}: run format version {version} is newer than this mcp-skew "
                              f"reads ({RUN_FORMAT_VERSION}); upgrade mcp-skew")
    items = run.get("transcript")
    if not isinstance(items, list):
        raise TranscriptError(f"{name}: the run has no 'transcript' list")
    if version == 1:
        try:
            items = legacy_run_records(run)
        except TranscriptError as exc:
            raise TranscriptError(f"{name}: {exc}") from None
    out: list[CheckedRecord] = []
    for index, item in enumerate(items):
        try:
            out.append(parse_record(item))
        except TranscriptError as exc:
            raise TranscriptError(f"{name}: transcript[{index}]: {exc}") from None
    return out


def _is_header(data: dict[str, Any]) -> bool:
    return "format" in data and "dir" not in data


def load_text(text: str, name: str, *, elapsed: Elapsed | None = None) -> Loaded:
    """Read a transcript: JSON Lines (any version), or one ``simulate --json`` run.

    A JSON Lines file with a header is read as that version; one without (older
    logs) is converted record by record (:func:`upgrade_record`). A last line
    without its newline that is not JSON is a warning (the writer was stopped
    mid-line); any other bad line raises :class:`TranscriptError` naming
    ``name`` and the line number.
    """
    stripped = text.lstrip()
    if stripped.startswith("{") and "\n{" not in stripped.rstrip():
        try:
            whole = _jsontext.loads(stripped, _jsontext.FILE)
        except ValueError:
            whole = None
        if isinstance(whole, dict) and _is_run(whole):
            return Loaded(_run_records(whole, name), kind="run")
    lines = text.split("\n")
    parsed: list[tuple[int, dict[str, Any]]] = []
    warnings: list[str] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = _jsontext.loads(line, _jsontext.FILE)
        except ValueError as exc:
            if number == len(lines):
                warnings.append(f"{name}:{number}: the last record is cut short (the writer "
                                "stopped mid-line); skipped")
                continue
            raise TranscriptError(f"{name}:{number}: not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise TranscriptError(f"{name}:{number}: not a JSON object")
        parsed.append((number, data))
    first_t = next((d["t"] for _, d in parsed if isinstance(d.get("t"), str)), None)
    loaded = Loaded([], warnings=warnings)
    versioned = False
    for number, data in parsed:
        try:
            if _is_header(data):
                loaded.headers.append(parse_header(data))
                versioned = True
                continue
            record = parse_record(data if versioned else upgrade_record(data, first_t, elapsed))
        except TranscriptError as exc:
            raise TranscriptError(f"{name}:{number}: {exc}") from None
        loaded.records.append(record)
        _check_clock(record, number, name, loaded)
    return loaded


def _check_clock(record: CheckedRecord, number: int, name: str, loaded: Loaded) -> None:
    """Every ``t`` of a transcript has a UTC offset, or none has: the two do not subtract."""
    aware = has_offset(record.t) if record.t is not None else None
    if aware is None:
        return
    if loaded.aware is None:
        loaded.aware = aware
    elif loaded.aware is not aware:
        raise TranscriptError(
            f"{name}:{number}: 't': {'a' if aware else 'no'} UTC offset, where the times before "
            f"{'have none' if aware else 'have one'} (the times of a log cannot be compared)")

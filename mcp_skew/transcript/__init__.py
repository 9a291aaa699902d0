"""The transcript: one record type, and its JSON Lines format (every writer and reader).

- :class:`Record` (with its constructors :class:`Entry`, a message, and :class:`Note`,
  an event) and :class:`Transcript`, a link's records in order (:mod:`._record`);
  :func:`as_json` writes a record as the format's JSON;
- the format (:mod:`._jsonl`): the header, the checked record models, writing
  (:func:`dumps`, :func:`dump_lines`), ``FORMAT`` and its version, and the run
  document that holds a transcript (:func:`run_document`: a run under ``RUN_FORMAT`` and
  its version);
- reading (:func:`load_text`, :mod:`._read`), the older formats converted in one
  place (:mod:`._upgrade`).

The record and the transcript are imported with the package (the simulator builds them
on every run); the format's names are imported when first read (its checked models are
pydantic's, which a run does not load). Pure, below the simulator: it imports nothing
of mcp-skew but :mod:`mcp_skew._jsontext`, and takes and gives text (files are read and
written in ``serve`` and ``wire``).
``docs/transcripts.md`` describes the format for people.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ._names import run_document
from ._record import Entry, Note, Record, Transcript, as_json, of_json

if TYPE_CHECKING:  # the format's names, for type checkers; at run time see __getattr__
    from ._jsonl import (
        MAX_MS,
        CheckedRecord,
        TranscriptError,
        dump_lines,
        dumps,
        header,
        parse_record,
        record_dict,
        records_of,
    )
    from ._read import load_text
    from ._upgrade import legacy_run_records

__all__ = [
    "MAX_MS",
    "CheckedRecord",
    "Entry",
    "Note",
    "Record",
    "Transcript",
    "TranscriptError",
    "as_json",
    "dump_lines",
    "dumps",
    "header",
    "legacy_run_records",
    "load_text",
    "of_json",
    "parse_record",
    "record_dict",
    "records_of",
    "run_document",
]

#: The modules of the format's names (imported on first use).
_LAZY: Final[dict[str, str]] = {
    **dict.fromkeys(("MAX_MS", "CheckedRecord", "TranscriptError", "dump_lines", "dumps",
                     "header", "parse_record", "record_dict", "records_of"), "_jsonl"),
    "load_text": "_read",
    "legacy_run_records": "_upgrade",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # static imports, each on first use (the layers test reads them; an import by name it
    # would not see)
    if module == "_jsonl":
        from . import _jsonl  # noqa: PLC0415

        value = getattr(_jsonl, name)
    elif module == "_read":
        from . import _read  # noqa: PLC0415

        value = getattr(_read, name)
    else:
        from . import _upgrade  # noqa: PLC0415

        value = getattr(_upgrade, name)
    globals()[name] = value
    return value

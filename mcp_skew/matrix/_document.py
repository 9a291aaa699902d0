"""The schema of a matrix document read back (``matrix --from``): every value typed, strictly.

:meth:`~mcp_skew.matrix.Matrix.from_dict` checks a document here before it builds
a single cell, so that a value of the wrong type or over a cap anywhere in it is one
:class:`~mcp_skew.errors.UsageError` naming the place (``cells.0.1.steps.0.ok: ...``),
never a ``TypeError`` in whichever renderer first reads it. Values are not converted
(``"5"`` is not a number, ``1`` is not ``true``); keys this version does not know are
left alone (a newer mcp-skew may add keys: ``FORMAT_VERSION``'s rule).

Format versions 1 and 2 kept a cell's messages (``transcript``: ``{t_ms, dir, message}``)
and events (``events``: ``{t_ms, event, after}``; version 1: ``event_after``) apart; they
are checked in that shape here, and the records they become are checked as version 3's
are (:func:`mcp_skew.transcript.parse_record`, the one record schema).

Caps (``docs/matrix.md``): a label or a spec, :data:`MAX_LABEL` characters; any other
string, :data:`MAX_TEXT`; a count or an index, ``0`` to ``2**31 - 1``; a time, ``0`` to
``MAX_MS`` milliseconds (the transcript's own cap).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import UsageError
from ..transcript import MAX_MS, TranscriptError, parse_record

__all__ = ["MAX_LABEL", "MAX_TEXT", "check_document", "check_records"]

#: The longest label or peer spec read (a census labels its servers with package names).
MAX_LABEL: Final = 1024
#: The longest other string read (a reason, a finding's message, a step's answer).
MAX_TEXT: Final = 1 << 20

Label = Annotated[str, Field(max_length=MAX_LABEL)]
Text = Annotated[str, Field(max_length=MAX_TEXT)]
Count = Annotated[int, Field(ge=0, le=2**31 - 1)]
Ms = Annotated[int | float, Field(ge=0, le=MAX_MS, allow_inf_nan=False)]


class _StrictTypes(BaseModel):
    """No conversion between types; keys a newer writer adds are ignored, not refused."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class _Axis(_StrictTypes):
    label: Label
    notation: Label


class _Step(_StrictTypes):
    name: Text
    ok: bool
    expected: Text
    got: Text


class _Finding(_StrictTypes):
    code: Text = ""
    severity: Text = ""
    message: Text = ""
    index: Count | None = None
    cite: Text = ""


class _Real(_StrictTypes):
    ran: bool = False
    agrees: bool | None = None
    status: Text | None = None
    revision: Label | None = None
    detail: Text | None = None
    seconds: Ms = 0.0


class _OldMessage(_StrictTypes):
    """A message of format versions 1 and 2 (``message`` is any JSON, or the line as text)."""

    t_ms: Ms | None = None
    ms: Ms | None = None
    dir: Literal["c2s", "s2c", "stderr"]
    message: Any = None


class _OldEvent(_StrictTypes):
    """An event of format versions 1 and 2."""

    t_ms: Ms | None = None
    ms: Ms | None = None
    event: Text = ""
    after: Count | None = None


class _Cell(_StrictTypes):
    client: Label
    server: Label
    status: Literal["ok", "failed"]
    revision: Label | None
    era: Label | None
    path: list[Text]
    mark: Label
    reason: Text
    scenario: Label | None = None
    round_trips: Count | None = None
    t_first_useful_ms: Ms | None = None
    steps: list[_Step] | None = None
    features_lost: list[Label] | None = None
    findings: list[_Finding] | None = None
    transport: Label | None = None
    failed_step: Text | None = None
    failure: Label | None = None
    features_kept: list[Label] | None = None
    client_loses: list[Label] | None = None
    server_loses: list[Label] | None = None
    real: _Real | None = None


class _CellV3(_Cell):
    transcript: list[dict[str, Any]] | None = None  #: records, each checked by parse_record


class _CellOld(_Cell):
    transcript: list[_OldMessage] | None = None
    events: list[_OldEvent] | None = None
    event_after: list[Count] | None = None  #: version 1


class _Document(_StrictTypes):
    format: Literal["mcp-skew-matrix"]
    format_version: Annotated[int, Field(ge=1)]
    mcp_skew_version: Label = ""
    scenario: Label = ""
    transport: Label = "stdio"
    clients: list[_Axis]
    servers: list[_Axis]
    cells: list[list[dict[str, Any]]]


def _where(exc: ValidationError, prefix: tuple[Any, ...] = ()) -> str:
    """``cells.0.1.steps.0.ok: Input should be a valid boolean`` (the first error)."""
    error = exc.errors()[0]
    where = ".".join(str(part) for part in (*prefix, *error["loc"])) or "(top level)"
    return f"{where}: {error['msg']}"


def check_document(data: dict[str, Any], version: int) -> None:
    """:class:`UsageError` (one line, naming the place) when a value of the matrix document
    ``data`` (format ``version``) is of the wrong type or over a cap."""
    try:
        _Document.model_validate(data)
    except ValidationError as exc:
        raise UsageError(f"not a valid matrix document: {_where(exc)}") from None
    model = _CellV3 if version >= 3 else _CellOld
    for i, row in enumerate(data["cells"]):
        for j, cell in enumerate(row):
            try:
                model.model_validate(cell)
            except ValidationError as exc:
                raise UsageError(f"not a valid matrix document: {_where(exc, ('cells', i, j))}"
                                 ) from None
            if version >= 3 and cell.get("transcript") is not None:
                check_records(cell["transcript"], ("cells", i, j, "transcript"))


def check_records(records: list[Any], where: tuple[Any, ...]) -> None:
    """Each transcript record checked as the transcript format reads one."""
    for k, record in enumerate(records):
        try:
            parse_record(record)
        except TranscriptError as exc:
            place = ".".join(str(part) for part in (*where, k))
            raise UsageError(f"not a valid matrix document: {place}: {exc}") from None

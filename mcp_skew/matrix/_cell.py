"""One matrix cell: one (client, server) run, typed, and its JSON shape.

A :class:`Cell` holds what the renderers read of a run: the negotiation
(``status``, ``revision``, ``era``, ``path``, ``mark``, ``reason``), the
scenario's results, the features kept and lost, the findings, the transcript
records (``None`` when the matrix kept none), and two things the matrix derives
while the run is at hand (:data:`EXTRA_KEYS`):

- ``failure``: why a failed pair fails, as the legend explains it
  (:func:`mcp_skew._verdicts.failure_kind`: ``era``, ``revision``, ``quirk``,
  ``negotiation``), or ``auth``, or ``result`` (connects, then fails: it negotiated,
  and a list or call the scenario needs got no usable result; the run's
  ``failed_step``); ``None`` when the pair works;
- ``features_kept``: the features of the client's newest revision that the
  negotiated revision keeps (the simulator's ``features_lost`` is the rest);
- ``client_loses`` and ``server_loses``: the named capability-gated features
  (:mod:`mcp_skew.versions._features`) of the client's newest revision, and of the
  server's, that the negotiated revision cannot carry: what the client's users never
  get, and what of the server never reaches this client. Empty when the pair fails.

``mcp-skew matrix --run-real`` adds ``real`` (:class:`RealRun`): what the real
packages did with the pair.

:meth:`Cell.to_dict` is the cell of the matrix JSON format (``RunRecord.to_dict()``
plus :data:`EXTRA_KEYS`, key for key and in the same order), and
:meth:`Cell.from_dict` reads it back, from any format version this mcp-skew
reads; ``Cell.from_dict(cell.to_dict(), FORMAT_VERSION) == cell``.

Steps and findings are the simulator's own types (:class:`StepResult`,
:class:`Finding`): a fresh cell holds the run's objects as they are, and a cell
read from JSON builds the same ones. The transcript stays as its records (the
JSON of ``mcp_skew.transcript``): the wire logs print them, the JSON
writes them back, and parsing them into models would cost most of a sweep.
String values a newer mcp-skew may add to (``mark``, ``failure``, ``era``,
finding codes) are read as they come, not checked against this version's lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, replace
from typing import Any, Final, Literal

from .._memo import by_identity2
from .._verdicts import FailureKind, PlainWorks, failure_kind, plain_works
from ..errors import UsageError
from ..simulator import RunRecord, StepResult
from ..simulator.findings import Finding
from ..transcript import Record, of_json
from ..versions import Profile, lost_features

__all__ = [
    "EXTRA_KEYS",
    "Cell",
    "FailureKind",
    "Outcome",
    "PlainWorks",
    "RealRun",
    "failure_kind",
    "outcome",
    "sharing",
    "steps_failed",
    "timeline",
]

#: Keys a matrix cell adds to ``RunRecord.to_dict()``.
EXTRA_KEYS: Final = ("failure", "features_kept", "client_loses", "server_loses")

Outcome = Literal["works", "fallback", "fails"]
Status = Literal["ok", "failed"]

#: The ``dir`` of a transcript record.
_DIRECTIONS: Final = ("c2s", "s2c", "stderr", "event")
#: Keys every cell must have for the renderers (checked when reading JSON).
_CELL_KEYS: Final = ("client", "server", "status", "revision", "era", "path", "mark", "reason")


# -- Deriving what a run does not say ------------------------------------------------------
def _auth_failed(path: Sequence[str]) -> bool:
    """Whether the path has an authorization that got no token (scenario auth)."""
    return any(getattr(step, "kind", None) == "auth" and step.startswith("auth failed")
               for step in path)


@by_identity2
def _features_kept(best: Profile, negotiated: Profile) -> tuple[str, ...]:
    """The features of the client's newest revision the negotiated one keeps, sorted
    (the run's ``features_lost`` is the rest: ``sorted(best - negotiated)``)."""
    return tuple(sorted(best.names("features") & negotiated.names("features")))


#: A side's named features the negotiated revision cannot carry, once per pair of profiles.
_loses = by_identity2(lost_features)


# -- Sharing equal values between cells -------------------------------------------------
Share = Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


class _SaidKey(tuple[Any, ...]):
    """What a :class:`Said` says, its shared values (:func:`sharing`) by identity, as
    :meth:`Cell.of` shares the ``Said`` (equal and hashed as a tuple, in C); ``said``, the
    one made for the first."""

    said: Said | None = None


def sharing() -> Share:
    """A fresh ``share`` for :meth:`Cell.of`: ``share(value)`` is the first value equal to
    ``value`` it was given (``value`` itself the first time). Values must be hashable."""
    seen: dict[Any, Any] = {}

    def share(value: Any) -> Any:
        return seen.setdefault(value, value)

    return share


# -- The cell ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RealRun:
    """What the real packages did with a pair (``--run-real``), next to the prediction."""

    ran: bool
    agrees: bool | None  #: None: not run
    status: str | None = None
    revision: str | None = None
    detail: str = ""
    seconds: float = 0.0  #: rounded to hundredths, as the JSON has it

    def to_dict(self) -> dict[str, Any]:
        return {"ran": self.ran, "agrees": self.agrees, "status": self.status,
                "revision": self.revision, "detail": self.detail, "seconds": self.seconds}

    @classmethod
    def from_dict(cls, data: Any) -> RealRun:
        if not isinstance(data, dict):
            raise UsageError("a matrix cell's real must be an object")
        agrees, seconds = data.get("agrees"), data.get("seconds", 0.0)
        return cls(bool(data.get("ran")), agrees if isinstance(agrees, bool) else None,
                   _str_or_none(data.get("status")), _str_or_none(data.get("revision")),
                   str(data.get("detail") or ""),
                   seconds if isinstance(seconds, int | float) else 0.0)


#: What a cell says of its pair, in :class:`Cell`'s order (its fields but the labels and
#: the transcript, which are the cell's own).
_SAID: Final = ("status", "revision", "era", "path", "mark", "reason", "scenario", "round_trips",
                "t_first_useful_ms", "steps", "features_lost", "findings", "transport",
                "failed_step", "failure", "features_kept", "client_loses", "server_loses",
                "real", "race")
#: Every field of a :class:`Cell`, in order (its constructor's, its ``repr``'s).
_FIELDS: Final = ("client", "server", *_SAID[:14], "transcript", *_SAID[14:])
_FIELDS_SAID: Final = dict.fromkeys(_SAID)


@dataclass(frozen=True, slots=True)
class Said:
    """What a :class:`Cell` says of its pair, apart from the pair's labels and transcript.

    The cells of a large matrix say few different things (a sweep of 20,000 pairs: about a
    hundred), so :meth:`Cell.of` given a ``share`` hands the cells that say the same thing
    one ``Said``: a cell is then its two labels, its transcript and a reference."""

    status: Status
    revision: str | None
    era: str | None
    path: tuple[str, ...]
    mark: str
    reason: str
    scenario: str | None
    round_trips: int | None
    t_first_useful_ms: int | float | None
    steps: tuple[StepResult, ...]
    features_lost: tuple[str, ...]
    findings: tuple[Finding, ...]
    transport: str
    failed_step: str | None
    failure: str | None
    features_kept: tuple[str, ...]
    client_loses: tuple[str, ...]
    server_loses: tuple[str, ...]
    real: RealRun | None
    race: str | None


class Cell:
    """One run of the matrix, as the renderers read it; see the module docstring.

    Frozen, compared and hashed field by field, like a frozen dataclass; :meth:`replace`
    is ``dataclasses.replace``. A cell holds its labels (``client``, ``server``, the row's
    and the column's), its ``transcript`` and a :class:`Said` (``said``), which equal cells
    of a matrix share; every other field reads the ``said``.
    """

    __slots__ = ("client", "said", "server", "transcript")
    client: str  #: the row's label
    server: str  #: the column's label
    #: the transcript records (the JSON of ``mcp_skew.transcript``); None: not kept
    transcript: tuple[dict[str, Any], ...] | None
    said: Said  #: everything else the cell says (the fields below)

    def __init__(self, *, client: str, server: str, status: Status, revision: str | None,
                 era: str | None, path: tuple[str, ...], mark: str, reason: str,
                 scenario: str | None = None, round_trips: int | None = None,
                 t_first_useful_ms: int | float | None = None,
                 steps: tuple[StepResult, ...] = (), features_lost: tuple[str, ...] = (),
                 findings: tuple[Finding, ...] = (), transport: str = "stdio",
                 failed_step: str | None = None,
                 transcript: tuple[dict[str, Any], ...] | None = None,
                 failure: str | None = None, features_kept: tuple[str, ...] = (),
                 client_loses: tuple[str, ...] = (), server_loses: tuple[str, ...] = (),
                 real: RealRun | None = None, race: str | None = None) -> None:
        said = Said(status, revision, era, path, mark, reason, scenario, round_trips,
                    t_first_useful_ms, steps, features_lost, findings, transport, failed_step,
                    failure, features_kept, client_loses, server_loses, real, race)
        self._set(client, server, transcript, said)

    def _set(self, client: str, server: str, transcript: tuple[dict[str, Any], ...] | None,
             said: Said) -> None:
        for setter, value in zip(_SETTERS, (client, server, transcript, said), strict=True):
            setter(self, value)  # a frozen cell's own __setattr__ refuses

    @classmethod
    def of_said(cls, client: str, server: str, said: Said,
                transcript: tuple[dict[str, Any], ...] | None = None) -> Cell:
        """A cell of its labels, a :class:`Said` (shared with other cells) and a transcript."""
        cell = cls.__new__(cls)
        cell._set(client, server, transcript, said)
        return cell

    def replace(self, **changes: Any) -> Cell:
        """This cell with ``changes`` (field names), as ``dataclasses.replace`` makes one."""
        unknown = [name for name in changes if name not in _FIELDS]
        if unknown:
            raise TypeError(f"Cell has no field {unknown[0]!r}")
        said = self.said
        if not _FIELDS_SAID.keys().isdisjoint(changes):
            said = replace(said, **{k: v for k, v in changes.items() if k in _FIELDS_SAID})
        return Cell.of_said(changes.get("client", self.client), changes.get("server", self.server),
                            said, changes.get("transcript", self.transcript))

    __replace__ = replace  # copy.replace (Python 3.13)

    def _key(self) -> tuple[Any, ...]:
        return (self.client, self.server, self.transcript, self.said)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Cell)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "Cell(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in _FIELDS) + ")"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Cell.of_said, (self.client, self.server, self.said, self.transcript))

    @property
    def status(self) -> Status:
        return self.said.status

    @property
    def revision(self) -> str | None:
        """The revision the pair speaks; None when it fails."""
        return self.said.revision

    @property
    def era(self) -> str | None:
        """Its era (``legacy``, ``modern``)."""
        return self.said.era

    @property
    def path(self) -> tuple[str, ...]:
        """The negotiation's steps (the simulator's typed ``PathStep`` strings)."""
        return self.said.path

    @property
    def mark(self) -> str:
        """How it got there: ``direct``, ``downgraded``, ... (``failed`` when it fails)."""
        return self.said.mark

    @property
    def reason(self) -> str:
        return self.said.reason

    @property
    def scenario(self) -> str | None:
        """None: a document that did not say (the matrix's scenario)."""
        return self.said.scenario

    @property
    def round_trips(self) -> int | None:
        return self.said.round_trips

    @property
    def t_first_useful_ms(self) -> int | float | None:
        return self.said.t_first_useful_ms

    @property
    def steps(self) -> tuple[StepResult, ...]:
        return self.said.steps

    @property
    def features_lost(self) -> tuple[str, ...]:
        return self.said.features_lost

    @property
    def findings(self) -> tuple[Finding, ...]:
        return self.said.findings

    @property
    def transport(self) -> str:
        """``stdio`` or ``http``."""
        return self.said.transport

    @property
    def failed_step(self) -> str | None:
        """The step that failed after negotiating ("connects, then fails"); None: none did."""
        return self.said.failed_step

    @property
    def failure(self) -> str | None:
        """A :data:`FailureKind` when the pair fails."""
        return self.said.failure

    @property
    def features_kept(self) -> tuple[str, ...]:
        return self.said.features_kept

    @property
    def client_loses(self) -> tuple[str, ...]:
        """The named features of the client's newest revision the pair cannot carry."""
        return self.said.client_loses

    @property
    def server_loses(self) -> tuple[str, ...]:
        """The named features of the server's newest revision the pair cannot carry."""
        return self.said.server_loses

    @property
    def real(self) -> RealRun | None:
        """What the real packages did (``--run-real``)."""
        return self.said.real

    @property
    def race(self) -> str | None:
        """The outcome depends on the server's cold start against a wait of the client's:
        the sentence that says how (:mod:`._race`); None: no race."""
        return self.said.race

    @classmethod
    def of(cls, record: RunRecord, *, transcript: bool = True,
           works: PlainWorks = plain_works, labels: tuple[str, str] | None = None,
           share: Share | None = None, race: str | None = None) -> Cell:
        """One run as a matrix cell. ``transcript=False`` keeps no transcript (the formats
        that show none); ``works`` answers the ``quirk`` test of a failed pair.

        For a large matrix (:func:`~._build.build_matrix`): ``labels`` are the row's and
        the column's labels, made once per axis (else the peers' names, built per cell);
        ``share`` returns, for a value, an equal one seen before (:func:`sharing`), so that
        the many cells that say the same thing (a revision, a path, a reason, the steps, the
        findings) hold one copy of it, not one each (a revision read from the wire is a new
        string per run), and the cells that say the same thing one :class:`Said`. ``race``:
        the sentence of a race of time (:mod:`._race`).
        """
        session = record.session
        failure: FailureKind | None
        kept: tuple[str, ...]
        loses: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        # RunRecord's failed_step and reason: the steps looked through once (twice: connected, then failed)
        negotiated = session.status == "ok"
        failed_step = record.failed_step if negotiated else None
        if failed_step is not None:
            failure, kept, reason = "result", (), record.reason
        elif negotiated:
            failure, reason = None, session.reason
            best, profile = record.client.profile(), session.profile
            kept = _features_kept(best, profile)
            loses = (_loses(best, profile), _loses(record.server.profile(), profile))
        else:
            failure, reason = failure_kind(record.client, record.server, works), session.reason
            if failure in ("quirk", "negotiation") and _auth_failed(session.path):
                failure = "auth"  # scenario auth: the client never got a token
            kept = ()
        era = session.era
        # RunRecord.status, from what is read above
        status: Status = "ok" if negotiated and not failed_step else "failed"
        client, server = labels or (record.client.name, record.server.name)
        same = share or _same
        revision, path, reason = same(session.revision), same(tuple(session.path)), same(reason)
        era_value, first = era.value if era else None, record.t_first_useful_ms
        first = same(first) if type(first) is int else first  # an int shared; 1.0 stays a float
        steps, lost = same(tuple(record.steps)), same(tuple(record.features_lost))
        findings, mark, trips = same((*session.findings, *record.findings)), session.mark, session.round_trips
        key = _SaidKey((_SaidKey, status, revision, era_value, id(path), mark, reason, record.scenario,
                        trips, type(trips), first, type(first), id(steps), id(lost), id(findings),
                        record.transport, failed_step, failure, kept, loses, race))
        key = key if share is None else share(key)  # (1 == 1.0, but the JSON writes them apart)
        said = key.said
        if said is None:
            said = key.said = Said(
                status=status, revision=revision, era=era_value, path=path, mark=mark,
                reason=reason, scenario=record.scenario, round_trips=trips, t_first_useful_ms=first,
                steps=steps, features_lost=lost, findings=findings, transport=record.transport,
                failed_step=failed_step, failure=failure, features_kept=kept,
                client_loses=loses[0], server_loses=loses[1], real=None, race=race)
        return cls.of_said(client, server, said,
                           tuple(record.transcript.records()) if transcript else None)

    def to_dict(self) -> dict[str, Any]:
        """The cell of the matrix JSON format: ``RunRecord.to_dict()`` plus :data:`EXTRA_KEYS`
        (and ``real`` when there is one)."""
        out: dict[str, Any] = {
            "client": self.client, "server": self.server, "status": self.status,
            "revision": self.revision, "era": self.era, "path": list(self.path),
            "mark": self.mark, "reason": self.reason,
        }
        if self.scenario is not None:
            out["scenario"] = self.scenario
        out["round_trips"] = self.round_trips
        out["t_first_useful_ms"] = self.t_first_useful_ms
        out["steps"] = [s.to_dict() for s in self.steps]
        out["features_lost"] = list(self.features_lost)
        out["findings"] = [f.to_dict() for f in self.findings]
        if self.transport != "stdio":
            out["transport"] = self.transport
        if self.failed_step is not None:
            out["failed_step"] = self.failed_step
        if self.transcript is not None:
            out["transcript"] = list(self.transcript)
        out["failure"] = self.failure
        out["features_kept"] = list(self.features_kept)
        out["client_loses"] = list(self.client_loses)
        out["server_loses"] = list(self.server_loses)
        if self.real is not None:
            out["real"] = self.real.to_dict()
        if self.race is not None:
            out["race"] = self.race
        return out

    @classmethod
    def from_dict(cls, data: Any, version: int) -> Cell:
        """A cell of a document of format ``version``; bad input raises UsageError.

        Version 1 kept the events' positions in a cell key, ``event_after``; it moves
        into the events as ``after``; then versions 1 and 2 have their ``transcript``
        and ``events`` made one list of transcript records (the document read is left
        as it was).
        """
        if not isinstance(data, dict):
            raise UsageError("a matrix cell must be an object")
        missing = [k for k in _CELL_KEYS if k not in data]
        if missing:
            raise UsageError(f"a matrix cell lacks {', '.join(missing)}")
        path = data["path"]
        if data["status"] not in ("ok", "failed") or not isinstance(path, list) or not all(
                isinstance(step, str) for step in path):
            raise UsageError("a matrix cell has a bad status or path")
        for key in ("client", "server", "mark", "reason"):
            _check(data, key, isinstance(data[key], str), "a string")
        for key in ("revision", "era"):
            _check(data, key, data[key] is None or isinstance(data[key], str), "a string or null")
        real = data.get("real")
        return cls(
            client=data["client"], server=data["server"], status=data["status"],
            revision=data["revision"], era=data["era"], path=tuple(path), mark=data["mark"],
            reason=data["reason"], scenario=_optional(data, "scenario", str, "a string"),
            round_trips=_optional(data, "round_trips", int, "an integer or null"),
            t_first_useful_ms=_optional(data, "t_first_useful_ms", int | float,
                                        "a number or null"),
            steps=_steps(data.get("steps")), features_lost=_names(data, "features_lost"),
            findings=_findings(data.get("findings")),
            transport=_optional(data, "transport", str, "a string") or "stdio",
            failed_step=_optional(data, "failed_step", str, "a string or null"),
            transcript=_transcript(data, version),
            failure=_optional(data, "failure", str, "a string or null"),
            features_kept=_names(data, "features_kept"),
            client_loses=_names(data, "client_loses"),
            server_loses=_names(data, "server_loses"),
            real=None if real is None else RealRun.from_dict(real),
            race=_optional(data, "race", str, "a string or null"))


#: The setters of a cell's slots, in :meth:`Cell._set`'s order.
_SETTERS: Final = tuple(Cell.__dict__[n].__set__ for n in ("client", "server", "transcript", "said"))


# -- Reading JSON --------------------------------------------------------------------------
def _check(data: dict[str, Any], key: str, ok: bool, what: str) -> None:
    if not ok:
        raise UsageError(f"a matrix cell's {key} must be {what}")


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _optional(data: dict[str, Any], key: str, kind: Any, what: str) -> Any:
    """``data[key]``: None when absent or null, else of ``kind`` (booleans are no numbers)."""
    value = data.get(key)
    _check(data, key, value is None or (isinstance(value, kind) and not isinstance(value, bool)),
           what)
    return value


def _names(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key) or []
    _check(data, key, isinstance(value, list) and all(isinstance(n, str) for n in value),
           "a list of strings")
    return tuple(value)


def _steps(value: Any) -> tuple[StepResult, ...]:
    steps = value or []
    if not isinstance(steps, list) or not all(
            isinstance(s, dict) and isinstance(s.get("ok"), bool)
            and all(isinstance(s.get(k), str) for k in ("name", "expected", "got"))
            for s in steps):
        raise UsageError("a matrix cell's steps must be a list of {name, ok, expected, got} "
                         "objects")
    return tuple(StepResult(s["name"], s["ok"], s["expected"], s["got"]) for s in steps)


def _findings(value: Any) -> tuple[Finding, ...]:
    findings = value or []
    if not isinstance(findings, list) or not all(isinstance(f, dict) for f in findings):
        raise UsageError("a matrix cell's findings must be a list of objects")
    return tuple(_finding(f.get("code", ""), f.get("severity", ""), f.get("message", ""),
                          f.get("index"), f.get("cite", "")) for f in findings)


def _finding(code: Any, severity: Any, message: Any, index: Any, cite: Any) -> Finding:
    """A finding read back from a document: handed on as the run that found it wrote it
    (a newer mcp-skew's code or severity too)."""
    return Finding(code, severity, str(message), index, str(cite))


def _transcript(data: dict[str, Any], version: int) -> tuple[dict[str, Any], ...] | None:
    """The cell's transcript records, None when it has none; versions 1 and 2 converted."""
    if version >= 3:
        if "transcript" not in data:
            return None
        records = data["transcript"]
        if not isinstance(records, list) or not all(
                isinstance(r, dict) and r.get("dir") in _DIRECTIONS
                and isinstance(r.get("ms"), int | float) for r in records):
            raise UsageError("a matrix cell's transcript must be a list of transcript records "
                             "(each with ms and dir)")
        return tuple(records)
    if "transcript" not in data and "events" not in data:
        return None
    old: Mapping[str, Any] = data
    after, events = data.get("event_after"), data.get("events")
    if isinstance(after, list) and isinstance(events, list) and len(after) == len(events):
        old = {**data, "events": [{**e, "after": a} if isinstance(e, dict) else e
                                  for e, a in zip(events, after, strict=True)]}
    from ..transcript import TranscriptError, legacy_run_records  # noqa: PLC0415 - old only
    from ._document import check_records  # noqa: PLC0415

    try:
        records = legacy_run_records(old)
    except TranscriptError as exc:
        raise UsageError(f"not a valid matrix document: a cell's transcript: {exc}") from None
    check_records(records, ("a cell's transcript (as version 3)",))
    return tuple(records)


# -- Reading a cell ----------------------------------------------------------------------
def outcome(cell: Cell) -> Outcome:
    """``works`` (direct), ``fallback`` (works after a downgrade, fallback or retry), ``fails``."""
    if cell.status != "ok":
        return "fails"
    return "works" if cell.mark == "direct" else "fallback"


def steps_failed(cell: Cell) -> list[StepResult]:
    """The scenario steps that did not get the answer the revision calls for."""
    return [s for s in cell.steps if not s.ok]


def timeline(cell: Cell) -> list[Record]:
    """Messages and events in the order they happened, as transcript records (the cell keeps
    their JSON; :func:`mcp_skew.transcript.of_json`)."""
    return of_json(cell.transcript or ())

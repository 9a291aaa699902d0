"""One client's verdict, read from its own transcript alone.

Rule: nothing here looks at another client's run. What the whole probe shows
(the server is lenient, it mixes eras, it exits whatever it is sent) becomes
server-level findings (:mod:`._server`), never another client's verdict, so a
client gets the same verdict whether it runs alone (``--client``) or with the
full set, in the progress line, the card, JSON and JUnit.

Two judgements are made here, after the simulated client has negotiated and
played its steps:

- **legacy-shaped modern results.** A modern session whose results lack the
  fields the revision requires on every result (2026-07-28: ``resultType``,
  basic/index.mdx §ResultType) was served under legacy rules. A strict modern
  client rejects such a result: the TypeScript v2 client
  (``@modelcontextprotocol/client`` 2.4.0, ``decodeResult``: "missing required
  resultType") fails every 2026-07-28 result without it, and its
  ``CacheableResultSchema`` requires ``ttlMs`` and ``cacheScope`` on list
  results, while its ``DiscoverResultSchema`` fills missing hints in, so a
  ``server/discover`` answer is not judged here. The run fails with
  ``era-mismatch`` (2026-07-28 basic/versioning.mdx §Compatibility Matrix).
- **the culprit.** A request that got no answer because the server exited, or
  stopped answering, is the one in flight: the run fails naming it (method, id,
  the step that sent it), even when that step was only a check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..simulator import PathStep, RunRecord, path_steps
from ..simulator.findings import Finding
from ..versions import Era, Registry
from ._exchanges import Exchange, exchanges, modern_version

__all__ = ["STRICT_CLIENTS", "Culprit", "culprit", "era_findings", "judge", "legacy_shaped",
           "settle", "shaped_result"]

#: The real clients known to reject a legacy-shaped modern result (read in the package).
STRICT_CLIENTS: Final = "the TypeScript v2 client (@modelcontextprotocol/client 2.4.0)"
_ERA_TABLE: Final = "2026-07-28: basic/versioning.mdx §Compatibility Matrix"
#: Methods whose legacy-shaped answer a strict client still accepts (see the module docstring).
_LENIENT_METHODS: Final = frozenset({"server/discover"})
#: Findings that are advice for a modern server: a legacy-shaped run gets era-mismatch instead.
_MODERN_ADVICE: Final = frozenset({"missing-result-type", "missing-cache-hints"})


def legacy_shaped(ex: Exchange, registry: Registry) -> bool:
    """A modern request answered with a result that has none of the fields its revision
    (looked up in ``registry``) requires on every result: the server ran it under legacy rules."""
    version = modern_version(ex.request)
    if ex.result is None or version not in registry or ex.method in _LENIENT_METHODS:
        return False
    profile = registry.get(str(version))
    required = profile.names("result_fields_required")
    return profile.era is Era.MODERN and bool(required) and not (required & set(ex.result))


def judge(record: RunRecord) -> Exchange | None:
    """Fail a modern session served a legacy-shaped result, as a strict modern client does;
    the exchange that decided it, if any.

    From its own transcript a client cannot tell a legacy server that ran the request
    under legacy rules from a modern one that left ``resultType`` out; it fails both.
    Which it was is server-level evidence: :func:`era_findings` picks the finding.
    """
    session, registry = record.session, record.session.registry
    if session.status != "ok" or session.era is not Era.MODERN:
        return None
    shaped = next((ex for ex in exchanges(record.transcript, registry) if legacy_shaped(ex, registry)), None)
    if shaped is not None:
        _unaccept(session.path, shaped.method)
        session.path.append(PathStep(f"{shaped.method}: result without {_missing(shaped, registry)}",
                                 "served-legacy", method=shaped.method))
        session.fail(f"{shaped.method} got a result without {_missing(shaped, registry)} (legacy-shaped): "
                     f"{STRICT_CLIENTS} rejects it")
    return shaped


def _unaccept(path: list[PathStep], method: str) -> None:
    """The opening request answered legacy-shaped was not accepted after all: its
    ``accepted R`` step says what happened, ``result`` (a session failed by :func:`judge`
    never reads "accepted 2026-07-28" on a row whose outcome is ``incompatible``)."""
    for i in range(len(path) - 1, 0, -1):
        before = path[i - 1]
        if path[i].kind == "accepted" and before.kind == "request" and before.method == method:
            path[i] = path_steps.result()
            return


def shaped_result(record: RunRecord) -> Exchange | None:
    """The legacy-shaped result :func:`judge` failed this run for, if it did."""
    path, registry = record.session.path, record.session.registry
    if record.session.status == "ok" or not path or path[-1].kind != "served-legacy":
        return None
    return next((ex for ex in exchanges(record.transcript, registry) if legacy_shaped(ex, registry)), None)


def _missing(ex: Exchange, registry: Registry) -> str:
    profile = registry.get(str(modern_version(ex.request)))
    return ", ".join(sorted(profile.names("result_fields_required")))


def era_findings(record: RunRecord, shaped: Exchange, server_is_modern: bool) -> None:
    """A legacy-shaped result from a server no client saw answer as a modern one: the request
    ran under legacy rules (``era-mismatch``), and advice for a modern server
    (``missing-result-type``, ``missing-cache-hints``) does not apply to it."""
    if server_is_modern:
        return
    session, registry = record.session, record.session.registry
    session.findings[:] = [f for f in session.findings if f.code not in _MODERN_ADVICE]
    record.findings[:] = [f for f in record.findings if f.code not in _MODERN_ADVICE]
    session.findings.append(Finding(
        "era-mismatch", "error",
        f"{shaped.method} was served under legacy rules: its result has no {_missing(shaped, registry)}, "
        f"which {STRICT_CLIENTS} rejects", shaped.answer_index, _ERA_TABLE))


@dataclass(frozen=True, slots=True)
class Culprit:
    """The request in flight when the server exited or stopped answering."""

    exchange: Exchange
    how: str  #: "exited" or "stopped answering"
    step: str | None  #: the scenario step that sent it, if any
    silent_before: bool  #: the server process had said nothing before

    @property
    def request(self) -> str:
        what = f"{self.exchange.method} (id {self.exchange.request.get('id')}"
        return what + (f", step {self.step!r})" if self.step else ")")

    def sentence(self) -> str:
        if self.silent_before:
            return (f"the server {self.how} before answering anything ({self.request} was in "
                    "flight)")
        return f"the server {self.how} on {self.request}"


def _said_before(record: RunRecord, ex: Exchange) -> bool:
    """Did the server process of ``ex`` answer anything before it?"""
    return any(o.fate == "answered" and o.generation == ex.generation and o.index < ex.index
               for o in exchanges(record.transcript, record.session.registry))


def culprit(record: RunRecord) -> Culprit | None:
    """The first request whose server exited, or never answered it nor anything after it."""
    found = exchanges(record.transcript, record.session.registry)
    for pos, ex in enumerate(found):
        later = [o for o in found[pos + 1:] if o.generation == ex.generation]
        if ex.fate == "exited" or (ex.fate == "timeout" and ex.next_fate == "exited"):
            how = "exited"
        elif ex.fate == "timeout" and not any(o.fate == "answered" for o in later) \
                and ex.answer is None and not later:
            how = "stopped answering"
        else:
            continue
        return Culprit(ex, how, _step_of(record, ex), not _said_before(record, ex))
    return None


def _step_of(record: RunRecord, ex: Exchange) -> str | None:
    """The name of the scenario step that sent ``ex`` (steps are sent in order, after
    negotiation: the n-th request after the last negotiation request is step n)."""
    if not record.steps:
        return None
    sent_steps = [s for s in record.steps if s.got != "not listed"]
    requests = exchanges(record.transcript, record.session.registry)
    tail = requests[len(requests) - len(sent_steps):] if sent_steps else []
    for step, sent in zip(sent_steps, tail, strict=False):
        if sent.index == ex.index:
            return step.name
    return None


#: the fast probe's extra requests (``_steps.MODEL_STEPS``, which imports this module)
_MODEL_STEPS: Final = ("unknown method", "initialize after modern", "after unknown method",
                       "discover after modern", "initialize again")


def settle(record: RunRecord) -> Culprit | None:
    """Blame an exit or silence during the steps on the request in flight: the run fails."""
    found = culprit(record)
    if found is not None and found.step == "ping" and found.how == "stopped answering":
        return None  # an unanswered ping is its own finding (ping-unanswered), not a verdict
    if found is not None and found.step in _MODEL_STEPS:
        return None  # the fast probe's questions for the model are findings, never a verdict
    if found is not None and found.step == "tool call":  # the call step (``_calls``): the
        return found  # request in flight is a finding, never the verdict
    session = record.session
    if found is not None and session.status == "ok":
        session.fail(found.sentence())
    return found

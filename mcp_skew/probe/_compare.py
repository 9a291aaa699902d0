"""Does the simulator agree with the real run? Status, revision, and every answer's code and shape.

The prediction is the simulator's handshake run of the same client against the
inferred peer. Agreeing on the status alone hides a server that fails for
another reason than the one predicted (a -32603 where the simulator says
-32601), so the n-th request of each method the simulated client sent is compared with
the real client's n-th request of that method (transports add and drop
requests of their own: an HTTP+SSE client's first POST), and the answer must be
of the same kind, reduced to what a client reads: the error code, or which of the
fields that steer a client (``protocolVersion`` and its value, ``resultType``,
``ttlMs``, ``cacheScope``, ``supportedVersions``) the result carries; no
answer is how the request ended (a timeout, an exit).
"""

from __future__ import annotations

from typing import Final

from ..simulator import RunRecord
from ..simulator.findings import Finding
from ._exchanges import Exchange, exchanges

__all__ = ["UNMODELLED_STEPS", "answer_shape", "disagreement", "modelled_status", "shapes"]

#: Result fields that steer a client; the rest (tool lists, server info) is the server's own.
_STEERING: Final = ("resultType", "ttlMs", "cacheScope", "supportedVersions")
_CITE: Final = "2025-11-25: basic/lifecycle.mdx §Version Negotiation"


def answer_shape(ex: Exchange) -> str:
    """``error -32601``, ``result{protocolVersion=2025-11-25,resultType}``, ``timeout``, ..."""
    if ex.fate != "answered":
        return "no answer (timeout)" if ex.fate == "timeout" else f"no answer ({ex.fate})"
    if ex.error is not None and ex.synthesized:
        return f"HTTP {ex.status} without a JSON-RPC body (read as error {ex.code})"
    if ex.error is not None:
        return f"error {ex.code}"
    result = ex.result or {}
    keys: list[str] = [k for k in _STEERING if k in result]
    if "protocolVersion" in result:
        keys.insert(0, f"protocolVersion={result['protocolVersion']}")
    return "result{" + ",".join(keys) + "}"


def shapes(record: RunRecord) -> list[tuple[str, str]]:
    """Each request of a run as (method, answer shape), in order."""
    return [(ex.method, answer_shape(ex)) for ex in exchanges(record.transcript, record.session.registry)]


def _by_occurrence(pairs: list[tuple[str, str]]) -> dict[tuple[str, int], str]:
    """(method, n) -> the shape of the n-th request of that method."""
    seen: dict[str, int] = {}
    out: dict[tuple[str, int], str] = {}
    for method, shape in pairs:
        seen[method] = seen.get(method, 0) + 1
        out[(method, seen[method])] = shape
    return out


def disagreement(predicted: RunRecord, real: RunRecord, peer: str, *,
                 compare_status: bool = True) -> Finding | None:
    """The first difference between the simulated and the real run, as a finding with both
    answers; None when they agree on status, revision and every predicted answer."""
    got = _by_occurrence(shapes(real))
    for (method, n), shape in _by_occurrence(shapes(predicted)).items():
        real_shape = got.get((method, n))
        if real_shape is None or "(unanswered)" in shape or real_shape == shape:
            continue  # not sent for real (the status says), or nothing predicted
        nth = f" (its {_ordinal(n)})" if n > 1 else ""
        return Finding("simulation-disagrees", "info",
                       f"{method}{nth}: the simulator (against {peer}) predicted {shape}; the "
                       f"real server answered {real_shape}", None, _CITE)
    if compare_status and (modelled_status(predicted), predicted.revision) != (
            modelled_status(real), real.revision):
        return Finding("simulation-disagrees", "info",
                       f"the simulator (against {peer}) predicted {modelled_status(predicted)} "
                       f"{predicted.revision or '-'}; the real run: {modelled_status(real)} "
                       f"{real.revision or '-'}", None, _CITE)
    return None


#: Steps a real run plays and the simulator's prediction does not: checked against the spec
#: (their findings), never against the model. A prediction carries them over from the real
#: runs that observed them (``_model.predicted_run``).
UNMODELLED_STEPS: Final = frozenset({"ping"})


def modelled_status(record: RunRecord) -> str:
    """The run's status by what the simulator models: its negotiation and the steps other
    than :data:`UNMODELLED_STEPS`."""
    if record.session.status != "ok":
        return "failed"
    broken = [s for s in record.steps if not s.ok and s.expected == "result"
              and s.name not in UNMODELLED_STEPS]
    return "failed" if broken else "ok"


def _ordinal(n: int) -> str:
    return {2: "2nd", 3: "3rd"}.get(n, f"{n}th")

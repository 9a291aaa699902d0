"""From the runs against every server to the client as a peer spec: its inferred model.

Theory of operation
-------------------
:func:`infer` reads the :class:`~._observe.Observation` of each server and collects
what the wire shows of the client, in the simulator's quirk vocabulary
(``docs/quirks.md``):

- **revisions offered**: every revision ``initialize`` asked for, every counter-offer
  it took, and every revision a modern request named in ``_meta``;
- **era kind**: legacy (only ``initialize``), modern (only ``_meta``), dual (both);
  a modern client that opens with ``server/discover`` is ``+discover``;
- **how it falls back** from its probe: on every error (the spec), only on -32601
  (``+fallback-32601``), after a timeout of how long (``+probe-timeout=MS``, the wait
  rounded to a round number: see :func:`round_ms`), not at all on a silent probe
  (``+connect-timeout=MS``), and on a fresh server process (``+restart``);
- whether it **retries -32022** (a modern request at a revision the error named);
- whether it **validates results strictly**: against a server whose modern results
  lack ``resultType``, it stops at the probe's answer (``+strict``) or after the
  first request (``+strict-results``), and sends the refused request again
  (``+raw-retry``);
- whether it **caches** ``ttlMs``: a second ``tools/list`` while the first answer is
  fresh is ``+no-cache``;
- whether it **keeps the legacy era** after its server was upgraded (an upgrade case,
  ``BEFORE->AFTER``: read apart from the other runs): it opened the second run with
  ``initialize`` and stayed legacy where, against the same upgraded spec fresh, it reached
  the modern era: ``+keeps-era``.

What no default server can show is said so (:attr:`InferredClient.unknown`), never
guessed: a fallback denylist of modern error codes, ``+exact``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from ..errors import UsageError
from ..simulator import PeerSpec, parse_peer
from ..versions import Era, Registry
from ._observe import Observation
from ._servers import split_upgrade

__all__ = ["DEFAULT_PROBE_MS", "ROUND_MS", "InferredClient", "infer", "round_ms",
           "strictness_checked"]

#: The simulator's default probe wait (``ClientPolicy.probe_timeout_ms``).
DEFAULT_PROBE_MS: Final = 3_000
#: Round waits a person sets; a measured wait is the first of these it reaches, less
#: :data:`SLACK`.
ROUND_MS: Final = (100, 250, 500, 1_000, 1_500, 2_000, 3_000, 5_000, 10_000, 15_000, 20_000,
                   30_000, 45_000, 60_000, 90_000, 120_000, 300_000)
#: How long a measured wait may read over the wait set. Each server process's lines are
#: timed from its stamp, written once its interpreter has started (:mod:`mcp_skew._stamp`);
#: a fallback on a fresh process is stamped after that process's start-up, which on a
#: loaded machine is a few hundred ms more than the first one's (a TypeScript client's
#: 3 s wait read 3,331 and 3,342 ms at a load average of 9 to 13 on 2 CPUs).
SLACK: Final = 0.15


def round_ms(ms: int) -> int:
    """The round wait a measured ``ms`` most likely is."""
    for value in ROUND_MS:
        if ms <= value * (1 + SLACK):
            return value
    return ms


@dataclass(slots=True)
class Traits:
    """What the runs show, before it becomes a spec."""

    legacy: list[str] = field(default_factory=list)
    modern: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  #: counter-offers refused
    discover_first: bool = False
    falls_back_on: list[str] = field(default_factory=list)  #: probe answers it fell back on
    stops_on: list[str] = field(default_factory=list)  #: probe answers it gave up on
    probe_ms: int | None = None  #: the wait before a fallback on a silent probe
    gives_up_ms: int | None = None  #: the wait before giving up on a silent probe
    restarts: bool = False
    retries_32022: bool | None = None
    strict: str | None = None  #: "strict", "strict-results" or None
    raw_retry: bool = False
    caches: bool | None = None
    keeps_era: bool | None = None  #: stayed legacy after an upgrade (None: no upgrade case)
    hangs: list[str] = field(default_factory=list)  #: servers where it ran to the deadline
    #: what it does with a server/discover result that lacks a required field: True, reads it
    #: as a failed probe (``+strict-discover``); False, goes on with it; None: not seen
    strict_discover: bool | None = None
    #: the longest a probe was still waited on when a run ended at the deadline (its wait is
    #: longer: not a hang)
    waits_beyond_ms: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}


@dataclass(frozen=True, slots=True)
class InferredClient:
    """The client as a peer spec (None when nothing could be inferred), and why."""

    spec: PeerSpec | None
    sentence: str
    traits: Traits
    unknown: tuple[str, ...] = ()

    @property
    def notation(self) -> str | None:
        return self.spec.notation if self.spec else None

    def to_dict(self) -> dict[str, Any]:
        return {"spec": self.notation, "sentence": self.sentence,
                "traits": self.traits.to_dict(), "unknown": list(self.unknown)}


def _revisions(obs: list[Observation], registry: Registry, t: Traits) -> None:
    legacy: set[str] = set()
    modern: set[str] = set()
    refused: set[str] = set()
    for o in obs:
        legacy |= {r for r in o.offered_legacy if r in registry}
        modern |= {r for r in o.offered_modern if r in registry}
        legacy |= {r for r, taken in o.counter_offers.items() if taken and r in registry}
        refused |= {r for r, taken in o.counter_offers.items() if not taken}
    # newest first, as named peers write them
    t.legacy = [r for r in registry.ordered(sorted(legacy)) if registry.get(r).era is Era.LEGACY]
    t.modern = [r for r in registry.ordered(sorted(modern)) if registry.get(r).era is Era.MODERN]
    t.refused = sorted(refused - legacy)


def _fallback(obs: list[Observation], t: Traits) -> None:
    for o in obs:
        p = o.probe
        if p is None or p.answer in ("result", "none"):
            continue
        if p.then == "initialize":
            t.falls_back_on.append(p.token)
            if p.answer == "timeout" and p.waited_ms is not None:
                # the shortest: a measure reads long, never short, when a fresh process is
                # stamped late (SLACK)
                t.probe_ms = p.waited_ms if t.probe_ms is None else min(t.probe_ms, p.waited_ms)
        elif not o.timed_out:
            t.stops_on.append(p.token)
            if p.answer == "timeout" and p.waited_ms is not None:
                t.gives_up_ms = max(t.gives_up_ms or 0, p.waited_ms)
        if p.restarted and p.then == "initialize":
            t.restarts = True
    t.falls_back_on = sorted(set(t.falls_back_on))
    t.stops_on = sorted(set(t.stops_on) - set(t.falls_back_on))


def _short_results(o: Observation) -> bool:
    """A run where the client reached the modern era of a server whose modern results lack
    a field their revision requires: what its strictness is read from."""
    return (("+no-result-type" in o.server or "+no-cache-hints" in o.server)
            and o.status == "ok" and o.era == "modern")


def strictness_checked(obs: list[Observation]) -> bool:
    """Whether any run showed the client such a result (else its strictness is not seen)."""
    return any(_short_results(o) for o in obs)


def _strictness(obs: list[Observation], t: Traits) -> None:
    for o in obs:
        if not _short_results(o) or o.outcome == "works":
            continue
        after = [r for r in o.requests if not r.startswith("server/discover")]
        if not after:
            t.strict = "strict"
        else:
            t.strict = t.strict or "strict-results"
            if len([r for r in after if r.startswith("tools/list")]) > 1:
                t.raw_retry = True


#: The server quirk of a ``server/discover`` result that lacks a field the schema requires.
INCOMPLETE_DISCOVER: Final = "+discover-incomplete"


def _discover_check(obs: list[Observation], t: Traits) -> None:
    """``strict_discover`` from the runs against a server whose discover result is incomplete:
    a client that got the result and then sent ``initialize`` (a dual one falling back), or
    sent nothing more and failed (a modern one), read it as a failed probe."""
    for o in obs:
        p = o.probe
        if INCOMPLETE_DISCOVER not in o.server or p is None or p.answer != "result":
            continue
        if p.then == "initialize" or (o.outcome != "works" and not [
                r for r in o.requests if not r.startswith(p.method)]):
            t.strict_discover = True
        elif o.era == "modern" and t.strict_discover is None:
            t.strict_discover = False


def _caching(obs: list[Observation], t: Traits) -> None:
    for o in obs:
        if o.era != "modern" or o.listed_again_ms is None or o.first_ttl_ms is None:
            continue
        if "+no-result-type" in o.server or "+no-cache-hints" in o.server:
            continue  # a refused result asked again is no cache miss
        if o.first == "tools/list":
            continue  # the first list was the opening request, its answer read as the era's
        fresh = o.listed_again_ms < o.first_ttl_ms
        t.caches = False if fresh else t.caches


def _upgrades(upgraded: list[Observation], rest: list[Observation], t: Traits) -> None:
    """``keeps_era`` from the upgrade cases: legacy after the upgrade, though the same spec
    served fresh (when the set has it) kept the client modern."""
    for o in upgraded:
        if o.status != "ok":
            continue
        if o.era == "modern":
            t.keeps_era = bool(t.keeps_era)
            continue
        after = split_upgrade(o.server)[1]
        fresh = [r for r in rest if r.server == after]
        if o.era == "legacy" and o.first == "initialize" and \
                (not fresh or any(r.era == "modern" for r in fresh)):
            t.keeps_era = True


def gather(obs: list[Observation], registry: Registry) -> Traits:
    """The client's traits over every run (the upgrade cases only for the revisions offered
    and ``keeps_era``)."""
    t = Traits()
    _revisions(obs, registry, t)  # what an upgrade case's run offered was offered too
    upgraded = [o for o in obs if split_upgrade(o.server)[0] is not None]
    obs = [o for o in obs if split_upgrade(o.server)[0] is None]
    _upgrades(upgraded, obs, t)
    firsts = [o.first for o in obs if o.first is not None]
    t.discover_first = bool(firsts) and all(f == "server/discover" for f in firsts)
    _fallback(obs, t)
    if any(o.retried_32022 for o in obs):
        t.retries_32022 = True
    _strictness(obs, t)
    _discover_check(obs, t)
    _caching(obs, t)
    t.hangs = [o.server for o in obs if o.timed_out and not o.waiting]
    beyond = [o.waiting_ms for o in obs if o.waiting and o.waiting_ms is not None
              and o.probe is not None and o.waiting.startswith(o.probe.method)]
    t.waits_beyond_ms = max(beyond) if beyond else None
    return t


def _kind(t: Traits) -> str | None:
    if t.legacy and t.modern:
        return "dual"
    if t.legacy:
        return "legacy"
    return "modern" if t.modern else None


def _dual_quirks(t: Traits) -> list[str]:
    quirks: list[str] = []
    errors_fallen = [a for a in t.falls_back_on if a.lstrip("-").isdigit()]
    errors_stopped = [a for a in t.stops_on if a.lstrip("-").isdigit()]
    if errors_fallen == ["-32601"] and errors_stopped:
        quirks.append("fallback-32601")
    if t.restarts:
        quirks.append("restart")
    if t.keeps_era:
        quirks.append("keeps-era")
    if t.probe_ms is not None and "fallback-32601" not in quirks:
        probe = round_ms(t.probe_ms)
        if probe != DEFAULT_PROBE_MS:
            quirks.append(f"probe-timeout={probe}")
    elif t.gives_up_ms is not None and "fallback-32601" not in quirks:
        gives_up = round_ms(t.gives_up_ms)
        after = next((v for v in ROUND_MS if v > gives_up), gives_up * 2)
        quirks += [f"probe-timeout={after}", f"connect-timeout={gives_up}"]
    return quirks


def _quirks(kind: str, t: Traits) -> list[str]:
    quirks: list[str] = []
    if kind == "dual":
        quirks += _dual_quirks(t)
    if kind == "modern" and t.discover_first:
        quirks.append("discover")
    if kind in ("modern", "dual") and t.strict_discover:
        quirks.append("strict-discover")
    if kind in ("modern", "dual") and t.strict:
        quirks.append(t.strict)
        if t.raw_retry:
            quirks.append("raw-retry")
    if t.caches is False:
        quirks.append("no-cache")
    return quirks


PHRASES: Final = {
    "fallback-32601": "falls back from its probe only on -32601",
    "restart": "starts a fresh server process for the fallback",
    "probe-timeout": "waits {value} ms for its probe",
    "connect-timeout": "gives up on a silent probe after {value} ms",
    "discover": "opens with server/discover",
    "strict": "refuses a server/discover result that lacks a required field",
    "strict-discover": "reads a server/discover result that lacks a required field as a "
    "failed probe",
    "strict-results": "fails a request whose result lacks a field its revision requires",
    "raw-retry": "sends a refused request once more",
    "no-cache": "asks again while a result is fresh (no ttlMs cache)",
    "keeps-era": "keeps the legacy era after its server was upgraded",
}


def _unknown(kind: str, t: Traits) -> tuple[str, ...]:
    out = []
    if kind == "dual":
        out.append("how it reads a modern error to its probe (-32020, -32021, or -32022 naming a "
                   "handshake revision: +fallback-denylist): no simulated server sends one")
        out.append("what it does with a server/discover result listing no modern revision it "
                   "speaks (+discover-fallback): no default server answers so")
        if t.probe_ms is None and t.gives_up_ms is None and t.waits_beyond_ms is None:
            out.append("its probe wait: no silent probe ended before the deadline")
        if t.keeps_era is None:
            out.append("whether it keeps a legacy era after its server was upgraded "
                       "(+keeps-era): no upgrade case (BEFORE->AFTER) was run")
    if t.probe_ms is None and t.gives_up_ms is None and t.waits_beyond_ms is not None:
        out.append(f"its probe wait: longer than {t.waits_beyond_ms} ms (still waiting when "
                   "the run ended; a longer --timeout shows it)")
    out.append("whether it refuses tools whose inputSchema is not an object schema "
               "(+strict-tools): no default server lists such a tool")
    out.append("how it finds and uses a server's authorization (the auth quirks, e.g. "
               "+auth-origin-fallback, +dcr-only): no default server requires authorization")
    out.append("whether it sends logging/setLevel once connected (+era-set-level, "
               "+legacy-set-level): no default server declares logging")
    if t.retries_32022 is None and kind != "legacy":
        out.append("whether it retries -32022: no server answered its requests with one")
    if t.caches is None:
        out.append("whether it caches ttlMs: it listed the tools once per run")
    return tuple(out)


def infer(obs: list[Observation], registry: Registry, label: str = "") -> InferredClient:
    """The simplest client peer spec that behaves like the runs, with its sentence."""
    t = gather(obs, registry)
    kind = _kind(t)
    if kind is None:
        return InferredClient(None, "offered no revision mcp-skew knows: it sent no initialize "
                              "and no request with a protocol version in _meta", t)
    revs = registry.ordered([*t.modern, *t.legacy])  # newest first, as named peers write them
    quirks = _quirks(kind, t)
    notation = f"{kind}:{','.join(revs)}" + "".join(f"+{q}" for q in quirks)
    try:
        spec = parse_peer(notation, "client", registry)
    except UsageError as exc:
        return InferredClient(None, f"does not fit a peer spec: {exc}", t)
    if label:
        spec = replace(spec, label=label, note=f"inferred by mcp-skew probe-client as {notation}")
    phrases = [PHRASES[q.partition("=")[0]].format(value=q.partition("=")[2]) for q in quirks]
    sentence = f"behaves like {kind}:{','.join(revs)}"
    if phrases:
        sentence += ": it " + "; it ".join(phrases)
    return InferredClient(spec, sentence, t, _unknown(kind, t))

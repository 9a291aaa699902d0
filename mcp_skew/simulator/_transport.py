"""Transport rules: what a transport changes in how a dual-era client reads its probe.

A run goes over a transport, ``stdio`` or ``http`` (Streamable HTTP). The client
machine is the same on both; what differs is one rule of the era detection,
kept here as data (:class:`TransportRule`) that the client reads
(``SimClient(..., transport=...)``):

- stdio (2026-07-28 ``basic/transports/stdio.mdx`` §Backward Compatibility): a
  DiscoverResult or a recognised modern error keeps the client modern; *any
  other error, or no reply within a reasonable timeout*, means a legacy server:
  fall back to ``initialize``.
- Streamable HTTP (2026-07-28 ``basic/transports/streamable-http.mdx``
  §Backward Compatibility, and ``basic/versioning.mdx`` §Compatibility Matrix,
  row Dual-era/Legacy): the client inspects the body of the ``4xx`` before
  falling back; a recognised modern error keeps it modern, an empty body or any
  other error means a legacy server. No answer is not an answer: a timeout (or a
  connection that drops) is an error of the request, not a sign of a legacy
  server, so the client does not fall back. Nor is every HTTP error status: only
  400, 404 and 405 (the statuses a legacy server refuses a modern request with, and
  the 2025-03-26..2025-11-25 ``basic/transports.mdx`` §Backwards Compatibility ones)
  are era evidence; a 401 or 403 is an authorization failure and a 5xx a server
  error (the TypeScript client was fixed to read them so: typescript-sdk PR 2564).
  Client quirk ``auth-fallback`` falls back on them all the same (the TypeScript
  2.0 betas, typescript-sdk issue 2561).

Over HTTP the client's path records which rule applied (a ``rule`` step,
:func:`mcp_skew.simulator._path.rule`); over stdio the path is as it always was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

from .machine._events import Event, Reply, Timeout

__all__ = ["ERA_EVIDENCE_STATUS", "HTTP", "NOT_OVER_STDIO", "RULES", "STDIO", "TRANSPORTS",
           "Transport", "TransportRule", "http_status", "rule_for"]

Transport = Literal["stdio", "http"]
#: The transports a run can take, the default first.
TRANSPORTS: Final[tuple[Transport, ...]] = get_args(Transport)
#: Why scenario auth does not run over stdio (here, not beside the authorization: a stdio
#: run, which says it, loads no HTTP and no authorization).
NOT_OVER_STDIO = ("scenario auth does not apply over stdio: authorization is for HTTP "
                  "transports (implementations using stdio SHOULD NOT follow it, "
                  "basic/authorization.mdx §Protocol Requirements); use --transport http")

#: What ends a probe: an answer (an error that is not a recognised modern one),
#: no answer in time, or the end of the connection.
ProbeOutcome = Literal["error", "timeout", "closed", "auth", "server-error", "http-error"]
#: HTTP statuses that may come from a legacy server refusing a modern request.
ERA_EVIDENCE_STATUS: Final = frozenset({400, 404, 405})


def http_status(event: Event) -> int | None:
    """The HTTP status of an answer made from a bodiless error status (:attr:`Reply.status`),
    else None."""
    return event.status if isinstance(event, Reply) and event.error is not None else None


@dataclass(eq=False, frozen=True, slots=True)
class TransportRule:
    """How a dual-era client reads a probe that did not keep it modern, on one transport."""

    name: Transport
    title: str  #: as a person names the transport
    #: the probe outcomes that mean "a legacy server": fall back to ``initialize``
    legacy_signs: frozenset[ProbeOutcome]
    cite: str  #: where the rule is written

    def outcome(self, event: Event) -> ProbeOutcome:
        if isinstance(event, Reply):
            status = http_status(event) if self.name == "http" else None
            if status is None or status in ERA_EVIDENCE_STATUS:
                return "error"
            if status in (401, 403):
                return "auth"
            return "server-error" if status >= 500 else "http-error"
        return "timeout" if isinstance(event, Timeout) else "closed"

    def falls_back(self, event: Event, *, any_status: bool = False) -> bool:
        """Whether this probe outcome sends a dual-era client to ``initialize``
        (``any_status``: client quirk ``auth-fallback``, an HTTP error status of any kind
        is read as a legacy server)."""
        outcome = self.outcome(event)
        if any_status and outcome in ("auth", "server-error", "http-error"):
            return True
        return outcome in self.legacy_signs

    @property
    def recorded(self) -> bool:
        """Whether the path names the rule (only where it departs from stdio's)."""
        return self.name != "stdio"


STDIO: Final = TransportRule(
    "stdio", "stdio", frozenset({"error", "timeout", "closed"}),
    "2026-07-28: basic/transports/stdio.mdx §Backward Compatibility")
HTTP: Final = TransportRule(
    "http", "Streamable HTTP", frozenset({"error"}),
    "2026-07-28: basic/transports/streamable-http.mdx §Backward Compatibility")
RULES: Final[dict[Transport, TransportRule]] = {"stdio": STDIO, "http": HTTP}


def rule_for(transport: str) -> TransportRule:
    """The rule of a transport by name (``stdio`` or ``http``)."""
    try:
        return RULES[transport]  # type: ignore[index]
    except KeyError:
        raise ValueError(f"unknown transport {transport!r}; known: "
                         f"{', '.join(TRANSPORTS)}") from None

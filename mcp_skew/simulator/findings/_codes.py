"""The vocabulary of findings: every code (:data:`FindingCode`), its severities, the
commands that report it, and what a code means (:class:`FindingInfo`, a section of
``docs/findings.md``).

Rule: severities follow the spec's words. MUST -> ``error``, SHOULD ->
``warning``, a legacy behaviour a newer revision changed (or a field that is
allowed but tells the peer nothing) -> ``info``. Where one code is reported with
several severities, :attr:`FindingInfo.severity_rule` says which when. Also the
spec citations the tables of :mod:`._server`, :mod:`._client`
and :mod:`._auth` share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from ...versions import Cite

__all__ = ["FINDING_CODES", "LEGACY", "LIFECYCLE", "MODERN", "PROBE", "STDIO_LEGACY",
           "FindingCode", "FindingInfo", "Reporter", "Severity"]

FindingCode = Literal[
    "missing-result-type",
    "missing-cache-hints",
    "era-mismatch",
    "counter-offer-unsupported",
    "rejects-instead-of-counter-offer",
    "echoes-any-revision",
    "silent-on-unknown",
    "crash-on-unknown",
    "resource-not-found-code",
    "ping-unanswered",
    "discover-missing",
    "tool-input-error-as-protocol-error",
    "not-json",
    "schema-violation",
    "unknown-field",
    "unexpected-answer",
    "counter-offer-despite-support",
    "not-jsonrpc",
    "tool-schema-not-object",
    "output-flood",
    "server-exited",
    "stopped-answering",
    "serves-before-initialize",
    "simulation-disagrees",
    "client-fallback-keyed-to-code",
    "client-no-fallback-on-timeout",
    "client-no-fresh-process",
    "client-hangs",
    "client-refuses-result",
    "client-prefers-legacy",
    "client-keeps-legacy-after-upgrade",
    "client-never-reads-app",
    "client-fails-where-spec-works",
    "client-model-disagrees",
    "auth-required",
    "auth-undiscoverable",
    "auth-metadata-inconsistent",
    "tool-call-failed",
    "output-schema-dialect",
    "structured-content-missing",
    "structured-content-mismatch",
]
Severity = Literal["error", "warning", "info"]
#: The commands whose output carries findings (``show-log`` annotates a wire log; ``probe-client``
#: drives a real client against simulated servers).
Reporter = Literal["simulate", "matrix", "probe", "show-log", "probe-client"]

FINDING_CODES: Final[tuple[str, ...]] = FindingCode.__args__  # type: ignore[attr-defined]


@dataclass(eq=False, frozen=True, slots=True)
class FindingInfo:
    """What a finding code means, and what to do about it: its section of ``docs/findings.md``."""

    summary: str  #: one line
    when: str  #: what mcp-skew saw, per command
    rule: str  #: what the spec says, in its words
    fix: str  #: what to change, and on which side
    severities: tuple[Severity, ...]  #: every severity the code is reported with
    cites: tuple[Cite, ...]  #: revision and spec page or schema definition
    reported_by: tuple[Reporter, ...]
    severity_rule: str = ""  #: which severity when, for a code with several
    refs: tuple[str, ...] = ()  #: sources outside the MCP spec (JSON-RPC 2.0)
    quirks: tuple[str, ...] = ()  #: simulator quirks that reproduce it (``docs/quirks.md``)


# -- the spec pages the tables cite --------------------------------------------------------

MODERN = "2026-07-28"
LEGACY = "2025-11-25"  #: the newest legacy revision: its text stands for every legacy revision cited
LIFECYCLE = Cite(LEGACY, "basic/lifecycle.mdx", "Version Negotiation")
STDIO_LEGACY = Cite(LEGACY, "basic/transports.mdx", "stdio")
PROBE = Cite(MODERN, "basic/transports/stdio.mdx", "Backward Compatibility")

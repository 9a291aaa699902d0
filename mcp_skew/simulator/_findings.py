"""Findings: where a peer departs from the revision in use. Data, never exceptions.

Each code is stable (kebab-case) and documented in ``docs/findings.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

__all__ = ["FINDING_CODES", "Finding", "FindingCode", "Severity"]

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
    "tool-input-error-as-protocol-error",
    "not-json",
    "schema-violation",
    "unknown-field",
    "unexpected-answer",
    "counter-offer-despite-support",
    "not-jsonrpc",
    "output-flood",
]
Severity = Literal["error", "warning", "info"]

FINDING_CODES: Final[tuple[str, ...]] = FindingCode.__args__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Finding:
    """One departure from the revision in use."""

    code: FindingCode
    severity: Severity
    message: str
    index: int | None = None  #: position of the message in the transcript
    cite: str = ""  #: revision and spec page or schema definition

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "severity": self.severity, "message": self.message,
                "index": self.index, "cite": self.cite}

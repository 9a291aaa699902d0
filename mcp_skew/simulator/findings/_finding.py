"""Findings: where a peer departs from the revision in use. Data, never exceptions.

A :class:`Finding` is one departure; its code is one of
:data:`~._codes.FindingCode`, stable (kebab-case) and documented in
``docs/findings.md``, which is generated from :data:`FINDINGS`
(``.venv/bin/python tests/docs/test_findings_doc.py``): every code's
:class:`~._codes.FindingInfo`, gathered from the tables about servers
(:mod:`._server`), clients (:mod:`._client`) and authorization
(:mod:`._auth`). The severities follow the spec's words (the rule is in
:mod:`._codes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from ._auth import AUTH_FINDINGS
from ._calls import CALL_FINDINGS
from ._client import CLIENT_FINDINGS
from ._codes import FindingCode, FindingInfo, Severity
from ._server import SERVER_FINDINGS

__all__ = ["FINDINGS", "Finding"]

@dataclass(frozen=True, slots=True)
class Finding:
    """One departure from the revision in use."""

    code: FindingCode
    severity: Severity
    message: str
    index: int | None = None  #: position of the message among the transcript's messages
    cite: str = ""  #: revision and spec page or schema definition

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "severity": self.severity, "message": self.message,
                "index": self.index, "cite": self.cite}



#: Every finding code, in the order of :data:`~._codes.FindingCode`.
FINDINGS: Final[Mapping[FindingCode, FindingInfo]] = MappingProxyType({
    **SERVER_FINDINGS, **CLIENT_FINDINGS, **AUTH_FINDINGS, **CALL_FINDINGS})

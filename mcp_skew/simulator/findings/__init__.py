"""Findings: where a peer departs from the revision in use. Data, never exceptions.

:class:`Finding` is one departure; its :data:`FindingCode` and :data:`Severity` are the
vocabulary, :data:`FINDINGS` every code's entry (gathered from the tables about servers,
clients and authorization; the codes in order are ``_finding.FINDING_CODES``).
``docs/findings.md`` is generated from :data:`FINDINGS`. A new finding: its code in
``_codes``, its entry in the table of its side (``_server``, ``_client``, ``_auth``).
"""

from __future__ import annotations

from ._codes import FindingCode, Severity
from ._finding import FINDINGS, Finding

__all__ = ["FINDINGS", "Finding", "FindingCode", "Severity"]

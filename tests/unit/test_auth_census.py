"""The census: a remote that needs authorization is needs-auth with its discovery, not
incompatible; the report counts, per client revision, the protected servers a client of
that revision finds the authorization server of."""

from __future__ import annotations

import json
from typing import Any

from mcp_skew.census._report import build_report, render_report
from mcp_skew.census._work import STATUSES


def _row(key: str, found: dict[str, bool]) -> dict[str, Any]:
    auth = {"required": True, "status": 401, "www_authenticate": "Bearer",
            "revisions": [{"revision": r, "found": f, "path": "", "reason": ""}
                          for r, f in found.items()]}
    return {"key": key, "server": f"io.example/{key}", "version": "1.0.0", "kind": "remote",
            "status": "needs-auth", "error": None, "report": json.dumps({"auth": auth})}


def test_needs_auth_rows_are_counted_per_client_revision() -> None:
    assert "needs-auth" in STATUSES
    rows = [_row("a", {"2025-03-26": False, "2025-06-18": True, "2025-11-25": True}),
            _row("b", {"2025-03-26": False, "2025-06-18": False, "2025-11-25": True})]
    report = build_report(rows)
    assert report["statuses"] == {"needs-auth": 2}
    assert report["authorization"] == {"protected": 2, "found_by_revision": {
        "2025-03-26": 0, "2025-06-18": 1, "2025-11-25": 2}}
    text = render_report(report, "markdown")
    assert "Of the 2 protected servers (needs-auth):" in text
    assert "a 2025-11-25 client finds the authorization server of 2 of 2 (100%)" in text

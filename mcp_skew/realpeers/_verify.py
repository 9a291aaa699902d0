"""A named peer's drift checks in the role(s) it has a model for: the server checks of
:mod:`._drift`, the client checks of :mod:`._client_drift` (``mcp-skew verify-peer NAME``)."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import UsageError
from ..peers import ROLES, known_names, named_suggestion, resolve
from ..versions import Role
from ._client_drift import verify_client
from ._drift import verify_server
from ._facets import DriftReport

__all__ = ["verify"]


def verify(name: str, role: Role | None = None, *, jobs: int = 2,
           progress: Callable[[str], None] | None = None) -> list[DriftReport]:
    """Check ``name`` in the role(s) it has a model for (both when ``role`` is None)."""
    reports: list[DriftReport] = []
    roles: tuple[Role, ...] = ROLES if role is None else (role,)
    errors: list[str] = []
    for r in roles:
        try:
            resolved = resolve(name, r)
        except UsageError as exc:
            errors.append(str(exc))
            continue
        if resolved is None:
            raise UsageError(f"unknown named peer {name!r}"
                             f"{named_suggestion(name, known_names())}; "
                             f"known: {', '.join(known_names())}")
        check = verify_server if r == "server" else verify_client
        reports.append(check(resolved, jobs=jobs, progress=progress))
    if not reports:
        raise UsageError(errors[0] if errors else f"unknown named peer {name!r}")
    return reports

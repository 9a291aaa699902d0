"""Real MCP implementations installed in isolated, cached environments, and the drift checks
of their models (the models themselves, data, are the catalogue in :mod:`mcp_skew.peers`).

The environments (:mod:`._envs`) are imported with the package; the ``verify-peer`` command's
entry point (:func:`run_command`, in :mod:`._command`, on the drift checks of :mod:`._drift`)
the real-world matrix (``matrix --set real`` or ``--run-real``: :func:`run_matrix`, in
:mod:`._realmatrix`, the matrix command's work given the named peers and the real runs) and
a named bridge run in front of a server command (:func:`bridge_running`, ``probe --via``)
are imported when one of their names is first read,
so that the census, which needs only the environments, does not import the simulator's
runs, the matrix and the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .._lazy import first_use
from ._envs import EnvironmentUnavailable, ensure_npm_env, ensure_python_env

if TYPE_CHECKING:
    from ._bridge_start import bridge_running
    from ._command import run_command
    from ._realmatrix import run_matrix

__all__ = [
    "EnvironmentUnavailable",
    "bridge_running",
    "ensure_npm_env",
    "ensure_python_env",
    "run_command",
    "run_matrix",
]

#: Where each name read on first use is defined.
_HOMES: Final[dict[str, str]] = {
    "run_command": "._command",
    "run_matrix": "._realmatrix",
    "bridge_running": "._bridge_start",
}

__getattr__ = first_use(__name__, _HOMES)

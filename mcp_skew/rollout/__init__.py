"""Rollouts: what a population of clients meets while a fleet of servers changes.

The core is pure (no I/O) and built on the simulator's face and the profiles
only: :mod:`._fleet` (instances, load balancers, schedules), :mod:`._outcomes`
(what one request meets, read off the simulator's runs) and :mod:`._timeline`
(:class:`Rollout`: the population's requests over simulated time, minute by
minute). On it, :func:`study` runs a rollout and its baseline for the verdict;
:func:`plan` compares the orders of a migration (these add named peers and the
matrix's failure causes); the renderers print the timeline, the verdict and the
plan as text, JSON or a self-contained HTML page.

Its face lists what the rest of mcp-skew uses: the library's :func:`study`, :func:`plan` and
their :class:`Setup`, and the command's entry point :func:`run_command` (``mcp-skew rollout``,
in :mod:`._command`, read on first use); the renderers and the counted-spec parser are
imported from their modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .._lazy import first_use
from ._study import Setup, plan, study

if TYPE_CHECKING:
    from ._command import run_command

__all__ = [
    "Setup",
    "plan",
    "run_command",
    "study",
]

#: Where each name read on first use is defined: the command's entry point (it imports the
#: renderers, the output files and the peer notation) when the command runs.
_HOMES: Final[dict[str, str]] = {"run_command": "._command"}

__getattr__ = first_use(__name__, _HOMES)

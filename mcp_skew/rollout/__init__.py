"""Rollouts: what a population of clients meets while a fleet of servers changes.

:func:`study` runs a rollout and its baseline for the verdict; :func:`plan`
compares the orders of a migration; the renderers print the timeline, the
verdict and the plan as text, JSON or a self-contained HTML page. The rollout
itself is simulated by the pure core (:mod:`mcp_skew.simulator._rollout`,
:mod:`mcp_skew.simulator._fleet`); this package adds what needs the layers above
it (named peers, the matrix's failure causes) and the output.
"""

from __future__ import annotations

from ._render import (
    clock,
    render_html,
    render_plan,
    render_plan_html,
    render_text_head,
    render_text_row,
    render_text_tail,
)
from ._study import (
    FORMAT,
    FORMAT_VERSION,
    LIMITS,
    ORDERS,
    Plan,
    Setup,
    Study,
    default_clients_to,
    groups_of,
    parse_counted,
    plan,
    study,
)

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "LIMITS",
    "ORDERS",
    "Plan",
    "Setup",
    "Study",
    "clock",
    "default_clients_to",
    "groups_of",
    "parse_counted",
    "plan",
    "render_html",
    "render_plan",
    "render_plan_html",
    "render_text_head",
    "render_text_row",
    "render_text_tail",
    "study",
]

"""Rollouts: what a population of clients meets while a fleet of servers changes.

The core is pure (no I/O) and built on the simulator's face and the profiles
only: :mod:`._fleet` (instances, load balancers, schedules), :mod:`._outcomes`
(what one request meets, read off the simulator's runs) and :mod:`._timeline`
(:class:`Rollout`: the population's requests over simulated time, minute by
minute). On it, :func:`study` runs a rollout and its baseline for the verdict;
:func:`plan` compares the orders of a migration (these add named peers and the
matrix's failure causes); the renderers print the timeline, the verdict and the
plan as text, JSON or a self-contained HTML page.
"""

from __future__ import annotations

from ._fleet import BALANCERS, Balancer, Schedule, client_batches, rollback, rolling
from ._outcomes import CATEGORIES
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
from ._timeline import Group, Rollout

__all__ = [
    "BALANCERS",
    "CATEGORIES",
    "FORMAT",
    "FORMAT_VERSION",
    "LIMITS",
    "ORDERS",
    "Balancer",
    "Group",
    "Plan",
    "Rollout",
    "Schedule",
    "Setup",
    "Study",
    "client_batches",
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
    "rollback",
    "rolling",
    "study",
]

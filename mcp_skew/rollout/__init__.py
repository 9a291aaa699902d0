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

from ._render import (
    render_html,
    render_plan,
    render_plan_html,
    render_text_head,
    render_text_row,
    render_text_tail,
)
from ._study import LIMITS, Setup, default_clients_to, groups_of, parse_counted, plan, study

__all__ = [
    "LIMITS",
    "Setup",
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

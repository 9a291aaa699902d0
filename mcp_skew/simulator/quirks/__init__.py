"""Quirks: the named ways real clients and servers depart from the plain spec behaviour.

The table (:data:`QUIRKS`, with its rows about authorization, AI apps and extensions in
``_auth``, ``_apps`` and ``_ext``), the record of one quirk (``_quirk.Quirk``) and the
policies the quirks set (``_policy``: ``ServerPolicy``, :class:`ClientPolicy`), which is all
the simulator reads. A new quirk: its row in the table, its effect a policy field.

The face lists what other packages use: the table (the matrix's columns, the guide, the
probe's call step, the rollout) and the client's policy (the probe's own authorization and
call steps, the expectations of a client program).
"""

from __future__ import annotations

from ._policy import ClientPolicy
from ._table import QUIRKS

__all__ = ["QUIRKS", "ClientPolicy"]

"""Quirks: the named ways real clients and servers depart from the plain spec behaviour.

The table (``_table.QUIRKS``, with its rows about authorization, AI apps and extensions in
``_auth``, ``_apps`` and ``_ext``), the record of one quirk (``_quirk.Quirk``) and the
policies the quirks set (``_policy``: ``ServerPolicy``, ``ClientPolicy``), which is all the
simulator reads. A new quirk: its row in the table, its effect a policy field.
"""

from __future__ import annotations

__all__: list[str] = []

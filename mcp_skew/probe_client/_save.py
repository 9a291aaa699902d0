"""``--save-peer FILE``: the inferred client, where ``mcp-skew matrix --clients @FILE`` reads it.

It carries the waits measured from the wire (``waits``: per server, each request that got
no answer before the client's next move, how long the client waited and what it did then;
a wait still going when the run ended says so), beside the inferred spec whose
``+probe-timeout=MS`` rounds them.

The file is the probe's saved-peer format (:data:`mcp_skew.peers.PEER_FILE_FORMAT`) with
``"role": "client"``, read back by :func:`mcp_skew.probe.load_probe_peer` (through
:func:`mcp_skew.peers.resolve_peer`) wherever a client spec is accepted.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from .._output import write_output
from ..peers import PEER_FILE_FORMAT
from ..probe import command_label
from ._runner import ClientReport

__all__ = ["save_client_peer"]


def save_client_peer(report: ClientReport, path: str | Path, label: str = "") -> None:
    """Write the inferred client to ``path`` (whole or not at all), named ``label``
    (``--label``), else after the package or script the client's command runs."""
    inferred = report.inferred
    words = tuple(w for w in report.argv if "{server}" not in w and "{url}" not in w)
    default = f"probe-client:{command_label(words)}" if words else f"@{Path(path).name}"
    doc = {"format": PEER_FILE_FORMAT, "role": "client", "peer": inferred.notation,
           "label": label or default, "sentence": inferred.sentence,
           "target": shlex.join(report.argv), "evidence": inferred.to_dict(),
           "waits": [{"server": row.server, **wait} for row in report.rows
                     for wait in row.observed.waits]}
    write_output(path, json.dumps(doc, indent=2) + "\n", "--save-peer")

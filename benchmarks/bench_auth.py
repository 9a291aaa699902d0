"""Benchmark ``matrix --scenario auth`` (a script, not a test): CPU time, target < 1 s.

Two matrices, each built as ``mcp-skew matrix --scenario auth --transport http`` builds
it for the text formats (no transcripts kept):

- the built-in peers (``mcp-skew matrix``'s rows and columns), their servers protected
  with what their revision requires;
- the built-in clients plus the authorization client quirks against one server of every
  revision per layout (``+auth=LAYOUT``, every layout in ``LAYOUTS``).

Times are CPU time of this process (``process_time``: a busy machine delays the run but
does not bill it), best of ``--repeat`` rounds. Run it with
``.venv/bin/python benchmarks/bench_auth.py [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from mcp_skew.matrix import build_matrix
from mcp_skew.peers import builtin_peers
from mcp_skew.simulator import PeerSpec, parse_peer
from mcp_skew.versions._auth import LAYOUTS

TARGET_S = 1.0
QUIRKY_CLIENTS = ("legacy:2025-06-18+auth-origin-fallback", "legacy:2025-11-25+rfc8414-only",
                  "legacy:2025-11-25+dcr-only", "legacy:2025-11-25+client-credentials",
                  "dual:2026-07-28,2025-11-25+dcr-only+auth-fallback")
EVERY_REVISION = "dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26"


def _best(clients: Sequence[PeerSpec], servers: Sequence[PeerSpec], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        build_matrix(clients, servers, "auth", keep_transcripts=False, transport="http")
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    clients, servers = builtin_peers("client"), builtin_peers("server")
    layout_clients = (*clients, *(parse_peer(c, "client") for c in QUIRKY_CLIENTS))
    layout_servers = tuple(parse_peer(f"{EVERY_REVISION}+auth={name}", "server")
                           for name in LAYOUTS)
    for title, rows, columns in (("built-in peers", clients, servers),
                                 ("clients x layouts", layout_clients, layout_servers)):
        seconds = _best(rows, columns, args.repeat)
        cells = len(rows) * len(columns)
        verdict = "ok" if seconds < TARGET_S else "OVER"
        print(f"matrix --scenario auth, {title}: {cells} cells, {seconds * 1000:.0f} ms CPU "
              f"(best of {args.repeat}); target < {TARGET_S:g} s: {verdict}")


if __name__ == "__main__":
    main()

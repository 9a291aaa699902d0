"""A saved peer: the file ``mcp-skew probe --save-peer FILE`` writes, read back as a peer.

The format (``docs/api.md``: ``mcp-skew-probe-peer/1``) is a JSON object: ``format``,
``peer`` (the inferred notation, or null when the probe could not infer one, with
``sentence`` saying why), ``role`` (``server``; ``probe-client`` saves clients with
``client``), ``label``, ``target`` and ``sentence``, and for a server the measured
``cold_start`` (``ms``, and how it was measured: ``samples``, their spread, the load),
which the peer carries as its quirk ``slow=MS``. The probe writes it
(``mcp_skew.probe._peer.save_peer``); ``--servers @FILE`` reads it here, below every feature,
so resolving a peer spec needs no feature.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Final

from .._input import read_user_text
from .._jsontext import DOCUMENT, JsonTextError, loads
from ..errors import UsageError
from ..simulator import PeerSpec, parse_peer
from ..versions import REGISTRY, Registry, Role, with_drafts_named

__all__ = ["PEER_FILE_FORMAT", "load_probe_peer"]

PEER_FILE_FORMAT: Final = "mcp-skew-probe-peer/1"


def load_probe_peer(path: str | Path, role: Role = "server",
                    registry: Registry = REGISTRY) -> PeerSpec:
    """The peer a probe saved with ``--save-peer``; raises UsageError with one line.

    Its revisions come from ``registry``, with the built-in drafts its notation names (a
    peer saved as ``modern:next`` stays a next peer, not its wire string's 2026-07-28)."""
    text = read_user_text(path, "cannot read probe peer file", max_bytes=1 << 20)
    try:
        doc = loads(text, DOCUMENT)
    except JsonTextError as exc:
        raise UsageError(f"probe peer file {path}: not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != PEER_FILE_FORMAT:
        raise UsageError(f"{str(path)!r} is not a peer saved by mcp-skew probe --save-peer")
    saved = doc.get("role", "server")  # probe-client saves clients with "role": "client"
    if role != saved:
        raise UsageError(f"{str(path)!r} describes a {saved}; it cannot be used as a {role}")
    notation = doc.get("peer")
    if not isinstance(notation, str):
        raise UsageError(f"{str(path)!r}: the probe could not infer a peer "
                         f"({doc.get('sentence', 'no reason given')})")
    spec = parse_peer(notation, role, with_drafts_named([notation], registry))
    label = doc.get("label") if isinstance(doc.get("label"), str) else ""
    note = f"probed: {doc.get('target', '?')}; {doc.get('sentence', '')}"
    cold = _cold_start_ms(doc, path)
    if cold is not None and not spec.has("slow"):
        spec = replace(spec, quirks=(*spec.quirks, ("slow", str(cold))))
        note += f"; measured cold start {cold} ms (quirk slow)"
    return replace(spec, label=label or f"@{Path(path).name}", note=note)


def _cold_start_ms(doc: dict[str, object], path: str | Path) -> int | None:
    """The measured cold start a probe saved (``cold_start.ms``), which the peer carries as
    its quirk ``slow`` (docs/time.md); None when the file has none."""
    record = doc.get("cold_start")
    if record is None:
        return None
    ms = record.get("ms") if isinstance(record, dict) else None
    if not isinstance(ms, int) or isinstance(ms, bool) or not 0 <= ms <= 3_600_000:
        raise UsageError(f"{str(path)!r}: cold_start.ms must be a whole number of ms "
                         "(0 to 3600000)")
    return ms

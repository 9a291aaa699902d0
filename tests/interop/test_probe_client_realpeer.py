"""``mcp-skew probe-client`` against real clients: the official Python SDK ``mcp`` 2.3 client
(default auto mode and legacy mode), the TypeScript v2 client (legacy and auto modes) and
the Inspector 2.12 CLI (legacy, modern, auto),
each driven by its drift driver (``mcp_skew/realpeers/servers``) through the default server
set. The inferred model must be the named peer (``py-mcp@2.3``, ``ts-client@2.4:auto``, ...),
but for ``+fallback-denylist``, which no simulated server can show; and the saved peer must
predict every real run.

The TypeScript v2 client in auto mode is given a 3 s probe wait (its drift check's; the
real default is 60 s), and its model the same. A client's probe wait runs from its server's
spawn: as in the drift check, it is at least four times the cold start of ``mcp-skew serve``
measured now (``_client_drift.probe_wait_ms``), rounded up to a wait probe-client names, so
a busy machine's slow server start is not read as a silent probe.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from _drift_helpers import install_all, installed_model

from mcp_skew.cli import main
from mcp_skew.peers import Resolved, resolve_peer
from mcp_skew.probe_client._expect import predict, same_model
from mcp_skew.probe_client._infer import ROUND_MS
from mcp_skew.probe_client._runner import cases
from mcp_skew.probe_client._servers import default_servers
from mcp_skew.realpeers._client_drift import _serve_cold_ms, probe_wait_ms
from mcp_skew.realpeers._installs import Install, client_command, install
from mcp_skew.simulator import PeerSpec
from mcp_skew.simulator.quirks import QUIRKS
from mcp_skew.versions import REGISTRY

pytestmark = pytest.mark.realpeer

NAMES = ["py-mcp@2.3", "py-mcp@2.3:legacy", "ts-client@2.4:legacy", "ts-client@2.4:auto",
         "inspector@2.12:legacy", "inspector@2.12:modern", "inspector@2.12:auto"]
WRAPPER = str(Path(__file__).resolve().parents[1] / "clients" / "result_exit.py")
#: What probe-client measured that the named model does not say yet (name -> quirks); empty
#: since the mcp 2.3 client's +strict-results (measured here first) is in the catalogue.
NOT_IN_THE_CATALOGUE: dict[str, tuple[str, ...]] = {}
#: Models probe-client can only match in behaviour: the Inspector's 15 s connect timeout (in
#: every mode since issue 37, with its SDK client's 60 s request timeout) ends a silent probe
#: or initialize before any longer wait could show, and no default server answers late enough
#: to show the request timeout, so no server names them; the inferred and the named model must
#: then agree on every default server instead.
SAME_BEHAVIOUR = {"inspector@2.12:auto", "inspector@2.12:legacy", "inspector@2.12:modern"}


@pytest.fixture(scope="module")
def environments() -> dict[str, Install | str]:
    return install_all(NAMES, "client")


def _authorization_only(name: str) -> bool:
    """A quirk that sets authorization fields only (it shows under ``--scenario auth``)."""
    effects = QUIRKS[name].effects
    return bool(effects) and all(e.field.startswith("auth_") for e in effects)


def _expected(name: str, model: PeerSpec, probe_ms: int | None) -> PeerSpec:
    """The named model as probe-client can see it: the drift check's probe wait, no denylist
    nor discover-fallback nor strict-tools nor the logging level nor the authorization
    quirks (no default server shows them), and what it measured beyond the catalogue."""
    quirks = tuple((n, str(probe_ms) if n == "probe-timeout" and probe_ms else v)
                   for n, v in model.quirks
                   if n not in ("fallback-denylist", "discover-fallback", "strict-tools",
                                "era-set-level", "legacy-set-level")
                   and not _authorization_only(n))
    quirks += tuple((q, None) for q in NOT_IN_THE_CATALOGUE.get(name, ()))
    return replace(model, quirks=quirks)


def _probe_ms(resolved: Resolved) -> int | None:
    """The probe wait the client and its model are given (None: the client's own)."""
    drift_ms = resolved.model.drift_probe_ms
    quirk = dict(resolved.peer().quirks).get("probe-timeout")
    if drift_ms is None and quirk is None:
        return None  # no probe to race
    ms = probe_wait_ms(drift_ms, int(quirk) if quirk else None, _serve_cold_ms())
    if ms is None or ms == drift_ms:
        return ms
    return next((v for v in ROUND_MS if v >= ms), ms)


@pytest.mark.parametrize("name", NAMES)
def test_the_inferred_client_is_the_named_peer(name: str, environments: dict[str, Install | str],
                                               tmp_path: Path) -> None:
    resolved = installed_model(name, "client", environments)
    assert resolved.line.installs is not None
    env = install(resolved.line.installs)
    probe_ms = _probe_ms(resolved)
    argv = [sys.executable, WRAPPER,
            *client_command(resolved.family, resolved.model, env, ["{server}"], probe_ms)]
    card, peer = tmp_path / "card.json", tmp_path / "peer.json"
    code = main(["probe-client", "--quiet", "--jobs", "2", "--timeout", "90", "--format", "json",
                 "--out", str(card), "--save-peer", str(peer), "--record", str(tmp_path / "logs"),
                 "--", *argv])
    assert code == 0
    doc = json.loads(card.read_text())
    saved = resolve_peer(f"@{peer}", "client")
    expected = _expected(name, resolved.peer(), probe_ms)
    if name in SAME_BEHAVIOUR:
        for server in cases(default_servers(REGISTRY), lambda s: resolve_peer(s, "server")):
            mine = predict(saved, server.peer, before=server.before)
            named = predict(expected, server.peer, before=server.before)
            assert (mine.outcome, mine.revision, mine.requests) == (
                named.outcome, named.revision, named.requests), server.spec
    else:
        assert same_model(saved, expected), (saved.notation, expected.notation)
    disagree = [(r["server"], r["observed"]["outcome"], r["model"]["outcome"])
                for r in doc["rows"] if not r["model_agrees"]]
    assert not disagree

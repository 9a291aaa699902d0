"""The built-in peer sets are derived from the built-in revisions, by one rule, in ``peers``.

No date is written in the module that makes them (a new built-in revision joins every set
it belongs in), each set holds the peers its docstring promises, and the features that
run a built-in set (the matrix, the probe, the migration guide's proofs) run these.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from mcp_skew import peers
from mcp_skew.migrate import _eras as migrate
from mcp_skew.peers import BUILTIN_CLIENTS, BUILTIN_SERVERS, probe_clients
from mcp_skew.peers._sets import PROBE_CLIENTS
from mcp_skew.probe._clients import builtin_clients
from mcp_skew.simulator import parse_peer
from mcp_skew.versions import BUILTIN, Era

SETS = Path(peers.__file__).with_name("_sets.py")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
LEGACY = [p.revision for p in BUILTIN if p.era is Era.LEGACY]  # oldest first
MODERN = [p.revision for p in BUILTIN if p.era is Era.MODERN]


def _code_strings(tree: ast.AST) -> list[str]:
    """Every string constant but the docstrings."""
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef) and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in docs]


def test_no_revision_is_written_by_hand_in_the_sets() -> None:
    dated = [s for s in _code_strings(ast.parse(SETS.read_text(encoding="utf-8")))
             if _DATE.search(s)]
    assert dated == []


def test_every_built_in_revision_has_a_client_and_every_legacy_one_a_server_alone() -> None:
    alone = {p.revisions[0] for p in (parse_peer(s, "client") for s in BUILTIN_CLIENTS)
             if len(p.revisions) == 1 and not p.quirks}
    assert alone == set(LEGACY + MODERN)
    servers = [parse_peer(s, "server") for s in BUILTIN_SERVERS]
    assert {p.revisions[0] for p in servers if p.kind == "legacy" and len(p.revisions) == 1
            and not p.quirks} == set(LEGACY)
    newest_pair = (MODERN[-1], LEGACY[-1])
    assert any(p.kind == "dual" and p.revisions == newest_pair for p in servers)


def test_the_probe_runs_each_legacy_revision_and_every_kind() -> None:
    specs = [parse_peer(s, "client") for s in PROBE_CLIENTS]
    assert [p.revisions for p in specs[:len(LEGACY)]] == [(r,) for r in LEGACY]
    assert {p.kind for p in specs} == {"legacy", "modern", "dual"}
    assert builtin_clients() == probe_clients()


def test_the_guide_proof_runs_the_matrix_clients_first() -> None:
    clients = migrate.builtin_clients()
    assert clients[:len(BUILTIN_CLIENTS)] == BUILTIN_CLIENTS

"""The registry is a value that is passed: a ``--profile`` draft reaches every reader.

The built-in registry (``mcp_skew.versions.REGISTRY``) is read in ``versions/``
and in the command layer, where ``args.registry`` is made; everywhere else it
comes in as a parameter. The only other place it may appear is as the default of
a parameter (or dataclass field) of a public entry point listed in :data:`EDGES`,
the library's edge, where a caller who passes nothing gets the built-ins. The AST
check enforces both; then one test per reader shows a draft reaches it: the
probe's client set and findings, show-log's annotation, the matrix's labels.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from _sources import Source, modules, source

from mcp_skew.matrix import build_matrix, render
from mcp_skew.probe import ProbeOptions, Target, probe
from mcp_skew.serve import LogEntry
from mcp_skew.serve._annotate import annotate
from mcp_skew.simulator import parse_peer
from mcp_skew.simulator.messages import _wire as wire
from mcp_skew.versions import REGISTRY, Registry, with_profile_files

PACKAGE = Path(__file__).resolve().parents[2] / "mcp_skew"
#: Where the built-in registry may be read: the profiles, and the command layer.
READERS = ("versions/", "commands/", "cli.py")
#: module:qualname of the parameters and fields that default to the built-in registry.
EDGES = frozenset({
    "mcp_skew.matrix._build:Matrix.registry",
    "mcp_skew.matrix._build:Matrix.from_dict",
    "mcp_skew.peers._saved:load_probe_peer",  # a saved peer naming a draft (issue 40)
    "mcp_skew.peers._sets:builtin_peers",
    "mcp_skew.peers._sets:probe_clients",
    "mcp_skew.peers._sets:sweep_peers",
    "mcp_skew.peers:resolve_peer",
    "mcp_skew.peers._bridges:resolve_bridge",  # a bridge spec, as resolve_peer (issue 39)
    "mcp_skew.probe._clients:builtin_clients",
    "mcp_skew.probe._target:ProbeOptions.registry",
    "mcp_skew.simulator._session:Session.registry",
    "mcp_skew.simulator.http._client:HttpClient.__init__",
    "mcp_skew.simulator.http._client:request_headers",
    "mcp_skew.simulator._peers:PeerSpec.registry",
    "mcp_skew.simulator._peers:parse_peer",
    "mcp_skew.simulator.bridges._spec:BridgeSpec.registry",  # as PeerSpec.registry (issue 39)
    "mcp_skew.simulator.bridges._spec:parse_bridge",  # as parse_peer (issue 39)
    "mcp_skew.wire.http:HttpLink.__init__",
})
DRAFT = """
revision = "2026-12-draft"
extends = "2026-07-28"

[[changes]]
id = "draft-tenant-meta"
summary = "Every request names its tenant in _meta"
impact = "breaking"
cite = { revision = "2026-12-draft", source = "https://example.com/draft" }
add = { request_meta_required = ["io.example/tenant"] }
"""


def _is_registry(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "REGISTRY") or (
        isinstance(node, ast.Attribute) and node.attr == "REGISTRY")


def registry_reads(code: str | Source, module: str) -> tuple[list[int], set[str]]:
    """(lines that read REGISTRY in a body, module:qualname of the defaults that name it), in
    a module's text or its parsed source."""
    tree = code.tree if isinstance(code, Source) else ast.parse(code)
    nodes = code.nodes if isinstance(code, Source) else tuple(ast.walk(tree))
    defaults: set[str] = set()
    allowed: set[int] = set()  # ids of the nodes that are defaults

    def visit(node: ast.AST, scope: list[str]) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for value in (*node.args.defaults, *node.args.kw_defaults):
                if value is not None and any(_is_registry(n) for n in ast.walk(value)):
                    defaults.add(f"{module}:{'.'.join([*scope, node.name])}")
                    allowed.update(id(n) for n in ast.walk(value))
            scope = [*scope, node.name]
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and item.value is not None and \
                        isinstance(item.target, ast.Name) and \
                        any(_is_registry(n) for n in ast.walk(item.value)):
                    defaults.add(f"{module}:{node.name}.{item.target.id}")
                    allowed.update(id(n) for n in ast.walk(item.value))
            scope = [*scope, node.name]
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(tree, [])
    reads = sorted(n.lineno for n in nodes if isinstance(n, ast.Name | ast.Attribute)
                   and _is_registry(n) and id(n) not in allowed and isinstance(n.ctx, ast.Load))
    return reads, defaults


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in modules(PACKAGE):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(READERS):
            continue
        parts = ["mcp_skew", *path.relative_to(PACKAGE).with_suffix("").parts]
        out.append((".".join(p for p in parts if p != "__init__"), path))
    return out


def test_no_registry_read_outside_versions_and_the_commands() -> None:
    found: dict[str, list[int]] = {}
    edges: set[str] = set()
    for module, path in _modules():
        reads, defaults = registry_reads(source(path), module)
        if reads:
            found[module] = reads
        edges |= defaults
    assert found == {}, "read the registry a caller passes, not the built-in one"
    assert edges <= EDGES, f"a new default of the built-in registry: {sorted(edges - EDGES)}"
    assert edges >= EDGES, f"no longer defaults (take it off EDGES): {sorted(EDGES - edges)}"


def test_the_checker_sees_reads_and_tells_defaults_apart() -> None:
    source = (
        "from x import REGISTRY\n"
        "def edge(r=REGISTRY): return r\n"
        "class C:\n"
        "    reg: object = field(default=REGISTRY)\n"
        "    def m(self, *, r=versions.REGISTRY): return r\n"
        "def inside(): return REGISTRY.get('a')\n"
        "TOP = versions.REGISTRY\n")
    reads, defaults = registry_reads(source, "m")
    assert reads == [6, 7]
    assert defaults == {"m:edge", "m:C.reg", "m:C.m"}


@pytest.fixture
def draft(tmp_path: Path) -> Registry:
    path = tmp_path / "draft.toml"
    path.write_text(DRAFT, encoding="utf-8")
    return with_profile_files([str(path)])


def test_a_draft_reaches_the_probes_client_set_and_findings(draft: Registry) -> None:
    server = parse_peer("modern:2026-12-draft+not-found-code=-32002", "server", draft)
    report = probe(Target(simulated=server), ProbeOptions(registry=draft, error_probes=True,
                                                          prober=False))
    assert "modern:2026-12-draft" in [r.name for r in report.runs]
    assert report.peer.spec is not None and report.peer.spec.revisions == ("2026-12-draft",)
    # the missing-resource probe needs a server known to declare resources: a client that
    # discovers (server/discover gives the capabilities)
    discovering = parse_peer("modern:2026-12-draft+discover", "client", draft)
    report = probe(Target(simulated=server), ProbeOptions(registry=draft, error_probes=True,
                                                          prober=False, clients=(discovering,)))
    cites = {(f.code, f.cite) for r in report.runs for f in r.record.findings}
    assert ("resource-not-found-code", "2026-12-draft: server/resources.mdx §Error Handling") \
        in cites
    builtin = probe(Target(simulated=server), ProbeOptions(error_probes=True, prober=False))
    assert builtin.peer.spec is None  # without the draft nothing it names is known


def _draft_log() -> list[LogEntry]:
    meta = {wire.VERSION_KEY: "2026-12-draft", wire.CAPS_KEY: {}}
    request = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}
    return [LogEntry(t_ms=0.0, dir="c2s", index=0, line="", message=request)]


def test_a_draft_reaches_the_annotation(draft: Registry) -> None:
    seen = annotate(_draft_log(), draft)
    assert [f.message for f in seen.findings if f.code == "schema-violation"] == [
        "request _meta lacks io.example/tenant (required in 2026-12-draft)"]
    unknown = annotate(_draft_log(), REGISTRY)
    assert [f for f in unknown.findings if f.code == "schema-violation"] == []
    assert "2026-12-draft is not a revision mcp-skew knows" in unknown.notes[0]


def test_a_draft_reaches_the_matrix_labels(draft: Registry) -> None:
    def cell(registry: Registry) -> str:
        matrix = build_matrix([parse_peer("dual:2026-07-28,2025-11-25", "client", registry)],
                              [parse_peer("2026-07-28", "server", registry)])
        assert matrix.registry is registry
        row = next(line for line in render(matrix, "text").splitlines()
                   if line.startswith("dual:"))
        return row.split()[-1]

    assert cell(REGISTRY) == "2026"  # alone in its year
    assert cell(draft) == "26-07"  # kept apart from 2026-12-draft

"""The import direction: each layer of ``mcp_skew`` imports only the layers below it.

The layers are DESIGN.md's "The layout", written here as data (:data:`LAYERS`):
``versions`` at the bottom, the pure ``transcript`` and ``simulator`` on it, the ``wire`` (real
transports) on that, the features above, and the command line on top. The check
reads every module with :mod:`ast`, so it sees what an import-time test would miss:
imports inside functions, under ``TYPE_CHECKING``, and the names given to
``importlib.import_module`` / ``__import__`` (a string, a module-level string
constant, or the constant head of an f-string), relative ones resolved against the
module's package. The simulator is also checked for I/O: it imports no process,
socket, thread, file or clock module and calls no ``print``/``open``/``input``; and so is
every module its imports reach (:func:`reached_from`: the transcript, the profiles, the
leaves), but the ones that do I/O by design, each named with its reason
(:data:`IO_BY_DESIGN`). ``importlib`` counts as I/O there: an import by name, which this
check could not follow, is refused. So is the rollout's core (:data:`ROLLOUT_CORE`), which
imports only the simulator's faces (its own and its rooms') and the profiles.

Sideways imports between features are named exceptions (:data:`EXCEPTIONS`), each
with its reason; a test fails when one is no longer used, so the list only shrinks.
The self-tests run the checker on a synthetic package, so this test can fail.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import _sources
import pytest
from _sources import Source, source

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "mcp_skew"

#: What the package's own ``__init__`` (``__version__``) and the leaf modules may import.
_LEAVES = frozenset({PACKAGE, "_version", "errors", "_pagedir", "_jsontext", "_input",
                     "_output", "_stopping", "_markup", "_lazy", "_memo", "_numbers"})
#: What every feature may import: the leaves, the profiles, the transcript, the core, the wire,
#: and the words the features give their verdicts in.
_BASE = _LEAVES | {"versions", "transcript", "simulator", "wire", "_verdicts", "_args"}
#: The features (DESIGN.md: "features built on the layers below").
FEATURES = frozenset({"matrix", "probe", "migrate", "realpeers", "serve", "rollout"})

#: layer -> the layers it may import (a layer is a top-level module or subpackage;
#: ``mcp_skew`` is the package's own ``__init__``). Bottom up, as in DESIGN.md.
LAYERS: Mapping[str, frozenset[str]] = {
    # the package itself: its __version__ (every layer may read it), and the library's face,
    # which imports the layers behind its names when a name is first read (mcp_skew.API)
    PACKAGE: frozenset({"_version", "versions", "simulator", "peers", "matrix", "probe",
                        "migrate", "rollout"}),
    # leaves: the version (a literal), the error type, the page-directory mains
    "_version": frozenset(),
    "errors": frozenset(),
    "_pagedir": frozenset(),
    # JSON text from outside read with limits (pure; profile files are read with it too)
    "_jsontext": frozenset(),
    # files a person gives (read with a size cap) and files written for a person
    "_input": frozenset({"errors"}),
    "_output": frozenset({"errors"}),
    # the one HTML page shell and the escapers of every report (pure)
    "_markup": frozenset(),
    # a package face's names read on first use (PEP 562)
    "_lazy": frozenset(),
    # caches keyed by the identity of frozen values (the simulator's and the matrix's; pure)
    "_memo": frozenset(),
    # numbers a person writes (options, quirk values), checked before use (pure)
    "_numbers": frozenset(),
    # how a signal stops a command (it calls the hooks the wire registers with it)
    "_stopping": frozenset(),
    # the numbers, addresses and names a person gives on the command line, checked (a
    # command's implementation lives in its feature's room, so the checks are below them)
    "_args": frozenset({"_input", "_numbers", "errors", "versions"}),
    # profiles: one module per revision; nothing else of mcp_skew but the file readers
    "versions": frozenset({"_jsontext", "_input", "_markup"}),
    # the transcript: one record type and its JSON Lines format, every writer and reader (pure)
    "transcript": frozenset({"_jsontext"}),
    # the pure core: sans-I/O state machines on the profiles
    "simulator": frozenset({"versions", "transcript", "errors", "_jsontext", "_memo", "_numbers"}),
    # the features' shared words: why a pair fails, a step of advice (on the core)
    "_verdicts": frozenset({"simulator", "versions"}),
    # the edges: stdio and HTTP links to real processes and sockets
    "wire": frozenset({"simulator", "transcript", "versions", "errors", "_jsontext",
                       "_stopping"}),
    # the features
    # the matrix runs the built-in peer set and labels peers (peers.builtin_peers, label_for)
    "matrix": _BASE | {"peers"},
    # the probe writes the saved-peer format that peers reads (peers.PEER_FILE_FORMAT)
    "probe": _BASE | {"peers"},
    # the guide's proofs run the built-in peer sets (peers.BUILTIN_CLIENTS, BUILTIN_SERVERS)
    "migrate": _BASE | {"peers"},
    # installs of real implementations and the drift checks of their models (the catalogue)
    "realpeers": _BASE | {"peers"},
    # the served simulator, the proxy and the logs; its commands resolve the peer they serve
    # or replay against (peers, below every feature)
    "serve": _BASE | {"peers"},
    "rollout": _BASE | {"peers"},
    # peer specs as a person writes them, the named catalogue (data) and a probe-saved @FILE,
    # over the core: below every feature
    "peers": _BASE,
    # many probes: the probe on packages installed in the real-peer environments
    "census": _BASE | {"peers", "probe", "realpeers"},
    # a real client against simulated servers: the served simulator (serve) and the log's
    # reading, the probe's command label; the saved-peer format is peers' (below every feature)
    "probe_client": _BASE | {"serve", "probe", "peers"},
    # the start-time stamp in front of the served simulator (probe-client's {server})
    "_stamp": frozenset({"cli"}),
    # argument parsing and output
    "commands": _BASE | FEATURES | {"peers", "census", "probe_client"},
    "pytest_plugin": _BASE | {"probe", "peers", "probe_client"},
    "cli": _LEAVES | {"versions", "commands"},
    "__main__": frozenset({"cli"}),
}

#: (layer, layer it imports) -> why: sideways imports between features, allowed by name.
EXCEPTIONS: Mapping[tuple[str, str], str] = {
    ("realpeers", "matrix"): "the real-world matrix is a matrix._build.Matrix (a matrix of "
                             "real runs, rendered by the matrix's own renderers): realpeers "
                             "extends the matrix feature, it does not borrow a word of it",
    ("realpeers", "probe"): "the server drift checks must wait for a real server exactly as "
                            "the probe does, or a drift would be a timing artefact: they "
                            "read the probe's startup bound and allowance "
                            "(probe.ProbeOptions, probe._startup.allowance; lazy)",
    ("probe", "migrate"): "the card's steps for the server's author are the migration guide's "
                          "own (probe._advice: migrate.serve_both_eras, migrate.guide_page; lazy): "
                          "the card links each to its guide section, so a copy would drift",
}

#: Modules that do I/O (processes, sockets, threads, files, the wall clock, the terminal)
#: or import by name at run time: the simulator imports none of them.
IO_MODULES = frozenset({
    "asyncio", "concurrent", "datetime", "http", "importlib", "io", "multiprocessing", "os",
    "pathlib", "queue", "select", "selectors", "shutil", "signal", "socket", "socketserver",
    "subprocess", "sys", "tempfile", "threading", "time", "urllib",
})
#: Built-ins that do I/O.
IO_CALLS = frozenset({"print", "open", "input"})
#: The rollout's core: the fleet and its schedules, what a request meets, the timeline. Pure
#: like the simulator (no I/O), on the simulator's faces (its own, its rooms') and the profiles only.
ROLLOUT_CORE = frozenset({"mcp_skew.rollout._fleet", "mcp_skew.rollout._outcomes",
                          "mcp_skew.rollout._timeline"})

#: Modules the simulator's imports reach that do I/O by design, each with why: the check of
#: what the simulator imports neither reads them nor walks on through them.
IO_BY_DESIGN: Mapping[str, str] = {
    f"{PACKAGE}.versions._plugins": "reads the profile files a person names (--profile) and "
                                    "the installed entry points into a registry, which the "
                                    "simulator is given; nothing in the simulator calls it",
}


#: The simulator's rooms (its subpackages) and what each may import of the rest of the
#: simulator (``core``: its top-level modules and its face). The machine and its events carry
#: the path's steps (``_path``); HTTP stands on the core's peers, server and path (and the
#: client's policy, for authorization); a bridge on the core's peers, server and links; the
#: core imports ``http`` only where a run is built and traced (:data:`CORE_HTTP`), so a stdio
#: run's modules do not need HTTP; the findings, the messages and the quirks (with the
#: policies they set) stand on the profiles alone.
ROOMS: Mapping[str, frozenset[str]] = {
    "findings": frozenset(),
    "messages": frozenset(),
    "quirks": frozenset(),
    "machine": frozenset({"core"}),
    "http": frozenset({"core", "machine", "messages", "quirks"}),
    "bridges": frozenset({"core", "machine", "messages"}),
    "core": frozenset({"findings", "machine", "messages", "quirks", "bridges", "http"}),
}
#: The core modules that may import ``http``: the run (it builds the HTTP link) and its trace.
CORE_HTTP = frozenset({f"{PACKAGE}.simulator._run", f"{PACKAGE}.simulator._trace"})


# -- the checker -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Import:
    """One import in one module: what it names, where, and how."""

    module: str  #: the importing module, dotted
    path: Path
    line: int
    target: str  #: the imported module, dotted (the package, for a name taken from one)
    how: str  #: ``import``, ``from`` or ``import_module``


def _module_name(path: Path, root: Path) -> tuple[str, tuple[str, ...]]:
    """The module's dotted name and its package's parts."""
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), parts[:-1]
    return ".".join(parts), parts[:-1]


def _is_module(dotted: str, root: Path) -> bool:
    base = root.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _relative(name: str, level: int, package: tuple[str, ...]) -> str:
    base = package[: len(package) - (level - 1)] if level > 1 else package
    return ".".join([*base, name] if name else base)


def _string_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "..."`` and ``NAME: T = "..."`` (what import_module may be given)."""
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and isinstance(value, ast.Constant) \
                and isinstance(value.value, str):
            out[target.id] = value.value
    return out


def _dynamic_name(call: ast.Call, constants: Mapping[str, str]) -> str | None:
    """The module an ``import_module(...)`` or ``__import__(...)`` call names, if it says."""
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called not in ("import_module", "__import__") or not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.Name):
        return constants.get(arg.id)
    if isinstance(arg, ast.JoinedStr) and arg.values:  # f"mcp_skew.commands.{name}"
        head = arg.values[0]
        if isinstance(head, ast.Constant) and isinstance(head.value, str):
            return head.value.rstrip(".") or None
    return None


def imports_of(path: Path, root: Path) -> Iterator[Import]:
    """Every import of the module at ``path`` (``root`` holds the top-level package): read
    once a session for a module of the package (tests/_sources.py)."""
    return iter(source(path).once(_imports, root))


def _imports(read: Source, root: Path) -> tuple[Import, ...]:
    return tuple(_scan_imports(read, root))


def _scan_imports(read: Source, root: Path) -> Iterator[Import]:
    path = read.path
    module, package = _module_name(path, root)
    constants = _string_constants(read.tree)
    for node in read.nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, path, node.lineno, alias.name, "import")
        elif isinstance(node, ast.ImportFrom):
            base = (_relative(node.module or "", node.level, package) if node.level
                    else node.module or "")
            for alias in node.names:  # ``from pkg import sub`` imports the module pkg.sub
                sub = f"{base}.{alias.name}"
                target = sub if base.split(".")[0] == root_package(root) and _is_module(sub, root) \
                    else base
                yield Import(module, path, node.lineno, target, "from")
        elif isinstance(node, ast.Call):
            name = _dynamic_name(node, constants)
            if name is not None:
                if name.startswith("."):
                    level = len(name) - len(name.lstrip("."))
                    name = _relative(name.lstrip("."), level, package)
                yield Import(module, path, node.lineno, name, "import_module")


def root_package(root: Path) -> str:
    return PACKAGE if (root / PACKAGE).is_dir() else next(p.name for p in root.iterdir()
                                                         if (p / "__init__.py").is_file())


def modules(root: Path) -> list[Path]:
    return list(_sources.modules(root / root_package(root)))


def layer_of(dotted: str, package: str = PACKAGE) -> str | None:
    """The layer of a module of the package (``None`` for anything else)."""
    parts = dotted.split(".")
    if parts[0] != package:
        return None
    return parts[1] if len(parts) > 1 else package


def allowed(layer: str, layers: Mapping[str, frozenset[str]] = LAYERS,
            exceptions: Mapping[tuple[str, str], str] = EXCEPTIONS) -> frozenset[str]:
    return layers.get(layer, frozenset()) | {dst for src, dst in exceptions if src == layer}


def layer_violations(root: Path, layers: Mapping[str, frozenset[str]] = LAYERS,
                     exceptions: Mapping[tuple[str, str], str] = EXCEPTIONS) -> list[str]:
    """``module:line: ...`` for every import of a layer the importing layer may not use."""
    package = root_package(root)
    out = []
    for path in modules(root):
        for imp in imports_of(path, root):
            src, dst = layer_of(imp.module, package), layer_of(imp.target, package)
            if src is None or dst is None or dst == src or dst in allowed(src, layers, exceptions):
                continue
            out.append(f"{imp.module}:{imp.line}: {src} imports {imp.target} ({imp.how}); "
                       f"{src} may import only {', '.join(sorted(allowed(src, layers, exceptions)))}")
    return out


def io_violations(root: Path, layer: str = "simulator",
                  only: frozenset[str] | None = None) -> list[str]:
    """``module:line: ...`` for every I/O import or call in ``layer`` (or, given ``only``, in
    those modules, whatever their layer)."""
    package = root_package(root)
    out = []
    for path in modules(root):
        module, _ = _module_name(path, root)
        if module not in only if only is not None else layer_of(module, package) != layer:
            continue
        for imp in imports_of(path, root):
            if imp.target.split(".")[0] in IO_MODULES:
                out.append(f"{imp.module}:{imp.line}: imports {imp.target} ({imp.how})")
        for node in source(path).nodes:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in IO_CALLS:
                out.append(f"{module}:{node.lineno}: calls {node.func.id}()")
    return out


def core_violations(root: Path, core: frozenset[str]) -> list[str]:
    """``module:line: target`` for every import in ``core`` of the package but the
    simulator's faces (its own and its rooms', no private module), the profiles and the
    core's own modules."""
    package = root_package(root)

    def fine(target: str) -> bool:
        parts = target.split(".")
        return target in core or (parts[:2] == [package, "simulator"] and _is_module(
            target, root) and not any(p.startswith("_") for p in parts[2:]))

    return [f"{imp.module}:{imp.line}: {imp.target}" for path in modules(root)
            if _module_name(path, root)[0] in core for imp in imports_of(path, root)
            if layer_of(imp.target, package) not in (None, "versions")
            and not fine(imp.target)]


def reached_from(root: Path, layer: str = "simulator",
                 stops: Mapping[str, str] = IO_BY_DESIGN) -> frozenset[str]:
    """Every module of the package that runs when ``layer``'s modules import theirs: what
    they import, directly or through other modules, at import time or in a function (not
    under ``TYPE_CHECKING``), with each imported module's packages (not the package's own
    face), and not walking on through ``stops``."""
    package = root_package(root)
    graph = import_graph(root)
    todo = [m for m in graph if layer_of(m, package) == layer]
    seen: set[str] = set()
    while todo:
        module = todo.pop()
        if module in seen or module == package:
            continue
        seen.add(module)
        parts = module.split(".")
        todo += [".".join(parts[:n]) for n in range(2, len(parts))]  # its packages run first
        if module not in stops:
            todo += graph.get(module, ())
    return frozenset(seen - set(stops))


def room_of(dotted: str, package: str = PACKAGE) -> str | None:
    """The simulator's room a module is in (``core`` for its top level), else ``None``."""
    parts = dotted.split(".")
    if parts[:2] != [package, "simulator"]:
        return None
    return parts[2] if len(parts) > 3 or (len(parts) == 3 and not parts[2].startswith("_")) \
        else "core"


def room_violations(root: Path, rooms: Mapping[str, frozenset[str]] = ROOMS,
                    core_http: frozenset[str] = CORE_HTTP) -> list[str]:
    """``module:line: ...`` for every import between the simulator's rooms that
    :data:`ROOMS` does not allow (and of ``http`` by a core module not in ``core_http``)."""
    package = root_package(root)
    out = []
    for path in modules(root):
        for imp in imports_of(path, root):
            src, dst = room_of(imp.module, package), room_of(imp.target, package)
            if src is None or dst is None or src == dst:
                continue
            if dst not in rooms.get(src, frozenset()) or (
                    src == "core" and dst == "http"
                    and imp.module.replace(package, PACKAGE, 1) not in core_http):
                out.append(f"{imp.module}:{imp.line}: the simulator's {src} imports {imp.target}")
    return out


# -- the package -----------------------------------------------------------------------

def test_every_module_is_in_a_layer_of_the_table() -> None:
    found = {layer_of(_module_name(p, ROOT)[0]) for p in modules(ROOT)}
    assert found - set(LAYERS) == set(), "a new layer: add it to LAYERS (and DESIGN.md)"
    assert {src for src, _ in EXCEPTIONS} | {dst for _, dst in EXCEPTIONS} <= set(LAYERS)


def test_each_layer_imports_only_the_layers_below_it() -> None:
    assert layer_violations(ROOT) == []


def test_the_simulator_imports_nothing_above_versions() -> None:
    above = [f"{imp.module}:{imp.line}: {imp.target}" for path in modules(ROOT)
             for imp in imports_of(path, ROOT)
             if layer_of(imp.module) == "simulator"
             and layer_of(imp.target) not in (None, "simulator", "versions", "transcript",
                                               "errors", "_jsontext", "_memo", "_numbers")]
    assert above == []


def test_the_simulators_rooms_import_only_what_their_walls_allow() -> None:
    rooms = {room_of(_module_name(p, ROOT)[0]) for p in modules(ROOT)} - {None}
    assert rooms == set(ROOMS), "a new room of the simulator: add it to ROOMS (and the docs)"
    assert all(_is_module(name, ROOT) for name in CORE_HTTP), "a core module moved"
    assert room_violations(ROOT) == []


def test_the_simulator_does_no_io() -> None:
    assert io_violations(ROOT) == []


def test_the_rollout_core_does_no_io_and_stands_on_the_simulators_face() -> None:
    assert all(_is_module(name, ROOT) for name in ROLLOUT_CORE), "a core module moved"
    assert io_violations(ROOT, "rollout", only=ROLLOUT_CORE) == []
    assert core_violations(ROOT, ROLLOUT_CORE) == []


def test_what_the_simulator_imports_does_no_io() -> None:
    reached = reached_from(ROOT)
    # the walk reaches the transcript's format too (imported on first use, by a static import)
    assert {f"{PACKAGE}.transcript._jsonl", f"{PACKAGE}.transcript._read",
            f"{PACKAGE}.versions._registry", f"{PACKAGE}._jsontext"} <= reached
    assert {layer_of(m) for m in reached} == {"simulator", "versions", "transcript", "errors",
                                               "_jsontext", "_markup", "_memo", "_numbers"}
    assert io_violations(ROOT, only=reached) == []


def test_every_module_that_does_io_by_design_is_reached() -> None:
    reached = reached_from(ROOT, stops={})
    assert set(IO_BY_DESIGN) <= reached, "no longer reached: take it off IO_BY_DESIGN"
    assert all(io_violations(ROOT, only=frozenset({m})) for m in IO_BY_DESIGN), \
        "does no I/O now: take it off IO_BY_DESIGN"


def test_every_exception_is_still_used() -> None:
    used = {(layer_of(imp.module), layer_of(imp.target))
            for path in modules(ROOT) for imp in imports_of(path, ROOT)}
    assert set(EXCEPTIONS) - used == set(), "an exception no longer needed: remove it"


def test_the_layers_form_no_cycle() -> None:
    # every module's parent: a layer reading mcp_skew.__version__ does not load the face's names
    graph = {layer: set(allowed(layer)) - {PACKAGE} for layer in LAYERS}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as exc:  # pragma: no cover - the message is the point
        pytest.fail(f"the layer table has a cycle: {exc.args[1]}")
    assert order.index("versions") < order.index("simulator") < order.index("wire")
    assert order.index("transcript") < order.index("simulator")


# -- the checker catches what it should (so the tests above can fail) ------------------

EVIL = '''\
from __future__ import annotations

import importlib
import subprocess
from importlib import import_module
from typing import TYPE_CHECKING, Final

from .. import probe
from ..versions import REGISTRY
from ._ok import fine

if TYPE_CHECKING:
    from mcp_skew.wire import StdioLink

PROBE_MODULE: Final = "mcp_skew.probe"


def load(name: str) -> None:
    importlib.import_module("mcp_skew.probe")
    import_module(PROBE_MODULE)
    import_module(f"mcp_skew.matrix.{name}")
    __import__("mcp_skew.realpeers._named")
    import_module("..serve", __package__)
    print(REGISTRY, probe, fine, subprocess)
'''


@pytest.fixture
def synthetic(tmp_path: Path) -> Path:
    for package in ("", "versions", "simulator", "wire", "probe", "matrix", "realpeers", "serve"):
        directory = tmp_path / PACKAGE / package
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "__init__.py").write_text("")
    (tmp_path / PACKAGE / "realpeers" / "_named.py").write_text("")
    (tmp_path / PACKAGE / "simulator" / "_ok.py").write_text("from ..versions import REGISTRY\n")
    (tmp_path / PACKAGE / "simulator" / "_evil.py").write_text(EVIL)
    (tmp_path / PACKAGE / "wire" / "_fine.py").write_text("from ..simulator import _ok\n")
    return tmp_path


def test_the_checker_catches_upward_imports_of_every_kind(synthetic: Path) -> None:
    found = layer_violations(synthetic)
    caught = {(line.split(":")[0], int(line.split(":")[1]), line.split(" imports ")[1].split()[0])
              for line in found}
    assert caught == {
        ("mcp_skew.simulator._evil", 8, "mcp_skew.probe"),  # from .. import probe
        ("mcp_skew.simulator._evil", 13, "mcp_skew.wire"),  # under TYPE_CHECKING
        ("mcp_skew.simulator._evil", 19, "mcp_skew.probe"),  # import_module("mcp_skew.probe")
        ("mcp_skew.simulator._evil", 20, "mcp_skew.probe"),  # import_module(CONSTANT)
        ("mcp_skew.simulator._evil", 21, "mcp_skew.matrix"),  # import_module(f"...{x}")
        ("mcp_skew.simulator._evil", 22, "mcp_skew.realpeers._named"),  # __import__
        ("mcp_skew.simulator._evil", 23, "mcp_skew.serve"),  # relative import_module
    }
    assert all("simulator may import only _jsontext, _memo, _numbers, errors, transcript, versions"
               in line for line in found)


def test_the_checker_keeps_the_simulators_rooms(synthetic: Path) -> None:
    simulator = synthetic / PACKAGE / "simulator"
    for room in ("findings", "http"):
        (simulator / room).mkdir()
        (simulator / room / "__init__.py").write_text("")
    (simulator / "_evil.py").write_text("")
    (simulator / "findings" / "_codes.py").write_text("from .._ok import x\n")  # up to the core
    (simulator / "http" / "_link.py").write_text("from .._ok import x\n")  # allowed
    (simulator / "_client.py").write_text("from .http import _link\n")  # the core: not here
    (simulator / "_run.py").write_text("from .http._link import y\n")  # the run may
    assert room_violations(synthetic) == [
        "mcp_skew.simulator._client:1: the simulator's core imports mcp_skew.simulator.http._link",
        "mcp_skew.simulator.findings._codes:1: the simulator's findings imports "
        "mcp_skew.simulator._ok",
    ]


def test_the_checker_catches_io_in_the_simulator(synthetic: Path) -> None:
    found = io_violations(synthetic)
    assert [line.split(": ", 1)[1] for line in found] == [
        "imports importlib (import)", "imports subprocess (import)", "imports importlib (from)",
        "calls print()"]
    assert io_violations(synthetic, "wire") == []
    assert io_violations(synthetic, only=frozenset({"mcp_skew.simulator._ok"})) == []


def test_the_checker_keeps_a_core_on_the_simulators_face(synthetic: Path) -> None:
    (synthetic / PACKAGE / "simulator" / "room").mkdir()
    (synthetic / PACKAGE / "simulator" / "room" / "__init__.py").write_text("")
    (synthetic / PACKAGE / "simulator" / "room" / "_inner.py").write_text("")
    (synthetic / PACKAGE / "serve" / "_core.py").write_text(
        "from ..simulator import _ok, x\nfrom ..versions import y\nfrom . import _more\n"
        "from ..wire import z\nfrom ..simulator.room import w\nfrom ..simulator.room._inner import v\n")
    (synthetic / PACKAGE / "serve" / "_more.py").write_text("")
    core = frozenset({"mcp_skew.serve._core", "mcp_skew.serve._more"})
    assert core_violations(synthetic, core) == [
        "mcp_skew.serve._core:1: mcp_skew.simulator._ok", "mcp_skew.serve._core:4: mcp_skew.wire",
        "mcp_skew.serve._core:6: mcp_skew.simulator.room._inner"]


def test_the_checker_follows_the_simulator_into_what_it_imports(tmp_path: Path) -> None:
    for package in ("", "simulator", "transcript", "versions", "wire"):
        directory = tmp_path / PACKAGE / package
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "__init__.py").write_text("")
    files = {
        "simulator/_link.py": "from ..transcript import Entry\nfrom ..versions._files import x\n",
        # the face imports its format on first use: still an import the walk follows
        "transcript/__init__.py": "def __getattr__(name):\n    from . import _format\n",
        "transcript/_format.py": "from ._record import Entry\n",
        "transcript/_record.py": "import socket\n",
        "transcript/_unused.py": "import subprocess\n",  # imported by nothing: not reached
        "versions/__init__.py": "import importlib\n",  # an import by name: not read, refused
        "versions/_files.py": "from pathlib import Path\n",
        "wire/_real.py": "import subprocess\nfrom ..simulator import _link\n",  # above: not reached
    }
    for name, text in files.items():
        (tmp_path / PACKAGE / name).write_text(text)
    reached = reached_from(tmp_path, stops={})
    assert reached == {f"{PACKAGE}.{m}" for m in ("simulator", "simulator._link", "transcript",
                                                   "transcript._format", "transcript._record",
                                                   "versions", "versions._files")}
    assert [line.split(": ", 1)[1] for line in io_violations(tmp_path, only=reached)] == [
        "imports socket (import)", "imports importlib (import)", "imports pathlib (from)"]
    stopped = reached_from(tmp_path, stops={f"{PACKAGE}.versions._files": "why"})
    assert [line.split(":")[0] for line in io_violations(tmp_path, only=stopped)] == [
        f"{PACKAGE}.transcript._record", f"{PACKAGE}.versions"]


def test_the_checker_takes_an_exception_by_name(synthetic: Path) -> None:
    (synthetic / PACKAGE / "realpeers" / "_drift.py").write_text("from ..probe import x\n")
    (synthetic / PACKAGE / "simulator" / "_evil.py").write_text("")
    without = layer_violations(synthetic, exceptions={})
    assert [v.split(":")[0] for v in without] == ["mcp_skew.realpeers._drift"]
    assert layer_violations(synthetic, exceptions={("realpeers", "probe"): "why"}) == []


# -- no import circles between modules -------------------------------------------------

def _type_checking_lines(nodes: Iterable[ast.AST]) -> set[int]:
    """The lines under ``if TYPE_CHECKING:`` (imports there never run), of a module's every
    node."""
    lines: set[int] = set()
    for node in nodes:
        test = node.test if isinstance(node, ast.If) else None
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
            lines |= {n.lineno for child in node.body for n in ast.walk(child)  # type: ignore[attr-defined]
                      if hasattr(n, "lineno")}
    return lines


def import_graph(root: Path) -> dict[str, set[str]]:
    """module -> the package's modules it imports when it runs (at import time or in a
    function; not under ``TYPE_CHECKING``)."""
    package = root_package(root)
    graph: dict[str, set[str]] = {}
    for path in modules(root):
        module, _ = _module_name(path, root)
        skipped = _type_checking_lines(source(path).nodes)
        # a module's own packages are imported before it runs: no circle goes through them
        graph[module] = {imp.target for imp in imports_of(path, root)
                         if imp.line not in skipped and imp.target != module
                         and imp.target.split(".")[0] == package
                         and not module.startswith(imp.target + ".")}
    return graph


def import_cycles(root: Path) -> list[list[str]]:
    """Each set of modules that import one another round a circle, sorted (Tarjan's
    strongly connected components of more than one module)."""
    graph = import_graph(root)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_modules_import_one_another_round_a_circle() -> None:
    assert import_cycles(ROOT) == [], "break the circle: the shared part goes in a module " \
        "both import (or the import that only types goes under TYPE_CHECKING)"


def test_the_checker_finds_a_circle_lazy_or_not(synthetic: Path) -> None:
    probe = synthetic / PACKAGE / "probe"
    (probe / "_a.py").write_text("from ._b import x\n")
    (probe / "_b.py").write_text("def f():\n    from ._c import y\n")  # lazy: still a circle
    (probe / "_c.py").write_text("from . import _a\n")
    (probe / "_d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                 "    from ._e import z\n")
    (probe / "_e.py").write_text("from ._d import w\n")  # _d -> _e only for types: no circle
    assert import_cycles(synthetic) == [
        ["mcp_skew.probe._a", "mcp_skew.probe._b", "mcp_skew.probe._c"]]

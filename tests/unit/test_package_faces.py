"""What is public: the library's face, and no reach into another package's private modules.

``mcp_skew`` exports the public API (``mcp_skew.API``, described in ``docs/api.md``);
each package's ``__init__`` is its own face. The rule is now *none*: no module of one
package imports a ``_private`` module of another (``from ..simulator._wire import ...``);
it imports the name from the package's face. :data:`ALLOWED` is empty and stays so: a new
reach fails until it goes through the package's face. The self-test runs the checker on a
synthetic package, so this test can fail.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

import mcp_skew

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_layers import ROOT, _module_name, imports_of, modules

#: (importing module, private module of another package) pairs that exist today: none.
ALLOWED: frozenset[tuple[str, str]] = frozenset()


def private_reaches(root: Path) -> set[tuple[str, str]]:
    """(module, target) for every import of another package's ``_private`` module."""
    found = set()
    for path in modules(root):
        module, _ = _module_name(path, root)
        for imp in imports_of(path, root):
            parts = imp.target.split(".")
            if parts[0] != module.split(".")[0] or len(parts) < 3:
                continue  # outside the package, or a top-level module (the shared leaves)
            if module.split(".")[1:2] == parts[1:2]:
                continue  # inside its own package
            if any(p.startswith("_") and not p.startswith("__") for p in parts[2:]):
                found.add((module, imp.target))
    return found


def test_no_new_import_of_another_packages_private_module() -> None:
    found = private_reaches(ROOT)
    assert sorted(found - ALLOWED) == [], "import it from the package's face (its __init__)"
    assert sorted(ALLOWED - found) == [], "no longer used: take it off ALLOWED"


def test_the_checker_sees_a_reach(tmp_path: Path) -> None:
    for package in ("", "simulator", "probe"):
        directory = tmp_path / "mcp_skew" / package
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "__init__.py").write_text("")
    (tmp_path / "mcp_skew" / "simulator" / "_wire.py").write_text("")
    (tmp_path / "mcp_skew" / "simulator" / "_own.py").write_text("from . import _wire\n")
    (tmp_path / "mcp_skew" / "probe" / "_a.py").write_text(
        "from ..simulator import _wire\nfrom ..simulator import x\n")
    assert private_reaches(tmp_path) == {("mcp_skew.probe._a", "mcp_skew.simulator._wire")}


@pytest.mark.parametrize("name", sorted(mcp_skew.API))
def test_each_public_name_is_the_object_its_package_defines(name: str) -> None:
    module, attribute = mcp_skew.API[name]
    assert getattr(mcp_skew, name) is getattr(importlib.import_module(module), attribute)
    assert name in mcp_skew.__all__ and name in dir(mcp_skew)


def test_the_face_lists_every_name_and_no_other() -> None:
    assert set(mcp_skew.__all__) == {*mcp_skew.API, "__version__"}
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        mcp_skew.nothing  # noqa: B018


FACES = sorted(".".join(p.parent.relative_to(ROOT / "mcp_skew").parts)
               for p in (ROOT / "mcp_skew").glob("**/*/__init__.py") if p.parent.name != "commands")


@pytest.mark.parametrize("package", FACES)
def test_every_name_a_face_lists_is_there(package: str) -> None:
    # the faces that import a name on first use (a PEP 562 __getattr__) must still have it
    face = importlib.import_module(f"mcp_skew.{package}")
    missing = [name for name in face.__all__ if not hasattr(face, name)]
    assert missing == []
    assert len(set(face.__all__)) == len(face.__all__)


# -- how many names the faces list -----------------------------------------------------

#: The most names each package's face (its ``__init__``'s ``__all__``) may list. Issue 34:
#: the simulator's public face at most 40 (103 before its rooms, 43 before its quirks and
#: bridges rooms), its rooms each a small face of what other packages use; the other faces at
#: what they list today, so none grows unseen.
FACE_CEILINGS: Mapping[str, int] = {
    "mcp_skew": 24,
    "mcp_skew.census": 2,
    "mcp_skew.commands.parsers": 1,
    "mcp_skew.matrix": 6,
    "mcp_skew.migrate": 4,
    "mcp_skew.peers": 30,
    "mcp_skew.probe": 10,
    "mcp_skew.probe_client": 6,
    "mcp_skew.realpeers": 6,
    "mcp_skew.rollout": 4,
    "mcp_skew.serve": 6,
    "mcp_skew.simulator": 36,
    "mcp_skew.simulator.bridges": 3,
    "mcp_skew.simulator.findings": 4,
    "mcp_skew.simulator.http": 10,
    "mcp_skew.simulator.http.auth": 8,
    "mcp_skew.simulator.machine": 10,
    "mcp_skew.simulator.messages": 6,
    "mcp_skew.simulator.quirks": 2,
    "mcp_skew.transcript": 18,
    "mcp_skew.versions": 42,
    "mcp_skew.wire": 12,
}
#: All the faces together: 469 before the simulator's rooms; 328 once each face listed only
#: what another package imports from it (tests import a name from the module that defines it);
#: 349 with the bridges, apps, extensions and drafts (issues 38-40); 337 with the census
#: command in its package; 322 with the quirks and bridges rooms (each name on one face), the
#: census face its command's entry point and what the matrix reads, and no name re-exported by
#: a second face (builtin_peers, PEER_FILE_FORMAT); 285 with the rollout, probe-client and
#: verify-peer commands in their features' rooms and serve's commands' work in serve's (each
#: face names an entry point, not the pieces the command used), the views versions, show and
#: diff print, the stdio edge's line reading in the simulator (not the messages room's
#: decoder lent to serve), the header table one value, and no face re-exporting a name for
#: a test; 268 with the real HTTP link driving simulator.http's HttpClient (not its rules),
#: the probe's card reading the guide through guide_page and serve_both_eras, a cite and a
#: table delta giving their own plain data (to_json a shared leaf's), probe --via's bridge one
#: context manager, the run document stamped by the transcript, census_peers saying whether a
#: file is a census; 261 with probe-client's served runs one entry point of serve's
#: (ServedForClient: the stdio or HTTP server, its log written and read back); 250 with the
#: matrix and probe commands' work in their features' rooms (each face names run_command, the
#: command line passing in what the feature may not import: a census's servers, the real
#: runs, --via's bridge start), the real-world matrix one entry point of realpeers'
#: (run_matrix), a served log annotated by ServedForClient, and a guide's table deltas one
#: value (deltas_between). Issue 34 asked for at most 250: lower this as the faces shrink.
TOTAL_CEILING = 250


def face_names(root: Path) -> dict[str, list[str]]:
    """Each package's face (dotted) and the names its ``__all__`` lists, read with :mod:`ast`
    (a package with no ``__all__``, ``commands``, lists none)."""
    out = {}
    for init in sorted((root / "mcp_skew").rglob("__init__.py")):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        names = [ast.literal_eval(node.value) for node in tree.body
                 if isinstance(node, ast.Assign) and len(node.targets) == 1
                 and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "__all__"]
        if names:
            out[".".join(init.parent.relative_to(root).parts)] = list(names[0])
    return out


def test_each_face_stays_within_its_ceiling() -> None:
    faces = face_names(ROOT)
    assert set(faces) == set(FACE_CEILINGS), "a face came or went: give it a ceiling"
    over = {face: len(names) for face, names in faces.items() if len(names) > FACE_CEILINGS[face]}
    assert over == {}, "a face grew: import from a room's face, or keep the name private"
    assert sum(len(names) for names in faces.values()) <= TOTAL_CEILING


def test_the_face_count_reads_every_face(tmp_path: Path) -> None:
    for package in ("mcp_skew", "mcp_skew/simulator", "mcp_skew/simulator/http", "mcp_skew/commands"):
        (tmp_path / package).mkdir(parents=True)
    (tmp_path / "mcp_skew" / "__init__.py").write_text('__all__ = ["a", "b"]\n')
    (tmp_path / "mcp_skew" / "simulator" / "__init__.py").write_text('__all__ = ["run"]\n')
    (tmp_path / "mcp_skew" / "simulator" / "http" / "__init__.py").write_text(
        'from ._x import y\n__all__ = [\n    "y",\n    "z",\n]\n')
    (tmp_path / "mcp_skew" / "commands" / "__init__.py").write_text('"""no face"""\n')
    assert face_names(tmp_path) == {"mcp_skew": ["a", "b"], "mcp_skew.simulator": ["run"],
                                    "mcp_skew.simulator.http": ["y", "z"]}

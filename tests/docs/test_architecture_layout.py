"""docs/architecture.md names only paths that exist, and names every package; docs/api.md
names only paths and modules that exist.

The page is a newcomer's map, so it goes stale silently when a module moves. Read from the
package tree: every path the page gives in backticks (``simulator/http/``,
``simulator/_run.py``, ``mcp_skew/_memo.py``, ``tests/unit/test_layers.py``) must be a
folder or file of the checkout (a path without ``mcp_skew/``, ``tests/``, ``docs/`` or
``benchmarks/`` in front is inside ``mcp_skew/``); every dotted name that starts with
``mcp_skew.`` must be a module, or a module and one name it defines; and every package of
``mcp_skew`` (a folder with an ``__init__.py``, subpackages too) must be named as a path
(``simulator/http/auth/``). The self-tests run the check on a synthetic tree and page.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "architecture.md"
#: The library's page: the modules and names it gives must exist (it need not name every package).
API_PAGE = ROOT / "docs" / "api.md"

_CODE = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(r"[A-Za-z_][\w.-]*(/[\w.-]+)*(/|\.py)")
_DOTTED = re.compile(r"mcp_skew(\.\w+)+")
_ROOTED = ("mcp_skew/", "tests/", "docs/", "benchmarks/")


def _defines(module: Path, name: str) -> bool:
    """Whether the module's source binds ``name`` at its top level (or lists it in ``__all__``)."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and node.name == name:
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) \
                    and node.value is not None and name in ast.literal_eval(node.value):
                return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) \
                and any((a.asname or a.name.split(".")[0]) == name for a in node.names):
            return True
    return False


def _module_file(root: Path, parts: list[str]) -> Path | None:
    base = root.joinpath(*parts)
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    return None


def named_paths(page: str) -> set[str]:
    """The paths the page gives in backticks, relative to the checkout's root."""
    out = set()
    for token in _CODE.findall(page):
        if _PATH.fullmatch(token) and "/" in token:
            out.add(token if token.startswith(_ROOTED) else f"mcp_skew/{token}")
    return out


def problems(page: str, root: Path, *, every_package: bool = True) -> list[str]:
    """What the page names that is not in the tree, and (``every_package``) the packages it
    does not name."""
    found = []
    paths = named_paths(page)
    for path in sorted(paths):
        target = root / path
        if not (target.is_file() if path.endswith(".py") else target.is_dir()):
            found.append(f"names {path}, which does not exist")
    for token in sorted(set(_CODE.findall(page))):
        if not _DOTTED.fullmatch(token):
            continue
        parts = token.split(".")
        module = _module_file(root, parts)
        if module is None:
            owner = _module_file(root, parts[:-1])
            if owner is None or not _defines(owner, parts[-1]):
                found.append(f"names {token}, which is no module (nor a name in one)")
    for init in sorted((root / "mcp_skew").rglob("__init__.py")) if every_package else ():
        package = init.parent.relative_to(root).as_posix() + "/"
        if package != "mcp_skew/" and package not in paths:
            found.append(f"does not name the package {package.removeprefix('mcp_skew/')}")
    return found


def test_the_architecture_page_matches_the_package_tree() -> None:
    assert problems(PAGE.read_text(encoding="utf-8"), ROOT) == []


def test_the_api_page_names_modules_that_exist() -> None:
    page = API_PAGE.read_text(encoding="utf-8")
    assert _DOTTED.search(page), "the page names the modules behind the public names"
    assert problems(page, ROOT, every_package=False) == []


def _tree(tmp_path: Path) -> Path:
    for package in ("mcp_skew", "mcp_skew/simulator", "mcp_skew/simulator/http"):
        (tmp_path / package).mkdir(parents=True, exist_ok=True)
        (tmp_path / package / "__init__.py").write_text('__all__ = ["run"]\n')
    (tmp_path / "mcp_skew" / "simulator" / "_run.py").write_text("def run():\n    pass\n")
    return tmp_path


def test_the_check_passes_a_page_that_matches(tmp_path: Path) -> None:
    page = ("`simulator/` holds `_run.py` and `simulator/http/`: `simulator/_run.py`, "
            "`mcp_skew.simulator._run.run`, `mcp_skew.simulator.run`, `mcp_skew/`")
    assert problems(page, _tree(tmp_path)) == []


def test_the_check_finds_a_stale_path_a_stale_module_and_a_missing_package(
        tmp_path: Path) -> None:
    page = ("`simulator/` and `simulator/_http_link.py`, `simulator/gone/`, "
            "`mcp_skew.simulator._http_link`, `mcp_skew.simulator._run.nothing`")
    assert problems(page, _tree(tmp_path)) == [
        "names mcp_skew/simulator/_http_link.py, which does not exist",
        "names mcp_skew/simulator/gone/, which does not exist",
        "names mcp_skew.simulator._http_link, which is no module (nor a name in one)",
        "names mcp_skew.simulator._run.nothing, which is no module (nor a name in one)",
        "does not name the package simulator/http/",
    ]
    assert problems(page, _tree(tmp_path), every_package=False) == [
        "names mcp_skew/simulator/_http_link.py, which does not exist",
        "names mcp_skew/simulator/gone/, which does not exist",
        "names mcp_skew.simulator._http_link, which is no module (nor a name in one)",
        "names mcp_skew.simulator._run.nothing, which is no module (nor a name in one)",
    ]

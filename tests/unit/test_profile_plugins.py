"""Third-party profiles: TOML and JSON files given with ``--profile``, and entry points.

A good file shows up in ``versions``, ``show`` and ``diff``. A bad one gives exactly
one stderr line naming the file, the field and the problem, and exit code 2.
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from collections.abc import Iterator
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.cli import main
from mcp_skew.versions import (
    REGISTRY,
    Change,
    Cite,
    Direction,
    Impact,
    Kind,
    Method,
    ProfileFileError,
    Registry,
    load_entry_points,
    with_profile_files,
)
from mcp_skew.versions._plugins import ENTRY_POINT_GROUP, load_profile_file, may_declare
from mcp_skew.versions._registry import LATEST

GOOD_TOML = """\
revision = "2026-12-vendor"
extends = "2026-07-28"
title = "Vendor X's variant"

[[changes]]
id = "vendor-x-search"
summary = "Adds vendor/search"
impact = "additive"
cite = { revision = "2026-12-vendor", source = "https://example.com/spec" }
add = { methods = { "vendor/search" = { kind = "request", direction = "client->server" } } }
"""

GOOD_JSON: dict[str, Any] = {
    "revision": "2026-12-json",
    "extends": "2026-07-28",
    "title": "A draft in JSON",
    "changes": [
        {
            "id": "draft-no-batching-note",
            "summary": "Adds a feature and an error, drops the stateless feature",
            "impact": "breaking",
            "cite": {"revision": "2026-12-json", "source": "drafts/x.md", "section": "2"},
            "add": {
                "features": ["draft-feature"],
                "errors": {"DraftError": {"code": -32030, "message": "Draft", "data": ["why"]}},
            },
            "remove": {"features": ["stateless"]},
            "settings": {"batching": True},
            "steps": ["Send arrays again."],
        }
    ],
}


@pytest.fixture(autouse=True)
def _registry_unchanged() -> Iterator[None]:
    """Loading profiles makes new registries: the built-in one never changes."""
    before = REGISTRY.revisions()
    yield
    assert REGISTRY.revisions() == before


@pytest.fixture
def toml_file(tmp_path: Path) -> Path:
    path = tmp_path / "vendor.toml"
    path.write_text(GOOD_TOML, encoding="utf-8")
    return path


@pytest.fixture
def json_file(tmp_path: Path) -> Path:
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(GOOD_JSON), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- good files ------------------------------------------------------------------------


def test_a_toml_profile_extends_a_builtin(toml_file: Path) -> None:
    registry = Registry()
    profile = load_profile_file(toml_file, registry)
    assert profile.revision == "2026-12-vendor" and profile.title == "Vendor X's variant"
    assert profile.previous is LATEST
    # a request a file adds is served by simulated servers: an empty answer by default
    assert profile.methods["vendor/search"] == Method(Kind.REQUEST, Direction.C2S, answer={})
    assert profile.changes[0].revision == "2026-12-vendor"
    assert profile.changes[0].cite == Cite("2026-12-vendor", "https://example.com/spec")
    assert "2026-12-vendor" not in registry  # loading registers nothing
    grown = with_profile_files([str(toml_file)], registry)
    assert grown.get("2026-12-vendor") == profile and grown.revisions()[:-1] == registry.revisions()
    assert not LATEST.supports("vendor/search")


def test_a_json_profile_extends_a_builtin(json_file: Path) -> None:
    profile = load_profile_file(json_file, Registry())
    change = profile.changes[0]
    assert change.impact is Impact.BREAKING and change.steps == ("Send arrays again.",)
    assert profile.error("DraftError").code == -32030
    assert profile.error("DraftError").data == ("why",)
    assert profile.has("features", "draft-feature") and not profile.has("features", "stateless")
    assert profile.settings["batching"] is True
    assert profile.era is LATEST.era


def test_profile_files_show_up_in_versions(
    capsys: pytest.CaptureFixture[str], toml_file: Path, json_file: Path
) -> None:
    code, out, err = run(
        capsys, "--profile", str(toml_file), "--profile", str(json_file), "versions",
        "--format", "json",
    )
    assert (code, err) == (0, "")
    rows = {row["revision"]: row for row in json.loads(out)["revisions"]}
    assert rows["2026-12-vendor"]["source"] == "extends 2026-07-28"
    assert rows["2026-12-vendor"]["headline"] == "Vendor X's variant"
    assert rows["2026-12-vendor"]["requests_c2s"] == rows["2026-07-28"]["requests_c2s"] + 1
    assert rows["2026-12-json"]["changes"] == 1
    assert list(rows)[:5] == ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
    assert set(list(rows)[5:]) == {"2026-12-vendor", "2026-12-json"}


def test_profile_file_shows_up_in_the_text_table(
    capsys: pytest.CaptureFixture[str], toml_file: Path
) -> None:
    code, out, _ = run(capsys, "--profile", str(toml_file), "versions")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("2026-12-vendor"))
    assert "modern" in line and "extends 2026-07-28" in line


def test_profile_file_shows_up_in_show(
    capsys: pytest.CaptureFixture[str], toml_file: Path
) -> None:
    code, out, _ = run(capsys, "--profile", str(toml_file), "show", "2026-12-vendor",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["extends"] == "2026-07-28"
    assert data["lineage"][-2:] == ["2026-07-28", "2026-12-vendor"]
    assert data["tables"]["methods"]["vendor/search"] == {
        "kind": "request", "direction": "client->server", "capability": None, "answer": {},
    }
    assert [c["id"] for c in data["changes"]] == ["vendor-x-search"]
    code, out, _ = run(capsys, "--profile", str(toml_file), "show", "2026-12-vendor")
    assert code == 0 and "vendor/search" in out and "vendor-x-search" in out


def test_profile_file_shows_up_in_diff(
    capsys: pytest.CaptureFixture[str], toml_file: Path
) -> None:
    code, out, _ = run(capsys, "--profile", str(toml_file), "diff", "2025-11-25",
                       "2026-12-vendor", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["changes"][-1]["id"] == "vendor-x-search"
    assert data["changes"][-1]["delta"][0]["added"] == ["vendor/search"]


# -- bad files ------------------------------------------------------------------------------


def _toml(old: str, new: str) -> str:
    assert old in GOOD_TOML
    return GOOD_TOML.replace(old, new)


#: (case id, file name, content, what the one error line must contain)
BAD_FILES: list[tuple[str, str, str | bytes, tuple[str, ...]]] = [
    ("bad-toml", "p.toml", _toml('summary = "Adds vendor/search"', "summary = "),
     ("not valid TOML or JSON", "line 7")),
    ("bad-json", "p.json", '{"revision": ', ("not valid TOML or JSON",)),
    ("missing-extends", "p.toml", _toml('extends = "2026-07-28"\n', ""),
     ("field extends", "Field required")),
    ("missing-changes", "p.json", json.dumps({"revision": "x", "extends": "2026-07-28"}),
     ("field changes", "Field required")),
    ("unknown-key", "p.toml", _toml('title = "', 'colour = "blue"\ntitle = "'),
     ("field colour", "Extra inputs are not permitted")),
    ("unknown-table", "p.toml", _toml("add = { methods", "add = { widgets"),
     ("change 'vendor-x-search'", "table 'widgets'", "no such table")),
    ("add-existing-method", "p.toml", _toml('"vendor/search"', '"tools/list"'),
     ("table 'methods'", "cannot add 'tools/list', it already exists")),
    ("remove-missing", "p.toml",
     _toml("add = { methods = {", 'remove = { methods = ["ping"] }\nadd = { methods = {'),
     ("table 'methods'", "cannot remove 'ping', it does not exist")),
    ("extends-unknown", "p.toml", _toml('extends = "2026-07-28"', 'extends = "1999-01-01"'),
     ("field extends", "unknown revision '1999-01-01'", "known revisions: 2024-11-05")),
    ("bad-row", "p.toml", _toml('direction = "client->server"', 'direction = "sideways"'),
     ("field changes.0.add.methods.vendor/search.direction", "Input should be")),
    ("bad-era", "p.toml", _toml("add = { methods", 'settings = { era = "future" }\nadd = { methods'),
     ("change 'vendor-x-search', field changes.0.settings.era",
      "Input should be 'legacy' or 'modern', not 'future'")),
    ("bad-rule-id", "p.toml", _toml('id = "vendor-x-search"', 'id = "Bad Id"'),
     ("field changes.0.id", "String should match pattern")),
    ("builtin-rule-id", "p.toml", _toml('id = "vendor-x-search"', 'id = "ping-removed"'),
     ("change 'ping-removed'", "is used already by 2026-07-28")),
    ("revision-taken", "p.toml", _toml('revision = "2026-12-vendor"', 'revision = "2025-06-18"'),
     ("'2025-06-18' is already registered",)),
    ("not-utf8", "p.toml", b"\xff\xfe revision", ("can't decode",)),
]


@pytest.mark.parametrize(
    "name, content, expected", [c[1:] for c in BAD_FILES], ids=[c[0] for c in BAD_FILES]
)
def test_a_bad_file_is_one_error_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    name: str,
    content: str | bytes,
    expected: tuple[str, ...],
) -> None:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "--profile", str(path), "versions")
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"mcp-skew: error: {path}: ")
    for part in expected:
        assert part in err
    assert "Traceback" not in err


@pytest.mark.parametrize("make", ["missing", "directory"])
def test_an_unreadable_path_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: str
) -> None:
    path = tmp_path / "nope.toml"
    if make == "directory":
        path.mkdir()
    code, out, err = run(capsys, "--profile", str(path), "versions")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"mcp-skew: error: {path}: cannot read: ")


def test_a_bad_file_leaves_the_registry_alone(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(_toml('"vendor/search"', '"tools/list"'), encoding="utf-8")
    registry = Registry()
    with pytest.raises(ProfileFileError):
        load_profile_file(path, registry)
    assert "2026-12-vendor" not in registry


# -- entry points -------------------------------------------------------------------------------


class FakeEntryPoint:
    def __init__(self, name: str, value: object) -> None:
        self.name = name
        self._value = value

    def load(self) -> object:
        return self._value


def _vendor(revision: str = "2026-12-ep") -> Any:
    change = Change(
        id=f"{revision}-thing",
        summary="An entry-point profile",
        cite=Cite(revision, "https://example.com"),
        impact=Impact.ADDITIVE,
        add={"features": ["ep-feature"]},
    )
    return LATEST.evolve(revision=revision, changes=(change,))


def declare(folder: Path, name: str, text: str) -> None:
    """A distribution ``name`` in ``folder`` whose ``entry_points.txt`` is ``text``."""
    (folder / f"{name}.dist-info").mkdir()
    (folder / f"{name}.dist-info" / "entry_points.txt").write_text(text, encoding="utf-8")


@pytest.fixture
def entry_points(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[FakeEntryPoint]:
    """The installed entry points of the group: importlib.metadata's answer, replaced, and a
    distribution on sys.path that declares the group (else it is not asked: may_declare)."""
    installed: list[FakeEntryPoint] = []

    def fake(*, group: str) -> list[FakeEntryPoint]:
        assert group == ENTRY_POINT_GROUP
        return installed

    declare(tmp_path, "vendor_profiles-1.0", f"[{ENTRY_POINT_GROUP}]\nvendor = vendor:PROFILE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(importlib.metadata, "entry_points", fake)
    return installed


# -- whether importlib.metadata is asked at all --------------------------------------------------

@pytest.fixture
def only_the_path_finder(monkeypatch: pytest.MonkeyPatch) -> None:
    """No finder but the standard path finder lists distributions (a package imported by the
    test run, importlib_metadata, adds one of its own: may_declare then always says True)."""
    monkeypatch.setattr(sys, "meta_path", [
        f for f in sys.meta_path
        if f is PathFinder or not hasattr(f, "find_distributions")])


@pytest.mark.usefixtures("only_the_path_finder")
def test_a_distribution_that_declares_the_group_is_seen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "absent")])
    declare(tmp_path, "other-2.0", "[console_scripts]\nother = other:main\n")
    (tmp_path / "plain-1.0.dist-info").mkdir()  # no entry points at all
    (tmp_path / "old.egg-info").write_text("Metadata-Version: 1.0\n", encoding="utf-8")
    assert not may_declare(ENTRY_POINT_GROUP)
    declare(tmp_path, "Vendor-1.0.DIST-INFO", f"[{ENTRY_POINT_GROUP}]\nv = v:P\n")
    assert may_declare(ENTRY_POINT_GROUP)


@pytest.mark.usefixtures("only_the_path_finder")
def test_no_distribution_declares_it_and_importlib_metadata_is_not_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def asked(*, group: str) -> list[FakeEntryPoint]:
        raise AssertionError("importlib.metadata asked")

    monkeypatch.setattr(importlib.metadata, "entry_points", asked)
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    registry = Registry()
    assert load_entry_points(registry) is registry


@pytest.mark.usefixtures("only_the_path_finder")
@pytest.mark.parametrize("where", ["zip", "finder", "unreadable"])
def test_what_it_cannot_tell_is_left_to_importlib_metadata(
        where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert not may_declare(ENTRY_POINT_GROUP)
    if where == "zip":  # importlib.metadata reads distributions inside a zip on the path
        (tmp_path / "plugins.zip").write_bytes(b"PK\x05\x06" + bytes(18))
        monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "plugins.zip")])
    elif where == "finder":  # a finder of its own lists distributions
        class Finder:
            def find_distributions(self, *args: object, **kwargs: object) -> list[object]:
                return []

        monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    else:  # entry_points.txt is a folder: it cannot be read
        (tmp_path / "odd-1.0.dist-info" / "entry_points.txt").mkdir(parents=True)
    assert may_declare(ENTRY_POINT_GROUP)


def test_entry_points_register_profiles_and_factories(entry_points: list[FakeEntryPoint]) -> None:
    entry_points += [
        FakeEntryPoint("plain", _vendor("2026-12-ep")),
        FakeEntryPoint("factory", lambda: _vendor("2026-12-factory")),
    ]
    registry = load_entry_points(Registry())
    assert registry.revisions()[-2:] == ("2026-12-ep", "2026-12-factory")
    assert registry.get("2026-12-ep").has("features", "ep-feature")
    assert load_entry_points(registry) == registry  # already there: skipped, not an error


def test_an_entry_point_that_is_not_a_profile_is_an_error(
    entry_points: list[FakeEntryPoint], capsys: pytest.CaptureFixture[str]
) -> None:
    entry_points.append(FakeEntryPoint("broken", 42))
    with pytest.raises(ProfileFileError, match="entry point 'broken': does not give a Profile"):
        load_entry_points(Registry())
    code, out, err = run(capsys, "versions")
    assert (code, out) == (2, "")
    assert err == "mcp-skew: error: entry point 'broken': does not give a Profile\n"


def test_entry_point_profiles_show_up_in_versions(
    entry_points: list[FakeEntryPoint], capsys: pytest.CaptureFixture[str]
) -> None:
    entry_points.append(FakeEntryPoint("plain", _vendor()))
    code, out, _ = run(capsys, "versions", "--format", "json")
    assert code == 0
    revisions = [row["revision"] for row in json.loads(out)["revisions"]]
    assert revisions[-2:] == ["2026-07-28", "2026-12-ep"]

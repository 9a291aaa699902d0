"""Profile files as a typed format: every bad file is one line naming the file, the change
(by id) and the field, exit code 2, in every command; a profile that leaves out what its
era needs is refused at load. The format's documentation (``docs/profiles.md``) holds an
example that loads, and names every field of the schema.
"""

from __future__ import annotations

import copy
import importlib.metadata
import json
import re
from pathlib import Path
from typing import Any

import pytest
from _fuzz import run_cli
from _fuzz_inputs import FULL_PROFILE, toml_text

from mcp_skew.versions import (
    Change,
    Cite,
    Impact,
    ProfileFileError,
    Registry,
    _plugins,
    load_entry_points,
    with_profile_files,
)
from mcp_skew.versions._profile import MAPPING_TABLES, SET_TABLES, SETTINGS
from mcp_skew.versions._profile_file import _ROW_MODELS, ProfileIn
from mcp_skew.versions._registry import LATEST

DOC = Path(__file__).resolve().parents[2] / "docs" / "profiles.md"
REV = FULL_PROFILE["revision"]

#: Every command that reads the registry (the file is read before the command starts).
COMMANDS = [
    ["versions"], ["show", REV], ["diff", "2026-07-28", REV],
    ["matrix", "--clients", f"modern:{REV}", "--servers", "modern:2026-07-28"],
    ["simulate", "--client", f"modern:{REV}", "--server", f"modern:{REV}"],
    ["migrate", "2026-07-28", REV], ["serve", f"modern:{REV}"],
    ["rollout", "--clients", "legacy:2025-06-18*2", "--fleet", "legacy:2025-11-25*2",
     "--to", f"dual:{REV},2025-11-25", "--duration", "2m"],
    ["probe", "--", "true"], ["census", "report", "--db", "missing.sqlite"],
]


def _edit(first: dict[str, Any] | None = None, second: dict[str, Any] | None = None,
          **top: Any) -> dict[str, Any]:
    doc = copy.deepcopy(FULL_PROFILE)
    doc["changes"][0].update(first or {})
    doc["changes"][1].update(second or {})
    doc.update(top)
    return doc


#: (case, document, what the one line says after the file's name)
BAD: list[tuple[str, Any, str]] = [
    ("list-in-a-set-table", _edit({"add": {"features": [["x"]]}}),
     "change 'fuzz-search', field changes.0.add.features.0: Input should be a valid string"),
    ("object-in-a-set-table", _edit({"add": {"content_types": [{"a": 1}]}}),
     "change 'fuzz-search', field changes.0.add.content_types.0: Input should be a valid string"),
    ("number-in-a-set-table", _edit({"add": {"content_types": [1]}}),
     "change 'fuzz-search', field changes.0.add.content_types.0: Input should be a valid string"),
    ("string-for-a-list", _edit({"remove": {"features": "stateless"}}),
     "change 'fuzz-search', field changes.0.remove.features: Input should be a valid list"),
    ("null-for-a-table", _edit(second={"remove": {"features": None}}),
     "change 'fuzz-batching', field changes.1.remove.features: Input should be a valid list"),
    ("method-missing-a-field",
     _edit(second={"replace": {"methods": {"tools/list": {"kind": "request"}}}}),
     "change 'fuzz-batching', field changes.1.replace.methods.tools/list.direction: "
     "Field required"),
    ("code-as-string",
     _edit(second={"replace": {"errors": {"InternalError": {"code": "-1", "message": "m"}}}}),
     "change 'fuzz-batching', field changes.1.replace.errors.InternalError.code: "
     "Input should be a valid integer"),
    ("code-out-of-range",
     _edit({"add": {"errors": {"Big": {"code": 10**30, "message": "m"}}}}),
     "change 'fuzz-search', field changes.0.add.errors.Big.code: Input should be less than"),
    ("flag-as-string", _edit(second={"settings": {"batching": "yes"}}),
     "change 'fuzz-batching', field changes.1.settings.batching: Input should be a valid boolean"),
    ("flag-as-number", _edit(second={"settings": {"sessions": 1}}),
     "change 'fuzz-batching', field changes.1.settings.sessions: Input should be a valid boolean"),
    ("list-for-a-setting", _edit(second={"settings": {"resource_not_found": ["x"]}}),
     "change 'fuzz-batching', field changes.1.settings.resource_not_found: "
     "Input should be a valid string"),
    ("object-for-a-setting", _edit(second={"settings": {"version_header_absent": {"a": 1}}}),
     "change 'fuzz-batching', field changes.1.settings.version_header_absent: "
     "Input should be a valid string"),
    ("unknown-transport", _edit(second={"settings": {"http_transport": "carrier pigeon"}}),
     "change 'fuzz-batching', field changes.1.settings.http_transport: Input should be "),
    ("unknown-setting", _edit(second={"settings": {"colour": "blue"}}),
     "change 'fuzz-batching', field changes.1.settings.colour: no such setting 'colour'"),
    ("unknown-table", _edit({"add": {"widgets": ["x"]}}),
     "change 'fuzz-search', field changes.0.add.widgets: no such table 'widgets'"),
    ("replace-a-set-table", _edit({"replace": {"features": ["x"]}}),
     "change 'fuzz-search', field changes.0.replace.features: no such table 'features'"),
    ("unknown-row-key",
     _edit({"add": {"methods": {"x/y": {"kind": "request", "direction": "both", "colour": 1}}}}),
     "change 'fuzz-search', field changes.0.add.methods.x/y.colour: "
     "Extra inputs are not permitted"),
    ("unknown-change-key", _edit({"colour": "blue"}),
     "change 'fuzz-search', field changes.0.colour: Extra inputs are not permitted"),
    ("answer-of-a-notification",
     _edit({"add": {"methods": {"n/x": {"kind": "notification", "direction": "both",
                                        "answer": {}}}}}),
     "change 'fuzz-search', field changes.0.add.methods.n/x: Value error, "
     "a notification has no answer"),
    ("answer-not-a-table",
     _edit({"add": {"methods": {"x/y": {"kind": "request", "direction": "both", "answer": [1]}}}}),
     "change 'fuzz-search', field changes.0.add.methods.x/y.answer: "
     "Input should be a valid dictionary"),
    ("change-without-id", _edit({"id": 7}),
     "change #1, field changes.0.id: Input should be a valid string"),
    ("revision-a-list", _edit(revision=["x"]), "field revision: Input should be a valid string"),
    ("steps-of-lists", _edit({"steps": [["a"]]}),
     "change 'fuzz-search', field changes.0.steps.0: Input should be a valid string"),
    ("removes-what-the-era-needs",
     _edit({"remove": {"errors": ["UnsupportedProtocolVersion"]}}),
     f"{REV}: a modern revision needs the error 'UnsupportedProtocolVersion' in its errors table"),
    ("removes-builtin-errors",
     _edit({"remove": {"errors": ["MethodNotFound", "InvalidParams"]}}),
     f"{REV}: a modern revision needs the errors 'MethodNotFound' and 'InvalidParams'"),
    ("not-found-error-unknown", _edit(second={"settings": {"resource_not_found": "Nope"}}),
     f"{REV}: setting 'resource_not_found' names 'Nope', which is not in its errors table"),
    ("not-found-error-removed",
     _edit({"remove": {"errors": ["XQuota"]}},
           {"settings": {"resource_not_found": "XQuota"}}),
     f"{REV}: setting 'resource_not_found' names 'XQuota', which is not in its errors table"),
    ("modern-code-not-an-error", _edit({"add": {"modern_error_codes": ["XNope"]}}),
     f"{REV}: table 'modern_error_codes' names 'XNope', not in its errors table"),
    ("unbatched-not-a-request", _edit({"add": {"unbatched_methods": ["notifications/x"]}}),
     f"{REV}: table 'unbatched_methods' names 'notifications/x', not a request of its "
     "methods table"),
]


@pytest.mark.parametrize("suffix", [".json", ".toml"])
@pytest.mark.parametrize(("index", "document", "says"),
                         [(i, *c[1:]) for i, c in enumerate(BAD)], ids=[c[0] for c in BAD])
def test_a_bad_profile_is_one_line_naming_change_and_field(
        tmp_path: Path, index: int, document: Any, says: str, suffix: str) -> None:
    path = tmp_path / f"p{suffix}"
    if suffix == ".toml" and BAD[index][0] == "code-out-of-range":
        pytest.skip("TOML integers are 64-bit: the file is not TOML")
    if suffix == ".toml" and BAD[index][0] == "null-for-a-table":
        pytest.skip("TOML has no null: the file is not TOML")
    path.write_text(json.dumps(document) if suffix == ".json" else toml_text(document),
                    encoding="utf-8")
    # each case in "versions" and in one more command, in turn: every command meets a few
    for command in (["versions"], COMMANDS[(2 * index + (suffix == ".toml")) % len(COMMANDS)]):
        code, out, err = run_cli(["--profile", str(path), *command])
        assert (code, out) == (2, ""), (command, err)
        assert err.startswith(f"mcp-skew: error: {path}: {says}"), (command, err)
        assert err.count("\n") == 1, err


def test_the_full_profile_loads(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(FULL_PROFILE), encoding="utf-8")
    profile = with_profile_files([str(path)]).get(REV)
    assert profile.methods["x/search"].answer == {"hits": []}
    assert profile.errors["InternalError"].message == "Oops"
    assert profile.settings["batching"] is True


def test_an_entry_point_that_leaves_out_what_its_era_needs_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    change = Change(id="ep-no-upv", summary="drops it", cite=Cite("2099-02-02", "x"),
                    impact=Impact.BREAKING, remove={"errors": ["UnsupportedProtocolVersion"]})
    profile = LATEST.evolve(revision="2099-02-02", changes=(change,))

    class Entry:
        name = "vendor"

        def load(self) -> object:
            return profile

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda *, group: [Entry()])
    monkeypatch.setattr(_plugins, "may_declare", lambda group: True)  # a distribution has one
    with pytest.raises(ProfileFileError, match="entry point 'vendor': 2099-02-02: a modern "
                       "revision needs the error 'UnsupportedProtocolVersion'"):
        load_entry_points(Registry())


# -- the documentation ---------------------------------------------------------------------------


def test_the_documented_example_loads_and_runs(tmp_path: Path) -> None:
    block = re.search(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block is not None
    path = tmp_path / "vendor.toml"
    path.write_text(block.group(1), encoding="utf-8")
    profile = with_profile_files([str(path)]).get("2026-12-vendor")
    assert {c.id for c in profile.changes} == {"vendor-x-search", "vendor-x-batching"}
    assert profile.methods["vendor/search"].answer == {"hits": []}
    code, out, err = run_cli(["--profile", str(path), "matrix", "--clients",
                              "modern:2026-12-vendor", "--servers", "modern:2026-12-vendor",
                              "--format", "json"])
    assert code == 0, err
    assert json.loads(out)["cells"][0][0]["revision"] == "2026-12-vendor"


def _fields(model: Any) -> set[str]:
    names = set(model.model_fields)
    for info in model.model_fields.values():
        for inner in getattr(info.annotation, "__args__", ()) or ():
            if hasattr(inner, "model_fields"):
                names |= _fields(inner)
        if hasattr(info.annotation, "model_fields"):
            names |= _fields(info.annotation)
    return names


def test_the_documentation_names_every_field_table_and_setting() -> None:
    text = DOC.read_text(encoding="utf-8")
    names = _fields(ProfileIn) | {f for m in _ROW_MODELS.values() for f in m.model_fields}
    names |= {*SET_TABLES, *MAPPING_TABLES, *SETTINGS}
    missing = sorted(n for n in names if f"`{n}`" not in text)
    assert not missing, missing

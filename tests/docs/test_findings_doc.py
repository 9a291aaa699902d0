"""``docs/findings.md``: every finding code, generated from :data:`FINDINGS`, and the table against the code.

- the page is current (regenerate it: ``.venv/bin/python tests/docs/test_findings_doc.py``);
- the table has one entry per :data:`FindingCode`, and the page a section per code;
- read from the source (every ``Finding(...)`` and ``self.find(...)`` in ``mcp_skew``),
  the codes the package can emit are exactly the table's, each with the severities the
  table gives it and from the commands it names;
- the citations name known revisions, schema definitions in the dialect of their
  revision's schema, and quirks that exist.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from mcp_skew.simulator.findings import FINDINGS
from mcp_skew.simulator.findings._codes import FINDING_CODES, FindingInfo
from mcp_skew.simulator.quirks import QUIRKS
from mcp_skew.versions import REGISTRY, Cite

if TYPE_CHECKING:
    from _sources import Source

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "mcp_skew"
DOC = ROOT / "docs" / "findings.md"
QUIRKS_DOC = ROOT / "docs" / "quirks.md"
SPEC = ROOT.parent / "shared" / "spec" / "schemas"  # only where present: never a skip
REGENERATE = ".venv/bin/python tests/docs/test_findings_doc.py"
JSONRPC_URL = "https://www.jsonrpc.org/specification"
COMMANDS = {"simulate": "mcp-skew simulate", "matrix": "mcp-skew matrix",
            "probe": "mcp-skew probe", "show-log": "mcp-skew show-log",
            "probe-client": "mcp-skew probe-client"}
#: The package a finding is emitted in -> the commands that must then be named.
REPORTED_BY_PACKAGE = {"simulator": {"simulate", "matrix"}, "probe": {"probe"},
                       "serve": {"show-log"}, "probe_client": {"probe-client"}}


# -- rendering ------------------------------------------------------------------------------------

def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _quirk_anchors() -> dict[str, str]:
    """Quirk name -> its anchor in docs/quirks.md (headings such as ``### `fixed=REV```)."""
    found = re.findall(r"^### (`([a-z0-9-]+)(?:=[A-Z]+)?`)$", QUIRKS_DOC.read_text(encoding="utf-8"),
                       flags=re.MULTILINE)
    return {name: _slug(heading) for heading, name in found}


def _cite(cite: Cite) -> str:
    return f"[{cite}]({cite.url()})"


def _severity(info: FindingInfo) -> str:
    names = ", ".join(f"`{s}`" for s in info.severities)
    return f"{names}: {info.severity_rule}" if info.severity_rule else names


def _section(code: str, info: FindingInfo, anchors: dict[str, str]) -> list[str]:
    sources = [_cite(c) for c in info.cites] + [f"[{ref}]({JSONRPC_URL})" for ref in info.refs]
    lines = [
        f"## `{code}`",
        "",
        info.summary[0].upper() + info.summary[1:] + ".",
        "",
        f"- **Severity:** {_severity(info)}",
        f"- **Reported by:** {', '.join(f'`{COMMANDS[r]}`' for r in info.reported_by)}",
        f"- **Spec:** {'; '.join(sources)}",
    ]
    if info.quirks:
        quirks = ", ".join(f"[`{q}`](quirks.md#{anchors[q]})" for q in info.quirks)
        lines.append(f"- **In the simulator:** the server quirk {quirks}")
    lines += ["", f"**When.** {info.when}", "", f"**The spec.** {info.rule}", "",
              f"**Fix.** {info.fix}", ""]
    return lines


def render_findings_doc() -> str:
    """docs/findings.md, from FINDINGS."""
    anchors = _quirk_anchors()
    out = [
        "<!-- generated from mcp_skew.simulator.findings.FINDINGS by "
        f"`{REGENERATE}`; do not edit. -->",
        "# Findings",
        "",
        "A finding is a place where a peer departs from the revision in use: the revision an "
        "`initialize` answered with, the one a modern request names in `_meta`, or the one "
        "negotiated in that process. A finding is data and fails nothing by itself: a run with "
        "findings can still be `ok` (where the same departure also fails the run, as with "
        "`era-mismatch` or a strict client, its section says so). Each has a stable `code` "
        "(below), a `severity`, a `message`, the `index` of the message in that run's transcript "
        "(null for the run as a whole), and a `cite` (revision and spec page or schema "
        "definition). In JSON: "
        "`{\"code\", \"severity\", \"message\", \"index\", \"cite\"}`.",
        "",
        "Severities follow the spec's words: **error** for a MUST, **warning** for a SHOULD (or a "
        "rule the spec states without a keyword), **info** for a legacy behaviour a newer "
        "revision changed, or something allowed that tells the peer nothing.",
        "",
        "Where they appear: each run of `mcp-skew simulate` and `mcp-skew matrix` (the `findings` "
        "of a run in the JSON, the HTML report's cases); the report card of `mcp-skew probe` "
        "([probe.md](probe.md#findings)); the summary of `mcp-skew show-log` "
        "([serve-and-record.md](serve-and-record.md#findings)); the card of `mcp-skew probe-client`, "
        "about a client ([probe-client.md](probe-client.md#findings)). The codes are "
        "`mcp_skew.simulator.findings.FINDING_CODES`.",
        "",
        "| code | severity | reported by | what |",
        "|---|---|---|---|",
    ]
    for code, info in FINDINGS.items():
        severities = ", ".join(info.severities)
        out.append(f"| [`{code}`](#{_slug(code)}) | {severities} | "
                   f"{', '.join(info.reported_by)} | {info.summary} |")
    out.append("")
    for code, info in FINDINGS.items():
        out += _section(code, info, anchors)
    return "\n".join(out)


def test_docs_findings_md_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == render_findings_doc(), (
        f"docs/findings.md is stale: run {REGENERATE}")


def test_every_code_has_an_entry_and_a_section() -> None:
    assert tuple(FINDINGS) == FINDING_CODES
    text = DOC.read_text(encoding="utf-8")
    sections = re.findall(r"^## `([a-z-]+)`$", text, flags=re.MULTILINE)
    assert sections == list(FINDING_CODES)


# -- the table against the source -----------------------------------------------------------------

#: What a code or severity argument resolves to when it is handed on from another finding.
PASSED_ON = "passed on"


def _functions(nodes: Iterable[ast.AST]) -> Iterator[ast.FunctionDef]:
    for node in nodes:
        if isinstance(node, ast.FunctionDef):
            yield node


def _strings(expr: ast.expr, func: ast.FunctionDef) -> set[str]:
    """The strings an argument can be: constants, either arm of a conditional, local assignments.

    A parameter (``code: FindingCode``) or an attribute (``finding.code``) is a value
    handed on from elsewhere; the place it comes from is scanned itself.
    """
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.IfExp):
        return _strings(expr.body, func) | _strings(expr.orelse, func)
    if isinstance(expr, ast.Attribute):
        return {PASSED_ON}
    if isinstance(expr, ast.Name):
        if expr.id in {a.arg for a in func.args.args + func.args.kwonlyargs}:
            return {PASSED_ON}
        found: set[str] = set()
        for node in ast.walk(func):
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == expr.id:
                    found |= _strings(node.value, func)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    for element, value in zip(target.elts, node.value.elts, strict=True):
                        if isinstance(element, ast.Name) and element.id == expr.id:
                            found |= _strings(value, func)
        if found:
            return found
    raise AssertionError(f"cannot read the finding argument {ast.unparse(expr)!r} in "
                         f"{func.name}(): give it as a string constant or a local assignment")


def _argument(call: ast.Call, position: int, name: str) -> ast.expr:
    if len(call.args) > position:
        return call.args[position]
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    raise AssertionError(f"a finding without {name}: {ast.unparse(call)}")


def _is_finding(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "Finding"
    return (isinstance(func, ast.Attribute) and func.attr == "find"
            and isinstance(func.value, ast.Name) and func.value.id == "self" and len(call.args) >= 3)


def _findings_in(read: Source) -> tuple[tuple[set[str], set[str]], ...]:
    """(codes, severities) of every ``Finding(...)`` and ``self.find(...)`` in a module."""
    out = []
    for func in _functions(read.nodes):
        for node in ast.walk(func):
            if not (isinstance(node, ast.Call) and _is_finding(node)):
                continue
            codes = _strings(_argument(node, 0, "code"), func)
            severities = _strings(_argument(node, 1, "severity"), func)
            out.append((codes, severities))
    return tuple(out)


def emitted() -> dict[str, dict[str, set[str]]]:
    """code -> package (``simulator``, ``probe``, ``serve``) -> severities, read from the source."""
    # the package read once a session; imported here, as tests/ is on the path under pytest
    # only (run as a script, to write the page, this file never scans the source)
    from _sources import modules, source

    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for path in modules(PACKAGE):
        package = path.relative_to(PACKAGE).parts[0]
        for codes, severities in source(path).once(_findings_in):
            for code in codes - {PASSED_ON}:
                found[code][package] |= severities - {PASSED_ON}
    return found


def test_the_scan_reads_what_it_must() -> None:
    """The scanner itself: the variable code of the probe's raw-output check, the severities of
    a conditional and of tuple assignments, and a finding handed on are all read."""
    source = emitted()
    assert source["not-jsonrpc"]["probe"] == {"error"}  # `code, what = "not-jsonrpc", ...`
    assert source["silent-on-unknown"]["probe"] == {"warning", "error"}  # `a if early else b`
    assert source["resource-not-found-code"]["probe"] == {"error", "info", "warning"}
    assert "serve" not in source["missing-result-type"]  # show-log hands check_result's on


def test_the_codes_the_package_emits_are_the_table() -> None:
    assert set(emitted()) == set(FINDINGS)


def test_each_code_is_emitted_with_the_severities_the_table_gives() -> None:
    wrong = {}
    for code, packages in emitted().items():
        seen = set().union(*packages.values())
        if seen != set(FINDINGS[code].severities):
            wrong[code] = (sorted(seen), FINDINGS[code].severities)
    assert not wrong, f"severities in the source vs the table: {wrong}"


def test_each_code_names_the_commands_that_report_it() -> None:
    missing = {}
    for code, packages in emitted().items():
        need = set().union(*(REPORTED_BY_PACKAGE[p] for p in packages))
        lacking = need - set(FINDINGS[code].reported_by)
        if lacking:
            missing[code] = sorted(lacking)
    assert not missing


def test_severity_rules_are_given_exactly_where_there_are_several() -> None:
    for code, info in FINDINGS.items():
        assert bool(info.severity_rule) == (len(info.severities) > 1), code
        assert len(set(info.severities)) == len(info.severities), code
        for severity in info.severities if len(info.severities) > 1 else ():
            assert severity in info.severity_rule, (code, severity)


# -- citations ------------------------------------------------------------------------------------

def _dialect_key(revision: str) -> str:
    """Where a revision's schema.json keeps its definitions: draft-07 up to 2025-06-18, then 2020-12."""
    revisions = REGISTRY.revisions()  # oldest first
    return "definitions" if revisions.index(revision) < revisions.index("2025-11-25") else "$defs"


def test_citations_name_known_revisions_pages_and_schema_definitions() -> None:
    for code, info in FINDINGS.items():
        assert info.cites, code
        for cite in info.cites:
            assert cite.revision in REGISTRY, (code, cite)
            if cite.source.startswith("schema.json"):
                key, _, name = cite.source.removeprefix("schema.json#/").partition("/")
                assert key == _dialect_key(cite.revision) and name, (code, cite)
                schema = SPEC / cite.revision / "schema.json"
                if schema.is_file():  # where the official schemas are at hand, the name too
                    assert name in json.loads(schema.read_text(encoding="utf-8"))[key], (code, cite)
            else:
                assert re.fullmatch(r"(basic|server|client)/[a-z/_-]+\.mdx", cite.source), cite
        for ref in info.refs:
            assert ref.startswith("JSON-RPC 2.0 §"), (code, ref)


def test_the_dialect_split() -> None:
    assert [_dialect_key(r) for r in ("2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28")] == [
        "definitions", "definitions", "$defs", "$defs"]


def test_quirks_named_exist_and_have_a_section() -> None:
    anchors = _quirk_anchors()
    for code, info in FINDINGS.items():
        for quirk in info.quirks:
            assert quirk in QUIRKS and quirk in anchors, (code, quirk)
    assert anchors["not-found-code"] == "not-found-codecode"  # `not-found-code=CODE`


def test_responses_are_cited_on_the_page_of_their_revision() -> None:
    """2024-11-05 defines responses in basic/messages.mdx; later revisions in basic/index.mdx."""
    from mcp_skew.probe._findings import _responses

    assert _responses(REGISTRY, "2024-11-05") == "2024-11-05: basic/messages.mdx §Responses"
    assert _responses(REGISTRY, "2025-03-26") == "2025-03-26: basic/index.mdx §Responses"


if __name__ == "__main__":
    DOC.write_text(render_findings_doc(), encoding="utf-8")
    sys.stdout.write(f"wrote {DOC.relative_to(ROOT)}\n")

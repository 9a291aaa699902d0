"""Migration guides a team can follow: every step on the side it binds, a summary first, and
the client's "Talk to both eras" with its simulator proof (docs/migrations/)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from _guides import blocks, section

from mcp_skew.cli import main
from mcp_skew.migrate import build_guide
from mcp_skew.migrate._guide import Guide, steps_for
from mcp_skew.migrate._severity import Label
from mcp_skew.migrate._talk import client_checklist, talk_expected
from mcp_skew.simulator import parse_peer
from mcp_skew.versions import BUILTIN, Change, Cite, Era, Impact, Obligation, ProfileFileError, profile_for
from mcp_skew.versions._plugins import load_profile_file
from mcp_skew.versions._profile import Binding, ProfileDefinitionError

LEGACY = [p.revision for p in BUILTIN if p.era is Era.LEGACY]
LATEST = BUILTIN[-1].revision
PAGES = Path(__file__).resolve().parents[2] / "docs" / "migrations"


def guide_text(capsys: pytest.CaptureFixture[str], role: str, source: str = "2025-11-25") -> str:
    assert main(["migrate", source, LATEST, "--role", role]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


@cache
def guide(source: str, role: str, proof: bool = False) -> Guide:
    return build_guide(profile_for(source), profile_for(LATEST), role, proof=proof)  # type: ignore[arg-type]


def steps_of(block: str, role: str) -> str:
    return block.split(f"Steps for {role}s:")[1].split("\nSteps for ", maxsplit=1)[0]


# -- every item of the issue, on the side it binds ---------------------------------------------

#: (rule id, role, words its steps for that role must hold)
ITEMS = [
    ("param-headers", "client", "Mcp-Param-{Name}"),
    ("param-headers", "client", "leave out of your tools/list result every tool"),
    ("param-headers", "server", "-32020"),
    ("unknown-method-404", "server", "404 Not Found"),
    ("unknown-method-404", "client", "404 whose body is a -32601 error"),
    ("request-id-not-outstanding", "client", "still awaiting its answer"),
    ("request-id-not-outstanding", "server", "do not reject a request because its id"),
    ("empty-cursor-not-end", "client", 'even when it is ""'),
    ("completion-ref-uri-template", "server", "URI template"),
    ("completion-ref-uri-template", "client", "URI template"),
    ("authorization-iss-validation", "client", "compare a present iss"),
    ("authorization-iss-validation", "server", "authorization_response_iss_parameter_supported"),
    ("dcr-application-type", "client", "application_type"),
    ("credentials-bound-to-issuer", "client", "keyed by the issuer identifier"),
    ("initialize-error-names-versions", "server", "names your supported versions"),
    ("missing-client-capability-error", "server", "answer -32021"),
    ("missing-client-capability-error", "client", "-32021"),
    ("extensions-capability", "server", "core behaviour"),
    ("ping-removed", "server", "stop sending ping to modern clients"),
]


@pytest.mark.parametrize(("rule", "role", "words"), ITEMS)
def test_each_item_is_in_the_guide_of_the_side_it_binds(
    capsys: pytest.CaptureFixture[str], rule: str, role: str, words: str
) -> None:
    out = guide_text(capsys, role)
    block = blocks(out)[rule]
    change = next(c for c in profile_for(LATEST).changes if c.id == rule)
    assert f"- Citation: [{change.cite}]({change.cite.url()})" in block
    assert words.lower() in steps_of(block, role).lower()


@pytest.mark.parametrize(("rule", "role"), [
    ("dcr-application-type", "server"),
    ("credentials-bound-to-issuer", "server"),
    ("initialize-error-names-versions", "client"),
])
def test_a_rule_that_binds_one_side_says_so_on_the_other(
    capsys: pytest.CaptureFixture[str], rule: str, role: str
) -> None:
    block = blocks(guide_text(capsys, role))[rule]
    other = "clients" if role == "server" else "servers"
    assert f"No {role}-side steps: the rule binds {other} only." in steps_of(block, role)
    assert f"**{Label.NOT_BOUND.value}**" in block


def test_tool_argument_errors_are_a_server_step() -> None:
    change = next(c for c in profile_for("2025-11-25").changes
                  if c.id == "tool-input-errors-as-tool-errors")
    server, client = steps_for(change, "server"), steps_for(change, "client")
    assert any(s.startswith("Return bad tool arguments") and "isError: true" in s for s in server)
    assert not any("Return bad tool arguments" in s for s in client)
    assert any("give its text to the model" in s for s in client)
    for page in PAGES.glob("*_to_*.md"):  # the shipped --role both guides
        found = blocks(page.read_text(encoding="utf-8")).get("tool-input-errors-as-tool-errors")
        if found is not None:
            assert "Return bad tool arguments" not in steps_of(found, "client"), page.name
            assert "Return bad tool arguments" in steps_of(found, "server"), page.name


def test_ping_removal_says_who_sends_it_and_who_breaks() -> None:
    for source in LEGACY:
        item = next(c for c in guide(source, "both").changes if c.id == "ping-removed")
        server, client = item.severity["server"], item.severity["client"]
        notes = dict(zip(server.labels, server.notes, strict=True))
        assert "old servers send ping, which new clients no longer have" in notes[
            Label.REQUIRED_FOR_NEW_CLIENTS]
        assert f"a server still on {source} fails with clients of {LATEST}" in notes[
            Label.REQUIRED_FOR_NEW_CLIENTS]
        assert "old clients send ping, which new servers no longer have" in notes[
            Label.BREAKS_OLD_CLIENTS]
        notes = dict(zip(client.labels, client.notes, strict=True))
        assert "old clients send ping" in notes[Label.REQUIRED_FOR_NEW_SERVERS]
        assert "old servers send ping" in notes[Label.BREAKS_OLD_SERVERS]
        assert "(sent by" not in " ".join((*server.notes, *client.notes))


# -- severity stored per role ----------------------------------------------------------------


def test_a_stored_must_is_shown_with_its_quoted_rule(capsys: pytest.CaptureFixture[str]) -> None:
    block = blocks(guide_text(capsys, "server"))["missing-client-capability-error"]
    assert "- Servers, **MUST**: 2026-07-28 binds servers: \"the server MUST return a " \
           "MissingRequiredClientCapabilityError (-32021)" in block
    assert "Nothing required" not in block and "additive" not in block.split("Steps for")[0]


def test_severity_is_stored_only_for_the_upgrade() -> None:
    down = {c.id: c for c in build_guide(profile_for(LATEST), profile_for("2025-11-25")).changes}
    for rule in ("missing-client-capability-error", "result-type", "dcr-application-type"):
        for role in ("server", "client"):
            labels = set(down[rule].severity[role].labels)  # type: ignore[index]
            assert not labels & {Label.MUST, Label.SHOULD, Label.NOT_BOUND}, (rule, role)


def test_a_change_checks_its_stored_severity() -> None:
    cite = Cite(LATEST, "x.mdx")
    with pytest.raises(ProfileDefinitionError, match="per role"):
        Change("x", "x", cite, Impact.ADDITIVE,
               severity={"proxy": Binding(Obligation.MUST, "proxies MUST")})
    with pytest.raises(ProfileDefinitionError, match="needs the rule it quotes"):
        Change("x", "x", cite, Impact.ADDITIVE, severity={"server": Binding(Obligation.MUST)})


DRAFT = """\
revision = "2026-12-draft"
extends = "2026-07-28"

[[changes]]
id = "draft-must"
summary = "Servers answer x with y"
impact = "additive"
cite = {{ revision = "2026-12-draft", source = "https://example.com/draft" }}
severity = {{ server = {{ level = "MUST", rule = "servers MUST answer x with y" }}{client} }}
"""


def test_a_draft_change_without_steps_never_sends_a_bound_side_elsewhere(tmp_path: Path) -> None:
    path = tmp_path / "draft.toml"
    path.write_text(DRAFT.format(client=""), encoding="utf-8")
    draft = load_profile_file(path)
    g = build_guide(profile_for(LATEST), draft, "both")
    (item,) = [c for c in g.changes if c.id == "draft-must"]
    assert item.severity["server"].labels == (Label.MUST,)
    (step,) = item.steps["server"]
    assert "binds servers" in step and "other side" not in step
    assert item.steps["client"] == ("Nothing required; adopt it when you need it.",)


def test_a_draft_with_a_bad_severity_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "draft.toml"
    path.write_text(DRAFT.format(client=', client = { level = "MUST" }'), encoding="utf-8")
    with pytest.raises(ProfileFileError, match="client binding needs the rule it quotes"):
        load_profile_file(path)
    path.write_text(DRAFT.format(client=', proxy = { level = "MUST", rule = "r" }'),
                    encoding="utf-8")
    with pytest.raises(ProfileFileError, match=r"severity\.proxy"):
        load_profile_file(path)


# -- a summary first ---------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["server", "client"])
def test_each_guide_opens_with_what_breaks_then_the_checklist(
    capsys: pytest.CaptureFixture[str], role: str
) -> None:
    out = guide_text(capsys, role)
    lines = out.splitlines()
    title = "Serve both eras" if role == "server" else "Talk to both eras"
    assert out.index("\n## Summary") < out.index(f"\n## {title}") < out.index("\n## At a glance")
    assert lines.index(f"### Checklist for {role}s, in order") < 15
    summary = section(out, "Summary")
    assert f"- **{role.capitalize()}s**: a {role} still on 2025-11-25 fails with" in summary
    checklist = re.findall(r"^\d+\. (.*)$", summary, flags=re.MULTILINE)
    assert checklist[0].startswith(f"**{title}** (the section below, with its proof): ")
    g = guide("2025-11-25", role)
    bound = {c.id for c in g.changes
             if {Label.MUST, Label.REQUIRED_FOR_NEW_CLIENTS, Label.REQUIRED_FOR_NEW_SERVERS}
             & set(c.severity[role].labels)}  # type: ignore[index]
    listed = {m for line in checklist for m in re.findall(r"^`([^`]+)`", line)}
    assert bound and bound <= listed
    # the ordered list: changes required before new peers work come before the rest
    first_other = next(i for i, line in enumerate(checklist) if "(required for new" not in line
                       and not line.startswith("**") and "(MUST)" not in line)
    assert all("(SHOULD)" not in line for line in checklist[:first_other])
    # one line per change: its first step up to a "; " outside brackets
    assert all(line.count("(") == line.count(")") for line in checklist)
    assert any(line.startswith("`param-headers` (MUST): ") for line in checklist) or role == "server"


# -- talk to both eras -----------------------------------------------------------------------------


def test_client_guide_has_talk_to_both_eras_and_its_proof(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = guide_text(capsys, "client")
    talk = section(out, "Talk to both eras")
    for item in client_checklist(profile_for("2025-11-25"), profile_for(LATEST)):
        assert f"**{item.title}.**" in talk
    for words in ("DiscoverResult", "MUST NOT be keyed to one specific error code",
                  "restart it first", "cache it for the server process", "read the body",
                  "400, 404 or 405"):
        assert words in talk
    header = next(line for line in talk.splitlines() if line.startswith("| server, transport |"))
    assert "dual, every revision, fallback on -32601 only" in header
    rows = [line for line in talk.splitlines() if line.startswith("| `")]
    assert any(" (stdio) |" in r for r in rows) and any(" (http) |" in r for r in rows)
    assert "unexpected" not in talk and "came out as expected" in talk
    assert "## Serve both eras" not in out


@pytest.mark.parametrize("source", LEGACY)
def test_a_dual_era_client_talks_to_every_server_it_can(source: str) -> None:
    talk = guide(source, "client", proof=True).talk_eras
    assert talk is not None and talk.ok
    labels = [label for label, _ in talk.columns]
    keyed = 0
    for row in talk.rows:
        cells = dict(zip(labels, row.cells, strict=True))
        assert cells["dual, every revision"].works, (row.transport, row.peer)
        dual = cells[f"dual {LATEST} + {source}"]
        assert dual.works == dual.expected, (row.transport, row.peer)
        keyed += not cells["dual, every revision, fallback on -32601 only"].works and \
            cells["dual, every revision"].works
    assert keyed >= 3  # the fallback keyed to one code loses servers the checklist keeps


def test_the_talk_proof_judges_from_policies() -> None:
    def judge(client: str, server: str, transport: str = "stdio") -> bool:
        return talk_expected(parse_peer(client, "client"), parse_peer(server, "server"),
                             transport)[0]  # type: ignore[arg-type]

    dual = f"dual:{LATEST},2025-11-25"
    assert judge(dual, "legacy:2025-11-25+unknown-32602")
    assert not judge(dual + "+fallback-32601", "legacy:2025-11-25+unknown-32602")
    assert judge(dual + "+fallback-32601", "legacy:2025-11-25+not-initialized-32000")
    assert not judge(dual + "+fallback-32601", "legacy:2025-11-25+not-initialized-32000", "http")
    assert not judge(dual, "legacy:2025-11-25+silent-exit")
    assert judge(dual + "+restart", "legacy:2025-11-25+silent-exit")
    assert not judge("2024-11-05", "legacy:2025-11-25,2024-11-05+no-get", "http")
    assert judge("legacy:2024-11-05+post-first", "legacy:2025-11-25,2024-11-05+no-get", "http")
    assert not judge(f"modern:{LATEST}", "2025-11-25")


def test_the_client_guide_in_json_carries_the_talk_proof(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["migrate", "2025-11-25", LATEST, "--role", "client", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["serve_both_eras"] is None
    talk = data["talk_to_both_eras"]
    assert [item["title"] for item in talk["checklist"]] == [
        item.title for item in client_checklist(profile_for("2025-11-25"), profile_for(LATEST))]
    proof = talk["proof"]
    assert proof["ok"] is True
    assert {row["transport"] for row in proof["rows"]} == {"stdio", "http"}
    assert len(proof["clients"]) == len(proof["rows"][0]["cells"])
    assert all(cell["as_expected"] for row in proof["rows"] for cell in row["cells"])

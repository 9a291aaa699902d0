"""``mcp-skew migrate``: generated guides, their severity, illustrations and serve-both-eras proof."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from functools import cache
from html.parser import HTMLParser

import pytest
from _guides import blocks, section

from mcp_skew.cli import main
from mcp_skew.migrate import build_guide
from mcp_skew.migrate._eras import builtin_clients, client_set
from mcp_skew.migrate._format import guide_to_dict, render_html, render_markdown
from mcp_skew.migrate._guide import Guide, _step_role, steps_for
from mcp_skew.migrate._illustrate import ILLUSTRATIONS
from mcp_skew.migrate._severity import SIDES_WITHOUT_EDITS, Label
from mcp_skew.simulator import parse_peer
from mcp_skew.simulator.quirks import QUIRKS
from mcp_skew.versions import BUILTIN, Change, Cite, Era, Impact, Obligation, profile_for
from mcp_skew.versions._diff import changes_between
from mcp_skew.versions._plain import diff_to_dict

PAIRS = [(a.revision, b.revision) for a, b in itertools.permutations(BUILTIN, 2)]
LEGACY = [p.revision for p in BUILTIN if p.era is Era.LEGACY]
LATEST = BUILTIN[-1].revision


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["migrate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@cache
def guide(a: str, b: str, role: str = "both", proof: bool = False) -> Guide:
    return build_guide(profile_for(a), profile_for(b), role, proof=proof)  # type: ignore[arg-type]


def glance_ids(markdown: str) -> list[str]:
    table = section(markdown, "At a glance")
    return re.findall(r"^\| `([^`]+)` \|", table, flags=re.MULTILINE)


def link(cite: Cite) -> str:
    return f"[{cite}]({cite.url()})"


# -- the server guide across eras ----------------------------------------------------------


def test_server_guide_has_each_breaking_rule_with_its_citation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "2025-11-25", LATEST, "--role", "server")
    assert (code, err) == (0, "")
    assert out.startswith(f"# Migrating an MCP server from 2025-11-25 to {LATEST}")
    found = blocks(out)
    breaking = [c for c in profile_for(LATEST).changes if c.impact is Impact.BREAKING]
    assert len(breaking) >= 10
    for change in breaking:
        block = found[change.id]
        assert f"- Citation: {link(change.cite)}" in block
        assert "Servers, **" in block
        assert "Clients, **" not in block  # --role server
        steps = block.split("Steps for servers:")[1]
        assert re.search(r"^1\. \S", steps, flags=re.MULTILINE), change.id


def test_server_guide_has_the_checklist_and_its_proof(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "2025-11-25", LATEST, "--role", "server")
    assert code == 0
    both = section(out, "Serve both eras")
    for title in ("Answer server/discover", "Keep answering initialize",
                  "Pick the era per connection", "Never mix the eras"):
        assert f"**{title}.**" in both
    checklist = [line for line in both.splitlines() if re.match(r"^\d+\. \*\*", line)]
    assert len(checklist) >= 4
    assert all("](https://github.com/modelcontextprotocol/" in line for line in checklist)
    header = next(line for line in both.splitlines() if line.startswith("| client |"))
    assert f"dual {LATEST} + 2025-11-25" in header and "dual, every revision" in header
    rows = [line for line in both.splitlines() if line.startswith("| `")]
    assert [re.match(r"\| `([^`]+)`", r)[1] for r in rows] == list(builtin_clients())  # type: ignore[index]
    assert "unexpected" not in both
    assert "came out as expected" in both


@pytest.mark.parametrize("source", LEGACY)
def test_a_dual_era_server_works_with_every_client_it_can_serve(source: str) -> None:
    both = guide(source, LATEST, "server", proof=True).both_eras
    assert both is not None and both.ok
    labels = [label for label, _ in both.columns]
    for row in both.rows:
        cells = dict(zip(labels, row.cells, strict=True))
        assert cells["dual, every revision"].works, row.peer  # it shares a revision with all
        dual = cells[f"dual {LATEST} + {source}"]
        assert dual.works == dual.expected, row.peer
        if parse_peer(row.peer, "client").kind == "dual":
            assert dual.works, row.peer


def test_the_proof_covers_every_revision_era_kind_and_client_quirk() -> None:
    for specs in (builtin_clients(), client_set()):
        peers = [parse_peer(spec, "client") for spec in specs]
        assert {r for p in peers for r in p.revisions} >= {p.revision for p in BUILTIN}
        assert {p.kind for p in peers} == {"legacy", "modern", "dual"}
        assert any(p.kind == "legacy" and len(p.revisions) > 1 for p in peers)
        # the proof runs over stdio, where an HTTP-only quirk does nothing, and keeps no
        # cache, so a caching-only quirk does nothing either; nor do its peers carry
        # extensions, without which an extension-only quirk does nothing; it proves what the
        # spec promises, so a released client's bug the spec forbids is left out
        client_quirks = {name for name, q in QUIRKS.items()
                         if q.role == "client" and "stdio" in q.transports
                         and not q.caching_only and not q.extensions_only
                         and not q.against_spec}
        assert {name for p in peers for name, _ in p.quirks} == client_quirks


def test_no_checklist_within_an_era_or_for_clients_only() -> None:
    assert guide("2025-06-18", "2025-11-25", "server", proof=True).both_eras is None
    assert guide("2025-11-25", LATEST, "client", proof=True).both_eras is None
    assert guide(LATEST, "2025-11-25", "server", proof=True).both_eras is None


# -- citations -------------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_every_change_line_carries_a_citation(a: str, b: str) -> None:
    g = guide(a, b)
    text = render_markdown(g)
    glance = section(text, "At a glance")
    rows = [line for line in glance.splitlines() if line.startswith("| `")]
    assert len(rows) == len(g.changes)
    for row, item in zip(rows, g.changes, strict=True):
        assert link(item.cite).replace("|", "\\|") in row
    found = blocks(text)
    assert set(found) == set(g.ids)
    for item in g.changes:
        assert f"- Citation: {link(item.cite)}" in found[item.id]
        for name, dep in item.deprecations:
            if not item.undo:
                assert f"Deprecated: {name}" in found[item.id] and link(dep.cite) in found[item.id]
    if g.lost:
        lost = [line for line in section(text, "What is lost").splitlines()
                if line.startswith("| ") and "`" in line]
        assert len(lost) == len(g.lost)
        assert all("](https://" in line for line in lost)


# -- downgrades ------------------------------------------------------------------------------


def test_downgrade_says_what_is_lost(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, LATEST, "2025-06-18")
    assert (code, err) == (0, "")
    assert out.startswith(f"# Downgrading MCP peers from {LATEST} to 2025-06-18")
    g = guide(LATEST, "2025-06-18")
    assert g.direction == "downgrade" and all(c.undo for c in g.changes)
    lost = section(out, "What is lost")
    new, old = profile_for(LATEST), profile_for("2025-06-18")
    for table in ("methods", "result_fields_required", "cache_fields", "features"):
        for name in new.names(table) - old.names(table):
            assert f"| `{name}` |" in lost, (table, name)
    found = blocks(out)
    assert "Lost in 2025-06-18: " in found["server-discover"]
    assert "`server/discover`" in found["server-discover"]
    assert "Back in 2025-06-18: " in found["handshake-removed"]
    assert "Servers, **lost**: 2025-06-18 does not have it." in found["icons"]
    for item in g.changes:
        assert f"({item.change.revision}, undone)" in out


def test_downgrade_swaps_who_breaks() -> None:
    up = {c.id: c for c in guide("2025-11-25", LATEST).changes}
    down = {c.id: c for c in guide(LATEST, "2025-11-25").changes}
    assert up["result-type"].effects.old_servers and not up["result-type"].effects.old_clients
    assert down["result-type"].effects.old_clients and not down["result-type"].effects.old_servers
    assert Label.REQUIRED_FOR_NEW_CLIENTS in up["server-discover"].severity["server"].labels
    assert Label.BREAKS_OLD_SERVERS in down["server-discover"].severity["server"].labels or \
        Label.BREAKS_OLD_CLIENTS in down["server-discover"].severity["server"].labels
    for rule in SIDES_WITHOUT_EDITS:
        if rule in up:
            assert bool(up[rule].effects.old_clients) == bool(down[rule].effects.old_servers)


# -- agreement with the profiles and ``mcp-skew diff`` ----------------------------------------


def test_every_rule_id_appears_in_exactly_one_profile_delta() -> None:
    counts = Counter(change.id for profile in BUILTIN for change in profile.changes)
    assert [rule for rule, n in counts.items() if n != 1] == []
    owners = {change.id: profile.revision for profile in BUILTIN for change in profile.changes}
    assert all(change.revision == owners[change.id]
               for profile in BUILTIN for change in profile.changes)


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_guides_agree_with_changes_between_and_diff(a: str, b: str) -> None:
    g = guide(a, b)
    path = [(s.change.id, s.undo) for s in changes_between(profile_for(a), profile_for(b))]
    diff = [(c["id"], c["undo"]) for c in diff_to_dict(profile_for(a), profile_for(b))["changes"]]
    assert [(c.id, c.undo) for c in g.changes] == path == diff
    assert [(c["id"], c["undo"]) for c in guide_to_dict(g)["changes"]] == path
    assert glance_ids(render_markdown(g)) == [rule for rule, _ in path]


def test_the_commands_agree(capsys: pytest.CaptureFixture[str]) -> None:
    for a, b in [("2025-11-25", LATEST), (LATEST, "2025-06-18"), ("2024-11-05", "2025-03-26")]:
        assert main(["diff", a, b, "--format", "json"]) == 0
        diff = [c["id"] for c in json.loads(capsys.readouterr().out)["changes"]]
        code, out, _ = run(capsys, a, b, "--format", "json")
        assert code == 0
        assert [c["id"] for c in json.loads(out)["changes"]] == diff
        code, out, _ = run(capsys, a, b)
        assert glance_ids(out) == diff


# -- severity and steps ---------------------------------------------------------------------------


def test_breaking_changes_name_a_side_and_others_none() -> None:
    for a, b in itertools.pairwise(BUILTIN):
        for item in guide(a.revision, b.revision).changes:
            if item.change.impact is Impact.BREAKING:
                assert item.effects, item.id
                assert "do not say which side" not in str(item.effects), item.id
            else:
                assert not item.effects, item.id


def test_changes_undone_on_the_way_cancel_out() -> None:
    long_way = {c.id: c for c in guide("2024-11-05", LATEST).changes}
    for rule in ("jsonrpc-batching", "batching-removed", "tasks-experimental",
                 "tasks-moved-to-extension"):
        item = long_way[rule]
        assert item.cancelled and not item.effects, rule
        assert item.severity["server"].labels == (Label.CANCELLED,)
        assert item.steps["client"] == (f"Nothing to do: 2024-11-05 and {LATEST} agree here.",)
    assert not long_way["roots-list-changed-removed"].cancelled
    assert long_way["handshake-removed"].effects.old_clients
    g = guide("2024-11-05", LATEST)
    assert "batching-removed" not in {c.id for c in g.group(Impact.BREAKING)}
    assert "batching-removed" in {c.id for c in g.group(None)}
    assert "## Cancelled out on the way (" in render_markdown(g)
    short_way = {c.id: c for c in guide("2025-11-25", LATEST).changes}
    assert not short_way["tasks-moved-to-extension"].cancelled
    # a rewritten row that TO has and FROM lacks is a net change, not a cancelled one
    assert not long_way["http-sse-removal-scheduled"].cancelled


def test_severity_of_known_changes() -> None:
    items = {c.id: c for c in guide("2025-11-25", LATEST).changes}

    def labels(rule: str, role: str) -> set[str]:
        return {label.value for label in items[rule].severity[role].labels}  # type: ignore[index]

    assert labels("server-discover", "server") == {"MUST", "required for new clients"}
    assert labels("server-discover", "client") == {"breaks old servers"}  # clients MAY call it
    assert labels("resource-not-found-32602", "server") == {"MUST", "breaks old clients"}
    assert labels("resource-not-found-32602", "client") == {"SHOULD", "required for new servers"}
    assert labels("handshake-removed", "server") == {"MUST", "breaks old clients",
                                                     "required for new clients"}
    assert labels("caching-hints", "server") == {"MUST", "required for new clients"}
    assert labels("ping-removed", "server") == {"breaks old clients", "required for new clients"}
    # stored per role: the tables call it additive, but servers MUST send -32021
    assert labels("missing-client-capability-error", "server") == {"MUST"}
    assert labels("missing-client-capability-error", "client") == {"additive"}
    assert labels("extensions-capability", "server") == {"MUST"}
    assert labels("extensions-capability", "client") == {"MUST"}
    assert labels("result-type", "client") == {"MUST", "breaks old servers"}
    assert labels("dcr-application-type", "server") == {"not on this side"}
    deprecated = items["roots-sampling-logging-deprecated"].severity["server"]
    assert deprecated.labels == (Label.DEPRECATED,)
    assert "removal: the first revision released on or after 2027-07-28" in deprecated.text


def test_breaking_and_behaviour_changes_have_steps_for_each_role_they_concern() -> None:
    for profile in BUILTIN:
        for change in profile.changes:
            for role in ("server", "client"):
                binding = change.binding(role)
                if binding is not None and binding.level is Obligation.NONE:
                    assert not steps_for(change, role), (change.id, role)  # type: ignore[arg-type]
                    continue
                bound = binding is not None and binding.level in (Obligation.MUST,
                                                                  Obligation.SHOULD)
                if bound or change.impact in (Impact.BREAKING, Impact.BEHAVIOUR):
                    assert steps_for(change, role), (change.id, role)  # type: ignore[arg-type]


@pytest.mark.parametrize(("step", "roles", "text"), [
    ("Servers: do x.", {"server"}, "Do x."),
    ("Clients: do y.", {"client"}, "Do y."),
    ("HTTP clients with authorization: send z.", {"client"},
     "HTTP clients with authorization: send z."),
    ("Servers that keep legacy clients: keep w.", {"server"},
     "Servers that keep legacy clients: keep w."),
    ("Servers and clients: accept v.", {"server", "client"}, "Accept v."),
    ("Clients and servers: accept v.", {"server", "client"}, "Accept v."),
    ("Declare `completions: {}` first.", {"server", "client"}, "Declare `completions: {}` first."),
    ("Clients of 2024-11-05 do not know the audio block: send it only to 2025-03-26+.",
     {"server", "client"},
     "Clients of 2024-11-05 do not know the audio block: send it only to 2025-03-26+."),
])
def test_step_roles(step: str, roles: set[str], text: str) -> None:
    assert _step_role(step) == (frozenset(roles), text)


# -- illustrations ----------------------------------------------------------------------------------


def test_illustrations_name_real_rules() -> None:
    rules = {change.id for profile in BUILTIN for change in profile.changes}
    assert set(ILLUSTRATIONS) <= rules


def test_breaking_changes_are_shown_before_and_after() -> None:
    items = {c.id: c for c in guide("2025-11-25", LATEST).changes}
    shown = {rule: items[rule].illustration for rule in ILLUSTRATIONS}
    assert all(s is not None for s in shown.values())

    def text(rule: str, side: str) -> str:
        s = shown[rule]
        assert s is not None
        return "\n".join(getattr(s, side).lines)

    assert '"method": "initialize"' in text("handshake-removed", "before")
    assert '"method": "initialize"' not in text("handshake-removed", "after")
    assert '"io.modelcontextprotocol/protocolVersion": "2026-07-28"' in text(
        "handshake-removed", "after")
    assert '"ttlMs"' not in text("caching-hints", "before")
    assert '"ttlMs": ' in text("caching-hints", "after") and '"cacheScope"' in text(
        "caching-hints", "after")
    assert '"code": -32002' in text("resource-not-found-32602", "before")
    assert '"code": -32602' in text("resource-not-found-32602", "after")
    assert "resultType" not in text("result-type", "before")
    assert '"resultType": "complete"' in text("result-type", "after")
    assert '"code": -32601' in text("server-discover", "before")
    assert '"supportedVersions"' in text("server-discover", "after")
    for s in shown.values():
        assert s is not None
        assert all(line.startswith(("-> ", "<- ")) for line in (*s.before.lines, *s.after.lines))
        assert s.before.command.startswith("mcp-skew simulate --client ")


def test_a_downgrade_shows_the_runs_the_other_way_round() -> None:
    items = {c.id: c for c in guide(LATEST, "2025-11-25").changes}
    shown = items["caching-hints"].illustration
    assert shown is not None
    assert (shown.before.revision, shown.after.revision) == (LATEST, "2025-11-25")
    assert any('"ttlMs"' in line for line in shown.before.lines)


def test_changes_without_an_illustration_have_none() -> None:
    for item in guide("2025-03-26", "2025-06-18").changes:
        assert item.illustration is None


# -- formats and errors -------------------------------------------------------------------------------


def test_json_is_valid_with_the_same_rule_ids(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "2025-11-25", LATEST, "--role", "server", "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert [c["id"] for c in data["changes"]] == list(guide("2025-11-25", LATEST).ids)
    assert (data["from"], data["to"], data["role"], data["direction"]) == (
        "2025-11-25", LATEST, "server", "upgrade")
    first = data["changes"][0]
    assert set(first["severity"]) == {"server"} and set(first["steps"]) == {"server"}
    assert first["cite"]["url"].startswith("https://github.com/modelcontextprotocol/")
    assert data["serve_both_eras"]["proof"]["ok"] is True


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: Counter[str] = Counter()
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1
        self.attrs += attrs


def test_html_is_one_self_contained_escaped_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "2025-03-26", "2025-06-18", "--format", "html")
    assert code == 0
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    parser = _Tags()
    parser.feed(out)
    assert parser.tags["html"] == parser.tags["body"] == parser.tags["style"] == 1
    assert not {"script", "link", "img", "iframe"} & set(parser.tags)
    assert {name for name, _ in parser.attrs} <= {"href", "lang", "charset", "id"}
    ids = {v for name, v in parser.attrs if name == "id"}
    assert all(v is not None and (v.startswith("https://github.com/modelcontextprotocol/")
                                  or (v[1:] in ids and v.startswith("#")))
               for name, v in parser.attrs if name == "href")
    # a step says `MCP-Protocol-Version: <negotiated>`: text, never a tag
    assert "&lt;negotiated&gt;" in out and "<negotiated>" not in out
    html_big = render_html(guide("2025-11-25", LATEST, "both", proof=True))
    assert "<table>" in html_big and "Serve both eras" in html_big


def test_unknown_revision_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "2025-11-25", "1999-01-01")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "unknown revision '1999-01-01'" in err


def test_same_revision_has_nothing_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, LATEST, LATEST)
    assert code == 0 and "nothing changes" in out


def test_a_third_party_breaking_change_without_edits_breaks_both_sides() -> None:
    base = profile_for(LATEST)
    extra = base.evolve(revision="2026-07-28-x", changes=(Change(
        id="vendor-rule", summary="A vendor rule", cite=Cite("2026-07-28-x", "vendor.mdx"),
        impact=Impact.BREAKING),))
    g = build_guide(profile_for("2025-11-25"), extra, "both")
    item = next(c for c in g.changes if c.id == "vendor-rule")
    assert item.effects.old_clients and item.effects.old_servers
    both = g.both_eras
    assert both is not None and both.ok
    # a 2026-07-28 dual-era client and this server share only 2025-11-25: the -32022
    # answer to its probe keeps it modern, so the spec says it fails, and it does
    cell = next(row for row in both.rows if row.peer == "dual:2026-07-28,2025-11-25"
                ).cells[2]
    assert (cell.expected, cell.works) == (False, False)
    assert "no common modern revision" in cell.text
    # it has no steps, yet it binds both sides: the guide must not send either elsewhere
    for role in ("server", "client"):
        (step,) = item.steps[role]  # type: ignore[index]
        assert "on the other side" not in step
        assert f"binds {role}s" in step and "follow its summary and citation" in step


# -- the generated pages --------------------------------------------------------------------------------





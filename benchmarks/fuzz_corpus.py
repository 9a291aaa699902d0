"""A large corpus of bad inputs across every command: tracebacks, hangs, exit codes, leftovers.

    .venv/bin/python benchmarks/fuzz_corpus.py [--scale N] [--timeout S] [--processes N]

The inputs come from the same generators as the default suite's fuzz tests
(``tests/_fuzz.py``; typed mutations of profiles, logs and matrix documents, addresses
and FIFOs from ``tests/_fuzz_inputs.py``), drawn in larger numbers (``--scale`` times the default suite's
80 examples per surface), and each runs ``mcp_skew.cli.main`` in this process with a
per-input timeout (SIGALRM). Then ``--processes`` probe, record and replay runs against
the adversarial servers of ``tests/_adversaries/server.py`` (each with a token in its
command line), as subprocesses, after which the process table is searched for the token.

Then ``--http-processes`` ``probe --url`` runs (with ``--token`` and ``--header``) against
the hostile HTTP server of ``tests/_adversaries/http_server.py``, one mode each in turn.

Printed: inputs tried, tracebacks (exceptions escaping ``main``, or "Traceback" on
stderr), hangs (over the per-input timeout), the exit-code histogram per surface, the
processes left running, and the requests of ``probe --url`` that reached another origin.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
import traceback
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "unit"))
sys.path.insert(0, str(ROOT / "tests" / "slow" / "unit"))  # test_adversaries: it starts processes

from _fuzz import (  # noqa: E402
    PROFILE,
    file_text,
    mutated,
    number,
    outlives_stdin,
    peer_file,
    peer_spec,
    rpc_line,
    run_cli,
)
from _fuzz_inputs import (  # noqa: E402
    CONTROL_TEXT,
    FULL_PROFILE,
    MATRIX_FORMATS,
    SAVED_PEER,
    address,
    census_db_edits,
    log_text,
    matrix_from_case,
    profile_file,
    surrogate_listing,
    typed_mutation,
    url,
    with_control_text,
    with_lone_surrogates,
    write_census_db,
)
from _pytest.outcomes import Failed  # noqa: E402 - what test_adversaries.run raises on a hang
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_adversaries import left_behind  # noqa: E402
from test_adversaries import run as as_a_client  # noqa: E402

from mcp_skew._input import AddressError, parse_host_port, parse_url  # noqa: E402

ADVERSARY = ROOT / "tests" / "_adversaries" / "server.py"


class Hang(Exception):
    pass


class Tally:
    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.tried = 0
        self.codes: dict[str, collections.Counter[int]] = collections.defaultdict(
            collections.Counter)
        self.tracebacks: list[str] = []
        self.hangs: list[str] = []
        self.slowest = (0.0, "")

    def run(self, surface: str, argv: list[str], stdin: bytes = b"") -> None:
        """One command line: a traceback is an exception escaping ``main`` or "Traceback"
        on its stderr."""
        shown = " ".join(a[:40] for a in argv)[:200]

        def work() -> int:
            code, _, err = run_cli(argv, stdin)
            if "Traceback" in err:
                self.tracebacks.append(f"{surface}: {shown}: {err.strip().splitlines()[-1]}")
            return code
        self.call(surface, shown, work)

    def call(self, surface: str, shown: str, work: Callable[[], int]) -> None:
        """One input of ``surface``, within the per-input timeout: ``work`` returns the code to
        count (an exit code, an HTTP status); an exception escaping it is a traceback."""
        shown = shown[:200]
        self.tried += 1
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        start = time.monotonic()
        try:
            code = work()
        except Hang:
            self.hangs.append(f"{surface}: {shown}")
            return
        except BaseException as exc:  # what a user would see as a traceback
            if isinstance(exc, KeyboardInterrupt):
                raise
            last = traceback.format_exception_only(exc)[-1].strip()
            self.tracebacks.append(f"{surface}: {shown}: {last}")
            return
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        took = time.monotonic() - start
        if took > self.slowest[0]:
            self.slowest = (took, f"{surface}: {shown}")
        self.codes[surface][code] += 1


def _raise_hang(*_: Any) -> None:
    raise Hang


def surfaces(tally: Tally, work: Path) -> dict[str, Callable[[], None]]:
    run = tally.run
    good_log = work / "good.jsonl"
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "f", "version": "1"}}}
    run_cli(["serve", "legacy:2025-06-18", "--record", str(good_log)],
            (json.dumps(init) + '\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\njunk\n')
            .encode())
    log_lines = good_log.read_text(encoding="utf-8").splitlines()
    _, out, _ = run_cli(["matrix", "--clients", "legacy:2025-06-18", "modern:2026-07-28",
                         "--servers", "dual:2026-07-28,2025-11-25", "legacy:2024-11-05",
                         "--format", "json"])
    matrix_doc = json.loads(out)

    @given(c=peer_spec("client"), s=peer_spec("server"), n=number())
    def peers(c: str, s: str, n: str) -> None:
        run("simulate", ["simulate", "--client", c, "--server", s])
        run("matrix", ["matrix", "--clients", c, "--servers", s, "--format", "json"])
        run("rollout", ["rollout", "--clients", f"{c}*{n}", "--fleet", s, "--duration", "2m"])
        if not outlives_stdin(s):  # those run on until a signal, by design
            run("serve", ["serve", s], b"")

    @given(data=st.data())
    def peer_files(data: st.DataObject) -> None:
        path = work / "peer.txt"
        path.write_text(data.draw(peer_file(path)), encoding="utf-8", errors="surrogatepass")
        run("@FILE", ["simulate", "--client", f"@{path}", "--server", f"@{path}"])
        run("@FILE", ["matrix", "--servers", f"@{path}"])

    @given(n=number(), unit=st.sampled_from(["", "s", "m", "ms", "h"]))
    def numbers(n: str, unit: str) -> None:
        for opt in ("--duration", "--rate", "--start", "--every", "--rollback-at", "--seed",
                    "--keep-transcripts"):
            run("rollout-numbers", ["rollout", "--clients", "legacy:2025-06-18*2", "--fleet",
                                    "legacy:2025-11-25*2", "--duration", "3m", opt, n + unit])
        for opt in ("--jobs", "--timeout", "--probe-timeout", "--client-timeout"):
            run("probe-numbers", ["probe", opt, n, "--out", str(work / "no" / "r.json"), "--",
                                  "true"])
        for opt in ("--max-pages", "--jobs", "--cpu", "--memory", "--procs", "--fsize",
                    "--timeout", "--probe-timeout", "--client-timeout", "--install-timeout",
                    "--probe-jobs"):
            run("census-numbers", ["census", "--db", str(work / "c.sqlite"), opt, n])
        run("verify-peer-numbers", ["verify-peer", "no-such", "--jobs", n])
        run("show-log-numbers", ["show-log", str(good_log), "--width", n])
        run("simulate-numbers", ["simulate", "--client", "dual:2026-07-28,2025-11-25",
                                 "--server", "legacy:2025-11-25", "--server-change",
                                 f"{n}=legacy:2025-06-18"])

    @given(data=st.data(), suffix=st.sampled_from([".json", ".toml"]))
    def profiles(data: st.DataObject, suffix: str) -> None:
        path = work / f"p{suffix}"
        text = data.draw(st.one_of(mutated(PROFILE).map(json.dumps), file_text(),
                                   st.text(max_size=80)))
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        for cmd in (["versions"], ["migrate", "2026-07-28", "2099-01-01"]):
            run("profile", ["--profile", str(path), *cmd])

    @given(doc=mutated(matrix_doc, 4), view=st.sampled_from(["pairs", "features"]),
           fmt=st.sampled_from(["text", "markdown", "github", "grid", "html", "json", "csv",
                                "junit"]))
    def matrix_from(doc: Any, view: str, fmt: str) -> None:
        path = work / "m.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        run("matrix --from", ["matrix", "--from", str(path), "--view", view, "--format", fmt])

    @given(data=st.data())
    def logs(data: st.DataObject) -> None:
        lines = list(log_lines)
        for _ in range(data.draw(st.integers(1, 3))):
            i = data.draw(st.integers(0, len(lines) - 1))
            try:
                entry = json.loads(lines[i])
                lines[i] = json.dumps(data.draw(mutated(entry)))
            except ValueError:
                lines[i] = data.draw(file_text())
        path = work / "l.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
        for extra in ([], ["--json"], ["--full"]):
            run("show-log", ["show-log", str(path), *extra])

    @given(lines=st.lists(rpc_line(), min_size=1, max_size=8),
           server=st.sampled_from(["legacy:2025-06-18", "modern:2026-07-28",
                                   "dual:2026-07-28,2025-11-25+lenient", "legacy:2024-11-05"]))
    def serve_lines(lines: list[str], server: str) -> None:
        stdin = "".join(line.replace("\n", " ") + "\n" for line in lines)
        run("serve stdio", ["serve", server], stdin.encode("utf-8", "surrogatepass"))

    return {"peers": peers, "peer files": peer_files, "numbers": numbers,
            "profiles": profiles, "matrix --from": matrix_from, "logs": logs,
            "serve lines": serve_lines, **typed_surfaces(run, work, matrix_doc),
            **auth_surfaces(tally), **census_input_surfaces(run, work),
            **read_back_surfaces(run, work, matrix_doc)}


# -- issue 33: a protected serve --http and its test authorization server, in process ---------

def auth_surfaces(tally: Tally) -> dict[str, Callable[[], None]]:
    """Request targets at a protected endpoint (no token), redirect URIs at the registration
    and authorization endpoints; a 2xx for an MCP target without a token counts as a
    traceback (a guard let it through)."""
    from _fuzz_inputs import redirect_uri, request_target  # noqa: PLC0415

    from mcp_skew.simulator import parse_peer  # noqa: PLC0415
    from mcp_skew.simulator.http import HttpRequest, parse_target  # noqa: PLC0415
    from mcp_skew.simulator.http._endpoint import mcp_route  # noqa: PLC0415
    from mcp_skew.simulator.http._urlform import form_encode  # noqa: PLC0415
    from mcp_skew.simulator.http.auth._server import ProtectedEndpoint  # noqa: PLC0415

    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                  "clientInfo": {"name": "f", "version": "1"}}}).encode()

    @given(target=request_target(), method=st.sampled_from(["POST", "GET", "DELETE"]),
           server=st.sampled_from(["legacy:2025-11-25+auth=prm", "dual:2026-07-28,2025-11-25"
                                   "+auth=compat", "legacy:2025-06-18,2024-11-05+auth=origin"]))
    def targets(target: str, method: str, server: str) -> None:
        def work() -> int:
            endpoint = ProtectedEndpoint(parse_peer(server, "server"))
            got = endpoint.handle(HttpRequest(method, target, {}, init))
            parsed = parse_target(target)
            if parsed is not None and mcp_route(parsed) is not None and got.status < 300:
                raise AssertionError(f"served {got.status} without a token")
            return got.status
        tally.call("auth targets", f"{method} {target!r} {server}", work)

    @given(uris=st.lists(redirect_uri(), max_size=3), asked=redirect_uri())
    def redirects(uris: list[Any], asked: Any) -> None:
        def work() -> int:
            endpoint = ProtectedEndpoint(parse_peer("legacy:2025-11-25+auth=compat", "server"))
            auth = endpoint.auth
            got = endpoint.handle(HttpRequest("POST", "/auth/register", {},
                                              json.dumps({"redirect_uris": uris}).encode()))
            client = next(iter(auth.clients), "https://attacker.example/c.json")
            query = form_encode({"response_type": "code", "client_id": client,
                                 "redirect_uri": str(asked), "code_challenge": "c",
                                 "code_challenge_method": "S256"})
            answer = endpoint.handle(HttpRequest("GET", f"/auth/authorize?{query}", {}))
            kept = auth.clients.get(client)
            if answer.status == 302 and kept is not None and asked not in kept:
                raise AssertionError(f"redirected to {asked!r}, not registered")
            return got.status * 1000 + answer.status
        tally.call("auth redirects", f"{uris!r} {asked!r}", work)

    return {"auth targets": targets, "auth redirects": redirects}


def typed_surfaces(run: Callable[..., None], work: Path,
                   matrix_doc: Any) -> dict[str, Callable[[], None]]:
    """Typed mutations (profiles, logs, matrix documents), addresses and FIFOs."""
    @given(drawn=profile_file())
    def typed_profiles(drawn: tuple[str, str]) -> None:
        suffix, text = drawn
        path = work / f"typed{suffix}"
        path.write_text(text, encoding="utf-8")
        rev = "2099-01-01"
        for cmd in (["versions"], ["show", rev], ["migrate", "2025-11-25", rev],
                    ["simulate", "--client", f"dual:{rev},2025-11-25", "--server", f"modern:{rev}"],
                    ["matrix", "--clients", f"modern:{rev}", "legacy:2025-06-18", "--servers",
                     f"modern:{rev}", "dual:2026-07-28,2025-06-18"]):
            run("typed profile", ["--profile", str(path), *cmd])

    @given(text=log_text())
    def typed_logs(text: str) -> None:
        path = work / "typed.jsonl"
        path.write_text(text, encoding="utf-8")
        run("typed log", ["show-log", str(path)])
        run("typed log", ["replay", str(path), "--server", "legacy:2025-06-18"])

    @given(doc=typed_mutation(matrix_doc), fmt=st.sampled_from(["text", "html", "json"]))
    def typed_matrix(doc: Any, fmt: str) -> None:
        path = work / "typed-m.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        run("typed matrix --from", ["matrix", "--from", str(path), "--format", fmt])

    @given(text=address(), probe_url=url(), scheduler=url(("tcp", "tls")))
    def addresses(text: str, probe_url: str, scheduler: str) -> None:
        # only malformed ones: a good address would start a server, a probe, a census
        with contextlib.suppress(AddressError):
            parse_host_port(text, "127.0.0.1")
            text = "]:0"
        run("addresses", ["serve", "legacy:2025-06-18", "--http", text])
        with contextlib.suppress(AddressError):
            parse_url(probe_url, ("http", "https"))
            probe_url = "http://[::1/mcp"
        run("addresses", ["probe", "--url", probe_url])
        with contextlib.suppress(AddressError):
            parse_url(scheduler, ("tcp", "tls"), need_port=True)
            scheduler = "tcp://[::1"
        run("addresses", ["census", "--db", str(work / "a.sqlite"), "--scheduler", scheduler])

    fifo = work / "fifo"
    os.mkfifo(fifo)

    @given(argv=st.sampled_from([
        ["simulate", "--client", f"@{fifo}", "--server", "legacy:2025-06-18"],
        ["matrix", "--servers", f"@{fifo}"], ["--profile", str(fifo), "versions"],
        ["show-log", str(fifo)], ["replay", str(fifo), "--server", "legacy:2025-06-18"],
        ["matrix", "--from", str(fifo)], ["census", "report", "--db", str(fifo)],
        ["record", "--log", str(fifo), "--", "true"],
        ["serve", "legacy:2025-06-18", "--record", str(fifo)]]))
    def fifos(argv: list[str]) -> None:
        run("fifo", argv)

    return {"typed profiles": typed_profiles, "typed logs": typed_logs,
            "typed matrix": typed_matrix, "addresses": addresses, "fifos": fifos}


def census_input_surfaces(run: Callable[..., None], work: Path) -> dict[str, Callable[[], None]]:
    """Census databases from elsewhere (views, triggers, other objects, wrong-typed values)
    and listings with entries that are not text (lone surrogates); issue 33."""
    @given(edits=census_db_edits())
    def census_dbs(edits: list[tuple[str, tuple[Any, ...]]]) -> None:
        path = work / "fuzz-census.sqlite"
        write_census_db(path, edits)
        run("census db", ["census", "report", "--db", str(path), "--format", "json"])
        run("census db", ["matrix", "--servers", f"@{path}", "--format", "json"])

    @given(drawn=surrogate_listing())
    def surrogate_listings(drawn: tuple[str, int, int]) -> None:
        text, good, _ = drawn
        if good:  # a good entry would start a worker and its server: only the bad ones here
            return
        path = work / ("surrogates.json" if text.startswith('{"servers"') else "surrogates.jsonl")
        path.write_text(text, encoding="utf-8")
        run("surrogate listing", ["census", str(path), "--db", str(work / "sur.sqlite"),
                                  "--sandbox", "none"])

    return {"census dbs": census_dbs, "surrogate listing": surrogate_listings}


#: Outputs one command replaced with another of its outputs (``output pairs``).
REPLACED: list[str] = []


def read_back_surfaces(run: Callable[..., None], work: Path,
                       matrix_doc: Any) -> dict[str, Callable[[], None]]:
    """Issue 33 (inputs): ``matrix --from`` (format versions 2 and 3, typed mutations) in every
    --format x --view; lone surrogates in every JSON document read back (profiles, --from,
    @FILE peers); ESC and other controls in labels, peer files and matrix documents."""
    rev = FULL_PROFILE["revision"]

    @given(case=matrix_from_case(matrix_doc))
    def every_format_view(case: tuple[Any, str, str]) -> None:
        doc, fmt, view = case
        path = work / "every-m.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        run("--from format x view", ["matrix", "--from", str(path), "--format", fmt,
                                     "--view", view])

    @given(profile=with_lone_surrogates(FULL_PROFILE), doc=with_lone_surrogates(matrix_doc),
           peer=with_lone_surrogates(SAVED_PEER), fmt=st.sampled_from(MATRIX_FORMATS))
    def lone_surrogates(profile: Any, doc: Any, peer: Any, fmt: str) -> None:
        path = work / "sur-p.json"
        path.write_text(json.dumps(profile), encoding="utf-8")
        for cmd in (["versions"], ["show", rev], ["migrate", "2026-07-28", rev],
                    ["diff", "2026-07-28", rev]):
            run("lone surrogates", ["--profile", str(path), *cmd])
        path = work / "sur-m.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        run("lone surrogates", ["matrix", "--from", str(path), "--format", fmt])
        path = work / "sur-peer.json"
        path.write_text(json.dumps(peer), encoding="utf-8")
        run("lone surrogates", ["matrix", "--servers", f"@{path}", "--clients",
                                "legacy:2025-06-18", "--format", fmt])

    @given(doc=with_control_text(matrix_doc), peer=with_control_text(SAVED_PEER),
           label=st.sampled_from(CONTROL_TEXT), fmt=st.sampled_from(MATRIX_FORMATS),
           view=st.sampled_from(["pairs", "features"]))
    def control_text(doc: Any, peer: Any, label: str, fmt: str, view: str) -> None:
        path = work / "ctl-m.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        run("control text", ["matrix", "--from", str(path), "--format", fmt, "--view", view,
                             "--color", "never"])
        path = work / "ctl-peer.json"
        path.write_text(json.dumps(peer), encoding="utf-8")
        run("control text", ["matrix", "--servers", f"@{path}", "--clients",
                             "legacy:2025-06-18", "--format", fmt])
        run("control text", ["simulate", "--client", "legacy:2025-06-18", "--server",
                             f"@{path}"])

    outs = work / "outs"
    outs.mkdir()
    (outs / "r.json").write_text("kept\n", encoding="utf-8")
    (outs / "link.json").symlink_to(outs / "r.json")
    os.link(outs / "r.json", outs / "hard.json")
    same = [str(outs / "r.json"), str(outs / "link.json"), str(outs / "hard.json"),
            str(outs / "." / "r.json"), str(outs / "rec" / ".." / "r.json")]

    @given(command=st.sampled_from([["probe"], ["probe-client"]]),
           first=st.sampled_from(same), second=st.sampled_from([*same, str(outs / "rec"),
                                                                str(outs / "rec" / "x.json")]),
           pair=st.sampled_from([("--out", "--save-peer"), ("--save-peer", "--out")]))
    def output_pairs(command: list[str], first: str, second: str,
                     pair: tuple[str, str]) -> None:
        """Two outputs naming one file, or one inside ``--record``: refused, never run."""
        words = ["--", "true", "{server}"] if command == ["probe-client"] else ["--", "true"]
        inside = second in (str(outs / "rec"), str(outs / "rec" / "x.json"))
        argv = [*command, "--timeout", "1", pair[0], first,
                *(["--record", str(outs / "rec"), pair[1], second] if inside
                  else [pair[1], second]), *words]
        run("output pairs", argv)
        if (outs / "r.json").read_text(encoding="utf-8") != "kept\n":
            REPLACED.append(f"output pairs: {' '.join(argv)[:150]}")
            (outs / "r.json").unlink()  # as it was: one file, its link and its hard link
            (outs / "r.json").write_text("kept\n", encoding="utf-8")
            (outs / "hard.json").unlink()
            os.link(outs / "r.json", outs / "hard.json")

    return {"--from format x view": every_format_view, "lone surrogates": lone_surrogates,
            "control text": control_text, "output pairs": output_pairs}


def process_runs(count: int, work: Path, tally: Tally) -> tuple[int, int, list[str]]:
    """probe, record and replay against adversarial servers; (runs, left, notes)."""
    modes = ["hang", "exit", "junk", "flood", "ignore-term", "setsid", "surrogates", "deep",
             "echo", "storm"]
    cli = [sys.executable, "-m", "mcp_skew"]
    log = work / "record.jsonl"
    lines = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "f", "version": "1"}}}) + "\n" + "x" * 20_000 + "\n").encode()
    # (small enough for a pipe's buffer: a server that never reads holds record, and record
    # holds its client, back; the harness writes before it waits, as test_adversaries does)
    runs = left = 0
    notes: list[str] = []
    for i in range(count):
        mode = modes[i % len(modes)]
        for what in ("probe", "record", "replay"):
            token = f"fuzz-{uuid.uuid4().hex}"
            server = [sys.executable, str(ADVERSARY), mode, token]
            if what == "probe":
                # short bounds everywhere, the start's too: a server that never answers is
                # given up after two tries of --startup-timeout (60 s each by default)
                cmd = [*cli, "probe", "--timeout", "1", "--probe-timeout", "1",
                       "--startup-timeout", "2", "--client-timeout", "4", "--format", "json",
                       "--", *server]
                data = b""
            elif what == "record":
                cmd = [*cli, "record", "--log", str(log), "--", *server]
                data = lines
            else:
                cmd = [*cli, "replay", str(log), "--timeout", "1", "--", *server]
                data = b""
            runs += 1
            tally.tried += 1
            try:  # record: SIGTERM 2 s after its input ends, as a stdio client stops a server
                code, err, _ = as_a_client(cmd, data, term_after=2.0 if what == "record" else None)
            except Failed:  # not ended within 60 s
                tally.hangs.append(f"{what} {mode}")
                continue
            finally:
                deadline = time.monotonic() + 3
                while left_behind(token) and time.monotonic() < deadline:
                    time.sleep(0.05)
                still = left_behind(token)
                if still:
                    left += len(still)
                    notes.append(f"{what} {mode}: {still}")
                    for pid in still:  # ours: started by this run
                        with contextlib.suppress(OSError):
                            os.kill(pid, signal.SIGKILL)
            if "Traceback" in err:
                tally.tracebacks.append(f"{what} {mode}: {err.strip().splitlines()[-1]}")
            tally.codes[f"{what} (adversary)"][code] += 1
    return runs, left, notes


# -- probe --url against a hostile HTTP server and authorization server (issue 33) ----------

def hostile_http_runs(count: int, tally: Tally) -> tuple[int, list[str]]:
    """``probe --url`` (with ``--token`` and ``--header``) against each mode of
    ``tests/_adversaries/http_server.py``: tracebacks and hangs go in the tally; returned,
    the runs and every request that reached another origin (a credential leak)."""
    sys.path.insert(0, str(ROOT / "tests" / "_adversaries"))
    from http_server import MODES, hostile  # noqa: PLC0415 - the adversary, a test helper

    leaks: list[str] = []
    runs = 0
    for i in range(count):
        mode = MODES[i % len(MODES)]
        with hostile(mode, drip_s=0.5) as h:
            cmd = [sys.executable, "-m", "mcp_skew", "probe", "--url", h.url, "--timeout", "1",
                   "--client-timeout", "4", "--token", "fuzz-secret", "--header", "X-Key: hush",
                   "--format", "json"]
            runs += 1
            tally.tried += 1
            try:
                code, err, _ = as_a_client(cmd, b"")
            except Failed:  # not ended within 60 s
                tally.hangs.append(f"probe --url {mode}")
                continue
            if "Traceback" in err or "Exception in thread" in err:
                tally.tracebacks.append(f"probe --url {mode}: {err.strip().splitlines()[-1]}")
            tally.codes["probe --url (hostile)"][code] += 1
            leaks += [f"{mode}: {r['method']} {r['path']}" for r in h.elsewhere]
    return runs, leaks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=5, help="x 80 examples per surface")
    parser.add_argument("--timeout", type=float, default=20.0, help="per input (s)")
    parser.add_argument("--processes", type=int, default=10,
                        help="probe+record+replay rounds against adversarial servers")
    parser.add_argument("--http-processes", type=int, default=9,
                        help="probe --url runs against the hostile HTTP server's modes")
    parser.add_argument("--only", action="append", metavar="SURFACE",
                        help="run only this surface (repeat; the names printed), no processes")
    opts = parser.parse_args()
    signal.signal(signal.SIGALRM, _raise_hang)
    tally = Tally(opts.timeout)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mcp-skew-fuzz-") as tmp:
        work = Path(tmp)
        conf = settings(max_examples=80 * opts.scale, deadline=None, database=None,
                        suppress_health_check=list(HealthCheck))
        for name, test in surfaces(tally, work).items():
            if opts.only and name not in opts.only:
                continue
            before, t0 = tally.tried, time.monotonic()
            conf(test)()
            print(f"{name:>14}: {tally.tried - before:6,} inputs in {time.monotonic() - t0:5.1f} s",
                  flush=True)
        runs, left, notes = process_runs(0 if opts.only else opts.processes, work, tally)
        http_runs, leaks = hostile_http_runs(0 if opts.only else opts.http_processes, tally)
    print()
    print(f"inputs tried:      {tally.tried:,} ({runs} of them probe/record/replay "
          "subprocess runs against adversarial servers)")
    print(f"tracebacks:        {len(tally.tracebacks)}")
    for line in tally.tracebacks[:20]:
        print(f"  {line}")
    per_surface = collections.Counter(line.split(": ", 1)[0] for line in tally.tracebacks)
    for surface, count in sorted(per_surface.items()):
        print(f"  tracebacks in {surface}: {count}")
    print(f"hangs (> {opts.timeout:g} s): {len(tally.hangs)}")
    for line in tally.hangs[:20]:
        print(f"  {line}")
    print(f"outputs replaced:  {len(REPLACED)}")
    for line in REPLACED[:5]:
        print(f"  {line}")
    print(f"processes left:    {left}")
    print(f"probe --url:       {http_runs} runs against hostile HTTP servers; requests that "
          f"reached another origin: {len(leaks)}")
    for line in leaks[:20]:
        print(f"  {line}")
    for line in notes:
        print(f"  {line}")
    print(f"slowest input:     {tally.slowest[0]:.2f} s ({tally.slowest[1][:120]})")
    print("exit codes:")
    for surface, codes in sorted(tally.codes.items()):
        shown = ", ".join(f"{code}: {n:,}" for code, n in sorted(codes.items()))
        print(f"  {surface:<24} {shown}")
    print(f"total time:        {time.monotonic() - start:.0f} s")
    return 1 if tally.tracebacks or tally.hangs or left or leaks or REPLACED else 0


if __name__ == "__main__":
    raise SystemExit(main())

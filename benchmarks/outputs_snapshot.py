"""Capture the output of every command on the built-in peers, to compare two checkouts byte for byte.

A script, not a test. ``snapshot.py capture DIR`` runs each command below (matrix
in every format, view and transport; simulate; versions/show/diff; migrate;
rollout; show-log; probe against the test servers; the same with a ``--profile``
draft) with the checkout's interpreter and writes, per command, its stdout,
stderr and exit status into ``DIR``. ``snapshot.py compare OLD NEW`` names every
file that differs and prints the count of identical ones.

Inputs that are not deterministic are fixed first: the wire logs show-log reads
are recorded once (``--fixtures DIR``, kept between a run before a change and
one after), and the probe's JSON has its clock readings and process ids
replaced by ``0`` and the checkout's path by ``<checkout>`` (they differ from run
to run, the rest must not).

Run: ``.venv/bin/python benchmarks/outputs_snapshot.py capture /tmp/before --fixtures /tmp/fixtures``.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SERVER = Path(__file__).resolve().parent.parent / "tests" / "servers" / "sim_stdio_server.py"

FORMATS = ("text", "markdown", "github", "grid", "html", "json", "csv", "junit")
VIEWS = ("pairs", "features")
TRANSPORTS = ("stdio", "http", "both")
SCENARIOS = ("cache", "default", "handshake", "listen", "lists", "long")
REVISIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
PAIRS = (
    ("2025-06-18", "2025-06-18"),
    ("legacy:2025-06-18,2025-03-26", "legacy:2025-11-25"),
    ("dual:2026-07-28,2025-11-25", "legacy:2025-11-25"),
    ("dual:2026-07-28,2025-11-25", "2026-07-28"),
    ("modern:2026-07-28", "legacy:2025-06-18"),
    ("2024-11-05", "dual:2026-07-28,2025-11-25"),
    ("dual:2026-07-28,2025-11-25+restart", "legacy:2025-11-25+silent"),
    ("legacy:2025-11-25", "legacy:2025-11-25+unknown-32602"),
    ("py-mcp@2.3", "ts-server@2.4:dual"),
)
ROLLOUTS = (
    "--clients legacy:2025-11-25*10 dual:2026-07-28,2025-11-25*10 modern:2026-07-28*10"
    " --fleet dual:2026-07-28,2025-11-25*3 --duration 3m",
    "--clients legacy:2025-11-25*10 dual:2026-07-28,2025-11-25*10 modern:2026-07-28*10"
    " --fleet dual:2026-07-28,2025-11-25*3 --duration 3m --balancer random",
    "--clients dual:2026-07-28,2025-11-25*40 legacy:2025-11-25*20 modern:2026-07-28*10"
    " --fleet legacy:2025-11-25*4 --to dual:2026-07-28,2025-11-25 --duration 8m --rollback-at 5m",
    "--clients legacy:2025-11-25*40 --fleet legacy:2025-11-25*4 --to dual:2026-07-28,2025-11-25 --plan",
)
PROBED = ("legacy:2025-06-18", "dual:2026-07-28,2025-11-25", "legacy:2025-11-25+unknown-32602")
DRAFT = """
revision = "2026-12-tenant"
extends = "2026-07-28"
title = "A draft that names a tenant"

[[changes]]
id = "draft-tenant-meta"
summary = "Every request names its tenant in _meta"
impact = "breaking"
cite = { revision = "2026-12-tenant", source = "https://example.com/draft-tenant" }
add = { request_meta_required = ["io.example/tenant"] }
"""
#: Clock readings and process ids in the probe's output: they differ between two runs.
UNSTEADY = re.compile(r'("(?:\w*_ms|ms|pid)": )\d+|(pid )\d+|(at a time, )\d+\.\d(?= s\))')


def commands(fixtures: Path) -> Iterator[tuple[str, list[str]]]:
    """(name, argv after ``mcp-skew``) of every command captured."""
    for fmt in FORMATS:
        for view in VIEWS:
            for transport in TRANSPORTS:
                yield f"matrix-{fmt}-{view}-{transport}", ["matrix", "--format", fmt, "--view", view,
                                                           "--transport", transport]
    for scenario in SCENARIOS:
        yield f"matrix-scenario-{scenario}", ["matrix", "--scenario", scenario, "--format", "json"]
    yield "matrix-wide", ["matrix", "--wide"]
    yield "matrix-color", ["matrix", "--color", "always", "--format", "grid"]
    for fmt in ("text", "json"):
        yield f"matrix-real-{fmt}", ["matrix", "--set", "real", "--format", fmt]
    yield "matrix-named", ["matrix", "--clients", "py-mcp@2.3", "2025-06-18", "--servers",
                           "ts-server@2.4:dual", "legacy:2025-11-25+silent", "--format", "markdown"]
    for index, (client, server) in enumerate(PAIRS):
        for transport in ("stdio", "http"):
            for how in ("plain", "trace", "json"):
                extra = [] if how == "plain" else [f"--{how}"]
                for scenario in ("default", "long"):
                    yield (f"simulate-{index}-{transport}-{how}-{scenario}",
                           ["simulate", "--client", client, "--server", server, "--transport", transport,
                            "--scenario", scenario, *extra])
    yield "simulate-change", ["simulate", "--client", "dual:2026-07-28,2025-11-25", "--server",
                              "legacy:2025-06-18", "--scenario", "long", "--server-change",
                              "100000=legacy:2025-11-25", "--trace"]
    for fmt in ("text", "markdown", "json"):
        yield f"versions-{fmt}", ["versions", "--format", fmt]
        for rev in REVISIONS:
            yield f"show-{rev}-{fmt}", ["show", rev, "--format", fmt]
        for old, new in itertools.pairwise(REVISIONS):
            yield f"diff-{old}-{new}-{fmt}", ["diff", old, new, "--format", fmt]
        yield f"diff-back-{fmt}", ["diff", "2026-07-28", "2024-11-05", "--format", fmt]
    guides = (("2025-06-18", "2025-11-25"), ("2025-11-25", "2026-07-28"), ("2026-07-28", "2024-11-05"))
    for old, new in guides:
        for role in ("server", "client", "both"):
            for fmt in ("markdown", "json", "html"):
                yield (f"migrate-{old}-{new}-{role}-{fmt}",
                       ["migrate", old, new, "--role", role, "--format", fmt])
    for index, text in enumerate(ROLLOUTS):
        for fmt in ("text", "json", "html"):
            yield f"rollout-{index}-{fmt}", ["rollout", *text.split(), "--format", fmt]
    for log in sorted(fixtures.glob("logs/*/*.jsonl")):
        name = f"{log.parent.name}-{log.stem}"
        for flags in ((), ("--json",), ("--full",), ("--no-notes",), ("--no-stderr", "--width", "60")):
            how = "-".join(f.strip("-") for f in flags) or "plain"
            yield f"showlog-{name}-{how}", ["show-log", *flags, str(log)]
    for index, spec in enumerate(PROBED):
        for fmt in ("json", "markdown"):
            yield f"probe-{index}-{fmt}", ["probe", "--quiet", "--format", fmt, "--",
                                           sys.executable, str(SERVER), spec]
    draft = ["--profile", str(fixtures / "draft.toml")]
    yield "draft-versions", [*draft, "versions"]
    yield "draft-show", [*draft, "show", "2026-12-tenant", "--format", "json"]
    yield "draft-diff", [*draft, "diff", "2026-07-28", "2026-12-tenant"]
    yield "draft-migrate", [*draft, "migrate", "2026-07-28", "2026-12-tenant"]
    yield "draft-matrix", [*draft, "matrix", "--format", "json"]
    yield "draft-matrix-text", [*draft, "matrix", "--clients", "2026-12-tenant", "2026-07-28",
                                "--servers", "2026-12-tenant", "legacy:2025-11-25"]
    yield "draft-simulate", [*draft, "simulate", "--client", "2026-12-tenant", "--server", "2026-07-28",
                             "--trace"]
    yield "error-peer", ["simulate", "--client", "nope:1", "--server", "2025-06-18"]
    yield "error-rev", ["show", "1999-01-01"]


def prepare(fixtures: Path) -> None:
    """Record the wire logs show-log reads (once: a later run reuses them) and write the draft."""
    fixtures.mkdir(parents=True, exist_ok=True)
    (fixtures / "draft.toml").write_text(DRAFT, encoding="utf-8")
    logs = fixtures / "logs"
    if logs.exists():
        return
    logs.mkdir()
    for index, spec in enumerate(PROBED):
        subprocess.run([sys.executable, "-m", "mcp_skew", "probe", "--quiet", "--format", "json",
                        "--record", str(logs / f"p{index}"), "--", sys.executable, str(SERVER), spec],
                       check=True, capture_output=True)


def capture_one(out: Path, name: str, argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as cwd:
        env = {**os.environ, "COLUMNS": "100"}
        env.pop("NO_COLOR", None)
        proc = subprocess.run([sys.executable, "-m", "mcp_skew", *argv], capture_output=True, cwd=cwd,
                              env=env, check=False, timeout=600)
    stdout = proc.stdout
    if name.startswith("probe-"):  # the checkout's path is in the server's command line
        text = UNSTEADY.sub(lambda m: next(g for g in m.groups() if g) + "0", stdout.decode())
        stdout = text.replace(str(SERVER.parents[2]), "<checkout>").encode()
    (out / f"{name}.out").write_bytes(stdout)
    (out / f"{name}.err").write_bytes(proc.stderr)
    (out / f"{name}.rc").write_text(f"{proc.returncode}\n")


def capture(out: Path, fixtures: Path, jobs: int) -> int:
    prepare(fixtures)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    todo = list(commands(fixtures))
    with ThreadPoolExecutor(jobs) as pool:
        for future in [pool.submit(capture_one, out, name, argv) for name, argv in todo]:
            future.result()
    print(f"{len(todo)} commands captured into {out}")
    return 0


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compare(old: Path, new: Path) -> int:
    names = sorted({p.name for p in old.iterdir()} | {p.name for p in new.iterdir()})
    differ = [n for n in names if not (old / n).exists() or not (new / n).exists()
              or digest(old / n) != digest(new / n)]
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(names) - len(differ)} of {len(names)} files identical "
          f"({len(names) // 3} commands: stdout, stderr, exit status each)")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="action", required=True)
    cap = sub.add_parser("capture")
    cap.add_argument("out", type=Path)
    cap.add_argument("--fixtures", type=Path, required=True)
    cap.add_argument("--jobs", type=int, default=2)
    cmp = sub.add_parser("compare")
    cmp.add_argument("old", type=Path)
    cmp.add_argument("new", type=Path)
    args = parser.parse_args()
    if args.action == "capture":
        return capture(args.out, args.fixtures, args.jobs)
    return compare(args.old, args.new)


if __name__ == "__main__":
    raise SystemExit(main())

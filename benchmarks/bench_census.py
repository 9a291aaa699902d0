"""Benchmark the census (a script, not a test): throughput of the local pool and of Dask.

Builds a listing of ``--servers N`` local servers (``tests/servers/sim_stdio_server.py``
behind the test-only ``local`` package source, peers of every kind in turn), runs
``mcp-skew census`` on it with the local pool (``--jobs J``) and, when Dask is
installed, a Dask ``LocalCluster`` of J workers (``--cluster local:J``), and prints
for each: wall time, servers per minute and per hour, the projection for a census
of 5,000 servers at that rate, the median install, cold-start, probe and whole-job time
per server read back from the database, and how busy the workers were (the jobs' own
seconds over workers x wall time: what is left is start-up and scheduling); then how far
apart the two executors are.
With ``--listing FILE`` it runs that listing of real packages instead, cold then warm
for each executor and each installer of ``--installers`` (``uv``, ``pip`` or ``uv,pip``):
cold in an empty environment cache of its own (``MCP_SKEW_CACHE`` set to a new folder,
uv's download cache in it too), warm on the same cache again, each line with its seconds
an entry (wall time over entries: the amortised figure a 5,000-server census scales by).
A listing's packages run in a sandbox where one works (bwrap or firejail), else with
``--sandbox none``: the first line says which. Each line also gives the CPU seconds of the
run (user + system of the census and every process it waited for: workers, installers,
servers, from ``getrusage(RUSAGE_CHILDREN)``), per entry: what a census costs, which the
load of the machine changes far less than its wall time.

Run it with ``.venv/bin/python benchmarks/bench_census.py [--servers 12] [--jobs 2]``, or
``.venv/bin/python benchmarks/bench_census.py --listing tests/census/real-listing.json
--installers uv,pip``.
Measured 2026-12-04 (``--listing tests/census/real-listing.json --installers uv,pip --jobs
2``, census ``--install-jobs`` at its default 3): 7 entries (2 npm, 3 PyPI, one missing
from npm, one needing an API key), on the 2 shared cores at a load average of 11 to 13,
no sandbox tool here (``--sandbox none``). Seconds an entry, wall over entries:

    installer, executor     cold     warm
    uv, local pool          10.0     6.4
    uv, dask local:2        12.8     9.7
    pip, local pool         22.4     5.8
    pip, dask local:2       18.5     5.5

The cold pip runs spent their time installing (median install 30 s a row in the pool),
the uv runs probing (median install 2.1 s): cold uv is within 1.6x of warm, cold pip 3.9x.
Warm, both are the same work (nothing installed) and differ by the load of the moment.
Then ``--installers pip,uv --install-jobs 0 --no-dask`` (each worker installs its own, as
before ``--install-jobs``; pip so is the census as it was), just after, at a load average
of 12 to 14 (a real-peer test file and the fast test step ran beside it):

    installer, executor     cold     warm
    pip, local pool         41.6     7.1     (median install 66 s a row)
    uv, local pool          16.4     6.5     (median install 17 s a row)

So cold, a census entry took 41.6 s as it was and 10.0 s with uv and installs ahead (at a
lighter load: 16.4 s with uv alone at the heavier one). Of this listing's 7 entries only 3
are probed (2 crash at start, 1 is missing, 1 needs an API key): the figures are not yet
the issue's listing of 20 real packages.

Measured 2026-12-05 on ``benchmarks/census-listing.json`` (22 real packages in the
registry's server.json format: 11 from PyPI, 11 from npm; one declares a required API key
and is not installed) with ``--installers uv,pip --jobs 2`` (``--install-jobs`` 3), no
sandbox tool here (``--sandbox none``), on the 2 shared cores at a load average of 14 to 35
(five other sessions' test runs beside it). Seconds an entry, wall over entries; 17 of the
22 entries probed in every run:

    installer, executor     cold     warm
    uv, local pool          11.9     10.8
    uv, dask local:2        21.7     13.4
    pip, local pool         41.6     17.9
    pip, dask local:2       48.5     16.1

With uv, a cold entry costs about 1 s more than a warm one: the install is no longer what
a census waits for. What is left is the probe: a median 16 to 24 s a row, several cold
starts of the server (a median 5.6 to 6.9 s each at this load). The goal of 5.8 s an entry
cold is not met at this load; cold uv is 3.5x faster than cold pip in the local pool.
The verdict rows of uv and pip were not all identical: mcp-text-editor 1.2.2 differed in
all four pairs of runs, wikipedia-mcp (Dask, cold) and notion-mcp-server (Dask, warm) once
each; the line per row now names the fields that differ. For mcp-text-editor (rerun alone)
both installers fail to install it and the status is the same (install-failed); only the
report's failure kind differs, read from each installer's own words: pip's error reads as
``missing package``, uv's as ``install failed`` (census/_report.py matched pip's wording
only; it now reads both, and the kind of this cause is ``needs another Python``).

Later on 2026-12-05, where a cold census's CPU goes (``--listing
benchmarks/census-listing.json --installers uv --jobs 2 --no-dask``, ``--install-jobs`` 3,
no sandbox tool): on a quiet machine it was 6.7 s an entry cold and 3.4 warm, both CPUs
busy (the workers 97% of the wall time), so what a cold entry costs is CPU. The CPU
seconds of the census and its children, at a load average of 9 to 18 (others' tests):

    before     cold 297.4 CPU-s = 13.52 an entry (303.7 s wall)   warm 155.8 = 7.08 (211.1 s)

Phase by phase (the same installs and probes one at a time, at a load average of 17 to 25):
a PyPI venv's uv install 3.9 to 15 CPU-s (6.4 a venv), of which ``uv pip install
--compile-bytecode`` compiling every file was about 5 (0.7 without it, measured on
mcp-server-fetch: 963 files); an npm install 1.9 to 12.7 CPU-s (8.9 an entry; 1.2 for
npm to find nothing to do); a probe's servers 4 starts (5 where the server offers an
extension), a Python server's start 1.5 to 2 CPU-s (importing the SDK: ``mcp.types`` alone
1.9 s of import time), a Node server's about 0.7; the probe's own work in the worker 0.3 to
0.9 CPU-s an entry (``cProfile``: the threads wait on the servers).

So the census now compiles a uv venv's bytecode itself, each distinct file once for the
whole census (census/_bytecode.py: of 10,009 ``.py`` files in 8 venvs, 3,805 were
distinct, the SDK and its dependencies hard linked from uv's cache into each), with the
same ``.pyc`` files in every venv as before (Python imports them as fresh: ``python -v``
shows no stale or written one). At a load average of 19 to 26 (with the store then keyed
by the source's inode; it is now keyed by a hash of the source's bytes, which reads each
file once more):

    after      cold 254.5 CPU-s = 11.57 an entry (372.5 s wall)   warm 152.1 = 6.92 (287.0 s)

a cut of 14% of a cold census's CPU, at a higher load than before (warm is unchanged:
the same probes). Scaled from the
quiet machine's 146.8 s, a cold census takes about 146.8 x 254.5 / 297.4 = 126 s = 5.7 s
an entry there (a projection from the CPU, not measured: no quiet machine was to be had).
Not cut: each server start (every real run is in the stored report and its verdict), the
npm installs (``--prefer-offline`` resolves from cached metadata however old: an older
dependency than a fresh install picks, or ETARGET for a newer pinned version, so other
rows; ``--ignore-scripts`` saves nothing where no package has an install script, as none
of server-memory's 94 has, and which scripts a server needs cannot be told).
The verdicts are the same: ``tests/interop/test_census_realpeer.py``'s
``test_uv_and_pip_give_the_same_rows`` (cold uv and cold pip, each in an empty cache)
passed with this change. A run of both executors (this script without ``--no-dask``) was
then started at a load average of 19 to 37 (that real-peer test and the slow census tests
beside it): its local pool, cold, took 875.1 s = 39.8 s an entry and 337.5 CPU-s = 15.34
an entry, with the same server starts as before (none tried again: at such a load the CPU
seconds grow too, the same work taking more cycles); it was stopped before its Dask runs,
for want of time.

Each line is now followed by the run's CPU an entry split by kind of process (read from
``/proc`` ten times a second: npm installs, node servers, python servers, uv, the census
process with the bytecode compile its install threads run, its workers, the supervisors).
Late morning of 2026-12-05, on the merged tree (``--listing benchmarks/census-listing.json
--installers uv --jobs 2 --no-dask``, ``--install-jobs`` 3, no sandbox tool), at a load
average of 14 to 23 (others' test runs):

    cold   284.9 CPU-s = 12.95 an entry (398.5 s wall = 18.1 s an entry)
           npm installs 4.21, python servers 4.05, node servers 1.75, census with the
           bytecode compile 1.36, census workers 0.69, uv 0.42, supervisors 0.17 (12.67 sampled)
    warm   143.4 CPU-s = 6.52 an entry (199.1 s wall = 9.0 s an entry)
           python servers 3.88, node servers 1.67, census workers 0.63, supervisors 0.12,
           census 0.05 (6.36 sampled)

So of a cold entry's CPU, half is what a warm census also spends (the probes: 37 Python
server starts at 2.3 to 2.7 CPU-s each at this load, most of it importing the SDK, and 38
Node ones at about 1 each, 4 starts a probed entry, 5 for one, 2 for a server that does not
start), and of the other half, two thirds is npm: about 9 CPU-s an npm install, which
writes 1,500 to 6,800 files (3,900 typical: the SDK, zod, express) and spends its time
extracting them (tar, the file system: about 40% of a profile of one) and parsing full
packuments (npm 11 fetches them, not the abbreviated ones). The bytecode store does its
part: of the 12,605 ``.py`` files of the listing's venvs it compiled 4,885 once each (the
census process: about 30 CPU-s a census, as uv would take for those files alone, hashing
included); a venv whose files are all in the store costs 0.3 to 0.4 CPU-s to link (963
files of mcp-server-fetch) where compiling them took 6.1 to 7.1 (uv's
``--compile-bytecode``: 6.1 to 6.4). Each ``.pyc`` is used: ``python -v`` on a server of
such a venv imports 614 modules, each from its ``.pyc`` ("matches"), none compiled or
written. Tried and not kept, for saving nothing measurable or for changing a server: a
venv made by ``uv venv`` (0.1 CPU-s less a venv), node's ``--max-semi-space-size`` for
npm (the same GC time in a profile), the server's GC off at start (0.2 CPU-s of 2.7 a
start, and it changes the server's run). Python 3.11 already starts from frozen modules;
the venvs hold no ``.pth`` file; ``PYTHONNODEBUGRANGES`` changes only code compiled at
run time, and none is.

Each line now also says how long the workers waited on installs (the rows' ``install_s``:
an environment built ahead, or being built, is waited for on its lock) and how many server
processes the probes started. Early afternoon of 2026-12-05 (``--listing
benchmarks/census-listing.json --installers uv --jobs 2 --no-dask``, ``--install-jobs`` 3,
no sandbox tool), at a load average of 7 to 21 (three other sessions):

    cold   124.3 CPU-s = 5.65 an entry (174.4 s wall = 7.9 s an entry)
           python servers 1.75, npm installs 1.70, node servers 1.02, bytecode compile 0.39,
           census workers 0.30, uv 0.16, supervisors 0.07, census 0.06 (5.45 sampled)
    warm   75.0 CPU-s = 3.41 an entry (106.3 s wall = 4.8 s an entry)

The same work as the morning's 12.95 and 6.52 CPU-s an entry took about half the CPU
seconds, at a load not much lower (and 5.75 to 7.28 CPU-s an entry in the 8 runs below,
at 12 to 24): a Python server's start 1.3 CPU-s (2.3 to 2.7 then), a Node one's 0.6
(about 1), an npm install 4.4 (about 9). The machine's moment, not only its load, sets the
CPU seconds of the same work: they too compare only side by side.
Server starts, from the stored reports: 75 for the 22 entries, 4 a probed entry (17),
5 for the one whose server offers an extension (wikipedia-mcp: the named client that
advertises it), 2 for each of the 3 that do not start (the two calibrating clients; a
start that times out is tried once more). The fast probe's 4 (``probe/_fast.py``): the
client of every legacy revision and the plain modern one (the calibrators, at once: one of
their first requests is one the server knows, and the first answer is the cold start),
the dual-era client (``server/discover`` first in a process), the oldest legacy client,
whose process also serves the middle legacy revisions' ``initialize`` with a control (3
clients' first exchanges, no start of their own). Of the 4, the plain modern client's
process serves one exchange on a legacy server (``tools/list`` with the modern ``_meta``,
answered -32601, then closed): 1.3 CPU-s a Python start and 0.6 a Node one for a single
request, about 0.73 CPU-s an entry of this listing (11% of a cold entry). Not merged into
another process here: its request is a first request of a process (the calibration's
cold start too), so it could only follow another client's first exchange with a control
as the middle legacy revisions do (in the dual-era client's process, between its
``server/discover`` and its fallback, with ``server/discover`` again as the control), which
changes that client's own conversation and its row; left for the probe's model.

Tried and not kept, side by side in one run (``/tmp`` worktrees of both, alternating A B A
B then B A B A, 8 cold censuses, load 12 to 24): the installs ahead allowed 4 jobs a thread
past the rows stored instead of 2, so that the listing's npm installs start while its PyPI
probes run. It cut the workers' wait on installs from 36 s to 14 s a census (28 to 44
before, 11 to 16 after) but not the wall time: 7.20 s an entry before (7.91, 6.93, 7.39,
6.57), 7.63 after (8.94, 8.15, 7.80, 5.64), the CPU 6.34 and 6.66 CPU-s an entry: on 2
busy cores an install started earlier takes its CPU from a probe. The same 75 server starts
and 17 probed entries in every run. The npm flags, 4 installs each (server-memory and
exa-mcp-server, twice, alternating, load 5 to 11, ``~/.npm`` warm): 5.58 CPU-s an install
as the census runs it, 5.42 with ``--prefer-offline``, 6.52 with ``--ignore-scripts``, 6.06
with ``--no-package-lock``, 5.18 with all three: within the noise (3.9 to 8.2 for the same
install); npm's CPU is the files it writes (3,689 and 6,778) and the full packuments
``npm install`` always fetches (arborist's ``#fetchManifest`` sets ``fullMetadata: true``).

Then, with this tree as it is, on a quieter machine: ``--listing
benchmarks/census-listing.json --installers uv --jobs 2 --no-dask`` at a load average of 5
to 11: cold 64.9 s = 2.9 s an entry (117.3 CPU-s = 5.33 an entry), warm 44.5 s = 2.0 s
(2.93 CPU-s); and ``--installers uv,pip`` (same options) just after, at 10 to 17: uv cold
137.4 s = 6.2 s an entry (6.00 CPU-s), pip cold 170.7 s = 7.8 s (11.36 CPU-s: its servers
compile their own bytecode, 8.04 CPU-s an entry), warm 3.0 and 3.9 s. So the goal of 5.8 s
an entry cold was met at a load of 5 to 11 and missed (6.2) at 10 to 17. Verdict rows, uv
against pip, 3 of 22 differ cold and warm alike, none by the installer: mcp-text-editor's
failure names the installer (``uv install`` / ``pip install``, the same status and kind);
notion-mcp-server's modern-only row is ``server exited`` in one run and a legacy-shaped
``tools/list`` result (peer ``+lenient``) in another, uv's cold run and pip's warm one
against the other two; playwright-mcp's legacy readiness changes from run to run (all,
one or none of its legacy clients ok). Two servers that answer differently from one run
to the next, whatever filled their environments: not fixed here.

Why they varied, from the stored reports of earlier runs (their clients' stderr) and the
servers run by hand: every process of both died with ``RangeError:
WebAssembly.instantiate(): Out of memory`` (``lazyllhttp``, in Node's undici): loading
Node's ``fetch`` compiles and instantiates its HTTP parser as WebAssembly in the
background, V8 reserves about 10 GiB of address space for a WebAssembly memory, and the
census bounded each server's address space (``RLIMIT_AS`` 4096 MiB). So each process died
a few seconds after its start, and which exchange that cut short (an answered
``tools/list``, the next one, an ``initialize``) was the load's choice. Two more of the
listing's 11 npm servers died so (exa-mcp-server, mcp-server-code-runner: every legacy
client failing, in every run), and a fifth (context7) before its first answer, stored as
``start-failed``. The tool's cause: the census now bounds memory with ``RLIMIT_DATA``
(what a process makes writable; ``census/_limits.py``). The two servers censused alone
(``census`` of a listing of those two entries, ``--jobs 2``, the environments filled),
alternating the tree before and after, 3 runs each, both CPUs kept busy by two spin loops
(load 12 to 15): before, each run's rows differed from the others' (notion's
modern-only row ``server exited`` in two, a legacy-shaped ``tools/list`` in one; every
legacy client of both failing); after, the 3 runs identical, every legacy and dual-era
client reaching both. A server that exits mid-conversation of its own accord is now
probed twice and its row says whether the two probes agreed (``census/_again.py``); no
server of this listing is so now. mcp-text-editor's cause now says what failed, not which
installer ran: ``install-failed: install mcp-text-editor==1.2.2 failed: needs Python
>=3.13`` after either (the installer's own words stay in the row's error).

Then this script twice (``--listing benchmarks/census-listing.json --installers uv,pip
--jobs 2 --no-dask``, ``--install-jobs`` 3, no sandbox tool), one run after the other, at
load averages of 13 to 20 then 12 to 18 (other sessions' test runs), 18 of 22 entries
probed in every census (17 before: context7 starts now). Seconds an entry, wall over
entries (CPU-s an entry):

    installer   cold, run 1     cold, run 2     warm, run 1     warm, run 2
    uv          6.4 (5.75)      4.0 (4.60)      3.9 (2.97)      2.5 (2.52)
    pip         13.5 (11.29)    11.4 (10.34)    4.4 (3.36)      4.6 (3.24)

Verdict rows: uv against pip identical (22 rows) cold and warm in both runs, and the 8
censuses' rows all identical to each other (the same 77 server starts in each; no server
died mid-conversation, so none was probed twice). The goal of 5.8 s an entry cold was met
in the second run (at 12 to 17) and not in the first (at 15 to 20).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT / "tests" / "servers"
PEERS = ("legacy:2025-06-18", "dual:2026-07-28,2025-11-25", "modern:2026-07-28",
         "legacy:2025-11-25,2025-06-18+unknown-32602", "legacy:2024-11-05")


def _listing(count: int, path: Path) -> None:
    servers = [{"server": {"name": f"io.example/bench-{i:03d}", "version": "1.0.0", "packages": [
        {"registryType": "local", "identifier": "sim_stdio_server.py", "version": "1.0.0",
         "transport": {"type": "stdio"},
         "packageArguments": [{"type": "positional", "value": PEERS[i % len(PEERS)]}]}]}}
        for i in range(count)]
    path.write_text(json.dumps({"servers": servers, "metadata": {}}))


def _figures(db: Path) -> dict[str, float | None]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT install_s, install_cached, start_ms, probe_ms, status, "
                            "total_s, report FROM results").fetchall()

    def med(values: list[float]) -> float | None:
        return round(median(values), 2) if values else None

    return {"rows": len(rows),
            "probed": sum(r[4] == "probed" for r in rows),
            "install_s": med([r[0] for r in rows if r[0] is not None]),
            "cache_hits": sum(bool(r[1]) for r in rows if r[1] is not None),
            "start_ms": med([r[2] for r in rows if r[2] is not None]),
            "probe_ms": med([r[3] for r in rows if r[3] is not None]),
            "job_s": med([r[5] for r in rows if r[5] is not None]),
            "busy_s": round(sum(r[5] for r in rows if r[5] is not None), 1),
            # a worker's install_s is its wait: the environment built ahead, or its own install
            "install_wait_s": round(sum(r[0] for r in rows if r[0] is not None), 1),
            # server processes the probes started (calibration tries, extensions included)
            "starts": sum(int(json.loads(r[6]).get("starts") or 0) for r in rows if r[6])}


def _verdicts(db: Path, cache: Path) -> dict[str, str]:
    """Each row's verdict (what load and the installer must not change: times, costs, the
    worker and the environment cache's path left out), by row key."""
    from mcp_skew.census._report import _kind_and_cause  # noqa: PLC0415
    from mcp_skew.census._store import CensusDB  # noqa: PLC0415 - the benchmark's own check

    store = CensusDB(db, create=False)
    try:
        rows = store.rows(report=False)
    finally:
        store.close()
    out = {}
    for got in rows:
        error = got.get("error")
        row = {**got, "error": error.replace(str(cache), "$CACHE") if error else error}
        ready = {k: v for k, v in (row["readiness"] or {}).items() if not k.endswith("_ms")}
        out[row["key"]] = json.dumps(
            {"status": row["status"], "peer": row["peer"], "sentence": row["sentence"],
             "readiness": ready, "server_info": row["server_info"],
             "dependencies": row["dependencies"], "failure": _kind_and_cause(row)},
            sort_keys=True)
    return out


def _same(name: str, left: dict[str, str], right: dict[str, str]) -> str:
    differ = sorted(k for k in left.keys() | right.keys() if left.get(k) != right.get(k))
    if not differ:
        return f"verdict rows, {name}: identical ({len(left)} rows)"
    lines = [f"verdict rows, {name}: {len(differ)} of {len(left | right)} differ:"]
    for key in differ:  # each row's fields that differ, as each installer's run gave them
        one, two = (json.loads(side.get(key, "{}")) for side in (left, right))
        fields = sorted(f for f in one.keys() | two.keys() if one.get(f) != two.get(f))
        lines += [f"  {key}: " + "; ".join(f"{f}: {one.get(f)!r} / {two.get(f)!r}"
                                             for f in fields)]
    return "\n".join(lines)


#: CPU seconds (user + system) of the last census run and every process it waited for
#: (its workers, the installers, the servers): what the run cost, whatever the machine's load
CPU: dict[str, float] = {}
#: the last run's CPU seconds by kind of process (:class:`_Split`), largest first
SPLIT: dict[str, float] = {}


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _kind(argv: list[str]) -> str:
    """What a process of a census run is, by its command line (``/proc/PID/cmdline``)."""
    line, first = " ".join(argv), Path(argv[0]).name if argv else ""
    if first == "npm" or line.startswith("npm ") or "/npm/bin/npm-cli" in line:
        return "npm installs"  # npm sets its title to "npm install ..."
    if first.startswith("node"):
        return "node servers"
    if first == "uv":
        return "uv"
    if "_super.py" in line:
        return "supervisors"
    if "multiprocessing" in line:
        return "census workers (the probes' own work)"
    if " -m venv " in line:
        return "python -m venv"
    if "census/_bytecode.py" in line:  # the census compiles each venv in a child of its own
        return "bytecode compile"
    if "/envs/py-" in line:  # a venv's python: a server (or uv asking what the python is)
        return "python servers"
    if " -m mcp_skew census " in f" {line} ":
        return "census"
    return "other"


class _Split(threading.Thread):
    """CPU seconds of a process's descendants by :func:`_kind`, read from ``/proc`` ten
    times a second (Linux only; a process's last tenth of a second, and a process shorter
    than that, is missed: the split's total is below the run's)."""

    def __init__(self, root: int) -> None:
        super().__init__(daemon=True)
        self.root, self.stopped = root, threading.Event()
        self.seen: dict[tuple[int, str], tuple[str, float]] = {}  #: (pid, start) -> kind, CPU

    def run(self) -> None:
        tick, ours = os.sysconf("SC_CLK_TCK"), {self.root}
        while not self.stopped.wait(0.1):
            parents, cpu = {}, {}
            for name in os.listdir("/proc"):
                if name.isdigit():
                    try:
                        fields = Path(f"/proc/{name}/stat").read_text().rpartition(")")[2].split()
                    except OSError:
                        continue
                    parents[int(name)] = int(fields[1])  # ppid, utime + stime, start time
                    cpu[int(name)] = ((int(fields[11]) + int(fields[12])) / tick, fields[19])
            ours &= parents.keys()  # a pid that ended may be another process's next
            ours.add(self.root)
            grew = True
            while grew:  # the descendants, however deep (found here before their parent ends)
                grew = False
                for pid, parent in parents.items():
                    if pid not in ours and parent in ours:
                        ours.add(pid)
                        grew = True
            for pid in ours & cpu.keys():
                try:
                    argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
                except OSError:
                    continue
                key = (pid, cpu[pid][1])
                old = self.seen.get(key)
                kind = _kind(argv.split("\0")[:-1]) if argv else (old[0] if old else "other")
                self.seen[key] = (kind, cpu[pid][0])

    def split(self) -> dict[str, float]:
        self.stopped.set()
        self.join()
        out: dict[str, float] = {}
        for kind, seconds in self.seen.values():
            out[kind] = out.get(kind, 0.0) + seconds
        return dict(sorted(out.items(), key=lambda item: -item[1]))


def _run(listing: Path, db: Path, extra: list[str], env: dict[str, str] | None = None) -> float:
    argv = [sys.executable, "-m", "mcp_skew", "census", str(listing), "--db", str(db),
            "--local-root", str(SERVERS), *extra]
    cpu = _children_cpu()
    started = time.monotonic()
    with subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                          env=None if env is None else {**os.environ, **env}) as proc:
        split = _Split(proc.pid)
        if Path("/proc/self/stat").is_file():
            split.start()
        try:
            code = proc.wait()
        except BaseException:  # as subprocess.run: a stopped benchmark stops its census
            proc.kill()
            proc.wait()
            raise
        finally:
            if split.is_alive():
                SPLIT.clear()
                SPLIT.update(split.split())
    if code:
        raise subprocess.CalledProcessError(code, argv)
    CPU["last"] = _children_cpu() - cpu
    return time.monotonic() - started


def _sandbox() -> tuple[list[str], str]:
    """The census's sandbox options for a listing of registry packages, and what to say."""
    from mcp_skew.census._launch import sandbox_tool  # noqa: PLC0415 - the benchmark's own check

    tool = sandbox_tool("auto")
    if tool is not None:
        return [], f"sandbox: {Path(tool).name} (--sandbox auto)"
    return ["--sandbox", "none"], ("sandbox: none (--sandbox none: no bwrap or firejail works "
                                   "here, so the listing's packages run unsandboxed, as you)")


def _line(name: str, seconds: float, fig: dict[str, float | None], jobs: int) -> str:
    rows = int(fig["rows"] or 0)
    rate = rows / (seconds / 60) if rows else 0.0
    hours = 5_000 / (rate * 60) if rate else float("inf")
    busy = 100 * (fig["busy_s"] or 0.0) / (seconds * jobs)
    cpu = CPU.get("last", 0.0)
    return (f"{name}: {rows} entries ({fig['probed']} probed) in {seconds:.1f} s = "
            f"{seconds / rows if rows else float('nan'):.1f} s an entry, CPU {cpu:.1f} s = "
            f"{cpu / rows if rows else float('nan'):.2f} CPU-s an entry = {rate:.1f} servers/min "
            f"= {rate * 60:.0f} servers/hour (5,000 servers: {hours:.1f} h); median install "
            f"{fig['install_s']} s ({fig['cache_hits']} cache hits), cold start "
            f"{fig['start_ms']} ms, probe {fig['probe_ms']} ms; median job {fig['job_s']} s, "
            f"the workers busy {busy:.0f}% of the wall time ({fig['busy_s']} job-seconds), "
            f"{fig['install_wait_s']} s of it waiting on installs; {fig['starts']} server starts "
            f"({(fig['starts'] or 0) / max(1, int(fig['probed'] or 0)):.2f} a probed entry)"
            + (("\n  CPU-s an entry by process: " + ", ".join(
                f"{kind} {seconds / rows:.2f}" for kind, seconds in SPLIT.items())
                + f" (of {sum(SPLIT.values()) / rows:.2f} sampled)") if SPLIT and rows else ""))


def _listing_runs(args: argparse.Namespace, executors: list[tuple[str, list[str]]],
                  tmp: Path) -> None:
    """Cold then warm, per installer and executor, each installer in caches of its own."""
    box, said = _sandbox()
    print(said, flush=True)
    extra_all = [*box, *(["--install-jobs", str(args.install_jobs)]
                         if args.install_jobs is not None else [])]
    verdicts: dict[tuple[str, str, str], dict[str, str]] = {}
    installers = args.installers.split(",")
    for installer in installers:
        for name, extra in executors:
            cache = tmp / f"cache-{installer}-{name.split()[0]}"
            env = {"MCP_SKEW_CACHE": str(cache), "MCP_SKEW_INSTALLER": installer}
            if installer == "pip":
                env["PIP_NO_CACHE_DIR"] = "1"  # cold: nothing from pip's own cache either
            for state in ("cold", "warm"):
                db = tmp / f"{installer}-{name.split()[0]}-{state}.sqlite"
                seconds = _run(args.listing, db, [*extra, *extra_all], env)
                print(_line(f"{installer}, {name}, {state}", seconds, _figures(db), args.jobs),
                      flush=True)
                verdicts[installer, name, state] = _verdicts(db, cache)
    # the same listing must give the same verdicts whichever installer filled the venvs
    for name, _ in executors:
        for state in ("cold", "warm"):
            runs = [verdicts[i, name, state] for i in installers]
            if len(runs) == 2:
                print(_same(f"{' against '.join(installers)} ({name}, {state})", *runs),
                      flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--listing", type=Path, help="a listing of real packages instead")
    parser.add_argument("--installers", default="uv", choices=("uv", "pip", "uv,pip", "pip,uv"),
                        help="with --listing: fill the environments with these (default uv)")
    parser.add_argument("--install-jobs", type=int, help="census --install-jobs (default: "
                        "the census's)")
    parser.add_argument("--no-dask", action="store_true", help="the local pool only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        executors = [("local pool", ["--jobs", str(args.jobs)])]
        if importlib.util.find_spec("distributed") is not None and not args.no_dask:
            executors.append((f"dask local:{args.jobs}", ["--cluster", f"local:{args.jobs}"]))
        if args.listing is not None:
            _listing_runs(args, executors, Path(tmp))
            return
        listing = Path(tmp) / "listing.json"
        _listing(args.servers, listing)
        hourly: dict[str, float] = {}
        for name, extra in executors:
            db = Path(tmp) / f"{name.split()[0]}.sqlite"
            seconds = _run(listing, db, extra)
            fig = _figures(db)
            rate = fig["rows"] / (seconds / 60) if fig["rows"] else 0.0
            hourly[name] = rate * 60
            hours = 5_000 / hourly[name] if hourly[name] else float("inf")
            print(f"{name}: {fig['rows']} entries ({fig['probed']} probed) in {seconds:.1f} s = "
                  f"{rate:.1f} servers/min = {rate * 60:.0f} servers/hour (5,000 servers: "
                  f"{hours:.1f} h); median install {fig['install_s']} s "
                  f"({fig['cache_hits']} cache hits), cold start {fig['start_ms']} ms, "
                  f"probe {fig['probe_ms']} ms; median job {fig['job_s']} s, the workers busy "
                  f"{100 * fig['busy_s'] / (seconds * args.jobs):.0f}% of the wall time "  # type: ignore[operator]
                  f"({fig['busy_s']} job-seconds)")
        if len(hourly) == 2:
            low, high = sorted(hourly.values())
            print(f"local pool vs dask: {100 * (high - low) / high:.0f}% apart")


if __name__ == "__main__":
    main()

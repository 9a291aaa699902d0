"""The real-world matrix: named clients against named servers, predicted and (optionally) run.

``mcp-skew matrix --set real`` takes its rows and columns from
:data:`~mcp_skew.peers.REAL_CLIENTS` and
:data:`~mcp_skew.peers.REAL_SERVERS` (:func:`real_peers`); the
matrix itself is the simulator's prediction, like any other.

``--run-real`` then runs each pair for real where both packages can be
installed: the real client package (driven by ``servers/py_mcp_client.py`` or
``servers/ts_client.mjs``) starts the real server script as its stdio child, and
the outcome (connected or not, and the revision) is compared with the predicted
cell (:func:`run_real`). Each cell gets its ``real`` (a
:class:`~mcp_skew.matrix.RealRun`); :func:`render_real` prints the same grid
with each cell marked ``=`` (prediction and reality agree), ``!`` (they differ)
or ``-`` (not run), and lists the differences.

The TypeScript v2 client in auto mode waits 60 s for its probe by default; the
real run gives it 3 s (its ``drift_probe_ms``), which changes how long it waits,
not what it does.

:func:`run_matrix` is the matrix command with either (the one entry point the command line
reads here): the matrix's own work (:func:`mcp_skew.matrix.run_command`) given the named
rows and columns and the real runs.
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from .._stopping import gather
from ..matrix import Cell, Matrix, RealRun
from ..peers import REAL_CLIENTS, REAL_SERVERS, Resolved, builtin_peer, resolve
from ..simulator import PeerSpec
from ..versions import Registry, Role
from ._client_drift import run_driver
from ._installs import Install, client_command, prepare, server_command

__all__ = ["RealCell", "real_peers", "render_real", "run_matrix", "run_real"]

CORNER = "client \\ server"


def real_peers(role: Role) -> tuple[PeerSpec, ...]:
    """The real-world set's rows (``client``) or columns (``server``), labelled by name."""
    names = REAL_CLIENTS if role == "client" else REAL_SERVERS
    return tuple(builtin_peer(name, role) for name in names)


@dataclass(slots=True)
class RealCell:
    """What the real pair did, next to what was predicted."""

    ran: bool
    status: str | None = None
    revision: str | None = None
    detail: str = ""
    seconds: float = 0.0
    predicted_status: str | None = None
    predicted_revision: str | None = None

    @property
    def agrees(self) -> bool | None:
        if not self.ran:
            return None
        if self.status != self.predicted_status:
            return False
        return self.status != "ok" or self.revision == self.predicted_revision

    def result(self) -> RealRun:
        """What a matrix cell keeps of it (the seconds rounded to hundredths)."""
        return RealRun(self.ran, self.agrees, self.status, self.revision, self.detail,
                       round(self.seconds, 2))

    def to_dict(self) -> dict[str, Any]:
        return self.result().to_dict()


def _resolved(label: str, role: Role) -> Resolved | None:
    """The named peer behind an axis label (None: not a plain named peer)."""
    if "@" not in label or "+" in label:
        return None
    try:
        return resolve(label, role)
    except ValueError:
        return None


def _run_pair(client: Resolved, client_env: Install, server: Resolved, server_env: Install
              ) -> tuple[str, str | None, str, float]:
    server_cmd = server_command(server.family, server.model, server_env)
    command = client_command(client.family, client.model, client_env, server_cmd,
                             client.model.drift_probe_ms)
    started = time.monotonic()
    run = run_driver(command, timeout_s=180)
    seconds = time.monotonic() - started
    result = run.result
    if result:
        closing = " (it printed its result, then its close hung: ended)" if run.hung_on_close \
            else ""
        if result.get("ok"):
            version = result.get("protocol_version")
            return "ok", version if isinstance(version, str) else None, closing.strip(), seconds
        return "failed", None, str(result.get("error", "")) + closing, seconds
    tail = " ".join(run.stderr.strip().splitlines()[-2:])[:200]
    return "failed", None, f"no result from the client driver: {tail}", seconds


def run_real(matrix: Matrix, *, jobs: int = 2,
             progress: Callable[[int, int], None] | None = None,
             stop: threading.Event | None = None) -> Matrix:
    """The matrix with a ``real`` in every cell: the real pair's outcome, where it ran. Once
    ``stop`` is set, the pairs not yet started are not run (the command is stopping)."""
    clients = [_resolved(a.label, "client") for a in matrix.clients]
    servers = [_resolved(a.label, "server") for a in matrix.servers]
    packages = [r.line.installs for r in (*clients, *servers) if r and r.line.installs]
    envs = prepare(packages, jobs)

    def env_of(r: Resolved | None) -> Install | None:
        if r is None or r.line.installs is None:
            return None
        env = envs.get(r.line.installs)
        return env if isinstance(env, Install) else None

    jobs_list = [(i, j) for i in range(len(clients)) for j in range(len(servers))]
    done = 0

    def one(pair: tuple[int, int]) -> RealCell:
        nonlocal done
        i, j = pair
        cell = matrix.cells[i][j]
        c_env, s_env = env_of(clients[i]), env_of(servers[j])
        client, server = clients[i], servers[j]
        if stop is not None and stop.is_set():
            real = RealCell(False, detail="not run: the command was stopped")
        elif client is None or server is None or c_env is None or s_env is None:
            real = RealCell(False, detail="not a named peer with an installable package")
        else:
            status, revision, detail, seconds = _run_pair(client, c_env, server, s_env)
            real = RealCell(True, status, revision, detail, seconds)
        real.predicted_status, real.predicted_revision = _predicted(cell)
        done += 1
        if progress is not None:
            progress(done, len(jobs_list))
        return real

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        results = dict(zip(jobs_list, gather([pool.submit(one, j) for j in jobs_list]),
                           strict=True))
    rows = tuple(tuple(cell.replace(real=results[(i, j)].result())
                       for j, cell in enumerate(row)) for i, row in enumerate(matrix.cells))
    return replace(matrix, cells=rows)


def _predicted(cell: Cell) -> tuple[str, str | None]:
    """What the real driver is predicted to report: it connects, then lists the tools, so a
    cell whose "list tools" step fails (a refused result, an answer that never comes) is a
    predicted failure even where negotiation worked."""
    listed = next((s for s in cell.steps if s.name == "list tools"), None)
    if cell.status == "ok" and listed is not None and not listed.ok:
        return "failed", None
    return cell.status, cell.revision


def _mark(cell: Cell) -> str:
    if cell.real is None or not cell.real.ran:
        return "-"
    return "=" if cell.real.agrees else "!"


def _outcome(status: Any, revision: Any) -> str:
    return f"ok {revision}" if status == "ok" else "failed"


def render_real(matrix: Matrix, fmt: str = "text") -> str:
    """The run-for-real section: the grid of marks, then every difference."""
    reals = [(c, c.real) for row in matrix.cells for c in row if c.real is not None]
    if not reals:
        return ""
    ran = [(c, real) for c, real in reals if real.ran]
    differ = [(c, real) for c, real in ran if not real.agrees]
    md = fmt in ("markdown", "github")
    width = max(len(CORNER), *(len(a.label) for a in matrix.clients))
    heads = [a.label for a in matrix.servers]
    out = ["", "## Run for real" if md else "Run for real", ""]
    out.append(f"{len(ran)} of {len(reals)} cells ran with the real packages; "
               f"{len(ran) - len(differ)} agree with the prediction, {len(differ)} differ. "
               "Marks: = agrees, ! differs, - not run.")
    out.append("")
    if md:
        out.append("| client \\ server | " + " | ".join(heads) + " |")
        out.append("|---|" + "---|" * len(heads))
        for axis, row in zip(matrix.clients, matrix.cells, strict=True):
            out.append(f"| {axis.label} | " + " | ".join(_mark(c) for c in row) + " |")
    else:
        numbers = " ".join(f"{k:>3}" for k in range(1, len(heads) + 1))
        out.append(CORNER.ljust(width) + "  " + numbers)
        for axis, row in zip(matrix.clients, matrix.cells, strict=True):
            out.append(f"{axis.label:<{width}}  " + " ".join(f"{_mark(c):>3}" for c in row))
        out.append("")
        out.append("servers: " + ", ".join(f"{k} {h}" for k, h in enumerate(heads, 1)))
    if differ:
        out.append("")
        out.append("Where prediction and reality differ:")
        out.append("")
        for c, real in differ:
            line = (f"- {c.client} x {c.server}: predicted "
                    f"{_outcome(c.status, c.revision)}, real "
                    f"{_outcome(real.status, real.revision)}")
            out.append(line + (f" ({real.detail})" if real.detail else ""))
    out.append("")
    return "\n".join(out)


def run_matrix(args: argparse.Namespace,
               peers: Callable[[list[str] | None, Role, Registry, str], tuple[PeerSpec, ...]]
               ) -> int:
    """``mcp-skew matrix --set real`` (the named rows and columns: :func:`real_peers`) or
    ``--run-real`` (each pair run with the real packages, :func:`run_real`, and the report's
    section of them, :func:`render_real`): the matrix command's work,
    :func:`mcp_skew.matrix.run_command`, given them; ``peers`` gives the rows and columns of
    the specs given or of another set."""
    from ..matrix import run_command  # noqa: PLC0415 - the command's modules: when it runs

    def chosen(specs: list[str] | None, role: Role, registry: Registry, peer_set: str
               ) -> tuple[PeerSpec, ...]:
        if not specs and peer_set == "real":
            return real_peers(role)
        return peers(specs, role, registry, peer_set)

    return run_command(args, chosen,
                       (run_real, render_real) if getattr(args, "run_real", False) else None)

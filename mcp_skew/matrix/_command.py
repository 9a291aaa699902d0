"""``mcp-skew matrix``: every client against every server, as a table.

With no arguments it runs the built-in peer set against itself and prints the
matrix, a legend and a summary in the terminal. ``--clients`` / ``--servers``
choose the rows and columns (peer specs; repeat the option or give several
specs after it: specs contain commas, so commas never separate them),
``--format`` and ``--out`` choose the output, ``--from`` renders a JSON matrix
written earlier without running anything. Progress goes to stderr when stderr
is a terminal and the run takes a while, or always with ``--progress``. Output
is written only once the run is complete: an interrupted run writes nothing. The
text format goes to stdout a line at a time as it is laid out (a large matrix's
text is not held whole); every other output is written whole.

The text format fits a width (:func:`text_width`): ``COLUMNS`` when it is a
positive integer, else the terminal's width when stdout is one; output that
goes to a file or a pipe, or ``--wide``, gets one wide table.

The command's work, in the matrix's room: :func:`run_command` is its one entry point. The
command line (:mod:`mcp_skew.commands.matrix`) gives it what this package may not import,
the features built on the matrix: the rows and columns a census database or the named
real-world set holds (``peers``), and ``--run-real``'s runs of the real packages with their
section of the report (``real``, :mod:`mcp_skew.realpeers`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from .._output import check_output, terminal_safe_keeping, write_output
from .._stopping import check, end_everything, exit_code
from ..errors import UsageError
from ..simulator import NOT_OVER_STDIO, SCENARIOS, TRANSPORTS, PeerSpec, Transport
from ..versions import Registry, Role
from ._build import Matrix, build_matrix
from ._render import TRANSCRIPT_FORMATS, render, shown
from ._render_text import COLOUR_CODES, cell_text, render_text_pieces

if TYPE_CHECKING:
    from ..simulator.bridges import BridgeSpec

__all__ = ["PeerChoice", "Progress", "RealRuns", "differing", "run_command", "text_width"]

#: How long a stopped ``--run-real`` waits for its pairs' threads once their processes are gone.
STOP_WAIT_S = 10.0
#: how often the main thread looks up from waiting for the real pairs (a stop to raise again)
_POLL_S = 0.2
#: The formats ``--transport both`` prints (two matrices one after the other).
BOTH_FORMATS = ("text", "grid", "markdown", "github")


#: The rows (``client``) or columns (``server``) of a matrix: the peer specs given (None: the
#: set ``--set`` names), the registry, the set's name -> the peers, labelled.
PeerChoice = Callable[[list[str] | None, Role, Registry, str], tuple[PeerSpec, ...]]


class RealRuns(Protocol):
    """``--run-real``'s runs of a matrix's pairs with the real packages: the matrix with a
    ``real`` in every cell (:func:`mcp_skew.realpeers._realmatrix.run_real`'s signature)."""

    def __call__(self, matrix: Matrix, *, progress: Callable[[int, int], None] | None = ...,
                 stop: threading.Event | None = ...) -> Matrix: ...


def _inputs(args: argparse.Namespace) -> list[str]:
    """The files the command reads: ``--from``, ``--profile``, ``@FILE`` peers."""
    peers = [s.strip()[1:] for s in (*(args.clients or ()), *(args.servers or ()))
             if s.strip().startswith("@")]
    return [*([args.source] if args.source else []), *args.profile, *peers]


def _read(source: str, registry: Registry) -> Matrix:
    from .._input import read_user_text  # noqa: PLC0415 - only for --from
    from .._jsontext import DOCUMENT, JsonTextError, loads  # noqa: PLC0415

    text = read_user_text(source, "--from")
    try:
        data = loads(text, DOCUMENT)
    except JsonTextError as exc:
        raise UsageError(f"--from {source}: not JSON ({exc})") from None
    return Matrix.from_dict(data, registry)


class Progress:
    """``done/total`` on stderr: a line that rewrites itself on a terminal, else every 10%.

    On a terminal it appears only once the run has taken ``delay`` seconds, so a
    quick matrix prints nothing; :meth:`clear` removes the line.
    """

    def __init__(self, stream: TextIO, *, tty: bool, delay: float = 0.5) -> None:
        self.stream, self.tty, self.delay = stream, tty, delay
        self.start = time.monotonic()
        self.shown = False
        self.last = -1.0

    def __call__(self, done: int, total: int) -> None:
        if self.tty:
            now = time.monotonic()
            if now - self.start < self.delay or (now - self.last < 0.1 and done < total):
                return
            self.last, self.shown = now, True
            self.stream.write(f"\rmatrix: {done}/{total} pairs")
        elif done == total or done * 10 // total != (done - 1) * 10 // total:
            self.stream.write(f"matrix: {done}/{total} pairs\n")
        self.stream.flush()

    def clear(self) -> None:
        if self.tty and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _matrix(args: argparse.Namespace, peers: PeerChoice, transport: Transport = "stdio",
            running_real: bool = False) -> Matrix:
    if args.source is not None:
        if args.clients or args.servers or args.scenario:
            raise UsageError("--from renders a matrix already run; it takes no --clients, "
                             "--servers or --scenario")
        return _read(args.source, args.registry)
    peer_set = getattr(args, "peer_set", "builtin")
    clients = peers(args.clients, "client", args.registry, peer_set)
    servers = peers(args.servers, "server", args.registry, peer_set)
    if args.cold_start is not None:
        from .._args import whole  # noqa: PLC0415 - the number parsers, only for --cold-start

        servers = _cold_started(servers, whole(args.cold_start, "--cold-start", 0, 3_600_000))
    via = _via(args, running_real)
    tty = sys.stderr.isatty()
    progress = (Progress(sys.stderr, tty=tty) if (tty or args.progress) and not args.quiet
                else None)
    try:
        # only the formats that show transcripts keep them (a large text matrix fits in memory)
        return build_matrix(clients, servers, args.scenario or "default", progress=progress,
                            keep_transcripts=args.format in TRANSCRIPT_FORMATS,
                            transport=transport, via=via)
    finally:
        if progress is not None:
            progress.clear()


def _cold_started(servers: tuple[PeerSpec, ...], ms: int) -> tuple[PeerSpec, ...]:
    """``--cold-start MS``: every server starting in ``ms`` (quirk ``slow``, replacing any)."""
    out = []
    for server in servers:
        quirks = tuple((n, v) for n, v in server.quirks if n != "slow")
        out.append(replace(server, quirks=quirks + ((("slow", str(ms)),) if ms else ())))
    return tuple(out)


def _color(args: argparse.Namespace) -> bool:
    if args.color != "auto":
        return bool(args.color == "always")
    return args.out is None and sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _columns() -> int | None:
    """``COLUMNS`` if it is a positive integer; None if it is unset or anything else."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        return None
    return columns if columns > 0 else None


def text_width(args: argparse.Namespace) -> int | None:
    """The width the text matrix fits, or None for one wide table.

    ``--wide`` (or a format other than text): None. Else ``COLUMNS`` if valid,
    wherever the output goes; else the terminal's width when the output is a
    terminal; else (a file, a pipe) None: nothing there has a width to fit.
    """
    if args.wide or args.format != "text":
        return None
    columns = _columns()
    if columns is not None:
        return columns
    if args.out is None and sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def _render(matrix: Matrix, args: argparse.Namespace) -> str:
    width = text_width(args)
    if width is None:
        return render(matrix, args.format, args.view, color=_color(args))
    return "".join(render_text_pieces(matrix, args.view, color=_color(args), width=width))


def _via(args: argparse.Namespace, running_real: bool) -> BridgeSpec | None:
    """``--via BRIDGE``, resolved; the options a chain does not take are refused
    (``running_real``: the real packages' runs were given, ``--run-real``)."""
    text = getattr(args, "via", None)
    if text is None:
        return None
    if getattr(args, "transport", "stdio") != "stdio":
        raise UsageError("--via: the bridge sets the clients' transport (its downstream "
                         "side); it takes no --transport")
    if running_real or args.cold_start is not None:
        raise UsageError("--via is simulated only: it takes no --run-real or --cold-start")
    if SCENARIOS[args.scenario or "default"].protected:
        raise UsageError("--via: authorization (scenario auth) is not simulated behind a bridge")
    from ..peers import resolve_bridge  # noqa: PLC0415 - the bridges load only for --via

    return resolve_bridge(text, args.registry)


def _transports(args: argparse.Namespace, running_real: bool) -> tuple[Transport, ...]:
    """The transports to run (``--transport``), after checking the options that go with them
    (``running_real``: the real packages' runs were given, ``--run-real``)."""
    chosen = getattr(args, "transport", "stdio")
    scenario = SCENARIOS.get(getattr(args, "scenario", None) or "default")
    if scenario is not None and scenario.protected and chosen != "http":
        raise UsageError(NOT_OVER_STDIO.replace("use --transport http",
                                                "use --transport http (not stdio, not both)"))
    if chosen == "stdio":
        return ("stdio",)
    if args.source is not None:
        raise UsageError("--from renders a matrix already run; it takes no --transport")
    if running_real:
        raise UsageError("--run-real runs the real packages over stdio; it takes no --transport")
    if chosen == "both" and args.format not in BOTH_FORMATS:
        raise UsageError(f"--transport both prints two matrices one after the other: use "
                         f"--format {', '.join(BOTH_FORMATS)} (or run --transport stdio and "
                         f"--transport http apart with --format {args.format})")
    return TRANSPORTS if chosen == "both" else ("http",)


def _title(transport: str) -> str:
    return "stdio" if transport == "stdio" else "Streamable HTTP (--transport http)"


def differing(stdio: Matrix, http: Matrix) -> list[tuple[str, str, str, str]]:
    """(client, server, stdio cell, http cell) for every pair whose cell text differs."""
    return [(stdio.clients[i].label, stdio.servers[j].label, cell_text(cell),
             cell_text(http.cells[i][j]))
            for i, j, cell in stdio.pairs() if cell_text(cell) != cell_text(http.cells[i][j])]


def _render_both(matrices: list[Matrix], args: argparse.Namespace) -> str:
    """The matrices one after the other, each under its transport, then where they differ."""
    markdown = args.format in ("markdown", "github")
    parts = []
    for matrix in matrices:
        title = f"Transport: {_title(matrix.transport)}"
        head = f"## {title}" if markdown else f"{title}\n{'=' * len(title)}"
        parts.append(f"{head}\n\n{_render(matrix, args)}")
    changed = differing(*matrices)
    title = f"Where stdio and Streamable HTTP differ ({len(changed)} pairs)"
    lines = [f"## {title}" if markdown else f"{title}\n{'=' * len(title)}", ""]
    lines += [f"- {client} x {server}: stdio {a}, HTTP {b}" for client, server, a, b in changed]
    return "\n".join(parts) + "\n" + "\n".join(lines) + "\n"


def _stoppable(work: Callable[[threading.Event], Matrix]) -> Matrix:
    """``work`` (the real pairs' runs) on a thread of its own, so that a signal stops the
    command at once: every process family is ended (the client drivers, the servers they
    started), no new one may start, and ``work``'s stop event tells it to start no more
    pairs; the stop goes on once its threads have finished, or after ``STOP_WAIT_S``
    (128 + the signal's number, nothing written). Without this, the signal waited for each
    running pair's own bound (minutes), and the pairs still queued ran after it.

    The main thread waits in short slices, never in one blocking ``join``: a stop whose
    raise was swallowed is raised again here (:func:`check`), and a ``join`` interrupted by
    a signal can leave its thread marked as ended while it still runs (CPython 3.11)."""
    done: dict[str, Any] = {}
    finished = threading.Event()
    stop = threading.Event()

    def run() -> None:
        try:
            done["matrix"] = work(stop)
        except BaseException as exc:  # handed to the main thread, raised there
            done["error"] = exc
        finally:
            finished.set()

    threading.Thread(target=run, name="run-real", daemon=True).start()
    try:
        while not finished.wait(_POLL_S):
            check()
    except KeyboardInterrupt:
        # once is enough: a pair starting its driver now is ended with the rest or refused
        stop.set()
        end_everything(refuse=True)
        finished.wait(STOP_WAIT_S)
        raise
    if "error" in done:
        raise done["error"]
    result: Matrix = done["matrix"]
    return result


def run_command(args: argparse.Namespace, peers: PeerChoice,
                real: tuple[RealRuns, Callable[[Matrix, str], str]] | None = None) -> int:
    """``mcp-skew matrix``: the pairs run (or the matrix ``--from`` read back), rendered and
    written; 0, or 128 + the signal's number when a signal stopped the run. ``peers`` chooses
    the rows and columns (:data:`PeerChoice`); ``real``, given with ``--run-real``: the real
    packages' runs and the report's section of them (the matrix and the format -> text):
    given or not, it alone says whether the real packages run (one source of truth)."""
    transports = _transports(args, real is not None)
    if args.out is not None:
        # before the run: a path that cannot be written (or is read) fails at once
        check_output(args.out, inputs=_inputs(args))
    try:
        matrices = [_matrix(args, peers, transport, real is not None)
                    for transport in transports]
    except KeyboardInterrupt as exc:
        print("mcp-skew: interrupted; nothing written", file=sys.stderr)
        return exit_code(exc)  # 128 + the signal's number (130 for Ctrl-C)
    if args.format != "json":  # text from outside (labels, census names) shown, not obeyed
        matrices = [shown(m) for m in matrices]
    matrix = matrices[0]
    if real is not None:  # --run-real: named real peers (mcp_skew.realpeers)
        run_real = real[0]
        matrix = _stoppable(lambda stop: run_real(matrix, stop=stop, progress=Progress(
            sys.stderr, tty=sys.stderr.isatty())))
    if args.out is None and args.format == "text" and len(matrices) == 1 and real is None:
        # a line at a time, each written as it comes: nothing written is kept (a large matrix's
        # text would be held several times over); the matrix was shown above
        for piece in render_text_pieces(matrix, args.view, color=_color(args),
                                        width=text_width(args)):
            sys.stdout.write(terminal_safe_keeping(piece, COLOUR_CODES))
        return 0
    text = _render(matrix, args) if len(matrices) == 1 else _render_both(matrices, args)
    if real is not None and args.format in ("text", "markdown", "github"):
        text += real[1](matrix, args.format)
    if args.out is None:
        # the renderer's own colours kept; text from outside was shown above (its ESC
        # escaped, so a label's own colour code is no colour code any more)
        sys.stdout.write(terminal_safe_keeping(text, COLOUR_CODES))
        return 0
    write_output(args.out, text, inputs=_inputs(args))
    for written in [matrix] if len(matrices) == 1 else matrices:
        s = written.summary()
        over = "" if len(matrices) == 1 else f" ({written.transport})"
        print(f"mcp-skew: wrote {args.out}{over}: {s.pairs} pairs, {s.works} work, {s.fallback} "
              f"after a fallback, {s.fails} fail", file=sys.stderr)
    return 0

"""Run a client program once against one simulated server, bounded, and keep the wire.

Theory of operation
-------------------
The client's words are the user's ``CLIENT_ARGV`` with two placeholders filled in
(:func:`expand`):

- ``{server}``: the words of a command that runs the simulated server on stdio,
  ``python -m mcp_skew._stamp STAMPS serve SPEC --record LOG -q`` (the client
  spawns it, as real clients spawn their servers; :mod:`mcp_skew._stamp` notes
  when each server process began, so the wire's times can be read from the
  moment the client started it). Inside a longer word (``--command={server}``)
  it is the command as one string, its words joined by spaces, holding only characters
  no shell takes as syntax, in or out of quotes (:func:`in_word`): a client may hand that
  word to a shell, quoted any way. Where a word of the command would need quoting (a path
  with a space or a ``$`` from ``--record DIR``, a saved peer's ``@FILE`` name, the
  Python's own path), it is instead the path of a launcher script that runs the command
  (``exec`` of the words, each quoted for ``/bin/sh``), in a folder of its own under the
  temporary folder, removed after the run: nothing taken from a file name reaches the
  client's shell as syntax.
- ``{url}``: the URL of a simulated Streamable HTTP server served here on
  loopback, port 0, in a thread (:class:`mcp_skew.serve.ServedForClient`, the
  machinery of ``serve --http``), writing the same log.

An upgrade case (:func:`run_upgrade`) runs the client twice with the same words: the
stdio command serves ``@NN.server.json``, a saved peer rewritten between the runs
(legacy-only, then the upgraded spec), and over HTTP the second server listens on the
first one's port, so the client meets the same command or URL, upgraded.

The client runs in a session of its own (:func:`mcp_skew.wire._procs.spawn`),
its standard input at end of file, its output kept (the last
:data:`TAIL_BYTES` of each stream). At the deadline it is ended with its whole
process family (the server it spawned included, found by the mark in its
environment); after a normal exit the family is ended too, so a server the
client left behind does not outlive the run. The runs of one ``probe-client`` share a
:class:`Running`: when a signal stops the command, :meth:`Running.stop` ends every client
still running with its family at once (whatever it does: a new session, signals ignored,
never exiting, a flood), and no other client starts.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Final, Literal

from ..errors import UsageError
from ..serve import LogEntry, ServedForClient
from ..simulator import PeerSpec
from ..wire import end, family_usage, open_new, spawn

__all__ = [
    "SERVER_WORD",
    "TAIL_BYTES",
    "URL_WORD",
    "Launch",
    "RealClientRun",
    "Running",
    "expand",
    "in_word",
    "read_stamps",
    "run_client",
    "run_upgrade",
    "server_words",
]

SERVER_WORD: Final = "{server}"
URL_WORD: Final = "{url}"
#: How much of each of the client's output streams is kept.
TAIL_BYTES: Final = 16_384
#: The most :class:`_Tail` holds of one stream while it reads, whatever the client writes
#: (two tails and one read; docs/probe-client.md).
HELD_BYTES: Final = 2 * TAIL_BYTES + 4096
#: After the client exits, how long the server it leaves is given to see its stdin close,
#: log it and exit by itself before the family is ended.
SETTLE_S: Final = 2.0
Transport = Literal["stdio", "http"]
#: How long a stopped client is given to exit after SIGTERM before its family is killed.
STOP_GRACE_S: Final = 0.5


class Running:
    """The client processes of one ``probe-client`` now running (from several threads), so
    that a stop ends them all and starts no other."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._procs: dict[int, subprocess.Popen[bytes]] = {}
        self.stopped = False

    def add(self, proc: subprocess.Popen[bytes]) -> bool:
        """Count ``proc`` in; False (it is to be ended) when the command is stopping."""
        with self._lock:
            if not self.stopped:
                self._procs[proc.pid] = proc
            return not self.stopped

    def discard(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._procs.pop(proc.pid, None)

    def stop(self) -> None:
        """End every client running now with its whole family; none starts from now on."""
        with self._lock:
            self.stopped = True
            procs = list(self._procs.values())
        for proc in procs:
            end(proc, grace_s=STOP_GRACE_S)


@dataclass(frozen=True, slots=True)
class Launch:
    """How to run the client: its words, transport, deadline and surroundings."""

    argv: tuple[str, ...]
    transport: Transport
    deadline_s: float
    workdir: Path  #: where the logs go
    cwd: str | None = None
    env: Mapping[str, str] | None = None
    #: ``--profile FILE`` words for the served server (the same registry as this command)
    profile_args: tuple[str, ...] = ()
    #: the clients of this command now running (a stop ends them)
    running: Running | None = None


@dataclass(slots=True)
class RealClientRun:
    """One run of the client against one server: what it did and what crossed the wire."""

    server: str  #: the server's peer spec, as given
    argv: tuple[str, ...]  #: the client's words, placeholders filled in
    log: Path
    exit_code: int | None = None  #: negative: a signal; None: it never started
    timed_out: bool = False  #: ended at the deadline
    seconds: float = 0.0
    stdout: str = ""  #: the tail
    stderr: str = ""  #: the tail
    spawn_error: str | None = None
    entries: list[LogEntry] = field(default_factory=list)
    stamps: list[float] = field(default_factory=list)  #: wall-clock starts of server processes
    #: an upgrade case: the first run, against the server before the upgrade
    before: RealClientRun | None = None
    port: int = 0  #: over HTTP: the loopback port it was served on


def server_words(spec: str, log: Path, stamps: Path, profile_args: Sequence[str] = ()) -> list[str]:
    """The stdio command that runs the simulated server ``spec``, logging to ``log``."""
    return [sys.executable, "-m", "mcp_skew._stamp", str(stamps), *profile_args, "serve", spec,
            "--record", str(log), "-q"]


#: The characters a word may hold to go inside a client's word as it is: none is syntax to a
#: shell, in single or double quotes or out of them (``shlex.quote`` leaves such a word bare).
_PLAIN: Final = re.compile(r"[A-Za-z0-9_@%+=:,./-]+")


def _plain(words: Sequence[str]) -> bool:
    return all(_PLAIN.fullmatch(w) for w in words)


def expand(argv: Sequence[str], server: Sequence[str], url: str,
           inside: Sequence[str] | None = None) -> list[str]:
    """``argv`` with ``{server}`` (a word of its own: the words ``server``; inside a word:
    the words ``inside``, default ``server``, joined by spaces) and ``{url}`` filled in.
    Inside a word, every word must be plain (:func:`in_word` makes them so): ValueError."""
    inner = list(server if inside is None else inside)
    out: list[str] = []
    for word in argv:
        if word == SERVER_WORD:
            out += server
            continue
        filled = word
        if SERVER_WORD in word:
            if not _plain(inner):
                raise ValueError("{server} inside a word: the words need quoting (in_word)")
            filled = word.replace(SERVER_WORD, " ".join(inner))
        out.append(filled.replace(URL_WORD, url))
    return out


@contextlib.contextmanager
def in_word(argv: Sequence[str], server: Sequence[str]) -> Iterator[list[str]]:
    """The words to put for ``{server}`` inside a longer word of ``argv``: ``server`` itself
    when every word is plain (or no word of ``argv`` holds ``{server}`` inside it); else one
    plain word, the path of a launcher script that runs ``server`` (removed on leaving)."""
    if _plain(server) or not any(SERVER_WORD in w and w != SERVER_WORD for w in argv):
        yield list(server)
        return
    base = tempfile.gettempdir()
    folder = tempfile.mkdtemp(prefix="mcp-skew-server-",
                              dir=base if _PLAIN.fullmatch(base) else "/tmp")
    try:
        script = Path(folder) / "server"
        script.write_text(f'#!/bin/sh\nexec {shlex.join(server)} "$@"\n', encoding="utf-8")
        script.chmod(0o700)
        yield [str(script)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class _Tail:
    """The last :data:`TAIL_BYTES` of a stream, read in a thread."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.data = bytearray()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        for chunk in iter(lambda: stream.read1(HELD_BYTES - 2 * TAIL_BYTES), b""):  # type: ignore[attr-defined]
            self.data += chunk
            if len(self.data) > 2 * TAIL_BYTES:
                del self.data[:-TAIL_BYTES]

    def text(self) -> str:
        self.thread.join(timeout=2)
        return bytes(self.data[-TAIL_BYTES:]).decode("utf-8", "replace")


def _settle(pid: int) -> None:
    """Wait (at most :data:`SETTLE_S`) for what the exited client left running (its server, in
    its session) to exit by itself, so the server's last log records are written: a family
    member is running while it is not a zombie (one scan of /proc a poll)."""
    give_up = time.monotonic() + SETTLE_S
    while time.monotonic() < give_up and any(
            state != "Z" for state, _ in family_usage(pid).values()):
        time.sleep(0.05)


def _run_argv(run: RealClientRun, launch: Launch) -> None:
    started = time.monotonic()
    running = launch.running
    if running is not None and running.stopped:
        run.spawn_error = "not run: probe-client is stopping"
        return
    try:
        proc = spawn(run.argv, env=launch.env, cwd=launch.cwd, stdin=subprocess.DEVNULL,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as exc:
        run.spawn_error = f"cannot run {run.argv[0]!r}: {exc.strerror or exc}"
        return
    assert proc.stdout is not None and proc.stderr is not None
    out, err = _Tail(proc.stdout), _Tail(proc.stderr)
    try:
        if running is not None and not running.add(proc):
            raise subprocess.TimeoutExpired(run.argv, 0)  # stopped as it started: end it
        run.exit_code = proc.wait(launch.deadline_s)
        _settle(proc.pid)
    except subprocess.TimeoutExpired:
        run.timed_out = True
    finally:
        code = end(proc, grace_s=0.5)  # the client and every process it left (its server)
        if running is not None:
            running.discard(proc)
        run.seconds = round(time.monotonic() - started, 3)
    if run.timed_out:
        run.exit_code = code
    run.stdout, run.stderr = out.text(), err.text()


def read_stamps(path: Path) -> list[float]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return []
    out = []
    for line in text.split():
        try:
            out.append(float(line))
        except ValueError:
            continue
    return out


def _read_entries(run: RealClientRun) -> None:
    run.entries = ServedForClient.read_back(run.log)


def fresh_log(path: Path) -> Path:
    """``path``, a file of this run (its wire log, its start stamps), created empty (an old
    regular one is emptied: a run reads back its own records only); a symbolic link planted
    there is refused, not written through, as is what is not a regular file (UsageError)."""
    try:
        os.close(open_new(path))
    except OSError as exc:
        why = "a FIFO with no reader" if exc.errno == errno.ENXIO else exc.strerror or str(exc)
        raise UsageError(f"--record {path}: {why}") from None
    return path


def _run_stdio(spec: str, peer: PeerSpec, index: int, launch: Launch) -> RealClientRun:
    """Serve ``peer`` here (ready before the client starts: :class:`mcp_skew.serve.ServedForClient`),
    run the client once with the relay's words for ``{server}``, end the server; the run, its
    wire read back."""
    log = fresh_log(launch.workdir / f"{index:02d}.jsonl")
    with ServedForClient(peer, log, "stdio") as serving, \
            in_word(launch.argv, serving.words) as inside:
        run = RealClientRun(spec, tuple(expand(launch.argv, serving.words, "", inside)), log)
        _run_argv(run, launch)
    _read_entries(run)
    run.stamps = serving.stamps
    return run


def _serve_and_run(spec: str, peer: PeerSpec, log: Path, launch: Launch, *, port: int = 0,
                   before: RealClientRun | None = None) -> RealClientRun:
    """Serve ``peer`` over HTTP on loopback (on ``port``, 0: any), run the client once with
    its ``{url}``, end the server; the run, its wire read back."""
    with ServedForClient(peer, log, "http", port=port) as serving:
        run = RealClientRun(spec, tuple(expand(launch.argv, [], serving.url)), log,
                            before=before)
        run.port = serving.port
        _run_argv(run, launch)
    _read_entries(run)
    return run


def _run_http(spec: str, peer: PeerSpec, index: int, launch: Launch) -> RealClientRun:
    return _serve_and_run(spec, peer, fresh_log(launch.workdir / f"{index:02d}.jsonl"), launch)


def run_client(spec: str, peer: PeerSpec, index: int, launch: Launch) -> RealClientRun:
    """Run the client once against the simulated server ``spec`` (``peer``, resolved)."""
    if launch.transport == "http":
        return _run_http(spec, peer, index, launch)
    return _run_stdio(spec, peer, index, launch)


def _upgrade_stdio(before: PeerSpec, after: PeerSpec, index: int,
                   launch: Launch) -> RealClientRun:
    log = fresh_log(launch.workdir / f"{index:02d}.before.jsonl")
    with ServedForClient(before, log, "stdio") as serving, \
            in_word(launch.argv, serving.words) as inside:
        argv = tuple(expand(launch.argv, serving.words, "", inside))
        first = RealClientRun(before.notation, argv, log)
        _run_argv(first, launch)
        first.stamps = serving.stamps
        # the upgrade: the same command now serves AFTER
        log = fresh_log(launch.workdir / f"{index:02d}.jsonl")
        serving.upgrade(after, log)
        _read_entries(first)
        run = RealClientRun(after.notation, argv, log, before=first)
        _run_argv(run, launch)
    _read_entries(run)
    run.stamps = serving.stamps
    return run


def _upgrade_http(before: PeerSpec, after: PeerSpec, index: int, launch: Launch) -> RealClientRun:
    first = _serve_and_run(before.notation, before,
                           fresh_log(launch.workdir / f"{index:02d}.before.jsonl"), launch)
    # the upgrade: the same URL now serves AFTER
    return _serve_and_run(after.notation, after, fresh_log(launch.workdir / f"{index:02d}.jsonl"),
                          launch, port=first.port, before=first)


def run_upgrade(before: PeerSpec, after: PeerSpec, index: int, launch: Launch) -> RealClientRun:
    """Run the client twice with the same ``{server}`` words (or ``{url}``): against
    ``before``, then, the server upgraded, against ``after``; the second run, with the
    first as :attr:`RealClientRun.before`."""
    if launch.transport == "http":
        return _upgrade_http(before, after, index, launch)
    return _upgrade_stdio(before, after, index, launch)

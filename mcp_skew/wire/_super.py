"""The supervisor every spawned server runs under: a script, never imported by the package.

``python -I -S _super.py LIFELINE_FD REPORT_FD MODE -- COMMAND...`` (Linux only; started by
:func:`mcp_skew.wire._procs.spawn`). Standard library only, so it starts in milliseconds.

- **MODE ``auto``**: it makes a new PID namespace (``unshare(CLONE_NEWPID)``; where that needs
  it and the machine allows it, in a new user namespace that maps the user to itself) and forks
  the namespace's init, which forks the server. When that init exits, the kernel kills every
  process left in the namespace: no descendant can leave it (``setsid``, a double fork, an
  empty environment change nothing). The init asks for SIGKILL when the supervisor dies
  (``PR_SET_PDEATHSIG``), so killing the supervisor empties the namespace too.
- **MODE ``tree``**, or where no namespace can be made: the supervisor makes itself a child
  subreaper (``PR_SET_CHILD_SUBREAPER``) and forks the server. A descendant whose parent exits
  is re-parented to the supervisor, so the server's whole family stays under it; when the
  server exits, what is left of the family is killed (SIGKILL) before the supervisor exits.

In both modes the server runs in a session of its own; SIGTERM, SIGINT, SIGHUP, SIGQUIT,
SIGUSR1 and SIGUSR2 sent to the supervisor are passed on to the server's process group; the
supervisor exits as the server did (its code, or the same signal). The supervisor holds the
read end of a pipe whose only writer is the process that spawned it (LIFELINE_FD): end of
file there means that process is gone, however it died (SIGKILL included), and the supervisor
kills the server's whole family and exits. On REPORT_FD it writes ``mode ns`` or ``mode tree``,
and ``exec ERRNO`` if the command could not be run; the pipe closes when the command runs.
"""

import contextlib
import ctypes
import os
import resource
import select
import signal
import sys
import time

__all__ = ["main"]

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWPID = 0x20000000
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_FORWARD = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1,
            signal.SIGUSR2)
_libc = ctypes.CDLL(None, use_errno=True)
_pending: list[int] = []  #: signals that came before there was a process to pass them to
_target: list[tuple[int, bool]] = []  #: (pid, whether it is a process group) to pass them to


def _environ() -> dict[bytes, bytes]:
    """The environment this process was started with, exactly (Python may have added a
    locale variable to ``os.environ`` since)."""
    try:
        with open("/proc/self/environ", "rb") as f:
            block = f.read()
    except OSError:
        return dict(os.environb)
    out: dict[bytes, bytes] = {}
    for item in block.split(b"\0"):
        key, sep, value = item.partition(b"=")
        if sep and key:
            out[key] = value
    return out


def _write(path: str, text: str) -> bool:
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError:
        return False
    return True


def _new_user_ns() -> bool:
    """Enter a new user namespace mapping this user and group to themselves."""
    uid, gid = os.geteuid(), os.getegid()
    if _libc.unshare(_CLONE_NEWUSER | _CLONE_NEWPID) != 0:
        return False
    return (_write("/proc/self/uid_map", f"{uid} {uid} 1")
            and _write("/proc/self/setgroups", "deny")
            and _write("/proc/self/gid_map", f"{gid} {gid} 1"))


def _user_ns_works() -> bool:
    """Whether a user namespace can be made and mapped here, tried in a throwaway child (a
    namespace half made cannot be left)."""
    pid = os.fork()
    if pid == 0:
        os._exit(0 if _new_user_ns() else 1)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def _pid_namespace() -> bool:
    """Make a new PID namespace for the children to come; whether it was made."""
    if _libc.unshare(_CLONE_NEWPID) == 0:
        return True
    return os.geteuid() != 0 and _user_ns_works() and _new_user_ns()


def _on_signal(signum: int, _frame: object) -> None:
    if not _target:
        _pending.append(signum)
        return
    pid, group = _target[0]
    with contextlib.suppress(OSError):
        if group:
            os.killpg(pid, signum)
        else:
            os.kill(pid, signum)


def _pass_on_to(pid: int, *, group: bool) -> None:
    """From now on, signals go to ``pid``; so do those that came before."""
    _target[:] = [(pid, group)]
    while _pending:
        _on_signal(_pending.pop(0), None)


def _release_stdio() -> None:
    """Give up our copies of the server's standard streams: its end of file is its own."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _exec(command: list[str], env: dict[bytes, bytes], report: int, keep_out: list[int]) -> None:
    """In the forked server: a session of its own, default signals, then the command."""
    os.setsid()
    for sig in (*_FORWARD, signal.SIGPIPE, signal.SIGXFSZ, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    for fd in keep_out:
        with contextlib.suppress(OSError):
            os.close(fd)
    os.set_inheritable(report, False)
    try:
        os.execvpe(command[0], command, env)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.write(report, f"exec {exc.errno or 0}\n".encode())
    os._exit(127)


def _descendants(root: int) -> set[int]:
    """Every live process below ``root``, from ``/proc``."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    fields = f.read().rpartition(b")")[2].split()
            except OSError:
                continue
            if fields[:1] != [b"Z"] and len(fields) > 1:
                parents[int(name)] = int(fields[1])
    found: set[int] = set()
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def _reap_all() -> dict[int, int]:
    """Collect every child that has exited: pid -> wait status."""
    done: dict[int, int] = {}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return done
        if pid == 0:
            return done
        done[pid] = status


def _kill_tree(bound_s: float = 5.0) -> None:
    """SIGKILL every descendant, again until none is left (they may fork meanwhile)."""
    give_up = time.monotonic() + bound_s
    me = os.getpid()
    while True:
        _reap_all()
        left = _descendants(me)
        if not left or time.monotonic() > give_up:
            return
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


def _exit_as(status: int) -> None:
    """Exit as the server did: its code, or killed by its signal."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        with contextlib.suppress(OSError, ValueError):  # SIGKILL and SIGSTOP have no handler
            signal.signal(sig, signal.SIG_DFL)
        with contextlib.suppress(OSError, ValueError):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
            os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def _init(command: list[str], env: dict[bytes, bytes], report: int, lifeline: int,
          up: int) -> None:
    """The namespace's init (pid 1): fork the server, pass signals on, reap; when the server
    exits, send its wait status ``up`` and exit (the kernel then kills the namespace)."""
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    _pending.clear()  # the supervisor passes those on to us
    server = os.fork()
    if server == 0:
        _exec(command, env, report, [lifeline])
    os.close(report)
    os.close(lifeline)
    _release_stdio()
    signal.set_wakeup_fd(-1)
    _pass_on_to(server, group=True)
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(1)
        if pid == server:
            with contextlib.suppress(OSError):
                os.write(up, f"{status}\n".encode())
            os._exit(0)


def _watch(child: int, lifeline: int, wake: int, namespace: bool) -> int | None:
    """Wait for ``child`` to exit (its wait status) or the lifeline to end (None), passing
    signals on meanwhile (to the namespace's init, which passes them to the server's group)."""
    _pass_on_to(child, group=not namespace)
    while True:
        done = _reap_all()
        if child in done:
            return done[child]
        ready, _, _ = select.select([lifeline, wake], [], [], 1.0)
        if wake in ready:
            with contextlib.suppress(OSError):
                os.read(wake, 512)
        if lifeline in ready:
            try:
                data = os.read(lifeline, 512)
            except OSError:
                data = b""
            if not data:
                return None


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[3] != "--":
        print("usage: _super.py LIFELINE_FD REPORT_FD auto|tree -- COMMAND...", file=sys.stderr)
        return 2
    lifeline, report, mode, command = int(argv[0]), int(argv[1]), argv[2], argv[4:]
    env = _environ()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    for sig in (*_FORWARD, signal.SIGCHLD):
        signal.signal(sig, _on_signal if sig != signal.SIGCHLD else lambda *_: None)
    namespace = mode == "auto" and _pid_namespace()
    if not namespace:
        _libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    os.write(report, b"mode ns\n" if namespace else b"mode tree\n")
    up_r, up_w = os.pipe()
    me = os.getpid()
    child = os.fork()
    if child == 0:
        os.close(up_r)
        if namespace:
            _init(command, env, report, lifeline, up_w)
        _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != me:
            os._exit(137)  # the supervisor died before the line above
        _exec(command, env, report, [lifeline])
    os.close(up_w)
    os.close(report)
    _release_stdio()
    status = _watch(child, lifeline, wake_r, namespace)
    if status is None:  # the spawning process is gone: so is everything it started
        if namespace:
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)
        _kill_tree()
        os._exit(137)
    if namespace:  # the init's exit code is not the server's: the init sent that up
        got = os.read(up_r, 64).strip()
        status = int(got) if got.lstrip(b"-").isdigit() else status
    else:
        _kill_tree()
    _exit_as(status)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

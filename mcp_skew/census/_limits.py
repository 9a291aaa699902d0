"""Exec a command under resource limits: the census's wrapper around every server it starts.

Run as a script (``python -I -S _limits.py CPU_S MEM_MB NPROC FSIZE_MB -- COMMAND...``),
never imported by the package: it sets ``RLIMIT_CPU``, ``RLIMIT_DATA``,
``RLIMIT_NPROC`` and ``RLIMIT_FSIZE`` on itself (0 leaves one as it is), asks the
kernel to kill it when its parent dies (Linux ``PR_SET_PDEATHSIG``), and replaces
itself with COMMAND (``os.execvp``: no shell). Doing this in a process of its own
keeps the limits out of the census's threads (``preexec_fn`` is not safe there).
Standard library only, so it starts in a few milliseconds.

The memory bound is ``RLIMIT_DATA`` (what the process can make writable: its heap and
private mappings, Linux 4.7 and later), not ``RLIMIT_AS`` (all the address space it
reserves): Node's V8 reserves about 10 GiB of inaccessible address space for each
WebAssembly memory (guard regions it never touches), so under an address-space bound of
4 GiB a Node server dies the moment it instantiates one -- and Node's own ``fetch``
(undici) compiles and instantiates its HTTP parser as WebAssembly in the background
when it is first loaded, so such a server died at a moment its load decided, in the
middle of one client's exchange or after it (``RangeError: WebAssembly.instantiate():
Out of memory`` on its stderr), and its row changed from run to run.
"""

import os
import resource
import signal
import sys

__all__ = ["main"]

_MB = 1 << 20
_PR_SET_PDEATHSIG = 1


def _set(which: int, value: int) -> None:
    if value <= 0:
        return
    _soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value if hard == resource.RLIM_INFINITY else hard))


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # noqa: PLC0415 - Linux only

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return


def main(argv: list[str]) -> int:
    if len(argv) < 6 or argv[4] != "--":
        print("usage: _limits.py CPU_S MEM_MB NPROC FSIZE_MB -- COMMAND...", file=sys.stderr)
        return 2
    try:
        cpu, mem, nproc, fsize = (int(a) for a in argv[:4])
    except ValueError:
        print("_limits.py: limits must be integers", file=sys.stderr)
        return 2
    _set(resource.RLIMIT_CPU, cpu)
    _set(resource.RLIMIT_DATA, mem * _MB)
    _set(resource.RLIMIT_NPROC, nproc)
    _set(resource.RLIMIT_FSIZE, fsize * _MB)
    _die_with_parent()
    command = argv[5:]
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"cannot start {command[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Every file mcp-skew writes for a person (``--out``, ``--save-peer``, ``--record``): one helper.

Theory of operation
-------------------
A path is checked before the work starts (:func:`check_output`,
:func:`check_output_dir`): a report that cannot be written is an error at once,
not after a probe of minutes. What the path names decides how it is written
(:func:`write_output`):

- a **regular file**, or **nothing yet**: whole or not at all, a temporary file
  beside it renamed over it (the file keeps its mode);
- a **symbolic link**: followed, and its target written as above (the link stays);
- a **FIFO** or a **character device** (``/dev/null``, ``/dev/stdout``, a
  terminal): written through, opened for writing as it is, never replaced, so
  ``--out /dev/null`` leaves ``/dev/null`` what it was, even as root;
- a **directory**, a socket or a block device: refused (:class:`UsageError`,
  exit code 2).

Two outputs of one command never name one file (:func:`check_distinct`): ``--out`` and
``--save-peer`` the same path, or a file inside the ``--record`` folder, is refused
before the work starts (the later write would replace the earlier).

Text that reaches a terminal (a server's lines in ``show-log``, a probe's report)
goes through :func:`terminal_safe` first: a server's ESC, OSC and CSI sequences are
shown, never obeyed.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from .errors import UsageError

if TYPE_CHECKING:
    from pathlib import Path  # imported where a file is written: not for the terminal

__all__ = ["check_distinct", "check_output", "check_output_dir", "check_outputs",
           "check_plain_name", "emit", "terminal_safe", "terminal_safe_keeping", "write_in_dir",
           "write_output"]


def _fail(what: str, path: str | Path, why: str) -> UsageError:
    return UsageError(f"{what} {path}: {why}")


def _kind(target: str) -> int | None:
    """``st_mode`` of what ``target`` names (links followed), or None when nothing is there."""
    try:
        return os.stat(target).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UsageError(f"{target}: {exc.strerror or exc}") from None


def _same(target: str, other: str | Path) -> bool:
    """Whether ``target`` and ``other`` name one file (by path, through links, or by inode)."""
    if os.path.realpath(other) == target:
        return True
    try:
        return os.path.samefile(target, other)
    except OSError:
        return False


def check_output(path: str | Path, what: str = "--out",
                 inputs: Iterable[str | Path] = ()) -> Path:
    """The real path to write ``path`` to; :class:`UsageError` (one line) when it cannot be,
    or when it is one of the command's ``inputs`` (writing would replace what is read)."""
    from pathlib import Path  # noqa: PLC0415

    if not str(path):
        raise _fail(what, "''", "an empty path")
    target = os.path.realpath(path)
    for source in inputs:
        if str(source) not in ("", "-") and _same(target, source):
            raise _fail(what, path, f"is {source}, an input of the command; "
                        "write to another path")
    mode = _kind(target)
    if mode is None:
        parent = os.path.dirname(target) or "."
        if not os.path.isdir(parent):
            raise _fail(what, path, f"no such directory {parent}")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise _fail(what, path, f"the directory {parent} is not writable")
        return Path(target)
    if stat.S_ISDIR(mode):
        raise _fail(what, path, "is a directory (give a file name)")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise _fail(what, path, "not a regular file, a FIFO or a character device")
    if not os.access(target, os.W_OK):
        raise _fail(what, path, "not writable")
    return Path(target)


def check_distinct(files: dict[str, str | Path | None],
                   dirs: dict[str, str | Path | None] | None = None) -> None:
    """:class:`UsageError` (one line) when two outputs of one command name the same file
    (``--out`` and ``--save-peer``: the later would replace the earlier), or a file output
    names a directory output or a file in it (``--record DIR`` is filled by the command).

    ``files`` and ``dirs`` map each option to its path (None: not given). Paths are
    compared resolved (links followed, ``..`` removed) and, where both exist, by inode
    (a hard link is the same file). ``-`` (standard output) is never a file here.
    """
    given = [(what, str(path)) for what, path in files.items()
             if path is not None and str(path) not in ("", "-")]
    for index, (what, path) in enumerate(given):
        # the path written is the resolved one (check_output): ``d/missing/../f`` is ``d/f``
        target = os.path.realpath(path)
        for other, other_path in given[:index]:
            if _same(target, os.path.realpath(other_path)):
                raise _fail(what, path, f"is the same file as {other} {other_path}; "
                            "give each output a file of its own")
        for other, folder in (dirs or {}).items():
            if folder is None or not str(folder):
                continue
            real_dir = os.path.realpath(folder)
            if target == real_dir or target.startswith(real_dir.rstrip(os.sep) + os.sep) \
                    or _same(target, folder):
                raise _fail(what, path, f"is in {other} {folder}, which the command fills; "
                            "write it elsewhere")


def check_outputs(files: dict[str, str | Path | None],
                  dirs: dict[str, str | Path | None] | None = None) -> None:
    """Every output of a command checked before it runs, so that a bad one fails at once:
    each file (:func:`check_output`), each directory (:func:`check_output_dir`), and no two
    naming the same place (:func:`check_distinct`). ``None``: the option was not given."""
    check_distinct(files, dirs)
    for what, path in files.items():
        if path:
            check_output(path, what)
    for what, path in (dirs or {}).items():
        if path:
            check_output_dir(path, what)


def check_output_dir(path: str | Path, what: str = "--record") -> Path:
    """A directory to write files into: it exists (or its parent does), and is writable."""
    from pathlib import Path  # noqa: PLC0415

    target = Path(os.path.realpath(path))
    mode = _kind(str(target))
    if mode is None:
        if not target.parent.is_dir():
            raise _fail(what, path, f"no such directory {target.parent}")
        if not os.access(target.parent, os.W_OK | os.X_OK):
            raise _fail(what, path, f"the directory {target.parent} is not writable")
        return target
    if not stat.S_ISDIR(mode):
        raise _fail(what, path, "not a directory")
    if not os.access(target, os.W_OK | os.X_OK):
        raise _fail(what, path, "not writable")
    return target


def check_plain_name(target: Path, what: str = "--record") -> int | None:
    """``st_mode`` of the file ``target`` names in a directory the command fills (``--record
    DIR``: names the command picks, not the user), or None when nothing is there; a
    symbolic link (never followed) or what is not a regular file is a one-line UsageError."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _fail(what, target, exc.strerror or str(exc)) from None
    if stat.S_ISLNK(info.st_mode):
        raise _fail(what, target, "a symbolic link (not followed)")
    if not stat.S_ISREG(info.st_mode):
        raise _fail(what, target, "not a regular file")
    return info.st_mode


def write_in_dir(target: Path, text: str, what: str = "--record") -> None:
    """Write ``text`` to a file of a directory the command fills: :func:`check_plain_name`,
    then a temporary file renamed over the name itself (a link planted meanwhile is replaced,
    not written through)."""
    mode = check_plain_name(target, what)
    try:
        _replace(target, text.encode("utf-8", "surrogateescape"), mode)
    except OSError as exc:
        raise _fail(what, target, exc.strerror or str(exc)) from None


def write_output(path: str | Path, text: str | bytes, what: str = "--out",
                 inputs: Iterable[str | Path] = ()) -> None:
    """Write ``text`` (str as UTF-8) to ``path`` as the module docstring says; one-line errors."""
    target = check_output(path, what, inputs)
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    mode = _kind(str(target))
    try:
        through = mode is not None and not stat.S_ISREG(mode)
        locked = not os.access(target.parent, os.W_OK | os.X_OK)  # a writable file, locked dir
        if through or locked:
            _write_through(target, data)
        else:
            _replace(target, data, mode)
    except OSError as exc:
        raise _fail(what, path, exc.strerror or str(exc)) from None


def emit(out: str | Path | None, text: str, inputs: Iterable[str | Path] = ()) -> None:
    """A command's report: to the file ``out`` (:func:`write_output`), or without it to
    standard output, where what a peer or a file said (labels, serverInfo, ESC sequences) is
    shown, never obeyed (:func:`terminal_safe`)."""
    if out:
        write_output(out, text, inputs=inputs)
    else:
        sys.stdout.write(terminal_safe(text))


def _write_through(target: Path, data: bytes) -> None:
    """Open what is there for writing (a FIFO blocks until a reader comes) and write."""
    fd = os.open(target, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def _replace(target: Path, data: bytes, mode: int | None) -> None:
    """A temporary file beside ``target``, written, given the old mode, renamed over it."""
    import tempfile  # noqa: PLC0415 - a file written, not the terminal (no start-up cost)

    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, stat.S_IMODE(mode) if mode is not None else _umask_mode())
        os.replace(tmp, target)
    except BaseException:
        from pathlib import Path  # noqa: PLC0415

        Path(tmp).unlink(missing_ok=True)
        raise


def _umask_mode() -> int:
    """What a plain ``open`` gives a new file under the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


# -- text for a terminal ------------------------------------------------------------------

#: What a terminal acts on rather than shows: C0 controls but tab and newline (ESC starts
#: CSI/OSC sequences: ``\x1b]0;title\x07``, ``\x1b[2J``), DEL, C1 controls (U+009B is a
#: one-character CSI), lone surrogates (they cannot be encoded) and the bidirectional
#: overrides and isolates, which reorder what follows them on the line.
_UNSAFE: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")


def terminal_safe_keeping(text: str, keep: tuple[str, ...]) -> str:
    """:func:`terminal_safe`, but the exact sequences in ``keep`` (a renderer's own colour
    codes) stay as they are; everything between them is escaped."""
    if not keep:
        return terminal_safe(text)
    pattern = re.compile("(" + "|".join(re.escape(k) for k in keep) + ")")
    parts = pattern.split(text)
    return "".join(part if i % 2 else terminal_safe(part) for i, part in enumerate(parts))


def terminal_safe(text: str) -> str:
    """``text`` with every character a terminal would act on written as ``\\uXXXX``.

    Tab and newline stay. The escape is JSON's own, so JSON text stays the same JSON
    (a string that held ESC still holds ESC when read back), and other text shows
    the character instead of obeying it; nothing else changes.
    """
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)

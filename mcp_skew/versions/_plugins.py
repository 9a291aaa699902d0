"""Third-party profiles: from an entry-point group, or from a TOML/JSON file.

A profile file extends a registered revision with changes written the same way
the built-in revision modules write theirs::

    revision = "2026-12-vendor"
    extends = "2026-07-28"
    title = "Vendor X's variant"

    [[changes]]
    id = "vendor-x-search"
    summary = "Adds vendor/search"
    impact = "additive"
    cite = { revision = "2026-12-vendor", source = "https://example.com/spec" }
    add = { methods = { "vendor/search" = { kind = "request", direction = "client->server" } } }

A change may also carry ``steps`` (for the migration guide; a step led by
``Servers:`` or ``Clients:`` is for that side) and ``severity``: how strongly the
spec binds each side, with the spec's words, e.g.
``severity = { server = { level = "MUST", rule = "servers MUST answer x" } }``
(levels ``MUST``, ``SHOULD``, ``MAY``, ``none``; a binding other than ``none``
needs its ``rule``, and may name its own ``cite``).

A request method a file adds is served by the simulated servers of its revision:
they answer it with the row's ``answer`` table (default: an empty result), plus
the fields the revision requires on every result.

A bad file raises :class:`ProfileFileError`, whose message is one line naming
the file, the field and the problem. The file's schema (pydantic) is in
:mod:`._profile_file`, imported only when a file is read: importing
:mod:`mcp_skew.versions` (every command, ``--help``) does not import pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._profile import Profile, ProfileDefinitionError
from ._registry import REGISTRY, Registry, UnknownRevision, registry_for

if TYPE_CHECKING:
    from pathlib import Path  # read on first use: pathlib (and urllib.parse) not for a run

__all__ = [
    "ENTRY_POINT_GROUP",
    "ProfileFileError",
    "load_entry_points",
    "load_profile_file",
    "may_declare",
    "with_profile_files",
]

ENTRY_POINT_GROUP = "mcp_skew.profiles"


class ProfileFileError(ValueError):
    """A third-party profile that cannot be loaded; the message is one line."""


#: The largest profile file read (the built-in revisions, written out, are a few kB).
MAX_PROFILE_BYTES = 1 << 20
#: The most dots one TOML line may hold: tomllib takes time quadratic in the length of a
#: dotted key (``a.a.a...`` of 50,000 parts runs for minutes); 256 keep a 1 MiB file < 1 s.
MAX_TOML_DOTS = 256


def _read(path: Path) -> Any:
    """The file's document: JSON read with limits (:mod:`mcp_skew._jsontext`), TOML with
    its nesting bounded the same way (a deep TOML array is a RecursionError in tomllib,
    a long dotted key a near hang)."""
    from .._input import read_capped  # noqa: PLC0415 - only when a file is read
    from .._jsontext import (  # noqa: PLC0415 - the limits, only when a file is read
        DOCUMENT,
        FILE,
        JsonTextError,
        check_depth,
        check_text,
        loads,
    )

    # TOML and JSON files are UTF-8
    text = read_capped(path, MAX_PROFILE_BYTES, errors="strict")
    if path.suffix.lower() == ".json":
        return loads(text, DOCUMENT)  # (no lone surrogates: a profile's text is shown)
    import tomllib  # noqa: PLC0415 - only to read a profile file

    number = next((n for n, line in enumerate(text.split("\n"), 1)
                   if line.count(".") > MAX_TOML_DOTS), None)
    if number is not None:
        raise JsonTextError(f"line {number} holds more than {MAX_TOML_DOTS} dots "
                            "(a dotted key that deep is not read)")
    try:
        value = tomllib.loads(text)
    except RecursionError:
        raise JsonTextError(f"nested deeper than {FILE.max_depth} levels") from None
    check_depth(value, FILE.max_depth)
    check_text(value)  # as a JSON file's (TOML's own escapes refuse them; raw text may not)
    return value


def load_profile_file(path: str | Path, registry: Registry = REGISTRY) -> Profile:
    """Load and check the profile in ``path``, which extends a revision of ``registry``.

    Nothing is registered: ``registry.with_profile(profile)`` is the registry that
    holds it (:func:`with_profile_files` does both for several files).
    """
    # pydantic and the file's schema, only when a file is read (not for every command)
    import tomllib  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    from .._input import FileTooLarge  # noqa: PLC0415
    from .._jsontext import JsonTextError  # noqa: PLC0415
    from ._profile_file import ProfileIn, ValidationError, changes, describe  # noqa: PLC0415

    path = Path(path)
    document: Any = None
    try:
        document = _read(path)
        spec = ProfileIn.model_validate(document)
        base = _base(spec.extends, registry)
        profile = base.evolve(revision=spec.revision, title=spec.title, changes=changes(spec),
                              wire=spec.wire or "")
        _with(profile, registry)  # new to the registry, and holds what its era needs
    except OSError as exc:
        raise ProfileFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, JsonTextError) as exc:
        raise ProfileFileError(f"{path}: not valid TOML or JSON: {exc}") from None
    except FileTooLarge as exc:
        raise ProfileFileError(f"{path}: {exc}") from None
    except ValidationError as exc:
        raise ProfileFileError(f"{path}: {describe(exc, document)}") from None
    except UnknownRevision as exc:
        raise ProfileFileError(f"{path}: field extends: {exc}") from None
    except (ProfileDefinitionError, ValueError) as exc:
        raise ProfileFileError(f"{path}: {exc}") from None
    return profile


def with_profile_files(paths: list[str] | tuple[str, ...], registry: Registry = REGISTRY) -> Registry:
    """``registry`` with the profile of each file added, in order (a file may extend the one before).

    A built-in draft's name (``next``, ``next+sep-3279``: :mod:`._seps`) that names no file
    adds that draft."""
    if not paths:
        return registry
    from pathlib import Path  # noqa: PLC0415

    from . import _seps  # noqa: PLC0415 - the drafts, only where a --profile is given

    for path in paths:
        if _seps.is_draft_name(str(path)) and not Path(path).exists():
            registry = _seps.with_drafts([str(path)], registry)
            continue
        registry = _with(load_profile_file(path, registry), registry)
    return registry


def _with(profile: Profile, registry: Registry) -> Registry:
    """``registry`` with ``profile``, after the built-in draft it extends where that is not
    in it yet (a revision ``registry`` already has is refused)."""
    assert profile.previous is not None  # a file's profile extends a revision
    return registry_for(profile.previous, base=registry).with_profile(profile)


def _base(revision: str, registry: Registry) -> Profile:
    """The profile a file extends: a revision of ``registry``, or a built-in draft
    (``extends = "next+sep-3279"``), which comes with it."""
    from . import _seps  # noqa: PLC0415 - the drafts, only where a file names one

    if revision not in registry and _seps.is_draft_name(revision):
        return _seps.compose(revision)[-1]
    return registry.get(revision)


def may_declare(group: str) -> bool:
    """Whether an installed distribution may declare entry points of ``group``.

    False only when it is sure none does: every entry of ``sys.path`` is a folder or
    absent, no finder but the standard path finder lists distributions, and no
    ``*.dist-info``/``*.egg-info`` folder in them has an ``entry_points.txt`` that names
    the group (the places :mod:`importlib.metadata` reads). Then the registry is the
    built-ins' without importing :mod:`importlib.metadata` (with :mod:`email`,
    :mod:`zipfile`, :mod:`csv`: more than a plain matrix's run itself) or reading each
    distribution's metadata; anything it cannot tell (a zip on the path, a file it cannot
    read) says True, and importlib.metadata decides.
    """
    import os  # noqa: PLC0415 - only to look for plugins
    import sys  # noqa: PLC0415
    from importlib.machinery import PathFinder  # noqa: PLC0415

    if any(hasattr(finder, "find_distributions") and finder is not PathFinder
           for finder in sys.meta_path):
        return True
    for entry in sys.path:
        folder = os.fspath(entry) or "."
        if not isinstance(folder, str):
            return True
        try:
            names = os.listdir(folder)
        except (FileNotFoundError, NotADirectoryError):
            if os.path.exists(folder):  # a zip file: importlib.metadata reads inside it
                return True
            continue
        except OSError:
            return True
        for name in names:
            if not name.lower().endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), "rb") as file:
                    if group.encode() in file.read():
                        return True
            except (FileNotFoundError, NotADirectoryError):
                continue  # no entry points (or an egg-info file: metadata only)
            except OSError:
                return True
    return False


def load_entry_points(registry: Registry = REGISTRY) -> Registry:
    """``registry`` with the profiles of installed packages (group ``mcp_skew.profiles``).

    Each entry point names a :class:`Profile` or a callable returning one; one
    whose revision the registry already has is skipped. When no distribution declares
    the group (:func:`may_declare`), ``registry`` as it is.
    """
    if not may_declare(ENTRY_POINT_GROUP):
        return registry
    from importlib import metadata  # noqa: PLC0415 - tens of ms: only when a plugin is there

    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        loaded = entry.load()
        profile = loaded() if callable(loaded) and not isinstance(loaded, Profile) else loaded
        if not isinstance(profile, Profile):
            raise ProfileFileError(f"entry point {entry.name!r}: does not give a Profile")
        if profile.revision not in registry:
            try:
                registry = registry.with_profile(profile)
            except (ProfileDefinitionError, UnknownRevision, ValueError) as exc:
                raise ProfileFileError(f"entry point {entry.name!r}: {exc}") from None
    return registry

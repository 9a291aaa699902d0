"""mcp-skew: simulate every MCP revision and show what happens at the seams."""

from __future__ import annotations

__all__ = ["__version__"]

#: The version when neither the installed metadata nor a source tree says (PEP 440 local label).
UNKNOWN_VERSION = "0+unknown"


def _find_version() -> str:
    """The installed distribution's version, else the source tree's ``pyproject.toml``, else unknown.

    Read on first use of ``__version__`` (importing :mod:`importlib.metadata` costs
    tens of milliseconds, which ``import mcp_skew`` should not pay).
    """
    from importlib import metadata  # noqa: PLC0415 - only when __version__ is read

    try:
        return metadata.version("mcp-skew")
    except metadata.PackageNotFoundError:
        pass
    import tomllib  # noqa: PLC0415 - only in a source tree that is not installed
    from pathlib import Path  # noqa: PLC0415

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project")
    except (OSError, ValueError):  # absent, unreadable, or not TOML (TOMLDecodeError)
        project = None
    if isinstance(project, dict) and project.get("name") == "mcp-skew":
        version = project.get("version")
        if isinstance(version, str) and version:
            return version
    return UNKNOWN_VERSION


def __getattr__(name: str) -> str:
    if name == "__version__":
        version = _find_version()
        globals()["__version__"] = version  # computed once
        return version
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

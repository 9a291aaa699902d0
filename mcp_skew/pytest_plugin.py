"""pytest plugin: probe your MCP server from its own test suite.

The fixture ``mcp_skew_probe`` runs ``mcp-skew probe`` against a server and
returns the :class:`~mcp_skew.probe.ProbeReport`; its ``assert_works(*revisions)``
fails the test, with the report card, when a client of a revision cannot talk
to the server::

    def test_old_and_new_clients_work(mcp_skew_probe):
        report = mcp_skew_probe(["python", "-m", "my_server"])
        report.assert_works("2025-06-18", "2026-07-28")

    @pytest.mark.mcp_skew(command=["python", "-m", "my_server"], timeout=10)
    def test_with_defaults_from_the_marker(mcp_skew_probe):
        mcp_skew_probe(require=["2025-06-18", "2026-07-28"])

Keyword arguments (on the call, or on the ``mcp_skew`` marker as defaults):
``command`` (a list), ``url``, ``require`` (revisions that must work),
``timeout`` / ``probe_timeout`` / ``client_timeout`` (seconds), ``jobs``,
``tool``, ``tool_args``, ``error_probes``, ``clients`` (peer specs), ``prober``
(the bogus-revision client; default on), ``cwd``, ``env``. Every transcript is
recorded under the test's ``tmp_path`` (``mcp-skew-probe-N/``), so a failure
leaves the evidence.

Loading: the package registers this module as a pytest11 entry point
(``mcp_skew.pytest_plugin``). It imports nothing but pytest when loaded; the
probe itself is imported when the fixture is first used. Disable it with
``-p no:mcp_skew.pytest_plugin``; where entry points are off, enable it with
``-p mcp_skew.pytest_plugin`` or ``pytest_plugins = ["mcp_skew.pytest_plugin"]``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

__all__ = ["mcp_skew_probe"]

_OPTIONS = ("timeout", "probe_timeout", "client_timeout", "jobs", "tool", "tool_args",
            "error_probes", "clients", "prober", "cwd", "env", "url", "command", "require")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "mcp_skew(command=None, url=None, require=(), **options): defaults for the "
        "mcp_skew_probe fixture (see mcp_skew.pytest_plugin)",
    )


def _run(record_dir: Path, defaults: dict[str, Any], kwargs: dict[str, Any]) -> Any:
    probe_mod: Any = importlib.import_module("mcp_skew.probe")
    peers: Any = importlib.import_module("mcp_skew.peers")
    settings = {**defaults, **kwargs}
    unknown = set(settings) - set(_OPTIONS)
    if unknown:
        raise TypeError(f"mcp_skew_probe: unknown option(s) {', '.join(sorted(unknown))}; "
                        f"known: {', '.join(_OPTIONS)}")
    command: Sequence[str] = settings.get("command") or ()
    target = probe_mod.Target(command=tuple(command), url=settings.get("url"),
                              cwd=settings.get("cwd"), env=settings.get("env"))
    if bool(target.command) == bool(target.url):
        raise TypeError("mcp_skew_probe: give command=[...] or url=... (one of the two)")
    specs = settings.get("clients")
    clients = tuple(peers.resolve_peer(s, "client") for s in specs) if specs else None
    required = tuple(settings.get("require") or ())
    opts = probe_mod.ProbeOptions(
        timeout_ms=int(settings.get("timeout", 10) * 1000),
        probe_timeout_ms=int(settings.get("probe_timeout", 3) * 1000),
        client_timeout_ms=int(settings.get("client_timeout", 60) * 1000),
        jobs=int(settings.get("jobs", 4)), tool=settings.get("tool"),
        tool_args=settings.get("tool_args") or {},
        error_probes=bool(settings.get("error_probes", False)),
        record_dir=record_dir, clients=clients, prober=bool(settings.get("prober", True)),
        required=required,  # each required revision's own client runs, whatever clients= says
    )
    report = probe_mod.probe(target, opts)
    if required:
        report.assert_works(*required)
    return report


@pytest.fixture
def mcp_skew_probe(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., Any]:
    """``mcp_skew_probe(command=None, *, url=None, require=(), **options) -> ProbeReport``."""
    marker = request.node.get_closest_marker("mcp_skew")
    defaults = dict(marker.kwargs) if marker is not None else {}
    counter = iter(range(1, 1_000))

    def run(command: Sequence[str] | None = None, **kwargs: Any) -> Any:
        if command is not None:
            kwargs["command"] = list(command)
        return _run(tmp_path / f"mcp-skew-probe-{next(counter)}", defaults, kwargs)

    return run

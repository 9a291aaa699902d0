"""pytest plugin: probe your MCP server, or test your MCP client, from its own test suite.

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

For client authors, the fixture ``mcp_skew_server`` gives a test a simulated server
of a chosen peer spec, started and ended by the fixture, and the observation of what
the client did (the reading ``mcp-skew probe-client`` gives a run)::

    def test_my_client_falls_back_to_legacy(mcp_skew_server):
        server = mcp_skew_server("legacy:2025-11-25")        # stdio: server.command
        subprocess.run(["python", "my_client.py", "--", *server.command], check=True)
        seen = server.observation()
        assert (seen.outcome, seen.revision, seen.era) == ("works", "2025-11-25", "legacy")

    def test_my_client_over_http(mcp_skew_server):
        server = mcp_skew_server("modern:2026-07-28", transport="http")
        my_client.connect(server.url)                        # served on loopback
        assert server.observation().era == "modern"

``mcp_skew_server(spec, *, transport="stdio"|"http")`` returns a
:class:`~mcp_skew.probe_client.SimulatedServer`: ``command`` (the stdio server's words,
for the client to spawn) or ``url``, ``log`` (the wire, under the test's ``tmp_path``)
and ``observation(exit_code=0)`` (an :class:`~mcp_skew.probe_client.Observation`:
``outcome``, ``revision``, ``era``, ``path``, ``probe``, ``failed_on``, ...). At the
test's end the HTTP server is stopped and every stdio server process still running is
ended. A bad spec or transport is a ``ValueError`` with one line.

Loading: the package registers this module as a pytest11 entry point
(``mcp_skew.pytest_plugin``). It imports nothing but pytest when loaded; the
probe itself is imported when the fixture is first used. Disable it with
``-p no:mcp_skew.pytest_plugin``; where entry points are off, enable it with
``-p mcp_skew.pytest_plugin`` or ``pytest_plugins = ["mcp_skew.pytest_plugin"]``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

__all__ = ["mcp_skew_probe", "mcp_skew_server"]

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


def _served(workdir: Path, spec: str, transport: str) -> Any:
    served: Any = importlib.import_module("mcp_skew.probe_client")
    peers: Any = importlib.import_module("mcp_skew.peers")
    errors: Any = importlib.import_module("mcp_skew.errors")
    versions: Any = importlib.import_module("mcp_skew.versions")
    registry = versions.load_entry_points()
    try:
        peer = peers.resolve_peer(spec, "server", registry)
        return served.simulated_server(peer, workdir, transport=transport, registry=registry,
                                       label=spec)
    except errors.UsageError as exc:
        raise ValueError(f"mcp_skew_server: {exc}") from None


@pytest.fixture
def mcp_skew_server(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``mcp_skew_server(spec, *, transport="stdio") -> SimulatedServer``; every server it
    gave is ended when the test ends."""
    started: list[Any] = []
    counter = iter(range(1, 1_000))

    def start(spec: str, *, transport: str = "stdio") -> Any:
        server = _served(tmp_path / f"mcp-skew-server-{next(counter)}", spec, transport)
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()

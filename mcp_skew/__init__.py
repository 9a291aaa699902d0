"""mcp-skew: simulate every MCP revision and show what happens at the seams.

The library's public face (``docs/api.md`` says what each name promises):

- the profiles: :data:`REGISTRY` (the built-in revisions), :class:`Registry`,
  :func:`with_profile_files` (a registry with drafts beside the built-ins);
- peers: :func:`parse_peer` (the simulator's notation), :func:`resolve_peer` (also
  named real peers and ``@FILE``), :class:`PeerSpec`;
- one run: :func:`run` gives a :class:`RunRecord`; :data:`SCENARIOS`;
- the matrix: :func:`build_matrix`, :func:`builtin_peers`, :class:`Matrix`,
  :func:`render_matrix`;
- the probe: :func:`probe_server` probes a :class:`Target` with
  :class:`ProbeOptions`, giving a :class:`ProbeReport`; :func:`render_probe`
  (``mcp_skew.probe`` is the package, so the function has a name of its own);
- migration guides: :func:`build_guide`, :func:`render_guide`;
- rollouts: :func:`study` and :func:`plan` of a rollout :class:`Setup`.

Each name is imported when it is first read: ``import mcp_skew`` (and so
``mcp-skew --help``) loads none of the packages behind them.
"""

from __future__ import annotations

import importlib

from ._version import __version__

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:  # the names' types, for type checkers; at run time see __getattr__
    from typing import Any, Final

    from .matrix import Matrix, build_matrix
    from .matrix import render as render_matrix
    from .migrate import build_guide
    from .migrate import render as render_guide
    from .peers import builtin_peers, resolve_peer
    from .probe import ProbeOptions, ProbeReport, Target
    from .probe import probe as probe_server
    from .probe import render as render_probe
    from .rollout import Setup, plan, study
    from .simulator import SCENARIOS, PeerSpec, RunRecord, parse_peer, run
    from .versions import REGISTRY, Registry, with_profile_files

__all__ = [
    "REGISTRY",
    "SCENARIOS",
    "Matrix",
    "PeerSpec",
    "ProbeOptions",
    "ProbeReport",
    "Registry",
    "RunRecord",
    "Setup",
    "Target",
    "__version__",
    "build_guide",
    "build_matrix",
    "builtin_peers",
    "parse_peer",
    "plan",
    "probe_server",
    "render_guide",
    "render_matrix",
    "render_probe",
    "resolve_peer",
    "run",
    "study",
    "with_profile_files",
]

#: public name -> (the module that defines it, its name there).
API: Final[dict[str, tuple[str, str]]] = {
    "REGISTRY": ("mcp_skew.versions", "REGISTRY"),
    "Registry": ("mcp_skew.versions", "Registry"),
    "with_profile_files": ("mcp_skew.versions", "with_profile_files"),
    "PeerSpec": ("mcp_skew.simulator", "PeerSpec"),
    "parse_peer": ("mcp_skew.simulator", "parse_peer"),
    "resolve_peer": ("mcp_skew.peers", "resolve_peer"),
    "run": ("mcp_skew.simulator", "run"),
    "RunRecord": ("mcp_skew.simulator", "RunRecord"),
    "SCENARIOS": ("mcp_skew.simulator", "SCENARIOS"),
    "Matrix": ("mcp_skew.matrix", "Matrix"),
    "build_matrix": ("mcp_skew.matrix", "build_matrix"),
    "builtin_peers": ("mcp_skew.peers", "builtin_peers"),
    "render_matrix": ("mcp_skew.matrix", "render"),
    "probe_server": ("mcp_skew.probe", "probe"),
    "Target": ("mcp_skew.probe", "Target"),
    "ProbeOptions": ("mcp_skew.probe", "ProbeOptions"),
    "ProbeReport": ("mcp_skew.probe", "ProbeReport"),
    "render_probe": ("mcp_skew.probe", "render"),
    "build_guide": ("mcp_skew.migrate", "build_guide"),
    "render_guide": ("mcp_skew.migrate", "render"),
    "Setup": ("mcp_skew.rollout", "Setup"),
    "study": ("mcp_skew.rollout", "study"),
    "plan": ("mcp_skew.rollout", "plan"),
}


def __getattr__(name: str) -> Any:
    home = API.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home[0]), home[1])
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

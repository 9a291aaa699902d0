"""The real-peer step's environments, built ahead of its tests and several at a time.

``.ci/run`` runs ``python tests/_realpeer_envs.py`` before ``pytest -m realpeer -n 2``: an
install is mostly waiting on the registry, so building every environment the tests need at
once, on more jobs than there are CPUs, takes a fraction of building them one by one, and the
test workers then find each one ready instead of one worker waiting on the other's install
(:func:`mcp_skew.realpeers.ensure_python_env` locks an environment while it is built, so two
builders never race; they only wait).

The environments are those of every named real peer (the drift checks install all of them,
and the other real-peer tests use the same packages through their named models or the same
requirement lists), and those the real-peer test modules name themselves (the conformance
suite, the probe tests' server lists): read from the modules, so the list cannot drift from
them. Each is built with the interpreter that runs this script, which must be the one that
runs the tests (a Python environment's key includes it).

A failure to build is reported, not fatal: the test that needs the environment skips with
the installer's reason, as it does without this step. The exit code is 0 unless the
arguments are wrong.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TESTS = Path(__file__).resolve().parent
INTEROP = TESTS / "interop"
# mcp_skew from this checkout, as the tests import it (`python -m pytest` puts the root first),
# not an installed copy that `pip install` may be replacing while this runs in the background
sys.path.insert(0, str(TESTS.parent))

#: (module, attribute) of the real-peer tests' own requirement lists beside the named peers:
#: an attribute is a requirement list, one requirement, or a dict whose values start with one
PYTHON_LISTS = (("test_probe_realpeer", "ENVS"), ("test_probe_fast_realpeer", "ENVS"),
                ("test_serve_realpeer", "SDK"), ("test_auth_realpeer", "SDK"),
                ("test_probe_http_bridge_realpeer", "BRIDGE"),
                ("test_bridge_chain_realpeer", "BACKEND_ENV"),
                ("test_bridge_chain_realpeer", "CLIENT_ENV"))
NPM_LISTS = (("test_ts_http_realpeer", "PACKAGES"), ("test_auth_realpeer", "TS_SDK"),
             ("test_auth_realpeer", "INSPECTOR"), ("test_apps_realpeer", "PACKAGES"),
             ("test_calls_realpeer", "BETA"), ("test_calls_realpeer", "AFTER"),
             ("test_bridge_chain_realpeer", "SUPERGATEWAY"))
#: the conformance suite installs its package and a Node.js binary in one environment
NPM_TOGETHER = (("test_conformance_suite", ("SUITE", "NODE")),)


def _lists(value: object) -> Iterable[tuple[str, ...]]:
    if isinstance(value, str):
        yield (value,)
    elif isinstance(value, dict):
        for entry in value.values():
            yield tuple(entry[0])
    else:
        yield tuple(value)


def wanted() -> list[tuple[str, tuple[str, ...]]]:
    """Every environment the real-peer tests use: ``(ecosystem, requirements)``, no repeats."""
    from mcp_skew.peers._lookup import iter_models  # after sys.path holds this checkout

    for folder in (TESTS, INTEROP):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    found: list[tuple[str, tuple[str, ...]]] = []
    for _family, line, _role, _mode, _model in iter_models():
        if line.installs is not None:
            found.append((line.installs.ecosystem, tuple(line.installs.requirements)))
    for ecosystem, table in (("pypi", PYTHON_LISTS), ("npm", NPM_LISTS)):
        for module, attribute in table:
            found += [(ecosystem, reqs)
                      for reqs in _lists(getattr(importlib.import_module(module), attribute))]
    for module, attributes in NPM_TOGETHER:
        loaded = importlib.import_module(module)
        found.append(("npm", tuple(getattr(loaded, a) for a in attributes)))
    unique: dict[tuple[str, frozenset[str]], tuple[str, tuple[str, ...]]] = {}
    for ecosystem, reqs in found:
        unique.setdefault((ecosystem, frozenset(reqs)), (ecosystem, reqs))
    return list(unique.values())


def _build(entry: tuple[str, tuple[str, ...]]) -> tuple[str, float, str]:
    """(what, seconds, how it ended: ``built``, ``cached`` or the installer's reason)."""
    from mcp_skew.realpeers import (
        EnvironmentUnavailable,
        ensure_npm_env,
        ensure_python_env,
    )

    ecosystem, reqs = entry
    started = time.monotonic()
    try:
        if ecosystem == "pypi":
            cached = ensure_python_env(reqs, base_python=sys.executable).cached
        elif shutil.which("npm") is None:
            return " ".join(reqs), 0.0, "no npm on PATH (the tests that need it skip)"
        else:
            cached = ensure_npm_env(reqs).cached
    except EnvironmentUnavailable as exc:
        reason = str(exc).splitlines()[0]
        return " ".join(reqs), time.monotonic() - started, f"unavailable: {reason}"
    return " ".join(reqs), time.monotonic() - started, "cached" if cached else "built"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--jobs", type=int, default=4,
                        help="environments built at once (default 4: installs mostly wait)")
    parser.add_argument("--list", action="store_true", help="print the environments and stop")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    envs = wanted()
    if args.list:
        for ecosystem, reqs in envs:
            print(ecosystem, " ".join(reqs))
        return 0
    started = time.monotonic()
    with ThreadPoolExecutor(args.jobs) as pool:
        for what, seconds, how in pool.map(_build, envs):
            print(f"  {seconds:6.1f} s  {how:<7}  {what}", flush=True)
    print(f"{len(envs)} real-peer environments ready in {time.monotonic() - started:.0f} s "
          f"({args.jobs} at a time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

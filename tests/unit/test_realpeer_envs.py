"""``tests/_realpeer_envs.py``, which ``.ci/run`` runs to build the real-peer environments
ahead of the real-peer tests: its list holds every environment those tests install, once."""

from __future__ import annotations

import importlib

import _realpeer_envs
import pytest

from mcp_skew.peers._lookup import iter_models


def _keys(envs: list[tuple[str, tuple[str, ...]]]) -> list[tuple[str, frozenset[str]]]:
    return [(ecosystem, frozenset(reqs)) for ecosystem, reqs in envs]


def test_every_named_peer_s_package_is_built_ahead_once() -> None:
    keys = _keys(_realpeer_envs.wanted())
    assert len(keys) == len(set(keys))
    named = {(line.installs.ecosystem, frozenset(line.installs.requirements))
             for _, line, _, _, _ in iter_models() if line.installs is not None}
    assert named and named <= set(keys)


def test_the_lists_the_real_peer_tests_name_themselves_are_built_ahead() -> None:
    keys = set(_keys(_realpeer_envs.wanted()))
    # the conformance suite's package and its Node.js, in one environment (the test's own)
    suite = importlib.import_module("test_conformance_suite")
    assert ("npm", frozenset({suite.SUITE, suite.NODE})) in keys
    probe = importlib.import_module("test_probe_realpeer")
    assert {("pypi", frozenset(reqs)) for reqs, _ in probe.ENVS.values()} <= keys
    serve = importlib.import_module("test_serve_realpeer")
    assert ("pypi", frozenset({serve.SDK})) in keys


def test_a_bad_job_count_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        _realpeer_envs.main(["--jobs", "0"])
    assert stop.value.code == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err

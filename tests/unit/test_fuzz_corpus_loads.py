"""``benchmarks/fuzz_corpus.py`` loads (its helpers are found where the tests keep them: it
imports ``test_adversaries`` from ``tests/slow/unit/``), and its probe runs against the
adversaries carry a short ``--startup-timeout``, so a server that never answers is given
up within the harness's bound instead of being counted as a hang. Loaded, not run."""

from __future__ import annotations

import importlib.util
import inspect
import sys

from _paths import ROOT


def test_the_corpus_script_loads_with_short_probe_bounds() -> None:
    spec = importlib.util.spec_from_file_location("fuzz_corpus_loaded",
                                                  ROOT / "benchmarks" / "fuzz_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    assert callable(module.main) and callable(module.as_a_client)
    source = inspect.getsource(module.process_runs)
    assert '"--startup-timeout", "2"' in source

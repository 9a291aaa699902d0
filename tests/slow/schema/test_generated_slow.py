"""The generated oracle is current, and judges instances exactly as the official schemas do.

Where ``../shared/spec`` is (developer and CI machines), these tests regenerate
``tests/generated/`` in memory and compare it with the committed files, then run a
differential check: on a corpus of instances (every official example, every
message of a broad sample of simulated runs, and mutations of them that drop a
required key or break a constant), a JSON Schema validator over the official
``schema.json`` and the generated pydantic models give the same verdict. Elsewhere
they are deselected (the test run's header says so).

These tests start processes or open sockets (slow);
the fast ones are in ``tests/schema/test_generated.py``.
"""

from __future__ import annotations

import oracle
import pytest
from generated import generate

pytestmark = pytest.mark.spec_files


def test_generated_files_are_current() -> None:
    fresh = generate.outputs(oracle.SPEC_DIR)
    on_disk = {p.name for p in oracle.GENERATED.iterdir() if p.is_file() and p.name != "generate.py"}
    stale = sorted(n for n, text in fresh.items() if not (oracle.GENERATED / n).is_file()
                   or (oracle.GENERATED / n).read_text(encoding="utf-8") != text)
    assert not stale, f"stale generated files {stale}: run .venv/bin/python tests/generated/generate.py"
    assert on_disk == set(fresh), f"left over: {sorted(on_disk - set(fresh))}"

"""``.ci/run``: each step's time, a summary at the end, and a failing step still fails CI.

The script runs in a copy of its folder whose commands (``python3``, ``.venv/bin/pip``,
``ruff``, ``mypy``, ``python``) are stubs that log their words and fail where told, so no
environment is built and no test runs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from _paths import ROOT
from _waits import BOUND_S

#: The README's test command, which .ci/run runs as it is (the fast step)
README_COMMAND = ("python3 -m venv .venv && .venv/bin/pip install -q '.[test]' && "
                  ".venv/bin/python -m pytest -q")
STEPS = ["setup (.venv with the dev extra)", "ruff", "mypy (strict, package)",
         "tests (the README's test command)", "slow (python -m pytest -m slow, 2 workers)",
         "real-peer environments (built ahead, 4 at a time)",
         "real peers (python -m pytest -m realpeer, 2 workers)"]
SLOW = "python -m pytest -q -m slow -n 2 --dist loadgroup --durations=0 --durations-min=1"
REALPEER = ("python -m pytest -q -m realpeer -n 2 --dist loadgroup --durations=0 "
            "--durations-min=1")
PREBUILD = "python tests/_realpeer_envs.py --jobs 4"
STUB = """#!/bin/sh
echo "$(basename "$0") $*" >> "$STUB_LOG"
case "$(basename "$0") $*" in $STUB_FAIL) exit 3;; esac
exit 0
"""


def _run(tmp_path: Path, fail: str = "") -> tuple[int, str, list[str]]:
    (tmp_path / ".ci").mkdir()
    shutil.copy2(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / "bin").mkdir()
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    for stub in ("bin/python3", ".venv/bin/pip", ".venv/bin/ruff", ".venv/bin/mypy",
                 ".venv/bin/python"):
        (tmp_path / stub).write_text(STUB)
        (tmp_path / stub).chmod(0o755)
    log = tmp_path / "log"
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
           "STUB_LOG": str(log), "STUB_FAIL": fail}
    done = subprocess.run([str(tmp_path / ".ci" / "run")], env=env, capture_output=True,
                          text=True, timeout=BOUND_S, check=False)
    return done.returncode, done.stdout, log.read_text().splitlines() if log.exists() else []


def _times(out: str) -> dict[str, str]:
    """Step -> what the summary says of it (``N s`` and how it ended)."""
    summary = out.split("== times\n", 1)[1]
    return {m[1]: m[2] for m in re.finditer(r"^  (.+?) +(\d+ s.*)$", summary, re.MULTILINE)}


def test_the_readme_command_is_run_as_it_is() -> None:
    assert README_COMMAND in (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"\n{README_COMMAND}\n" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_each_step_prints_its_time_and_the_total(tmp_path: Path) -> None:
    code, out, ran = _run(tmp_path)
    assert code == 0, out
    headers = [line[3:] for line in out.splitlines() if line.startswith("== ")]
    assert [h for h in headers if not re.search(r": \d+ s$", h)] == [*STEPS, "times"]
    assert [h.rsplit(": ", 1)[0] for h in headers if re.search(r": \d+ s$", h)] == STEPS
    times = _times(out)
    assert list(times) == [*STEPS, "total"]
    assert all(re.fullmatch(r"\d+ s", took) for took in times.values()), times
    tests = [word for word in ran if " pytest " in word]
    assert tests == ["python -m pytest -q", SLOW, REALPEER]
    # the environments are built in the background, after the setup and before the real peers
    assert ran.count(PREBUILD) == 1
    assert ran.index("pip install -q .[dev]") < ran.index(PREBUILD) < ran.index(REALPEER)


@pytest.mark.parametrize(("fail", "step"), [
    ("ruff *", "ruff"),
    ("python -m pytest -q", "tests (the README's test command)"),  # the last of the && list
    ("pip install -q .\\[test\\]", "tests (the README's test command)"),  # inside the list
    (SLOW, "slow (python -m pytest -m slow, 2 workers)"),
    (PREBUILD, "real-peer environments (built ahead, 4 at a time)"),
])
def test_a_failing_step_fails_ci_and_the_summary_names_it(tmp_path: Path, fail: str,
                                                          step: str) -> None:
    code, out, ran = _run(tmp_path, fail)
    assert code == 3, out
    times = _times(out)
    assert times[step].endswith("s  (failed: exit 3)")
    assert list(times)[-2:] == [step, "total"]  # no step after it ran
    assert REALPEER not in ran

"""Which installer fills a real-peer venv (uv when it can run, else pip) and the commands it
is given: in process, with the commands recorded instead of run (no network, no process)."""

from __future__ import annotations

import json
import types
from collections.abc import Sequence
from pathlib import Path

import pytest

from mcp_skew.realpeers import _envs
from mcp_skew.realpeers._envs import (
    MARKER_NAME,
    EnvironmentUnavailable,
    ensure_python_env,
    env_key,
    find_uv,
    install_command,
    installer,
)

REQS = ("mcp==1.0.0", "pydantic==2.10.*")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MCP_SKEW_INSTALLER", raising=False)
    monkeypatch.delenv("UV_CACHE_DIR", raising=False)


def _no_uv_package(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(name: str) -> types.ModuleType:
        raise ImportError(name)

    monkeypatch.setattr(_envs.importlib, "import_module", refuse)


def _uv_package(monkeypatch: pytest.MonkeyPatch, binary: Path) -> None:
    module = types.SimpleNamespace(find_uv_bin=lambda: str(binary))
    monkeypatch.setattr(_envs.importlib, "import_module",
                        lambda name: module if name == "uv" else pytest.fail(name))


# -- finding uv ------------------------------------------------------------------------------
def test_find_uv_prefers_the_package_binary_to_path(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    binary = tmp_path / "uv"
    binary.write_text("")
    _uv_package(monkeypatch, binary)
    monkeypatch.setattr(_envs.shutil, "which", lambda name: "/elsewhere/uv")
    assert find_uv() == str(binary)


def test_find_uv_falls_back_to_path(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_uv_package(monkeypatch)
    monkeypatch.setattr(_envs.shutil, "which", lambda name: f"/on/path/{name}")
    assert find_uv() == "/on/path/uv"


def test_find_uv_ignores_a_package_whose_binary_is_missing(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    _uv_package(monkeypatch, tmp_path / "absent")
    monkeypatch.setattr(_envs.shutil, "which", lambda name: None)
    assert find_uv() is None


def test_find_uv_none_without_package_or_path(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_uv_package(monkeypatch)
    monkeypatch.setattr(_envs.shutil, "which", lambda name: None)
    assert find_uv() is None


# -- choosing ----------------------------------------------------------------------------------
def test_installer_is_uv_when_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_envs, "find_uv", lambda: "/x/uv")
    assert installer() == ("uv", "/x/uv")


def test_installer_is_pip_without_uv(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_envs, "find_uv", lambda: None)
    assert installer() == ("pip", None)


def test_installer_pip_chosen_outright(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_envs, "find_uv", lambda: "/x/uv")
    monkeypatch.setenv("MCP_SKEW_INSTALLER", "pip")
    assert installer() == ("pip", None)


def test_installer_uv_chosen_outright_but_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_envs, "find_uv", lambda: None)
    monkeypatch.setenv("MCP_SKEW_INSTALLER", "uv")
    with pytest.raises(EnvironmentUnavailable, match="MCP_SKEW_INSTALLER=uv: no uv here"):
        installer()


def test_installer_bad_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_SKEW_INSTALLER", "conda")
    with pytest.raises(EnvironmentUnavailable, match=r"'conda': expected one of auto, uv, pip"):
        installer()


# -- the command lines -------------------------------------------------------------------------
def test_uv_command_line(tmp_path: Path) -> None:
    python = tmp_path / "envs" / "py-x" / "bin" / "python"
    assert install_command(("uv", "/x/uv"), python, REQS, tmp_path) == [
        "/x/uv", "pip", "install", "--python", str(python), "--cache-dir", str(tmp_path / "uv"),
        "--no-progress", "--compile-bytecode", "mcp==1.0.0", "pydantic==2.10.*"]


def test_uv_command_line_without_bytecode_for_a_caller_that_compiles(tmp_path: Path) -> None:
    python = tmp_path / "envs" / "py-x" / "bin" / "python"
    cmd = install_command(("uv", "/x/uv"), python, REQS, tmp_path, compile_bytecode=False)
    assert "--compile-bytecode" not in cmd
    assert cmd == [a for a in install_command(("uv", "/x/uv"), python, REQS, tmp_path)
                   if a != "--compile-bytecode"]


def test_uv_command_line_leaves_a_configured_cache(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.setenv("UV_CACHE_DIR", "/somewhere")
    cmd = install_command(("uv", "/x/uv"), tmp_path / "python", REQS, tmp_path)
    assert "--cache-dir" not in cmd
    assert cmd[-2:] == list(REQS)


def test_pip_command_line(tmp_path: Path) -> None:
    python = tmp_path / "python"
    assert install_command(("pip", None), python, REQS, tmp_path) == [
        str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
        "--progress-bar", "off", "mcp==1.0.0", "pydantic==2.10.*"]


# -- building, with the commands recorded ------------------------------------------------------
class Recorder:
    """Stands in for ``_envs._run``: records each command; ``venv`` makes the folder."""

    def __init__(self, cannot_run: str | None = None) -> None:
        self.commands: list[list[str]] = []
        self.cannot_run = cannot_run

    def __call__(self, cmd: Sequence[str], what: str, *, timeout: float,
                 cwd: Path | None = None) -> None:
        self.commands.append(list(cmd))
        if self.cannot_run is not None and cmd[0] == self.cannot_run:
            raise _envs._CannotRun(f"{what}: cannot run {cmd[0]}: Exec format error")
        if cmd[1:3] == ["-m", "venv"]:
            (Path(cmd[-1]) / "bin").mkdir(parents=True)
            (Path(cmd[-1]) / "bin" / "python").write_text("")


def test_uv_builds_a_venv_without_pip_then_fills_it(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    monkeypatch.setattr(_envs, "find_uv", lambda: "/x/uv")
    run = Recorder()
    monkeypatch.setattr(_envs, "_run", run)
    env = ensure_python_env(REQS, cache_dir=tmp_path, base_python="/base/python3")
    root = tmp_path / "envs" / env_key("py", REQS, salt=f"/base/python3|{_envs.sys.version_info[:2]}")
    assert env.root == root and env.installer == "uv" and not env.cached
    assert run.commands == [
        ["/base/python3", "-m", "venv", "--without-pip", str(root)],
        install_command(("uv", "/x/uv"), root / "bin" / "python", REQS, tmp_path)]
    assert json.loads((root / MARKER_NAME).read_text())["installer"] == "uv"


def test_a_caller_compiles_a_uv_venv_before_it_is_marked_ready(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``compile_bytecode``: uv does not compile; the caller's compiler runs on the filled venv
    before the marker (a worker that finds the venv ready finds it compiled); pip compiles
    its own, and the compiler is not called."""
    monkeypatch.setattr(_envs, "find_uv", lambda: "/x/uv")
    run = Recorder()
    monkeypatch.setattr(_envs, "_run", run)
    seen: list[tuple[Path, bool]] = []
    env = ensure_python_env(REQS, cache_dir=tmp_path, base_python="/base/python3",
                            compile_bytecode=lambda root: seen.append(
                                (root, (root / MARKER_NAME).exists())))
    assert seen == [(env.root, False)] and (env.root / MARKER_NAME).exists()
    assert run.commands[1] == install_command(("uv", "/x/uv"), env.python, REQS, tmp_path,
                                              compile_bytecode=False)
    monkeypatch.setenv("MCP_SKEW_INSTALLER", "pip")
    other = ensure_python_env(REQS[:1], cache_dir=tmp_path, base_python="/base/python3",
                              compile_bytecode=lambda root: seen.append((root, True)))
    assert other.installer == "pip" and len(seen) == 1


def test_pip_builds_a_venv_with_pip(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(_envs, "find_uv", lambda: None)
    run = Recorder()
    monkeypatch.setattr(_envs, "_run", run)
    env = ensure_python_env(REQS, cache_dir=tmp_path, base_python="/base/python3")
    assert env.installer == "pip"
    assert run.commands[0] == ["/base/python3", "-m", "venv", str(env.root)]
    assert run.commands[1][:4] == [str(env.python), "-m", "pip", "install"]


def test_an_env_built_by_pip_is_reused_under_uv(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    """The same key whichever installer: a cache filled by pip is not built again."""
    run = Recorder()
    monkeypatch.setattr(_envs, "_run", run)
    monkeypatch.setenv("MCP_SKEW_INSTALLER", "pip")
    first = ensure_python_env(REQS, cache_dir=tmp_path, base_python="/base/python3")
    monkeypatch.setenv("MCP_SKEW_INSTALLER", "uv")
    monkeypatch.setattr(_envs, "find_uv", lambda: "/x/uv")
    again = ensure_python_env(REQS, cache_dir=tmp_path, base_python="/base/python3")
    assert again.root == first.root and again.cached and again.installer == "pip"
    assert len(run.commands) == 2  # the pip build's venv and install, nothing since


def test_a_uv_that_cannot_run_falls_back_to_pip(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.setattr(_envs, "find_uv", lambda: "/x/uv")
    run = Recorder(cannot_run="/x/uv")
    monkeypatch.setattr(_envs, "_run", run)
    env = ensure_python_env(REQS, cache_dir=tmp_path, base_python="/base/python3")
    assert env.installer == "pip" and (env.root / MARKER_NAME).is_file()
    assert [c[:3] for c in run.commands] == [
        ["/base/python3", "-m", "venv"], ["/x/uv", "pip", "install"],
        ["/base/python3", "-m", "venv"], [str(env.python), "-m", "pip"]]
    assert run.commands[2] == ["/base/python3", "-m", "venv", str(env.root)]  # with pip now


def test_uv_chosen_outright_does_not_fall_back(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.setenv("MCP_SKEW_INSTALLER", "uv")
    monkeypatch.setattr(_envs, "find_uv", lambda: "/x/uv")
    monkeypatch.setattr(_envs, "_run", Recorder(cannot_run="/x/uv"))
    with pytest.raises(EnvironmentUnavailable, match="cannot run /x/uv"):
        ensure_python_env(REQS, cache_dir=tmp_path, base_python="/base/python3")
    assert not any(p.name.startswith("py-") and p.is_dir() for p in (tmp_path / "envs").iterdir())


def test_a_failed_uv_install_is_not_retried_with_pip(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    """A resolver failure (no such version) is the package's answer, not uv's: no pip rerun."""
    monkeypatch.setattr(_envs, "find_uv", lambda: "/x/uv")
    calls: list[str] = []

    def run(cmd: Sequence[str], what: str, *, timeout: float, cwd: Path | None = None) -> None:
        calls.append(cmd[0])
        if cmd[0] == "/x/uv":
            raise EnvironmentUnavailable(f"{what}: exit code 1\nNo solution found")
        (Path(cmd[-1]) / "bin").mkdir(parents=True)

    monkeypatch.setattr(_envs, "_run", run)
    with pytest.raises(EnvironmentUnavailable, match=r"(?s)^uv install mcp==1\.0\.0 .*No solution found"):
        ensure_python_env(REQS, cache_dir=tmp_path, base_python="/base/python3")
    assert calls == ["/base/python3", "/x/uv"]

"""The GitHub Action's step: ``python -m mcp_skew.commands.probe_action``.

``action.yml`` at the repository root runs this module with the action's inputs in
the environment (``INPUT_COMMAND``, ``INPUT_URL``, ``INPUT_REQUIRE``, ``INPUT_ARGS``,
``INPUT_WORKING_DIRECTORY``), the way a runner gives a step its inputs, and the
runner's own variables (``RUNNER_TEMP``, ``GITHUB_STEP_SUMMARY``, ``GITHUB_OUTPUT``).
It runs one probe, exactly as ``mcp-skew probe`` parses and checks it, and from
that one run writes:

- ``probe.json``, ``probe.xml`` (JUnit: a test case per client and per required
  revision), ``probe.html`` (the card) and ``probe.txt`` (the terminal card) in
  ``$RUNNER_TEMP/mcp-skew-probe`` (for the artifact upload step);
- the Markdown summary (``--format summary``) appended to ``$GITHUB_STEP_SUMMARY``;
- the step outputs ``dir``, ``json``, ``junit``, ``html``, ``peer`` and ``exit-code``
  (the probe's: 0, 1 when a required revision fails, 2 for bad input) appended to
  ``$GITHUB_OUTPUT``.

The module itself exits 0 once the files are written, so the upload step runs; the
action's last step exits with ``exit-code``. Bad input exits 2 at once, with one
line on stderr (and ``exit-code=2`` in the outputs).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from ..errors import UsageError
from . import probe as probe_command

__all__ = ["OUTPUTS", "main"]

#: file name per format, in the output directory
OUTPUTS: Final = {"json": "probe.json", "junit": "probe.xml", "html": "probe.html",
                  "terminal": "probe.txt"}


def _argv(env: Mapping[str, str]) -> list[str]:
    """The ``mcp-skew probe`` arguments the inputs stand for."""
    command, url = env.get("INPUT_COMMAND", "").strip(), env.get("INPUT_URL", "").strip()
    try:
        extra = shlex.split(env.get("INPUT_ARGS", ""))
        server = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"action inputs: cannot split a command line: {exc}") from None
    argv = ["probe", *extra]
    require = env.get("INPUT_REQUIRE", "").strip()
    if require:
        argv += ["--require", require]
    if env.get("INPUT_WORKING_DIRECTORY", "").strip():
        argv += ["--cwd", env["INPUT_WORKING_DIRECTORY"].strip()]
    if url:
        argv += ["--url", url]
    if server:
        argv += ["--", *server]
    return argv


def _parse(argv: list[str]) -> argparse.Namespace:
    from ..versions import load_entry_points  # noqa: PLC0415 - the registry imports pydantic

    parser = argparse.ArgumentParser(prog="mcp-skew", exit_on_error=False)
    probe_command.register(parser.add_subparsers(dest="command"))
    try:
        args = parser.parse_args(argv)
    except argparse.ArgumentError as exc:
        raise UsageError(f"action inputs: {exc}") from None
    args.registry = load_entry_points()
    return args


def _append(path: str | None, text: str) -> None:
    """Append to a file the runner named (the summary, the outputs); absent: nothing."""
    if path:
        with Path(path).open("a", encoding="utf-8") as f:
            f.write(text)


def _progress(text: str) -> None:
    print(f"mcp-skew probe: {text}", file=sys.stderr, flush=True)


def _outputs(env: Mapping[str, str], values: Mapping[str, str]) -> None:
    _append(env.get("GITHUB_OUTPUT"), "".join(f"{k}={v}\n" for k, v in values.items()))


def run(env: Mapping[str, str]) -> int:
    """The step; returns the probe's exit code (see the module docstring)."""
    from ..probe import probe, render  # noqa: PLC0415 - the runner loads when a probe runs

    args = _parse(_argv(env))
    target, opts = probe_command._target(args), probe_command._options(args)
    out = Path(env.get("RUNNER_TEMP") or ".") / "mcp-skew-probe"
    out.mkdir(parents=True, exist_ok=True)
    report = probe(target, opts, None if args.quiet else _progress)
    for fmt, name in OUTPUTS.items():
        (out / name).write_text(render(report, fmt) + "\n", encoding="utf-8")
    print(render(report, "terminal"))
    _append(env.get("GITHUB_STEP_SUMMARY"), render(report, "summary") + "\n")
    code = probe_command.exit_code(report)
    _outputs(env, {"dir": str(out), "json": str(out / OUTPUTS["json"]),
                   "junit": str(out / OUTPUTS["junit"]), "html": str(out / OUTPUTS["html"]),
                   "peer": report.peer.spec.notation if report.peer.spec else "",
                   "exit-code": str(code)})
    return code


def main(env: Mapping[str, str] | None = None) -> int:
    """Run the step; 0 once the reports are written (whatever the probe found), 2 for bad
    input."""
    env = os.environ if env is None else env
    try:
        run(env)
    except UsageError as exc:
        print(f"mcp-skew: error: {exc}", file=sys.stderr)
        _outputs(env, {"exit-code": "2"})
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The GitHub Action's step: ``python -m mcp_skew.commands.probe_action``.

``action.yml`` at the repository root runs this module with the action's inputs in
the environment (``INPUT_COMMAND``, ``INPUT_URL``, ``INPUT_CLIENT``, ``INPUT_REQUIRE``,
``INPUT_ARGS``, ``INPUT_WORKING_DIRECTORY``), the way a runner gives a step its inputs,
and the runner's own variables (``RUNNER_TEMP``, ``GITHUB_STEP_SUMMARY``,
``GITHUB_OUTPUT``). It runs one probe, exactly as ``mcp-skew probe`` parses and checks
it, and from that one run writes:

- ``probe.json``, ``probe.xml`` (JUnit: a test case per client and per required
  revision), ``probe.html`` (the card) and ``probe.txt`` (the terminal card) in
  ``$RUNNER_TEMP/mcp-skew-probe`` (for the artifact upload step);
- the Markdown summary (``--format summary``) appended to ``$GITHUB_STEP_SUMMARY``;
- the step outputs ``dir``, ``json``, ``junit``, ``html``, ``peer`` and ``exit-code``
  (the probe's: 0, 1 when a required revision fails, 2 for bad input) appended to
  ``$GITHUB_OUTPUT``.

**Client mode**: with ``client`` (a client command with ``{server}`` or ``{url}`` in
its words) instead of ``command``/``url``, the step runs ``mcp-skew probe-client``
with the same ``require``, ``args`` and ``working-directory`` inputs, and writes
``probe-client.json``, ``probe-client.xml`` (JUnit: a test case per server and per
required revision), ``probe-client.html`` and ``probe-client.txt`` in
``$RUNNER_TEMP/mcp-skew-probe-client``, the summary, and the same outputs (``peer``:
the inferred client; ``exit-code``: 1 when the client reached no server of a
required revision, 2 for bad input or a client that cannot be started).

The module itself exits 0 once the files are written, so the upload step runs; the
action's last step exits with ``exit-code``. Bad input exits 2 at once, with one
line on stderr (and ``exit-code=2`` in the outputs).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from .._output import terminal_safe
from ..errors import UsageError
from .parsers import probe as probe_parser
from .parsers import probe_client as probe_client_parser

__all__ = ["CLIENT_OUTPUTS", "OUTPUTS", "main"]

#: file name per format, in the output directory
OUTPUTS: Final = {"json": "probe.json", "junit": "probe.xml", "html": "probe.html",
                  "terminal": "probe.txt"}
#: the same, in client mode (``probe-client``'s format names)
CLIENT_OUTPUTS: Final = {"json": "probe-client.json", "junit": "probe-client.xml",
                         "html": "probe-client.html", "text": "probe-client.txt"}


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"action inputs: cannot split a command line: {exc}") from None


def _common(env: Mapping[str, str]) -> list[str]:
    """The ``--require`` and ``--cwd`` words both modes share."""
    out = []
    require = env.get("INPUT_REQUIRE", "").strip()
    if require:
        out += ["--require", require]
    if env.get("INPUT_WORKING_DIRECTORY", "").strip():
        out += ["--cwd", env["INPUT_WORKING_DIRECTORY"].strip()]
    return out


def client_mode(env: Mapping[str, str]) -> bool:
    """Whether the inputs ask for ``probe-client`` (a ``client`` input): one line and exit 2
    when they also name a server."""
    client = env.get("INPUT_CLIENT", "").strip()
    if client and (env.get("INPUT_COMMAND", "").strip() or env.get("INPUT_URL", "").strip()):
        raise UsageError("action inputs: give client (to probe a client) or command/url "
                         "(to probe a server), not both")
    return bool(client)


def _client_argv(env: Mapping[str, str]) -> list[str]:
    """The ``mcp-skew probe-client`` arguments the inputs stand for."""
    extra, client = _split(env.get("INPUT_ARGS", "")), _split(env.get("INPUT_CLIENT", ""))
    return ["probe-client", *extra, *_common(env), "--", *client]


def _argv(env: Mapping[str, str]) -> list[str]:
    """The ``mcp-skew probe`` (or, in client mode, ``probe-client``) arguments the inputs
    stand for."""
    if client_mode(env):
        return _client_argv(env)
    command, url = env.get("INPUT_COMMAND", "").strip(), env.get("INPUT_URL", "").strip()
    extra, server = _split(env.get("INPUT_ARGS", "")), _split(command)
    argv = ["probe", *extra]
    argv += _common(env)
    if url:
        argv += ["--url", url]
    if server:
        argv += ["--", *server]
    return argv


def _parse(argv: list[str]) -> argparse.Namespace:
    from ..versions import load_entry_points  # noqa: PLC0415 - the registry imports pydantic

    parser = argparse.ArgumentParser(prog="mcp-skew", exit_on_error=False)
    sub = parser.add_subparsers(dest="command")
    probe_parser.register(sub)
    probe_client_parser.register(sub)
    try:
        args = parser.parse_args(argv)
    except argparse.ArgumentError as exc:
        raise UsageError(f"action inputs: {exc}") from None
    args.registry = load_entry_points()
    args.profile = []  # the action takes no --profile files: the built-in revisions
    return args


def _append(path: str | None, text: str) -> None:
    """Append to a file the runner named (the summary, the outputs); absent: nothing."""
    if path:
        with Path(path).open("a", encoding="utf-8") as f:
            f.write(text)


def _progress(command: str) -> Callable[[str], None]:
    """Progress lines on stderr, named as the command the step runs says them (``mcp-skew
    probe: ...``, in client mode ``mcp-skew probe-client: ...``), escaped for the log."""
    def say(text: str) -> None:
        print(terminal_safe(f"mcp-skew {command}: {text}"), file=sys.stderr, flush=True)
    return say


def _outputs(env: Mapping[str, str], values: Mapping[str, str]) -> None:
    _append(env.get("GITHUB_OUTPUT"), "".join(f"{k}={v}\n" for k, v in values.items()))


def _out_dir(env: Mapping[str, str], name: str) -> Path:
    """The folder the step writes its reports into (under the runner's temp folder)."""
    out = Path(env.get("RUNNER_TEMP") or ".") / name
    out.mkdir(parents=True, exist_ok=True)
    return out


def _publish(env: Mapping[str, str], out: Path, outputs: Mapping[str, str],
             rendered: Callable[[str], str], *, screen: str) -> None:
    """Write each report format into ``out``, print the ``screen`` one, add the summary to
    the job's step summary."""
    for fmt, name in outputs.items():
        (out / name).write_text(rendered(fmt) + "\n", encoding="utf-8")
    print(rendered(screen))
    _append(env.get("GITHUB_STEP_SUMMARY"), rendered("summary") + "\n")


def _paths(out: Path, outputs: Mapping[str, str]) -> dict[str, str]:
    """The step's path outputs: the folder and its JSON, JUnit and HTML files."""
    return {"dir": str(out), **{fmt: str(out / outputs[fmt]) for fmt in ("json", "junit", "html")}}


def _run_client(env: Mapping[str, str], args: argparse.Namespace) -> int:
    """Client mode: one ``probe-client`` run, its files, summary and outputs."""
    from ..probe_client import exit_code, options, probe_client, render  # noqa: PLC0415

    words, opts = options(args)
    out = _out_dir(env, "mcp-skew-probe-client")
    report = probe_client(words, opts, None if args.quiet else _progress("probe-client"))
    if all(r.spawn_error for r in report.runs):
        raise UsageError(str(report.runs[0].spawn_error))
    _publish(env, out, CLIENT_OUTPUTS, lambda fmt: render(report, fmt), screen="text")
    code = exit_code(report)
    _outputs(env, {**_paths(out, CLIENT_OUTPUTS), "peer": report.inferred.notation or "",
                   "exit-code": str(code)})
    return code


def run(env: Mapping[str, str]) -> int:
    """The step; returns the probe's exit code (see the module docstring)."""
    from ..probe import exit_code, options, probe, render  # noqa: PLC0415 - when a probe runs

    args = _parse(_argv(env))
    if args.command == "probe-client":
        return _run_client(env, args)
    target, opts = options(args)
    out = _out_dir(env, "mcp-skew-probe")
    report = probe(target, opts, None if args.quiet else _progress("probe"))
    _publish(env, out, OUTPUTS, lambda fmt: render(report, fmt), screen="terminal")
    code = exit_code(report)
    _outputs(env, {**_paths(out, OUTPUTS),
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

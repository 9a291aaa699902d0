"""How a signal stops a command (``mcp_skew._stopping``), in this process: the command line
takes SIGTERM and SIGHUP before it builds its parser, and a stop whose raise was swallowed
(Python drops an exception raised in a weakref callback or a ``__del__``, which the import
system runs) still stops the command, and refuses new processes meanwhile."""

from __future__ import annotations

import os
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from _fuzz import run_cli
from _waits import BOUND_S, until

from mcp_skew import _stopping, cli
from mcp_skew.wire import _procs


def _swallowed_sigterm() -> None:
    """SIGTERM to this process, its raise caught and dropped (as an "Exception ignored")."""
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        signal.pthread_sigmask(signal.SIG_BLOCK, [])  # a call: the handler has run by now
    except _stopping.Terminated:
        pass


@pytest.fixture(autouse=True)
def _procs_reopened() -> Any:
    yield
    _procs.reopen()


def test_a_swallowed_stop_raises_again_when_the_command_ends() -> None:
    ran_on = []
    with pytest.raises(_stopping.Terminated) as caught, _stopping.stopping():
        _swallowed_sigterm()
        ran_on.append(True)
        with pytest.raises(OSError, match="ending"):  # no new process meanwhile
            _procs.spawn(["never-run"])
    assert ran_on == [True] and caught.value.signum == signal.SIGTERM
    _stopping.check()  # the next command starts clean


def test_check_raises_a_swallowed_stop_at_once() -> None:
    with pytest.raises(_stopping.Terminated), _stopping.stopping():
        _swallowed_sigterm()
        with pytest.raises(_stopping.Terminated):
            _stopping.check()


def test_check_without_a_stop_does_nothing() -> None:
    with _stopping.stopping():
        _stopping.check()


def test_the_handlers_are_in_place_before_the_parser_is_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []

    def parser() -> Any:
        seen.append(signal.getsignal(signal.SIGTERM))
        raise SystemExit(2)  # as argparse does

    monkeypatch.setattr(cli, "_parser", parser)
    with pytest.raises(SystemExit):
        cli.main(["versions"])
    assert seen == [_stopping._raise]
    assert signal.getsignal(signal.SIGTERM) is not _stopping._raise  # put back after


def test_a_stop_swallowed_while_the_command_line_loads_runs_no_command(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = cli._parser

    def parser() -> Any:
        assert signal.getsignal(signal.SIGTERM) is _stopping._raise  # else the kill ends pytest
        _swallowed_sigterm()
        return real()

    monkeypatch.setattr(cli, "_parser", parser)
    code, out, err = run_cli(["versions"])
    assert (code, out) == (128 + signal.SIGTERM, "")
    assert "mcp-skew: stopped (SIGTERM)" in err


def test_a_stop_the_command_handled_is_not_raised_again() -> None:
    # census: "interrupted; DB keeps N finished rows", then its own exit_code: one message
    with _stopping.stopping():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            signal.pthread_sigmask(signal.SIG_BLOCK, [])
        except _stopping.Terminated as exc:
            assert _stopping.exit_code(exc) == 128 + signal.SIGTERM


def test_a_stop_before_the_wire_registered_its_hooks_still_stops(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the signal lands before mcp_skew.wire._procs registered its clean-up (it is being
    # imported); the stop must still be a Terminated, never an error
    monkeypatch.setattr(_stopping, "_hooks", {})
    with pytest.raises(_stopping.Terminated), _stopping.stopping():
        os.kill(os.getpid(), signal.SIGTERM)
        signal.pthread_sigmask(signal.SIG_BLOCK, [])  # a call: the handler has run by now


def test_a_swallowed_ctrl_c_raises_again_when_the_command_ends() -> None:
    # Ctrl-C as a terminal gives it (a suite started in the background has SIGINT ignored)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _swallowed_ctrl_c_case()
    finally:
        signal.signal(signal.SIGINT, previous)


def _swallowed_ctrl_c_case() -> None:
    ran_on = []
    with pytest.raises(KeyboardInterrupt) as caught, _stopping.stopping():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            signal.pthread_sigmask(signal.SIG_BLOCK, [])  # a call: the handler has run by now
        except KeyboardInterrupt:
            pass  # dropped, as an "Exception ignored in" callback drops it
        ran_on.append(True)
        assert not _procs._closing  # Ctrl-C lets the running work finish: spawn not refused
    assert ran_on == [True]
    assert _stopping.exit_code(caught.value) == 128 + signal.SIGINT
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back after


def test_a_handled_stop_is_not_reported_by_the_interpreter_as_a_sigint_death() -> None:
    ctypes = pytest.importorskip("ctypes")
    try:
        flag = ctypes.c_int.in_dll(ctypes.pythonapi, "_Py_UnhandledKeyboardInterrupt")
    except ValueError:
        pytest.skip("this interpreter keeps the mark elsewhere")
    try:
        exec("raise KeyboardInterrupt")  # as the method a dataclass builds would
    except KeyboardInterrupt as exc:
        assert flag.value == 1  # the interpreter would end itself by SIGINT at exit
        assert _stopping.exit_code(exc) == 128 + signal.SIGINT
    assert flag.value == 0


def test_a_stop_calls_the_hooks_a_layer_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    hooks = _stopping.StopHooks(refuse=lambda: calls.append("refuse"),
                                end_all=lambda refusing: calls.append(f"end_all {refusing}"),
                                reopen=lambda: calls.append("reopen"))
    monkeypatch.setattr(_stopping, "_hooks", {})
    _stopping.register("test", hooks)
    with pytest.raises(_stopping.Terminated), _stopping.stopping():
        os.kill(os.getpid(), signal.SIGTERM)
        signal.pthread_sigmask(signal.SIG_BLOCK, [])  # a call: the handler has run by now
    assert calls == ["refuse", "end_all True", "reopen"]
    calls.clear()
    with _stopping.stopping():
        pass
    assert calls == ["end_all False", "reopen"]


def test_the_wire_registers_its_clean_up_on_import() -> None:
    hooks = _stopping._hooks["wire"]
    assert (hooks.refuse, hooks.reopen) == (_procs.refuse, _procs.reopen)


_getsignal = signal.getsignal


def _signalled_from_a_worker(sig: signal.Signals) -> tuple[Any, Any]:
    """A job that, once the main thread is blocked in a lock's wait, sends ``sig`` to its own
    thread (the kernel may deliver a process's signal to any thread), then waits for a
    release that only comes after the stop was seen."""
    release = threading.Event()
    main = threading.main_thread().ident
    assert main is not None

    def waiting() -> bool:
        """The main thread is blocked in a lock's wait under the wait being tested."""
        frame = sys._current_frames()[main]
        if frame.f_code.co_name != "wait":
            return False
        names = set()
        while frame is not None:
            names.add(frame.f_code.co_name)
            frame = frame.f_back
        return bool(names & {"first_done", "result", "as_completed", "map"})

    def job() -> bool:
        until(waiting, "the main thread to wait for this job")
        signal.pthread_kill(threading.get_ident(), sig)
        return release.wait(BOUND_S)  # with a plain wait, the stop comes only now

    return job, release


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
@pytest.mark.parametrize("wait", ["gather", "finished", "first_done"])
def test_a_stop_delivered_to_another_thread_stops_the_main_threads_wait(
        wait: str, sig: signal.Signals, monkeypatch: pytest.MonkeyPatch) -> None:
    # as a terminal delivers it: the suite may run under nohup, and an ignored SIGHUP stays
    # ignored inside stopping() (the job would only end at its bound)
    monkeypatch.setattr(signal, "getsignal", lambda s: signal.SIG_DFL if s == sig
                        else _getsignal(s))
    job, release = _signalled_from_a_worker(sig)
    pool = ThreadPoolExecutor(1)
    try:
        with pytest.raises(_stopping.Terminated) as caught, _stopping.stopping():
            future = pool.submit(job)
            if wait == "gather":
                _stopping.gather([future])
            elif wait == "finished":
                list(_stopping.finished([future]))
            else:
                _stopping.first_done({future})
        assert caught.value.signum == sig
        assert not future.done()  # the wait ended before the work did
    finally:
        release.set()
        pool.shutdown(wait=True)


def test_gather_gives_the_results_in_order_and_the_first_failure() -> None:
    def fail() -> int:
        raise ValueError("no")

    with ThreadPoolExecutor(2) as pool:
        assert _stopping.gather([pool.submit(lambda n=n: n * n) for n in range(5)]) == [
            0, 1, 4, 9, 16]
        with pytest.raises(ValueError, match="no"):
            _stopping.gather([pool.submit(lambda: 1), pool.submit(fail)])

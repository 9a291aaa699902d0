"""The driven client: a machine says what to send, the caller performs it and hands back what came.

- driven by hand, event by event, a negotiation gives the same session as
  :func:`drive` over a link (the caller is free to wait however it likes);
- the machine refuses an answer that does not fit the action it waits on;
- a restart that cannot start a fresh process is answered ``Closed``, which the
  prober reads as the end of its run.
"""

from __future__ import annotations

from typing import Any

import pytest
from _links import ScriptedLink

from mcp_skew.probe._clients import prober
from mcp_skew.simulator import SimClient, parse_peer
from mcp_skew.simulator._link import LinkObserver
from mcp_skew.simulator.machine import Closed, Reply, Timeout
from mcp_skew.simulator.machine._machine import Finished, Notify, Restart, Send

REV = "2025-11-25"


def _initialize_result(message: dict[str, Any]) -> Reply:
    body = {"protocolVersion": REV, "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}
    return Reply({"jsonrpc": "2.0", "id": message["id"], "result": body})


class _Clock:
    def now_ms(self) -> int:
        return 0

    def position(self) -> int:
        return 0


def test_a_negotiation_driven_by_hand_is_the_one_drive_gives() -> None:
    machine = SimClient(parse_peer(f"legacy:{REV}", "client")).negotiation(_Clock())
    action = machine.start()
    assert isinstance(action, Send) and action.message["method"] == "initialize"
    action = machine.send(_initialize_result(action.message))
    assert isinstance(action, Notify) and action.message["method"] == "notifications/initialized"
    done = machine.send(None)
    assert isinstance(done, Finished)
    by_hand = done.value
    link = ScriptedLink(_initialize_result)
    driven = SimClient(parse_peer(f"legacy:{REV}", "client")).negotiate(link)
    assert (by_hand.status, by_hand.revision, by_hand.path) == (driven.status, driven.revision,
                                                                 driven.path)
    assert by_hand.path == [f"initialize {REV}", f"accepted {REV}"]


def test_the_machine_refuses_an_answer_that_does_not_fit() -> None:
    machine = SimClient(parse_peer(f"legacy:{REV}", "client")).negotiation(_Clock())
    action = machine.start()
    assert isinstance(action, Send)
    with pytest.raises(RuntimeError, match="takes an event"):
        machine.send(None)
    action = machine.send(_initialize_result(action.message))
    assert isinstance(action, Notify)
    with pytest.raises(RuntimeError, match="takes None"):
        machine.send(Timeout(10))
    assert isinstance(machine.send(None), Finished)
    with pytest.raises(RuntimeError, match="not waiting"):
        machine.send(None)


def test_a_restart_answered_closed_ends_the_prober() -> None:
    machine = prober(1000)
    action = machine.start()
    while not isinstance(action, Restart):  # the legacy part: every request times out
        action = machine.send(Timeout(1000) if isinstance(action, Send) else None)
    with pytest.raises(RuntimeError, match="takes None or Closed"):
        machine.send(Timeout(1))
    done = machine.send(Closed("could not start a fresh server process"))
    assert isinstance(done, Finished)
    assert done.value.status == "failed"
    assert done.value.reason == "could not start a fresh server process"
    assert done.value.path[-1] == "restart"


def test_a_link_observer_reads_the_links_clock_and_transcript() -> None:
    link = ScriptedLink(_initialize_result)
    observer = LinkObserver(link)
    SimClient(parse_peer(f"legacy:{REV}", "client")).negotiate(link)
    assert observer.position() == len(link.transcript.entries) == 3
    assert observer.now_ms() == link.now_ms() == 10

"""The transcript format's names and versions, and its event names (no models: a run
reads these without loading the checked models of :mod:`._jsonl`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

__all__ = ["DIRECTIONS", "EVENTS", "FORMAT", "FORMAT_VERSION", "RUN_FORMAT", "RUN_FORMAT_VERSION",
           "run_document"]

FORMAT: Final = "mcp-skew-transcript"
#: Bump when a key changes meaning or goes away (adding a key or an event name keeps it).
FORMAT_VERSION: Final = 1
DIRECTIONS: Final = ("c2s", "s2c", "stderr", "event")

#: ``simulate --json`` prints one run document of this format (``RunRecord.to_document``);
#: its ``transcript`` is a list of these records.
RUN_FORMAT: Final = "mcp-skew-run"
#: Bump when a key changes meaning or goes away (adding keys keeps the version).
#: 1 (unversioned): ``transcript`` held messages ``{t_ms, dir, message}`` and ``events``
#: the rest ``{t_ms, event, after}`` (:func:`._upgrade.legacy_run_records` reads it).
#: 2: ``transcript`` is the list of transcript records, messages and events in order;
#: ``events`` is gone.
RUN_FORMAT_VERSION: Final = 2


def run_document(run: Mapping[str, Any]) -> dict[str, Any]:
    """A run's plain data as the run document ``simulate --json`` prints: under the format's
    name and version (``RunRecord.to_document``; :func:`._read.load_text` reads it back)."""
    return {"format": RUN_FORMAT, "format_version": RUN_FORMAT_VERSION, **run}

#: The event names mcp-skew writes, and what each means. A reader keeps any other name.
EVENTS: Final[Mapping[str, str]] = {
    "start": "a server process started (`argv`, `pid`)",
    "restart": "the client restarts the server",
    "exit": "the server ended (`side`: `server`; `code`, or `signal` by name)",
    "timeout": "a request got no answer within its timeout; the client stopped waiting",
    "deadline": "a client's overall deadline passed; the request was not sent",
    "write-failed": "a line could not be written: the other side is gone",
    "client-eof": "the client closed its end of the connection",
    "eof": "one side's stream ended (`side`: `c2s`, `s2c` or `stderr`)",
    "signal": "the proxy got a signal and passed it on (`signal`)",
    "spawn-failed": "the server command could not be started (`argv`)",
    "no-answer": "the server holds a request unanswered (a quirk)",
    "http": "an HTTP exchange without a message body (`http`)",
    "auth": "the client's authorization (scenario auth): it starts, or it failed, and why",
    "cache": "the client's cache: a hit, a miss, a result kept or not, an invalidation, "
             "an era decision reused or dropped (simulated runs)",
    "server-change": "the simulated server was replaced by another (an upgrade, a downgrade)",
    "upstream": "behind a bridge: a message between the bridge and the server (`side`: `c2s` "
                "bridge to server, `s2c` server to bridge; `message`; `child`, which server "
                "process), or an event of that leg (`event`)",
    "bridge": "what a bridge did itself: started a server process (`child`), answered a "
              "request itself, refused its server",
    "mrtr": "a multi round-trip round: the client answers an input_required result's "
            "inputRequests and retries the request with requestState (simulated runs)",
    "note": "anything else, said in `text`",
}

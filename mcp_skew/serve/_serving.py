"""A simulated server served in this process for a client's run: what probe-client uses.

:class:`ServedForClient` is the one entry point: it serves a peer for a client program over
stdio (:class:`~._relayed.StdioServing`: ``words`` is the command the client spawns, a relay
to a server already listening here) or Streamable HTTP (:class:`HttpServing`: ``url`` on
loopback, port 0 or a given one, in a thread, the machinery of ``serve --http``,
:func:`~._http.make_http_server`), writes the wire to one log, reads that log back
(:meth:`ServedForClient.read_back`) and reads its entries as ``show-log`` does
(:meth:`ServedForClient.annotate`: the path, the outcome, the findings). The log's writer,
the HTTP server, the stdio serving and the annotator stay inside ``serve``.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Literal

from ..errors import UsageError
from ..simulator import PeerSpec
from ..versions import Registry
from ._annotate import annotate
from ._annotation import Annotation
from ._http import ServedEndpoint, make_http_server, server_url
from ._log import LogEntry, LogWriter, read_log
from ._relayed import StdioServing

__all__ = ["HttpServing", "ServedForClient"]


class HttpServing:
    """A simulated Streamable HTTP server on loopback (port 0), in a thread, logging to
    ``log``; :meth:`stop` ends it and closes the log."""

    def __init__(self, peer: PeerSpec, log: Path, port: int = 0) -> None:
        self.writer = LogWriter(log, source="serve")
        endpoint = ServedEndpoint(peer, say=lambda _text: None)
        try:
            self.server = make_http_server(endpoint, "127.0.0.1", port, log=self.writer)
        except OSError:  # the port was taken in between: another one (a new URL)
            self.server = make_http_server(endpoint, "127.0.0.1", 0, log=self.writer)
        self.url = server_url(self.server)
        self.writer.event("start", f"mcp-skew probe-client serves {peer.notation} on "
                          f"{self.url}", peer=peer.notation, url=self.url)
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.stop_streams(timeout=1.0)
        self.server.shutdown()
        self.thread.join(timeout=5)
        self.server.server_close()
        self.writer.close()


class ServedForClient:
    """``peer`` served here for a client's run over ``transport``, the wire to ``log``.

    Over ``"stdio"``, :attr:`words` is the command the client spawns for its server (a relay,
    run by ``python``, joined to the server listening at :attr:`path`), :attr:`stamps` when
    the client started each one; over ``"http"``, :attr:`url` is the server's URL on loopback,
    on ``port`` (0: any; taken in between: another) and :attr:`port` the one it got.
    :meth:`stop` (or leaving the ``with`` block) ends the server, its connections and the log.
    """

    def __init__(self, peer: PeerSpec, log: Path, transport: Literal["stdio", "http"], *,
                 port: int = 0, python: str = sys.executable) -> None:
        self._stdio: StdioServing | None = None
        self._http: HttpServing | None = None
        self._stopped = False
        self.words: list[str] = []  #: the stdio command's words, else empty
        self.path = ""  #: the stdio server's socket, else empty
        self.url = ""  #: the HTTP server's URL, else empty
        self.port = 0  #: the HTTP server's port, else 0
        if transport == "http":
            self._http = HttpServing(peer, log, port)
            self.url = self._http.url
            self.port = int(self._http.server.server_address[1])
        else:
            self._stdio = StdioServing(peer, log, python)
            self.words = self._stdio.words
            self.path = self._stdio.path

    @property
    def stamps(self) -> list[float]:
        """When the client started each stdio server process (wall clock); none over HTTP."""
        return list(self._stdio.stamps) if self._stdio is not None else []

    def upgrade(self, peer: PeerSpec, log: Path) -> None:
        """Over stdio: from now on serve ``peer`` on the same command, logging to ``log``
        (the connections of the run before are ended). Over HTTP a new server is one more
        :class:`ServedForClient` on this one's :attr:`port`: ValueError."""
        if self._stdio is None:
            raise ValueError("upgrade: over HTTP, serve the new peer on the same port")
        self._stdio.upgrade(peer, log)

    def stop(self) -> None:
        """End the server, every connection and the log (idempotent; :attr:`stamps` stay)."""
        if self._stopped:
            return
        self._stopped = True
        if self._http is not None:
            self._http.stop()
        if self._stdio is not None:
            self._stdio.stop()

    def __enter__(self) -> ServedForClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    @staticmethod
    def read_back(log: Path) -> list[LogEntry]:
        """The entries of the wire log ``log``; none when it is missing, empty or unreadable."""
        if log.exists() and log.stat().st_size:
            try:
                return read_log(log)[0]
            except UsageError:
                return []
        return []

    @staticmethod
    def annotate(entries: list[LogEntry], registry: Registry) -> Annotation:
        """The reading of a log's entries (as :meth:`read_back` gives them, on any clock), as
        ``show-log`` gives it: per entry its notes, the path, the outcome, the findings; the
        revisions named are looked up in ``registry``."""
        return annotate(entries, registry)

"""A simulated Streamable HTTP server served in this process for a client's run.

:class:`HttpServing` serves a peer on loopback (port 0: any free port), in a thread, the
machinery of ``serve --http`` (:func:`~._http.make_http_server`), logging the wire to one
log; the stdio counterpart is :class:`~._relayed.StdioServing`.
"""

from __future__ import annotations

import threading
from pathlib import Path

from ..simulator import PeerSpec
from ._http import ServedEndpoint, make_http_server, server_url
from ._log import LogWriter

__all__ = ["HttpServing"]


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

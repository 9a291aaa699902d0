"""A total deadline for one HTTP exchange, whatever the server does; openers for http(s) only.

A socket timeout bounds one read, and starts again with every byte: a server (or an
authorization server) that sends one byte every few seconds holds a request with a 10 s
read timeout for ever. A :class:`Deadline` bounds the whole exchange instead: each socket
made for it (the connection, through a proxy or a redirect too) is *watched*, and when the
deadline passes a timer shuts the sockets down, so whatever is blocked on them (a connect,
a TLS handshake, the status line, the headers, a body) returns at once, with end of file
or an error. :attr:`Deadline.expired` then says why the answer was cut.

:func:`opener` builds the ``urllib`` opener of one exchange: the HTTP and HTTPS handlers
whose connections the deadline watches, and no handler of another scheme (``file:``,
``data:``, ``ftp:`` are "unknown url type" errors, never opened). :func:`read_capped` reads
a body up to a cap and says when there was more.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
import urllib.request
from typing import Any

__all__ = ["Deadline", "opener", "read_capped"]


class Deadline:
    """``seconds`` from now: every socket :meth:`watch`-ed is shut down then, unless
    :meth:`cancel` came first. A context manager that cancels on exit."""

    def __init__(self, seconds: float) -> None:
        self.seconds = max(seconds, 0.0)
        self.at = time.monotonic() + self.seconds
        self._lock = threading.Lock()
        self._socks: list[socket.socket] = []
        self.expired = False
        self._timer = threading.Timer(self.seconds, self._expire)
        self._timer.daemon = True
        self._timer.name = "mcp-skew-deadline"
        self._timer.start()

    def left(self) -> float:
        """Seconds until the deadline (0 once it passed)."""
        return max(0.0, self.at - time.monotonic())

    @property
    def passed(self) -> bool:
        """Whether the deadline has passed (its timer may not have fired yet)."""
        return self.expired or time.monotonic() >= self.at

    def watch(self, sock: socket.socket) -> None:
        """Shut ``sock`` down at the deadline (at once when it has passed)."""
        with self._lock:
            if not self.expired:
                self._socks.append(sock)
                return
        _shut(sock)

    def release(self, sock: socket.socket | None) -> None:
        """No longer watch ``sock`` (a long-lived stream handed on after its headers)."""
        with self._lock:
            if sock in self._socks:
                self._socks.remove(sock)

    def cancel(self) -> None:
        self._timer.cancel()

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            socks, self._socks = self._socks, []
        for sock in socks:
            _shut(sock)

    def __enter__(self) -> Deadline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


#: The socket timeout of a watched connection is what is left of its deadline plus this:
#: the deadline ends the exchange, the socket timeout only bounds a connect (which a
#: shutdown does not end) and backs the deadline up.
SOCKET_GRACE_S = 1.0


def connection(deadline: Deadline, https: bool, host: str, **kwargs: Any
               ) -> http.client.HTTPConnection:
    """An ``http.client`` connection whose socket ``deadline`` watches from its creation
    (before a TLS handshake), its connect and read timeout what is left of the deadline
    (plus :data:`SOCKET_GRACE_S`)."""
    cls = http.client.HTTPSConnection if https else http.client.HTTPConnection
    kwargs.pop("timeout", None)
    kwargs["timeout"] = deadline.left() + SOCKET_GRACE_S
    conn = cls(host, **kwargs)

    def create(address: tuple[str, int], timeout: float | None = None,
               source_address: tuple[str, int] | None = None) -> socket.socket:
        sock = socket.create_connection(address, timeout, source_address)
        deadline.watch(sock)
        return sock

    conn._create_connection = create  # type: ignore[attr-defined]  # http.client's hook
    return conn


class _Http(urllib.request.HTTPHandler):
    def __init__(self, deadline: Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def http_open(self, req: urllib.request.Request) -> Any:
        def make(host: str, **kwargs: Any) -> http.client.HTTPConnection:
            return connection(self._deadline, False, host, **kwargs)
        return self.do_open(make, req)


class _Https(urllib.request.HTTPSHandler):
    def __init__(self, deadline: Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def https_open(self, req: urllib.request.Request) -> Any:
        def make(host: str, **kwargs: Any) -> http.client.HTTPConnection:
            return connection(self._deadline, True, host, **kwargs)
        return self.do_open(make, req, context=getattr(self, "_context", None))


def opener(deadline: Deadline, redirects: urllib.request.HTTPRedirectHandler
           ) -> urllib.request.OpenerDirector:
    """An opener for ``http:`` and ``https:`` only (a proxy from the environment as urllib's
    default opener uses one), every connection watched by ``deadline``, redirects as
    ``redirects`` says."""
    director = urllib.request.OpenerDirector()
    for handler in (urllib.request.ProxyHandler(), urllib.request.UnknownHandler(),
                    _Http(deadline), _Https(deadline),
                    urllib.request.HTTPDefaultErrorHandler(), redirects,
                    urllib.request.HTTPErrorProcessor()):
        director.add_handler(handler)
    return director


def read_capped(resp: Any, cap: int) -> tuple[bytes, bool]:
    """Up to ``cap`` bytes of ``resp``'s body, and whether there was more (the rest unread)."""
    data: bytes = resp.read(cap + 1)
    return data[:cap], len(data) > cap

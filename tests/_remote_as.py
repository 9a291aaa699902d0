"""An MCP server whose authorization server is on another origin (another host or port),
for the tests of the probe and the simulated client following it there: the fetcher routes
each request to the side its origin names, and remembers what each side received."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from mcp_skew.simulator.http import HttpRequest, HttpResponse
from mcp_skew.simulator.http.auth import AuthServer
from mcp_skew.simulator.http.auth._server import guard
from mcp_skew.versions import LAYOUTS

__all__ = ["RemoteAs", "answer_of"]


def answer_of(response: HttpResponse | None) -> HttpResponse:
    if response is None:
        return HttpResponse(404, b"")
    return HttpResponse(response.status, response.encoded(),
                        {k.lower(): v for k, v in response.headers.items()})


@dataclass
class RemoteAs:
    """The MCP server at ``mcp_origin``, its authorization server at ``as_origin``."""

    mcp_origin: str
    as_origin: str
    layout: str = "prm"
    #: (origin, path, headers) of every request, in order
    seen: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.auth = AuthServer(self.mcp_origin, LAYOUTS[self.layout], as_origin=self.as_origin)

    @property
    def url(self) -> str:
        return self.mcp_origin + "/mcp"

    def fetch(self, url: str, ask: HttpRequest, headers: Mapping[str, str]) -> HttpResponse:
        """What ``mcp_skew.probe._auth.discover`` calls for each request."""
        scheme, _, rest = url.partition("://")
        host, _, path = rest.partition("/")
        origin, path = f"{scheme}://{host}", "/" + path
        sent = {k.lower(): v for k, v in {**headers, **ask.headers}.items()}
        self.seen.append((origin, path, sent))
        request = HttpRequest(ask.method, path, sent, ask.body)
        if origin == self.mcp_origin:
            return answer_of(guard(self.auth, request))
        if origin == self.as_origin:
            return answer_of(self.auth.handle(request, at_as=True))
        return HttpResponse(0)  # nobody there

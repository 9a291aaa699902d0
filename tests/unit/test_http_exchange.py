"""One HTTP exchange: one request type and one response type in the package, and one real
HTTP client.

Whoever sends or reads HTTP (the simulated client and endpoint, the authorization flow, the
real link of :mod:`mcp_skew.wire`, the probe's authorization discovery, the census's
registry pages, ``serve --http``) speaks :class:`~mcp_skew.simulator.http.HttpRequest` and
:class:`~mcp_skew.simulator.http.HttpResponse` (``simulator/http/_words.py``: low enough
for the simulator, which imports nothing above ``versions``, and for everything above it).
A static check lists every class of ``mcp_skew`` shaped like one (:func:`exchange_classes`),
so that a second request or response type fails here; and every module that builds a
``urllib`` request or opens an HTTP connection, so that a second real HTTP client does.
The self-tests run both checks on synthetic source, so this test can fail.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from mcp_skew.simulator.http import HttpRequest, HttpResponse

ROOT = Path(__file__).resolve().parents[2]

#: What marks a request (an HTTP method) and a response (an HTTP status) among a class's fields.
_MARKS = frozenset({"method", "status"})
#: The parts of an exchange beside them: headers, a body (or the messages read from one), a
#: content type, or the raw response of a client library. (Not ``reason``: a run's outcome
#: has a status and a reason too.)
_PARTS = frozenset({"headers", "body", "parts", "ctype", "content_type", "resp"})
#: The one request type and the one response type (module, class).
THE_TYPES = {("mcp_skew/simulator/http/_words.py", "HttpRequest"),
             ("mcp_skew/simulator/http/_words.py", "HttpResponse")}
#: The one real HTTP client: the modules that build a ``urllib`` request or open an HTTP
#: connection (:data:`_CLIENT_CALLS`), and why.
CLIENT_MODULES = {
    "mcp_skew/wire/http.py": "the one real HTTP client (send), the HTTP link's SSE stream",
    "mcp_skew/wire/_deadline.py": "the connections send's opener makes, watched by a deadline",
    "mcp_skew/realpeers/servers/mcp_remote_client.py":
        "not part of the package at run time: a script the real-peer tests run as a client "
        "program's browser (it imports nothing of mcp_skew)",
}
_CLIENT_CALLS = frozenset({"Request", "urlopen", "build_opener", "OpenerDirector",
                           "HTTPConnection", "HTTPSConnection"})
_CLIENT_LIBRARIES = frozenset({"urllib.request", "http.client"})


def _fields(node: ast.ClassDef) -> set[str]:
    """A class's fields: its annotated names, and what its ``__init__`` sets on ``self``."""
    names = {item.target.id for item in node.body
             if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            for sub in ast.walk(item):
                targets = sub.targets if isinstance(sub, ast.Assign) else \
                    [sub.target] if isinstance(sub, ast.AnnAssign) else []
                targets = [e for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
                names |= {t.attr for t in targets if isinstance(t, ast.Attribute)
                          and isinstance(t.value, ast.Name) and t.value.id == "self"}
    return names


def exchange_classes(source: str) -> Iterator[str]:
    """The classes of ``source`` shaped like an HTTP request or response: a method or a
    status, with at least one other part of an exchange."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            fields = _fields(node)
            if fields & _MARKS and fields & _PARTS:
                yield node.name


def client_calls(source: str) -> Iterator[str]:
    """The calls of ``source`` that build a ``urllib`` request or open an HTTP connection."""
    tree = ast.parse(source)
    imported = {alias.asname or alias.name for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module in _CLIENT_LIBRARIES
                for alias in node.names}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in imported and func.id in _CLIENT_CALLS:
            yield func.id
        elif isinstance(func, ast.Attribute) and func.attr in _CLIENT_CALLS and \
                ast.unparse(func.value) in _CLIENT_LIBRARIES:
            yield func.attr


def _modules() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "mcp_skew").rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


def test_one_request_type_and_one_response_type() -> None:
    found = {(name, cls) for name, text in _modules() for cls in exchange_classes(text)}
    assert found == THE_TYPES, \
        "a second HTTP request or response type: use simulator.http's HttpRequest/HttpResponse"


def test_one_real_http_client() -> None:
    found = {name for name, text in _modules() if any(client_calls(text))}
    assert found == set(CLIENT_MODULES), \
        "a second real HTTP client: send it with mcp_skew.wire.send"


def test_the_types_are_what_the_check_looks_for() -> None:
    # the check would see the one types themselves (so it would see a copy of them)
    assert {"method", "headers", "body"} <= set(HttpRequest.__dataclass_fields__)
    assert {"status", "headers", "body"} <= set(HttpResponse.__dataclass_fields__)


def test_the_check_finds_the_shapes_of_old() -> None:
    # the shapes an HTTP exchange had before it was one (issue 34): each would fail the check
    old = '''
@dataclass
class Fetch:
    method: str
    target: str
    headers: dict
class Fetched(NamedTuple):
    status: int
    headers: dict
    body: bytes = b""
class _Answer:
    status: int
    reason: str
    ctype: str
    resp: object
class HttpReading:
    status: int
    parts: tuple = ()
class Plain:
    def __init__(self, status, body):
        self.status, self.body = status, body
class Reply:
    message: dict
    status: int | None = None
'''
    assert sorted(exchange_classes(old)) == ["Fetch", "Fetched", "HttpReading", "Plain", "_Answer"]


def test_the_check_finds_a_second_client() -> None:
    assert list(client_calls("import urllib.request\nurllib.request.Request('http://x')")) \
        == ["Request"]
    assert list(client_calls("import http.client\nhttp.client.HTTPConnection('x')")) \
        == ["HTTPConnection"]
    assert list(client_calls("from urllib.request import urlopen\nurlopen('http://x')")) \
        == ["urlopen"]
    assert list(client_calls("from starlette.requests import Request\nr = x.Request(s)")) == []

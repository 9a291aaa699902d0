"""Census sources: listings in the official MCP Registry's format, read into jobs.

A listing is one of

- a saved response of the registry's list API, ``GET /v0/servers`` (or a JSON
  array of such pages, or several files of them): ``{"servers": [{"server":
  {...server.json...}, "_meta": {...}}], "metadata": {"nextCursor": ...}}``
  (modelcontextprotocol/registry ``docs/reference/api/openapi.yaml``, schema
  ``ServerList``; ``docs/reference/api/generic-registry-api.md``);
- a folder of ``server.json`` files (``*.json``, read in name order);
- a JSON Lines file, one ``server.json`` (or one ``{"server": ...}`` item) a line;
- the list API itself (:func:`read_registry`), page by page, following
  ``metadata.nextCursor`` in the ``cursor`` query parameter.

Each server's ``packages[]`` (``registryType``, ``identifier``, ``version``,
``transport``, ``runtimeHint``, ``runtimeArguments``, ``packageArguments``,
``environmentVariables``) and ``remotes[]`` (``type`` ``streamable-http`` or
``sse``, ``url``, ``headers``) become one :class:`Job` each (registry
``docs/reference/server-json/generic-server-json.md``, schema ``Package``,
``RemoteTransport``). Everything from outside is checked here: a malformed
listing raises :class:`ListingError` with one line naming the file, the entry
and the field. One kind of bad entry is set aside instead, and the others probed: an entry
holding a string that is not text (a lone surrogate such as ``"\\ud800"``, which a JSON
escape can carry and no UTF-8 file, database or command line can hold); the caller gets
one line per entry set aside (``invalid``).
"""

from __future__ import annotations

import http.client
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .. import _jsontext
from ..errors import UsageError
from ..simulator.http import HttpRequest
from ..wire import Deadline, read_capped, send

__all__ = ["Job", "ListingError", "read_listing", "read_registry", "server_jobs"]

#: Where the list API lives under a registry's base URL (registry openapi.yaml ``/v0/servers``).
LIST_PATH: Final = "/v0/servers"
_PAGE_LIMIT: Final = 100
_MAX_PAGE_BYTES: Final = 32 << 20


#: Python types as JSON names them, for the error lines.
_JSON_TYPES: Final[dict[type, str]] = {str: "a string", bool: "a boolean", int: "a number",
                                       float: "a number", list: "an array", dict: "an object"}


class ListingError(UsageError):
    """A listing that is not in the registry's format: one line, exit code 2."""


@dataclass(frozen=True, slots=True)
class Job:
    """One package or one remote of one server entry: what one worker probes.

    ``spec`` is the package (or remote) object as the listing gives it, checked;
    the worker reads how to install and start it from there.
    """

    server: str
    version: str
    kind: str  #: "package" or "remote"
    index: int
    spec: Mapping[str, Any]

    @property
    def key(self) -> str:
        """The row's key in the census database: stable across runs of the same listing."""
        return f"{self.server}@{self.version}#{self.kind}{self.index}"

    @property
    def what(self) -> str:
        """A short description: ``npm @scope/pkg@1.2.3`` or ``remote https://...``."""
        if self.kind == "remote":
            return f"remote {self.spec.get('url', '?')}"
        return (f"{self.spec.get('registryType', '?')} {self.spec.get('identifier', '?')}"
                f"@{self.spec.get('version', '?')}")


# -- checks ------------------------------------------------------------------------------------
def _need(obj: Mapping[str, Any], field: str, kind: type | tuple[type, ...], where: str,
          required: bool = True) -> Any:
    value = obj.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, kind):
        what = "missing" if value is None else f"got {_JSON_TYPES.get(type(value), 'a value')}"
        expected = kind if isinstance(kind, tuple) else (kind,)
        raise ListingError(f"{where}.{field}: {what}, expected "
                           + " or ".join(_JSON_TYPES.get(k, k.__name__) for k in expected))
    return value


def _check_input(item: Any, where: str, *, named: bool) -> None:
    """An Argument or a KeyValueInput (schema ``Input``): strings and booleans where given."""
    if not isinstance(item, dict):
        raise ListingError(f"{where}: expected an object")
    if named:
        _need(item, "name", str, where)
    for field in ("value", "default", "valueHint"):
        _need(item, field, str, where, required=False)
    for field in ("isRequired", "isSecret", "isRepeated"):
        _need(item, field, bool, where, required=False)
    variables = _need(item, "variables", dict, where, required=False) or {}
    for name, var in variables.items():
        _check_input(var, f"{where}.variables.{name}", named=False)


def _check_list(obj: Mapping[str, Any], field: str, where: str, *, named: bool) -> None:
    for i, item in enumerate(_need(obj, field, list, where, required=False) or []):
        _check_input(item, f"{where}.{field}[{i}]", named=named
                     or (isinstance(item, dict) and item.get("type") == "named"))


def _check_package(pkg: Any, where: str) -> None:
    if not isinstance(pkg, dict):
        raise ListingError(f"{where}: expected an object")
    for field in ("registryType", "identifier"):
        _need(pkg, field, str, where)
    for field in ("version", "runtimeHint"):
        _need(pkg, field, str, where, required=False)
    transport = _need(pkg, "transport", dict, where)
    _need(transport, "type", str, f"{where}.transport")
    for field in ("runtimeArguments", "packageArguments"):
        _check_list(pkg, field, where, named=False)
    _check_list(pkg, "environmentVariables", where, named=True)


def _check_remote(remote: Any, where: str) -> None:
    if not isinstance(remote, dict):
        raise ListingError(f"{where}: expected an object")
    _need(remote, "type", str, where)
    _need(remote, "url", str, where)
    _check_list(remote, "headers", where, named=True)


def server_jobs(server: Any, where: str) -> list[Job]:
    """The jobs of one ``server.json`` object (checked)."""
    if not isinstance(server, dict):
        raise ListingError(f"{where}: expected a server.json object")
    name = _need(server, "name", str, where)
    version = _need(server, "version", str, where)
    jobs = []
    for kind, check in (("package", _check_package), ("remote", _check_remote)):
        for i, item in enumerate(_need(server, f"{kind}s", list, where, required=False) or []):
            check(item, f"{where} ({name}).{kind}s[{i}]")
            jobs.append(Job(name, version, kind, i, item))
    return jobs


# -- the shapes of a listing -------------------------------------------------------------------
def _item_server(item: Any) -> Any:
    """A list-API item (``{"server": ..., "_meta": ...}``) or a bare server.json."""
    if isinstance(item, dict) and isinstance(item.get("server"), dict):
        return item["server"]
    return item


def _page_servers(page: Any, where: str) -> tuple[list[Any], str | None]:
    """The servers of one list-API page and its ``metadata.nextCursor``."""
    if not isinstance(page, dict) or not isinstance(page.get("servers"), list):
        raise ListingError(f"{where}: not a list-API page (no \"servers\" array)")
    meta = page.get("metadata")
    cursor = meta.get("nextCursor") if isinstance(meta, dict) else None
    if cursor is not None and not isinstance(cursor, str):
        raise ListingError(f"{where}: metadata.nextCursor is not a string")
    return page["servers"], cursor or None


def _document_servers(doc: Any, where: str) -> Iterator[tuple[Any, str]]:
    """A saved page, a JSON array of pages, or a bare server.json."""
    if isinstance(doc, list):  # several saved pages
        pages = [(page, f"{where} page {p}") for p, page in enumerate(doc)]
    elif isinstance(doc, dict) and "servers" in doc:
        pages = [(doc, where)]
    else:
        yield _item_server(doc), where
        return
    for page, at in pages:
        servers, _ = _page_servers(page, at)
        for i, item in enumerate(servers):
            yield _item_server(item), f"{at} entry {i}"


def _load_json(text: str, where: str) -> Any:
    try:  # with limits: a listing nested 100,000 deep is one line, not a RecursionError
        return _jsontext.loads(text, _jsontext.FILE)
    except ValueError as exc:
        raise ListingError(f"{where}: not JSON ({exc})") from None


def _read_text(path: Path) -> str:
    if not path.is_file():
        raise ListingError(f"{path}: not a regular file")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ListingError(f"{path}: cannot read: {exc}") from None


def _file_servers(path: Path) -> Iterator[tuple[Any, str]]:
    text = _read_text(path)
    if path.suffix in (".jsonl", ".ndjson"):
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                where = f"{path}:{n}"
                yield _item_server(_load_json(line, where)), where
        return
    yield from _document_servers(_load_json(text, str(path)), str(path))


def _source_servers(source: str) -> Iterator[tuple[Any, str]]:
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix == ".json")
        if not files:
            raise ListingError(f"{source}: a folder without server.json files (*.json)")
        for file in files:
            yield from _file_servers(file)
    elif not path.exists():
        raise ListingError(f"{source}: no such file or folder")
    else:
        yield from _file_servers(path)


def _is_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _not_text(value: Any, at: str = "") -> str | None:
    """Where in ``value`` (a JSON value) a string or a key is not text (it holds a lone
    surrogate: it cannot be encoded), or None."""
    if isinstance(value, str):
        return None if _is_text(value) else at or "the entry"
    if isinstance(value, list):
        pairs: list[tuple[str, Any]] = [(f"{at}[{i}]", item) for i, item in enumerate(value)]
    elif isinstance(value, dict):
        pairs = []
        for key, item in value.items():
            if not _is_text(key):
                return f"a key of {at or 'the entry'}"
            pairs.append((f"{at}.{key}" if at else key, item))
    else:
        return None
    for where, item in pairs:
        found = _not_text(item, where)
        if found is not None:
            return found
    return None


def _collect(pairs: Iterator[tuple[Any, str]], invalid: list[str] | None = None) -> list[Job]:
    """Every job, once: a server listed twice (same name and version) keeps its first listing.
    An entry holding a string that is not text is set aside with a line in ``invalid`` (a
    ListingError when it is None)."""
    jobs: dict[str, Job] = {}
    for server, where in pairs:
        bad = _not_text(server)
        if bad is not None:
            line = (f"{where}: {bad} is not text (a lone surrogate, \\ud800 to \\udfff); "
                    "this entry is not probed")
            if invalid is None:
                raise ListingError(line)
            invalid.append(line)
            continue
        for job in server_jobs(server, where):
            jobs.setdefault(job.key, job)
    return list(jobs.values())


def read_listing(sources: list[str], invalid: list[str] | None = None) -> list[Job]:
    """The jobs of saved listings (files or folders), in listing order; entries that are not
    text are set aside (a line each in ``invalid``; without it, a ListingError)."""
    return _collect((pair for source in sources for pair in _source_servers(source)), invalid)


# -- the list API --------------------------------------------------------------------------------
def _list_url(base: str) -> str:
    parts = urllib.parse.urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ListingError(f"--registry {base!r}: expected an http:// or https:// URL")
    path = parts.path.rstrip("/")
    if not path.endswith("/servers"):
        path += LIST_PATH
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _get_page(url: str, timeout: float) -> Any:
    request = HttpRequest("GET", url, {"Accept": "application/json",
                                       "User-Agent": "mcp-skew-census"})
    # One page in ``timeout`` seconds in all, however slowly the server sends it (a socket
    # timeout alone starts again with every byte), http(s) only, redirects included.
    with Deadline(timeout) as deadline:
        try:
            answer, response = send(request, deadline, urllib.request.HTTPRedirectHandler())
            with response:
                if answer.status >= 300:
                    raise ListingError(f"{url}: HTTP {answer.status} {answer.reason}")
                body, more = read_capped(response, _MAX_PAGE_BYTES)
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            reason = getattr(exc, "reason", exc)
            raise ListingError(f"{url}: cannot read: {reason}") from None
        if deadline.passed:
            raise ListingError(f"{url}: no whole page within {timeout:g} s") from None
    if more:
        raise ListingError(f"{url}: a page larger than {_MAX_PAGE_BYTES >> 20} MiB")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ListingError(f"{url}: not UTF-8") from None
    return _load_json(text, url)


def read_registry(base: str, *, max_pages: int = 10_000, timeout: float = 30.0,
                  invalid: list[str] | None = None) -> list[Job]:
    """The jobs of a registry's list API, read page by page (``cursor`` / ``nextCursor``)."""
    url = _list_url(base)

    def pages() -> Iterator[tuple[Any, str]]:
        cursor: str | None = None
        seen: set[str] = set()
        for number in range(max_pages):
            query = {"limit": str(_PAGE_LIMIT), **({"cursor": cursor} if cursor else {})}
            page_url = f"{url}?{urllib.parse.urlencode(query)}"
            servers, cursor = _page_servers(_get_page(page_url, timeout), page_url)
            for i, item in enumerate(servers):
                yield _item_server(item), f"{url} page {number} entry {i}"
            if cursor is None:
                return
            if cursor in seen:
                raise ListingError(f"{page_url}: metadata.nextCursor repeats {cursor!r}")
            seen.add(cursor)
        raise ListingError(f"{url}: more than {max_pages} pages (--max-pages)")

    return _collect(pages(), invalid)

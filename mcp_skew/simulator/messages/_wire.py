"""Message builders: the JSON-RPC messages simulated peers send, shaped by a profile.

Everything here reads the profile of the revision in use; nothing compares
revision strings. Messages are plain dicts in the order the spec examples use,
so a transcript serialises the same way every time.
"""

from __future__ import annotations

import copy
import functools
import json
import marshal
from collections.abc import Callable
from typing import Any, Final

from ..._memo import by_identity, remember
from ...versions import Message, Profile
from ._json import Sealed, decode, encode

__all__ = [
    "CAPS_KEY",
    "CLIENT_INFO_KEY",
    "SERVER_INFO_KEY",
    "SUBSCRIPTION_KEY",
    "VERSION_KEY",
    "Prepared",
    "Sealer",
    "client_capabilities",
    "declares",
    "describe_message",
    "error",
    "error_code",
    "notification",
    "request",
    "request_meta",
    "request_text",
    "result",
    "sealed_initialize",
    "sealed_request",
    "sealer",
    "server_capabilities",
    "server_declares",
]

VERSION_KEY: Final = "io.modelcontextprotocol/protocolVersion"
CAPS_KEY: Final = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY: Final = "io.modelcontextprotocol/clientInfo"
SERVER_INFO_KEY: Final = "io.modelcontextprotocol/serverInfo"
#: On every notification of a listen stream, the listen request's id (2026-07-28
#: ``basic/patterns/subscriptions.mdx``).
SUBSCRIPTION_KEY: Final = "io.modelcontextprotocol/subscriptionId"
#: The ``ttlMs`` a simulated server puts on cacheable results unless its ``ttl`` quirk says.
DEFAULT_TTL_MS: Final = 60000



def _capabilities(keys: frozenset[str], wanted: tuple[str, ...]) -> dict[str, Any]:
    """A capability object with the ``wanted`` dotted keys the profile has."""
    caps: dict[str, Any] = {}
    for dotted in wanted:
        if dotted not in keys:
            continue
        node = caps
        parts = dotted.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node.setdefault(parts[-1], True if len(parts) > 1 else {})
    return caps


def declares(capabilities: dict[str, Any], dotted: str) -> bool:
    """Whether a capability object declares ``dotted`` (``tools``, ``resources.subscribe``).

    Each part must be present along the path; the last one must be an object
    (``"tools": {}``) or, for a flag such as ``subscribe``, ``true``.
    """
    node: Any = capabilities
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return node is True or isinstance(node, dict)


#: What a simulated client declares, where its revision has it.
CLIENT_WANTS: Final = ("roots", "roots.listChanged", "sampling", "elicitation")
#: What a simulated server declares: tools and resources, never prompts (the
#: scenario asks for prompts to see an undeclared capability refused).
SERVER_WANTS: Final = ("tools", "resources")


#: Makes a fresh copy of an object derived once per profile.
Copy = Callable[[], dict[str, Any]]


def _copier(node: dict[str, Any]) -> Copy:
    """What copies ``node``, nested objects too, so that each message owns its own
    (capability objects and ``_meta`` hold objects and scalars, no arrays).

    An object with no nested object is copied by its own ``copy`` (no Python frame):
    a capability object or a request's ``_meta`` costs one or two calls, not one per
    object in it.
    """
    nested = tuple((key, _copier(value)) for key, value in node.items() if type(value) is dict)
    if not nested:
        return node.copy

    def copy() -> dict[str, Any]:
        out = node.copy()
        for key, make in nested:
            out[key] = make()
        return out

    return copy


#: The objects below are derived once per profile (:mod:`mcp_skew._memo`) and never handed out:
#: what goes into a message is a copy (:func:`_copier`).
@by_identity
def _client_capabilities(profile: Profile) -> dict[str, Any]:
    caps = _capabilities(profile.names("client_capabilities"), CLIENT_WANTS)
    # a feature named by an extension id (``io.modelcontextprotocol/secure-params``, a draft
    # layer's) is declared in capabilities.extensions (2026-07-28 basic/versioning.mdx
    # §Extension Negotiation)
    extensions = sorted(f for f in profile.names("features") if "/" in f)
    if extensions and "extensions" in profile.names("client_capabilities"):
        caps["extensions"] = {name: {} for name in extensions}
    return caps


def declared_extensions(params: Any) -> frozenset[str]:
    """The extension ids a request's ``_meta`` client capabilities declare."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    caps = meta.get(CAPS_KEY) if isinstance(meta, dict) else None
    found = caps.get("extensions") if isinstance(caps, dict) else None
    return frozenset(found) if isinstance(found, dict) else frozenset()


@by_identity
def _server_capabilities(profile: Profile) -> dict[str, Any]:
    return _capabilities(profile.names("server_capabilities"), SERVER_WANTS)


@by_identity
def _client_capabilities_copy(profile: Profile) -> Copy:
    return _copier(_client_capabilities(profile))


@by_identity
def _server_capabilities_copy(profile: Profile) -> Copy:
    return _copier(_server_capabilities(profile))


def client_capabilities(profile: Profile) -> dict[str, Any]:
    return _client_capabilities_copy(profile)()


def server_capabilities(profile: Profile) -> dict[str, Any]:
    return _server_capabilities_copy(profile)()


@by_identity
def _server_declared(profile: Profile) -> dict[str, bool]:
    """:func:`server_declares`'s answers for ``profile``, filled in as they are asked."""
    return {}


def server_declares(profile: Profile, dotted: str) -> bool:
    """Whether a simulated server of ``profile`` declares ``dotted`` (:func:`declares`)."""
    known = _server_declared(profile)
    found = known.get(dotted)
    if found is None:
        found = known[dotted] = declares(_server_capabilities(profile), dotted)
    return found


def implementation(name: str) -> dict[str, Any]:
    return {"name": name, "version": "0.1.0"}


#: The client name :func:`request_meta` and :func:`request` use unless told otherwise.
CLIENT_NAME: Final = "mcp-skew-client"


@by_identity
def _request_meta(profile: Profile) -> dict[str, Any]:
    """:func:`request_meta` for :data:`CLIENT_NAME`, derived once per profile."""
    required = profile.names("request_meta_required")
    if not required:
        return {}
    known: dict[str, Any] = {
        VERSION_KEY: profile.wire_version,  # a draft may put its base's string on the wire
        CAPS_KEY: _client_capabilities(profile),
        CLIENT_INFO_KEY: implementation(CLIENT_NAME),
    }
    sent = required | (profile.names("request_meta_optional") & {CLIENT_INFO_KEY})
    meta = {key: value for key, value in known.items() if key in sent}
    meta.update((key, {}) for key in sorted(required - set(known)))
    return meta


@by_identity
def _request_meta_copy(profile: Profile) -> Copy | None:
    """What copies :func:`_request_meta`; None where requests carry no ``_meta`` (legacy)."""
    meta = _request_meta(profile)
    return _copier(meta) if meta else None


def request_meta(profile: Profile, client_name: str = CLIENT_NAME) -> dict[str, Any]:
    """The ``_meta`` a client puts on every request of ``profile`` (empty in the legacy era).

    Every key the profile requires, and the client's identity where the profile
    has that key. The version, capabilities and identity have their values; a
    key the simulator has no value for (one a draft adds) gets ``{}``, which is
    enough for a server that checks it is there.
    """
    meta_copy = _request_meta_copy(profile)
    return {} if meta_copy is None else _named(meta_copy(), client_name)


def _named(meta: dict[str, Any], client_name: str) -> dict[str, Any]:
    """``meta`` (a fresh copy) with the client's identity under ``client_name``."""
    if client_name != CLIENT_NAME and CLIENT_INFO_KEY in meta:
        meta[CLIENT_INFO_KEY] = implementation(client_name)
    return meta


def request(
    profile: Profile, msg_id: int, method: str, params: dict[str, Any] | None = None,
    client_name: str = CLIENT_NAME,
) -> Message:
    """A request; its ``_meta`` carries what the profile requires (:func:`request_meta`)."""
    body: dict[str, Any] = dict(params) if params else {}
    meta_copy = _request_meta_copy(profile)
    if meta_copy is not None:
        meta = body["_meta"] = meta_copy()
        if client_name != CLIENT_NAME and CLIENT_INFO_KEY in meta:  # _named, inline: per request
            meta[CLIENT_INFO_KEY] = implementation(client_name)
    message: Message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if body:
        message["params"] = body
    return message


#: The texts a :class:`Sealer` keeps, by id (started again past it): a client numbers its
#: requests from 1 in each run, so a step's request is sent with a few ids only, and
#: :data:`LIMIT` sealers of LIMIT texts each would be millions of strings.
SEALER_TEXTS: Final = 64


class Sealer:
    """Makes :func:`request` of one profile, method and params (the default client name) as
    a :class:`~._json.Sealed` message, for any id: its JSON text made once per id, for a
    caller that sends it as it is (nothing changes it before it crosses a link).

    The text is a function of the id, the method, the params and what :func:`request`
    derives once per (frozen) profile. A text is used again only while the params equal
    the copy taken when the texts were made (params changed in place since get new texts).
    The message itself is built afresh every time, as :func:`request` builds it (here, into
    the :class:`~._json.Sealed` itself, not copied into one)."""

    __slots__ = ("_head", "_meta", "_seen", "_texts", "method", "params", "profile")

    def __init__(self, profile: Profile, method: str, params: dict[str, Any] | None) -> None:
        self.profile, self.method, self.params = profile, method, params
        self._meta = _request_meta_copy(profile)
        self._seen = copy.deepcopy(params)  #: the params as they were when the texts were made
        self._texts: dict[int, str] = {}
        #: the message's first members, its id at its place (copied, then the id set: a
        #: dict's copy where keyword arguments would be parsed at every request)
        self._head = {"jsonrpc": "2.0", "id": 0, "method": method}

    def __call__(self, msg_id: int) -> Message:
        params = self.params
        if params != self._seen:  # changed in place: the texts made before are not its
            self._seen, self._texts = copy.deepcopy(params), {}
        body: dict[str, Any] = dict(params) if params else {}
        if self._meta is not None:
            body["_meta"] = self._meta()
        message = Sealed(self._head)
        message["id"] = msg_id
        if body:
            message["params"] = body
        texts = self._texts
        text = texts.get(msg_id)
        if text is None:
            if len(texts) >= SEALER_TEXTS:
                texts.clear()
            text = texts[msg_id] = encode(message)
        message.text = text
        return message


#: :func:`sealer`'s sealers: (profile id, method, params id) -> the sealer (which holds both);
#: started again past LIMIT entries, as the profile caches are
_SEALERS: dict[tuple[int, str, int], Sealer] = {}


def sealer(profile: Profile, method: str, params: dict[str, Any] | None = None) -> Sealer:
    """The :class:`Sealer` of a request, one per profile object, method and params object (a
    caller that sends the same request often keeps it)."""
    key = (id(profile), method, id(params))
    found = _SEALERS.get(key)
    if found is None or found.profile is not profile or found.params is not params:
        found = remember(_SEALERS, key, Sealer(profile, method, params))
    return found


def sealed_request(profile: Profile, msg_id: int, method: str,
                   params: dict[str, Any] | None = None) -> Message:
    """:func:`request` (the default client name) as a :class:`~._json.Sealed` message, its
    JSON text made once per profile, id, method and params (:class:`Sealer`)."""
    return sealer(profile, method, params)(msg_id)


#: :func:`sealed_initialize`'s texts: (profile id, id) -> (the profile, the text)
_SEALED_INITIALIZE: dict[tuple[int, int], tuple[Profile, str]] = {}


def sealed_initialize(profile: Profile, msg_id: int) -> Message:
    """The legacy ``initialize`` request a simulated client sends (its revision, the
    capabilities its revision has, its default identity), as a :class:`~._json.Sealed`
    message: built afresh every time, as :func:`request` builds it, and its JSON text made
    once per profile and id, for a caller that sends it as it is.

    The text is a function of those two alone: every other part of the message is derived
    from the (frozen) profile or is a constant; a text is used again only for the same
    profile object."""
    params = {"protocolVersion": profile.revision, "capabilities": client_capabilities(profile),
              "clientInfo": implementation(CLIENT_NAME)}
    meta = _request_meta_copy(profile)
    if meta is not None:  # (a legacy profile has none: what request does, all the same)
        params["_meta"] = meta()
    message = Sealed(jsonrpc="2.0", id=msg_id, method="initialize", params=params)
    key = (id(profile), msg_id)
    hit = _SEALED_INITIALIZE.get(key)
    if hit is None or hit[0] is not profile:
        hit = remember(_SEALED_INITIALIZE, key, (profile, encode(message)))
    message.text = hit[1]
    return message


def notification(method: str, params: dict[str, Any] | None = None) -> Message:
    message: Message = {"jsonrpc": "2.0", "method": method}
    if params:
        message["params"] = params
    return message


def result(
    profile: Profile, msg_id: Any, method: str, body: dict[str, Any], *,
    result_type: bool = True, cache_hints: bool = True, server_name: str = "mcp-skew-server",
    ttl_ms: int = DEFAULT_TTL_MS,
) -> Message:
    """A result, with the fields ``profile`` requires on it (resultType, caching hints)."""
    return shaped_result(result_shape(profile, method, result_type=result_type,
                                      cache_hints=cache_hints), msg_id, body,
                         ttl_ms=ttl_ms, server_name=server_name)


#: What :func:`result` adds to a body: ``resultType``, the caching hints, the server's identity.
ResultShape = tuple[bool, bool, bool]


def result_shape(profile: Profile, method: str, *, result_type: bool = True,
                 cache_hints: bool = True) -> ResultShape:
    """What :func:`result` adds to ``method``'s result under ``profile`` (a caller that
    answers the same method under the same profile often works it out once)."""
    has_type, cacheable, has_info = _result_shape(profile)
    return result_type and has_type, cache_hints and method in cacheable, has_info


def shaped_result(shape: ResultShape, msg_id: Any, body: dict[str, Any], *,
                  ttl_ms: int = DEFAULT_TTL_MS, server_name: str = "mcp-skew-server") -> Message:
    """:func:`result`, its shape worked out already (:func:`result_shape`)."""
    out = dict(body)
    add_type, add_hints, has_info = shape
    if add_type:
        out["resultType"] = "complete"
    if add_hints:
        out["ttlMs"] = ttl_ms
        out["cacheScope"] = "public"
    if has_info:
        out["_meta"] = {SERVER_INFO_KEY: implementation(server_name)}
    return {"jsonrpc": "2.0", "id": msg_id, "result": out}


@by_identity
def _result_shape(profile: Profile) -> tuple[bool, frozenset[str], bool]:
    """What :func:`result` adds under ``profile``: ``resultType``, the cacheable methods
    (``ttlMs``, ``cacheScope``), the server's identity in ``_meta``."""
    return ("resultType" in profile.names("result_fields_required"),
            profile.names("cacheable_results"),
            SERVER_INFO_KEY in profile.names("result_meta_optional"))


#: How the text of every reply starts (``encode`` of a reply: ``jsonrpc``, then ``id``).
_REPLY_HEAD: Final = '{"jsonrpc": "2.0", "id": '


class Prepared:
    """A reply of which only the id varies, prepared once from one such reply: each
    :meth:`reply` is a fresh :class:`~._json.Sealed` message, the reply with another id,
    with its text.

    The text is provably ``encode`` of the message: :meth:`of` takes only a reply of the
    three keys ``jsonrpc`` ("2.0"), ``id`` and ``result`` or ``error``, in that order, and
    checks that its own text for the reply's id is ``encode(reply)``; ``encode`` writes an
    object's members one after the other, so another id changes only the id's text. The
    result (or error) of each message is a fresh object, nested objects and arrays too (a
    copy of the template, which is never handed out).
    """

    __slots__ = ("_base", "_fresh", "_key", "_tail")

    def __init__(self, key: str, part: Any) -> None:
        text = encode(part)
        self._key = key
        self._base: dict[str, Any] = {"jsonrpc": "2.0", "id": None, key: None}
        self._tail = f", {encode(key)}: {text}}}"
        template = decode(text)  # (its own copy: the part may be shared by its maker)
        flat = type(template) is dict and not any(
            isinstance(value, (dict, list)) for value in template.values())
        # a deep copy of JSON values (objects, arrays, strings, numbers, true, false, null)
        # in C: marshal keeps their types and an object's order
        self._fresh: Callable[[], Any] = template.copy if flat else functools.partial(
            marshal.loads, marshal.dumps(template))

    @classmethod
    def of(cls, reply: Message) -> Prepared | None:
        """``reply`` prepared, or None where its text would not be ``encode(reply)``."""
        keys = list(reply)
        if len(keys) != 3 or keys[:2] != ["jsonrpc", "id"] or reply["jsonrpc"] != "2.0" \
                or keys[2] not in ("result", "error"):
            return None
        prepared = cls(keys[2], reply[keys[2]])
        made = prepared.reply(reply["id"])
        return prepared if made == reply and made.text == encode(reply) else None

    def reply(self, msg_id: Any) -> Sealed:
        """The reply to the request ``msg_id``, a message of its own, and its text."""
        message = Sealed(self._base)  # (its keys in order: then their values)
        message["id"] = msg_id
        message[self._key] = self._fresh()
        message.text = self.text(msg_id)
        return message

    def text(self, msg_id: Any) -> str:
        """The text of :meth:`reply`'s message to the request ``msg_id``, without making the
        message: for a wire that reads only the text (a server's ``text_replies``)."""
        return _REPLY_HEAD + (str(msg_id) if type(msg_id) is int else encode(msg_id)) + self._tail


def error_code(profile: Profile, name: str) -> int:
    return profile.error(name).code


def error(msg_id: Any, code: int, message: str, data: Any = None) -> Message:
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": msg_id, "error": err}


def request_text(message: dict[str, Any]) -> str:
    """A request in a few words: ``initialize REV``, ``METHOD REV`` for a modern request
    (its ``_meta`` version), else the method."""
    method = str(message["method"])
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    assert isinstance(params, dict)
    if method == "initialize":
        return f"initialize {params.get('protocolVersion')}"
    meta = params.get("_meta")
    version = meta.get(VERSION_KEY) if isinstance(meta, dict) else None
    return f"{method} {version}" if isinstance(version, str) and version else method


def describe_message(message: Any) -> str:
    """A few words about a message, for a log a person reads."""
    if not isinstance(message, dict):
        return f"batch of {len(message)}" if isinstance(message, list) else "not an object"
    ident = f" id={json.dumps(message['id'])}" if "id" in message else ""
    if "method" in message:
        return f"{message['method']}{ident}"
    error = message.get("error")
    if isinstance(error, dict):
        return f"error {error.get('code')}{ident}"
    result = message.get("result")
    if isinstance(result, dict) and "protocolVersion" in result:
        return f"result{ident} (protocolVersion {result['protocolVersion']})"
    return f"result{ident}"

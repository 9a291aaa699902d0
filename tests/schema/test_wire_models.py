"""Tests of the wire models (``mcp_skew.versions.models``), with the official schemas as oracle.

Four groups: (1) per revision, the messages the models build validate against
that revision's official schema definitions, and each model declares exactly
the properties its schema definition has; (2) every official 2026-07-28 example
loads into the 2026-07-28 models and dumps back unchanged; (3) receiving is
lenient (unknown fields kept and reported) while sending is exact; (4) a
Hypothesis round trip of ``tools/list`` results. The schemas are read through
what ``tests/generated/generate.py`` derived from them (``tests/oracle.py``); the
tests that read the official example files are in ``test_official_examples.py``.
"""

import dataclasses
import typing
from typing import Any

import oracle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from mcp_skew.versions import Era, models
from mcp_skew.versions.models import (
    MODEL_REVISIONS,
    ErrorObject,
    ModelLookupError,
    RevisionModels,
    WireModel,
    dump_exact,
    models_for,
    parse_error,
    parse_message,
    parse_params,
    parse_result,
    to_wire,
    unknown_fields,
)
from mcp_skew.versions.models._namespace import COMMON_SLOTS, ERA_SLOTS

__all__: list[str] = []  # a test module: nothing here is public

M26 = models.r2026_07_28
MODULES = {
    mod.MODELS.revision: mod
    for mod in (models.r2024_11_05, models.r2025_03_26, models.r2025_06_18, models.r2025_11_25, M26)
}
LEGACY = tuple(rev for rev in MODEL_REVISIONS if models_for(rev).era is Era.LEGACY)
MODERN = tuple(rev for rev in MODEL_REVISIONS if models_for(rev).era is Era.MODERN)
P = "io.modelcontextprotocol/"

# Supersets of every revision's fields; ``_fit`` keeps what a revision's model declares.
ICON = {"src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48"], "theme": "light"}
IMPL = {
    "name": "mcp-skew", "version": "0.1.0", "title": "mcp-skew", "description": "simulator", "icons": [ICON],
    "websiteUrl": "https://example.com",
}  # fmt: skip
CLIENT_CAPS = {
    "experimental": {"x-demo": {}}, "roots": {"listChanged": True}, "sampling": {},
    "elicitation": {"form": {}}, "tasks": {"list": {}}, "extensions": {P + "ui": {}},
}  # fmt: skip
SERVER_CAPS = {
    "experimental": {}, "logging": {}, "completions": {}, "prompts": {"listChanged": True},
    "resources": {"subscribe": True, "listChanged": True}, "tools": {"listChanged": True},
    "tasks": {"list": {}}, "extensions": {P + "tasks": {}},
}  # fmt: skip
ELICIT_CITY = {
    "mode": "form", "message": "Which city?",
    "requestedSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
}  # fmt: skip
ANNOTATIONS = {"audience": ["user"], "priority": 0.5, "lastModified": "2025-01-12T15:00:58Z"}
HINTS = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": True}
TOOL = {
    "name": "get_weather", "title": "Weather", "description": "Weather for a city",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    "outputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}},
    "annotations": {"title": "Weather", **HINTS}, "icons": [ICON], "execution": {"taskSupport": "optional"},
    "meta": {"com.example/k": 1},
}  # fmt: skip
RESOURCE = {
    "uri": "file:///project/README.md", "name": "README.md", "title": "Readme", "description": "Docs",
    "mimeType": "text/markdown", "size": 42, "annotations": ANNOTATIONS, "icons": [ICON], "meta": {},
}  # fmt: skip
PROMPT = {
    "name": "code_review", "title": "Review", "description": "Review code", "icons": [ICON], "meta": {},
    "arguments": [{"name": "code", "title": "Code", "description": "The code", "required": True}],
}  # fmt: skip
TEXT_CONTENTS = {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "hello", "meta": {}}
BLOB_CONTENTS = {"uri": "file:///a.png", "mimeType": "image/png", "blob": "iVBORw0KGgo=", "meta": {}}
CONTENT = {
    "text": {"type": "text", "text": "hi", "annotations": ANNOTATIONS, "meta": {}},
    "image": {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "annotations": ANNOTATIONS},
    "audio": {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav", "annotations": ANNOTATIONS},
    "resource_link": {"type": "resource_link", **RESOURCE},
    "resource": {"type": "resource", "resource": TEXT_CONTENTS, "annotations": ANNOTATIONS, "meta": {}},
}


def _model_members(annotation: Any) -> list[type[BaseModel]]:
    """The model classes inside an annotation (through Optional, unions, tuples, Annotated)."""
    if typing.get_origin(annotation) is None and isinstance(annotation, type):
        return [annotation] if issubclass(annotation, BaseModel) else []
    return [cls for arg in typing.get_args(annotation) for cls in _model_members(arg)]


def _pick(members: list[type[BaseModel]], candidate: dict[str, Any]) -> type[BaseModel] | None:
    """The first member whose required fields and ``type`` constant fit ``candidate``."""
    for cls in members:
        required = {info.alias or name for name, info in cls.model_fields.items() if info.is_required()}
        tag = cls.model_fields["type"].default if "type" in cls.model_fields else None
        if required <= candidate.keys() and candidate.get("type", tag) == tag:
            return cls
    return None


def _fit_value(annotation: Any, value: Any) -> Any:
    members = _model_members(annotation)
    if isinstance(value, list):
        return [_fit_value(annotation, item) for item in value]
    chosen = _pick(members, value) if members and isinstance(value, dict) else None
    return _fit(chosen, value) if chosen else value


def _fit(cls: type[BaseModel], candidate: dict[str, Any]) -> dict[str, Any]:
    """Keep the keys of ``candidate`` that ``cls`` declares, recursively: a revision's maximal object."""
    fields = cls.model_fields
    return {
        key: _fit_value(fields[key].annotation, value) for key, value in candidate.items() if key in fields
    }


def _build(cls: type[WireModel], candidate: dict[str, Any], **extra: Any) -> WireModel:
    return cls.outbound(**_fit(cls, candidate), **extra)


# Per-revision facts from the schemas (the table the maximal objects must reproduce).
V24, V25A, V25B, V25C, V26 = MODEL_REVISIONS
TOOL_FIELDS = {V24: {"name", "description", "inputSchema"}}
TOOL_FIELDS[V25A] = TOOL_FIELDS[V24] | {"annotations"}
TOOL_FIELDS[V25B] = TOOL_FIELDS[V25A] | {"title", "outputSchema", "_meta"}
TOOL_FIELDS[V25C] = TOOL_FIELDS[V25B] | {"icons", "execution"}
TOOL_FIELDS[V26] = TOOL_FIELDS[V25C] - {"execution"}
IMPL_FIELDS = {V24: {"name", "version"}, V25A: {"name", "version"}, V25B: {"name", "version", "title"}}
IMPL_FIELDS[V25C] = IMPL_FIELDS[V26] = IMPL_FIELDS[V25B] | {"description", "icons", "websiteUrl"}
CONTENT_TYPES = {V24: {"text", "image", "resource"}}
CONTENT_TYPES[V25A] = CONTENT_TYPES[V24] | {"audio"}
CONTENT_TYPES[V25B] = CONTENT_TYPES[V25C] = CONTENT_TYPES[V26] = CONTENT_TYPES[V25A] | {"resource_link"}


@pytest.mark.parametrize("rev", MODEL_REVISIONS)
def test_maximal_objects_carry_exactly_the_revision_fields(rev: str) -> None:
    m = models_for(rev)
    assert set(to_wire(_build(m.Tool, TOOL))) == TOOL_FIELDS[rev]
    assert set(to_wire(_build(m.Implementation, IMPL))) == IMPL_FIELDS[rev]
    assert set(m.content_blocks) == CONTENT_TYPES[rev]


# (1) Outbound messages against the official schema ----------------------------------


def _meta(m: RevisionModels) -> dict[str, Any]:
    """Request ``_meta`` of a modern revision."""
    assert m.RequestMeta is not None
    return to_wire(
        m.RequestMeta.outbound(
            protocolVersion=m.revision,
            clientInfo=_build(m.Implementation, IMPL),
            clientCapabilities=_fit(m.ClientCapabilities, CLIENT_CAPS),
        )
    )


def _request(m: RevisionModels, method: str, **params: Any) -> dict[str, Any]:
    if m.RequestMeta is not None:
        params["_meta"] = _meta(m)
    built = m.params[method].outbound(**params)
    return to_wire(m.JSONRPCRequest.outbound(id=7, method=method, params=built))


def _results(m: RevisionModels) -> dict[str, tuple[str, WireModel]]:
    """One result per modelled method (and its schema definition), with every field the revision has."""
    common: dict[str, Any] = {}
    cached: dict[str, Any] = {}
    if m.era is Era.MODERN:
        common = {"resultType": "complete", "_meta": {"serverInfo": _build(m.Implementation, IMPL)}}
        cached = {**common, "ttlMs": 60_000, "cacheScope": "private"}
    blocks = {"content": [CONTENT[tag] for tag in m.content_blocks], "structuredContent": {"celsius": 21.5}}
    contents = m.ReadResourceResult.model_fields["contents"].annotation
    failed = [{"type": "text", "text": "city not found"}]
    return {
        "tools-list": ("ListToolsResult", m.ListToolsResult.outbound(tools=[_fit(m.Tool, TOOL)], **cached)),
        "tools-call": ("CallToolResult", m.CallToolResult.outbound(
            **_fit(m.CallToolResult, blocks), **common)),
        "tools-call-is-error": ("CallToolResult", m.CallToolResult.outbound(
            content=failed, isError=True, **common)),
        "resources-list": ("ListResourcesResult", m.ListResourcesResult.outbound(
            resources=[_fit(m.Resource, RESOURCE)], nextCursor="c2", **cached)),
        "resources-read": ("ReadResourceResult", m.ReadResourceResult.outbound(
            contents=_fit_value(contents, [TEXT_CONTENTS, BLOB_CONTENTS]), **cached)),
        "prompts-list": ("ListPromptsResult", m.ListPromptsResult.outbound(
            prompts=[_fit(m.Prompt, PROMPT)], **cached)),
    }  # fmt: skip


def _error(m: RevisionModels, error: dict[str, Any], with_id: bool = True) -> dict[str, Any]:
    built = parse_error(m.revision, error)
    return to_wire(m.JSONRPCErrorResponse.outbound(error=built, **({"id": 7} if with_id else {})))


def _response(m: RevisionModels, result: WireModel) -> dict[str, Any]:
    return to_wire(m.JSONRPCResultResponse.outbound(id=7, result=result))


#: (case id, schema definitions separated by spaces, ``a|b`` = first one defined, instance)
Case = tuple[str, str, Any]
ERROR_DEF = "JSONRPCErrorResponse|JSONRPCError"


def _result_cases(m: RevisionModels) -> list[Case]:
    cases: list[Case] = []
    for key, (name, result) in _results(m).items():
        cases.append((key, name, to_wire(result)))
        if m.era is Era.MODERN:  # 2026-07-28 names a typed response per result
            cases.append((key + "-response", name + "Response", _response(m, result)))
    return cases


def _request_cases(m: RevisionModels) -> list[Case]:
    call = {"name": "get_weather", "arguments": {"city": "Paris"}}
    return [
        ("tools-list-request", "JSONRPCRequest ListToolsRequest", _request(m, "tools/list", cursor="c1")),
        ("tools-call-request", "CallToolRequest", _request(m, "tools/call", **call)),
        ("resources-list-request", "ListResourcesRequest", _request(m, "resources/list")),
        ("resources-read-request", "ReadResourceRequest", _request(m, "resources/read", uri="file:///a.txt")),
        ("prompts-list-request", "ListPromptsRequest", _request(m, "prompts/list")),
        ("error-method-not-found", ERROR_DEF, _error(m, {"code": -32601, "message": "Method not found"})),
    ]


def legacy_cases(m: RevisionModels) -> list[Case]:
    assert m.InitializeRequestParams is not None and m.InitializeResult is not None
    impl, caps = _build(m.Implementation, IMPL), _fit(m.ClientCapabilities, CLIENT_CAPS)
    init = m.InitializeResult.outbound(
        protocolVersion=m.revision, capabilities=_fit(m.ServerCapabilities, SERVER_CAPS), serverInfo=impl,
        instructions="Use get_weather.",
    )  # fmt: skip
    request = _request(m, "initialize", protocolVersion=m.revision, clientInfo=impl, capabilities=caps)
    not_found = {"code": -32002, "message": "Resource not found", "data": {"uri": "file:///nope"}}
    return [
        ("initialize-request", "JSONRPCRequest InitializeRequest", request),
        ("initialize-result", "InitializeResult", to_wire(init)),
        ("initialize-response", "JSONRPCResultResponse|JSONRPCResponse", _response(m, init)),
        ("error-resource-not-found", ERROR_DEF, _error(m, not_found)),
    ]


def modern_cases(m: RevisionModels) -> list[Case]:
    assert m.DiscoverResult is not None and m.InputRequiredResult is not None
    discover = m.DiscoverResult.outbound(
        resultType="complete", supportedVersions=[m.revision], instructions="Use get_weather.",
        capabilities=_fit(m.ServerCapabilities, SERVER_CAPS), ttlMs=3_600_000, cacheScope="public",
        _meta={"serverInfo": _build(m.Implementation, IMPL)},
    )  # fmt: skip
    interim = m.InputRequiredResult.outbound(
        resultType="input_required", requestState="opaque",
        inputRequests={"city": {"method": "elicitation/create", "params": ELICIT_CITY}},
    )  # fmt: skip
    versions = {"supported": [m.revision], "requested": "1900-01-01"}
    unsupported = _error(m, {"code": -32022, "message": "Unsupported protocol version", "data": versions})
    needs = {"requiredCapabilities": {"elicitation": {}}}
    missing = _error(m, {"code": -32021, "message": "Needs elicitation", "data": needs})
    not_found = _error(
        m, to_wire(M26.ResourceNotFoundError.outbound(message="No such resource", data={"uri": "x:/"}))
    )
    return [
        ("discover-request", "JSONRPCRequest DiscoverRequest", _request(m, "server/discover")),
        ("discover-result", "DiscoverResult", to_wire(discover)),
        ("discover-response", "DiscoverResultResponse", _response(m, discover)),
        ("input-required", "InputRequiredResult", to_wire(interim)),
        ("input-required-response", "CallToolResultResponse ReadResourceResultResponse",
         _response(m, interim)),
        ("error-unsupported-version", "UnsupportedProtocolVersionError JSONRPCErrorResponse", unsupported),
        ("error-missing-capability", "MissingRequiredClientCapabilityError", missing),
        ("error-header-mismatch", "HeaderMismatchError", _error(m, {"code": -32020, "message": "Mismatch"})),
        ("error-resource-not-found", "JSONRPCErrorResponse", not_found),
        ("error-resource-not-found-object", "InvalidParamsError", not_found["error"]),
    ]  # fmt: skip


def _cases() -> list[Any]:
    params = []
    for rev in MODEL_REVISIONS:
        m = models_for(rev)
        cases = (legacy_cases(m) if m.era is Era.LEGACY else modern_cases(m)) + _request_cases(m)
        cases += _result_cases(m)
        if not m.JSONRPCErrorResponse.model_fields["id"].is_required():
            no_id = _error(m, {"code": -32700, "message": "Parse error"}, with_id=False)
            cases.append(("error-without-id", "JSONRPCErrorResponse", no_id))
        params += [pytest.param(rev, defs, instance, id=f"{rev}-{name}") for name, defs, instance in cases]
    return params


@pytest.mark.parametrize(("rev", "definitions", "instance"), _cases())
def test_outbound_message_validates_against_official_schema(
    rev: str, definitions: str, instance: Any
) -> None:
    for names in definitions.split():
        oracle.validate(rev, oracle.first_defined(rev, *names.split("|")), instance)


#: Model class name -> schema definition name, where they differ.
DEFINITION_OF = {"RequestMeta": "RequestMetaObject", "ResultMeta": "ResultMetaObject"}
#: Legacy params models whose schema has no named definition: (request definition, property).
INLINE_PARAMS = {
    "InitializeRequestParams": "InitializeRequest",
    "CallToolRequestParams": "CallToolRequest",
    "ReadResourceRequestParams": "ReadResourceRequest",
    "PaginatedRequestParams": "PaginatedRequest",
}


def _schema_shape(rev: str, cls_name: str) -> tuple[set[str], set[str], set[str]] | None:
    """(properties, required, tolerated extra model fields) of the schema for a model, or None."""
    names = oracle.definition_names(rev)
    definition_name = DEFINITION_OF.get(cls_name, cls_name)
    if definition_name in names:
        found, tolerated = oracle.definition(rev, definition_name), set()
    elif cls_name in INLINE_PARAMS:
        # schema.ts gives every request's params a ``_meta``; the JSON lists it only on JSONRPCRequest.
        found, tolerated = oracle.definition(rev, INLINE_PARAMS[cls_name])["params"], {"_meta"}
    else:
        return None
    return set(found.get("properties", {})), set(found.get("required", [])), tolerated


@pytest.mark.parametrize("rev", MODEL_REVISIONS)
def test_models_declare_exactly_the_schema_properties(rev: str) -> None:
    module, compared, problems = MODULES[rev], [], []
    for name in module.__all__:
        cls = getattr(module, name)
        if not (isinstance(cls, type) and issubclass(cls, WireModel)) or issubclass(cls, ErrorObject):
            continue  # schema error definitions are whole responses; checked by the outbound cases
        shape = _schema_shape(rev, name)
        if shape is None:
            continue
        properties, required, tolerated = shape
        fields = {info.alias or key: info for key, info in cls.model_fields.items()}
        always = {wire for wire, info in fields.items() if info.is_required() or info.default is not None}
        compared.append(name)
        if set(fields) - tolerated != properties:
            problems.append(f"{name}: model {sorted(fields)} vs schema {sorted(properties)}")
        if always != required:
            problems.append(f"{name}: always-present {sorted(always)} vs required {sorted(required)}")
    assert not problems, "\n".join(problems)
    assert {"Tool", "Resource", "Prompt", "ListToolsResult", "CallToolResult"} <= set(compared)


@pytest.mark.parametrize("rev", MODEL_REVISIONS)
def test_error_response_id_is_optional_exactly_where_the_schema_says(rev: str) -> None:
    m = models_for(rev)
    name = oracle.first_defined(rev, "JSONRPCErrorResponse", "JSONRPCError")
    schema_requires_id = "id" in oracle.definition(rev, name)["required"]
    assert m.JSONRPCErrorResponse.model_fields["id"].is_required() is schema_requires_id
    no_id = {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}}
    if schema_requires_id:
        with pytest.raises(ValidationError):
            parse_message(rev, no_id)
    else:
        assert "id" not in to_wire(parse_message(rev, no_id))


# (2) The official 2026-07-28 examples ------------------------------------------------

#: Example type -> model class, where the example is the object itself.
_DIRECT_26 = (
    "Tool", "Resource", "ResourceLink", "TextContent", "ImageContent", "AudioContent", "EmbeddedResource",
    "TextResourceContents", "BlobResourceContents", "ClientCapabilities", "ServerCapabilities",
    "DiscoverResult", "ListToolsResult", "CallToolResult", "ListResourcesResult", "ReadResourceResult",
    "ListPromptsResult", "InputRequiredResult", "CallToolRequestParams", "PaginatedRequestParams",
)  # fmt: skip
_DIRECT_ERRORS = ("InvalidParamsError", "MethodNotFoundError", "ParseError", "InternalError")
DIRECT: dict[str, type[WireModel]] = {name: getattr(M26, name) for name in _DIRECT_26}
DIRECT |= {name: getattr(models, name) for name in _DIRECT_ERRORS}
#: Example type -> method, where the example is a whole request (or, renamed, a result response).
REQUESTS = {
    "DiscoverRequest": "server/discover", "ListToolsRequest": "tools/list", "CallToolRequest": "tools/call",
    "ListResourcesRequest": "resources/list", "ReadResourceRequest": "resources/read",
    "ListPromptsRequest": "prompts/list",
}  # fmt: skip
RESPONSES = {name.replace("Request", "ResultResponse"): method for name, method in REQUESTS.items()}
#: Example type -> typed error object, where the example is a whole error response.
ERROR_RESPONSES = {
    name: getattr(M26, name)
    for name in (
        "UnsupportedProtocolVersionError",
        "MissingRequiredClientCapabilityError",
        "HeaderMismatchError",
    )
}
COVERED = set(DIRECT) | set(REQUESTS) | set(RESPONSES) | set(ERROR_RESPONSES)

#: Examples that do not fit the definition they are filed under, with the reason.
KNOWN_DEVIATIONS = {
    "ReadResourceResultResponse/read-resource-result-response.json": (
        "the result has no ttlMs/cacheScope, which ReadResourceResult requires; the schema "
        "accepts it only through the InputRequiredResult branch of the anyOf"
    ),
}


def test_example_coverage_report() -> None:
    """Print which official example types the models cover; fail on stale table entries."""
    found = {example["type"] for example in oracle.example_facts()}
    assert found >= COVERED, f"covered types without examples: {sorted(COVERED - found)}"
    messages = {
        example["type"]
        for example in oracle.example_facts()
        if example["type"] not in COVERED and example["is_message"]
    }
    print(f"\ncovered by the 2026-07-28 models ({len(COVERED)}): {', '.join(sorted(COVERED))}")
    print(f"envelope only ({len(messages)}): {', '.join(sorted(messages))}")
    print(f"not modelled, not messages: {', '.join(sorted(found - COVERED - messages))}")
    assert len(COVERED) >= 30


# (3) Lenient receive, exact send -----------------------------------------------------


def test_receive_keeps_unknown_fields_and_reports_them() -> None:
    payload = {
        "tools": [
            {
                "name": "t",
                "inputSchema": {"type": "object", "$schema": "x", "x-vendor": 1},
                "annotations": {"readOnlyHint": True, "fooHint": 1},
                "_meta": {"com.example/k": 2},
                "execution": {"taskSupport": "optional"},
            }
        ],
        "_meta": {"anything": True},
        "vendorExtension": {"a": 1},
    }
    result = parse_result(V25B, "tools/list", payload)
    assert unknown_fields(result) == ["tools[0].annotations.fooHint", "tools[0].execution", "vendorExtension"]
    assert to_wire(result) == payload  # nothing is dropped on the way through
    assert unknown_fields(parse_result(V25C, "tools/list", payload)) == [
        "tools[0].annotations.fooHint",
        "vendorExtension",
    ]


@pytest.mark.parametrize(
    ("rev", "unknown"),
    [
        (V24, ["capabilities.elicitation", "clientInfo.title"]),
        (V25A, ["capabilities.elicitation", "clientInfo.title"]),
        (V25B, []),
    ],
)
def test_fields_from_a_later_revision_are_unknown_to_an_earlier_one(rev: str, unknown: list[str]) -> None:
    params = {
        "protocolVersion": V25B,
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "c", "version": "1", "title": "Client"},
    }
    assert unknown_fields(parse_params(rev, "initialize", params)) == unknown


def test_fields_removed_in_2026_are_unknown_there() -> None:
    tool = {"name": "t", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}}
    assert unknown_fields(M26.Tool.inbound(tool)) == ["execution"]
    caps = {"roots": {"listChanged": True}, "tasks": {}}
    assert unknown_fields(M26.ClientCapabilities.inbound(caps)) == ["roots.listChanged", "tasks"]


def test_receive_matches_wire_names_only() -> None:
    meta = {"protocolVersion": V26, "clientCapabilities": {}}  # prefix missing: a real peer bug
    with pytest.raises(ValidationError):
        M26.RequestMeta.inbound(meta)
    result = parse_result(V25B, "tools/list", {"tools": [], "meta": {}})
    assert result.meta is None and unknown_fields(result) == ["meta"]


def test_outbound_rejects_an_unknown_field() -> None:
    with pytest.raises(ValidationError) as caught:
        models.r2025_06_18.Tool.outbound(name="t", inputSchema={"type": "object"}, icons=[ICON])
    assert [(e["type"], e["loc"]) for e in caught.value.errors()] == [("extra_forbidden", ("icons",))]


def test_outbound_rejects_nested_unknown_fields_and_later_revision_models() -> None:
    with pytest.raises(ValidationError) as caught:
        models.r2024_11_05.ListToolsResult.outbound(
            tools=[{"name": "t", "inputSchema": {"type": "object"}, "title": "T"}]
        )
    assert [e["loc"] for e in caught.value.errors()] == [("tools", 0, "title")]
    newer = models.r2025_06_18.Tool(name="t", inputSchema={"type": "object"}, title="T")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="extra_forbidden"):
        models.r2024_11_05.ListToolsResult.outbound(tools=[newer])


def test_dump_exact_refuses_what_to_wire_forwards() -> None:
    received = parse_result(V24, "tools/call", {"content": [{"type": "text", "text": "x", "foo": 1}]})
    assert to_wire(received) == {"content": [{"type": "text", "text": "x", "foo": 1}]}
    with pytest.raises(ValidationError, match="extra_forbidden"):
        dump_exact(received)
    clean = models.r2024_11_05.CallToolResult.outbound(content=[{"type": "text", "text": "x"}])
    assert dump_exact(clean) == to_wire(clean) == {"content": [{"type": "text", "text": "x"}]}


def test_to_wire_uses_wire_names_and_leaves_out_none() -> None:
    meta = M26.RequestMeta.outbound(protocolVersion=V26, clientCapabilities={}, clientInfo=None)
    params = M26.PaginatedRequestParams.outbound(meta=meta)
    assert to_wire(params) == {"_meta": {P + "protocolVersion": V26, P + "clientCapabilities": {}}}
    same = M26.PaginatedRequestParams.outbound(
        _meta={P + "protocolVersion": V26, P + "clientCapabilities": {}}
    )
    assert same == params


def test_modern_results_require_result_type_and_cache_hints() -> None:
    good = {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public"}
    assert parse_result(V26, "tools/list", good).resultType == "complete"  # type: ignore[attr-defined]
    for missing in ("resultType", "ttlMs", "cacheScope"):
        with pytest.raises(ValidationError):
            parse_result(V26, "tools/list", {k: v for k, v in good.items() if k != missing})
    for bad in ({"ttlMs": -1}, {"cacheScope": "shared"}, {"resultType": "input_required"}):
        with pytest.raises(ValidationError):
            parse_result(V26, "tools/list", good | bad)
    with pytest.raises(ValidationError):  # server/discover without the required client capabilities
        parse_params(V26, "server/discover", {"_meta": {P + "protocolVersion": V26}})


def test_input_required_is_selected_by_result_type_only_where_allowed() -> None:
    interim = {"resultType": "input_required", "requestState": "s"}
    assert isinstance(parse_result(V26, "tools/call", interim), M26.InputRequiredResult)
    with pytest.raises(ValidationError):
        parse_result(V26, "tools/list", interim)
    legacy = parse_result(V25C, "tools/call", {"content": [], **interim})
    assert unknown_fields(legacy) == ["resultType", "requestState"]


def test_content_block_of_a_later_revision_is_rejected() -> None:
    audio = {"content": [{"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}]}
    assert isinstance(parse_result(V25A, "tools/call", audio), models.r2025_03_26.CallToolResult)
    with pytest.raises(ValidationError, match="union_tag_invalid"):
        parse_result(V24, "tools/call", audio)


def test_parse_error_types_errors_by_revision() -> None:
    unsupported = {
        "code": -32022,
        "message": "Unsupported protocol version",
        "data": {"supported": [V26], "requested": V24},
    }
    typed = parse_error(V26, unsupported)
    assert isinstance(typed, M26.UnsupportedProtocolVersionError)
    assert typed.data.supported == (V26,) and typed.data.requested == V24
    assert type(parse_error(V25C, unsupported)) is ErrorObject  # -32022 means nothing before 2026-07-28
    with pytest.raises(ValidationError):
        parse_error(V26, {"code": -32022, "message": "no data"})  # data is required by the schema
    missing = parse_error(
        V26, {"code": -32021, "message": "m", "data": {"requiredCapabilities": {"sampling": {}}}}
    )
    assert isinstance(missing, M26.MissingRequiredClientCapabilityError)
    assert isinstance(parse_error(V26, {"code": -32020, "message": "h"}), M26.HeaderMismatchError)
    legacy = parse_error(V24, {"code": -32002, "message": "nf", "data": {"uri": "file:///x"}})
    assert isinstance(legacy, models.r2024_11_05.ResourceNotFoundError) and legacy.data is not None
    assert isinstance(parse_error(V26, {"code": -32002, "message": "nf"}), M26.LegacyResourceNotFoundError)
    assert type(parse_error(V24, {"code": -32002, "message": "nf", "data": "file:///x"})) is ErrorObject


def test_registry_lookups() -> None:
    assert [models_for(rev).revision for rev in MODEL_REVISIONS] == list(MODEL_REVISIONS)
    assert (LEGACY, MODERN) == ((V24, V25A, V25B, V25C), (V26,))
    with pytest.raises(ModelLookupError):
        models_for("2099-01-01")
    with pytest.raises(ModelLookupError):
        parse_result(V26, "initialize", {})
    with pytest.raises(ModelLookupError):
        parse_message(V26, {"jsonrpc": "2.0"})
    assert models_for(V26).InitializeResult is None and models_for(V24).DiscoverResult is None
    notification = parse_message(V24, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert isinstance(notification, models.JSONRPCNotification)



@pytest.mark.parametrize("rev", MODEL_REVISIONS)
def test_namespace_slots_are_the_module_classes_of_the_same_name(rev: str) -> None:
    m, module = models_for(rev), MODULES[rev]
    for era in (Era.LEGACY, Era.MODERN):
        for name in ERA_SLOTS[era]:
            assert getattr(m, name) is (getattr(module, name) if era == m.era else None), name
    for name in COMMON_SLOTS:
        assert getattr(m, name) is getattr(module, name), name
    # Every class slot of the dataclass is either collected by name or the envelope.
    envelope = {"JSONRPCRequest", "JSONRPCNotification", "JSONRPCResultResponse", "JSONRPCErrorResponse"}
    typed = {f.name for f in dataclasses.fields(RevisionModels) if f.name[0].isupper()}
    assert typed == set(COMMON_SLOTS) | set(ERA_SLOTS[Era.LEGACY]) | set(ERA_SLOTS[Era.MODERN]) | envelope


def test_collect_fails_loudly_on_a_missing_or_wrong_slot() -> None:
    module, m = models.r2024_11_05, models_for(V24)
    namespace = dict(vars(module))
    maps = {"content_blocks": m.content_blocks, "params": m.params, "results": m.results, "errors": m.errors}
    again = RevisionModels.collect(V24, Era.LEGACY, namespace, error_response=m.JSONRPCErrorResponse, **maps)
    assert again == m
    del namespace["Tool"]
    namespace["InitializeResult"] = "not a class"
    with pytest.raises(TypeError, match="2024-11-05: no wire model class bound to Tool, InitializeResult"):
        RevisionModels.collect(V24, Era.LEGACY, namespace, error_response=m.JSONRPCErrorResponse, **maps)
    with pytest.raises(TypeError, match="RequestMeta, ResultMeta, DiscoverRequestParams"):
        RevisionModels.collect(V24, Era.MODERN, vars(module), error_response=m.JSONRPCErrorResponse, **maps)

# (4) Round-trip property -------------------------------------------------------------

TEXT = st.text(max_size=12)
SCALARS = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | TEXT
META = st.dictionaries(st.text(min_size=1, max_size=10), SCALARS, max_size=3)
ICONS = st.lists(st.fixed_dictionaries({"src": st.just("https://example.com/i.png")}, optional={
    "mimeType": st.sampled_from(["image/png", "image/svg+xml"]),
    "sizes": st.lists(st.sampled_from(["48x48", "any"]), max_size=2),
    "theme": st.sampled_from(["light", "dark"]),
}), max_size=2)  # fmt: skip
OBJECT_SCHEMA = st.fixed_dictionaries({"type": st.just("object")}, optional={
    "properties": st.dictionaries(st.text(min_size=1, max_size=8), st.just({"type": "string"}), max_size=3),
    "required": st.lists(st.text(max_size=8), max_size=2),
})  # fmt: skip
IMPLEMENTATION = st.fixed_dictionaries({"name": TEXT, "version": TEXT})


def _declares(cls: type[BaseModel], wire: str) -> bool:
    return any((info.alias or name) == wire for name, info in cls.model_fields.items())


def tool_payloads(m: RevisionModels) -> st.SearchStrategy[dict[str, Any]]:
    """Tool JSON objects using exactly the optional fields ``m.Tool`` declares."""
    task_support = st.sampled_from(["forbidden", "optional", "required"])
    hints = {"title": TEXT} | dict.fromkeys(HINTS, st.booleans())
    optional = {
        "description": TEXT, "title": TEXT, "outputSchema": OBJECT_SCHEMA, "icons": ICONS, "_meta": META,
        "annotations": st.fixed_dictionaries({}, optional=hints),
        "execution": st.fixed_dictionaries({}, optional={"taskSupport": task_support}),
    }  # fmt: skip
    return st.fixed_dictionaries(
        {"name": st.text(min_size=1, max_size=16), "inputSchema": OBJECT_SCHEMA},
        optional={k: v for k, v in optional.items() if _declares(m.Tool, k)},
    )


def tools_list_payloads(m: RevisionModels) -> st.SearchStrategy[dict[str, Any]]:
    """``tools/list`` result JSON objects for revision ``m``, shaped by its model's fields."""
    required: dict[str, st.SearchStrategy[Any]] = {"tools": st.lists(tool_payloads(m), max_size=3)}
    meta = META
    if _declares(m.ListToolsResult, "resultType"):
        scope = st.sampled_from(["public", "private"])
        required |= {"resultType": st.just("complete"), "ttlMs": st.integers(0, 2**53), "cacheScope": scope}
        meta = st.fixed_dictionaries({}, optional={P + "serverInfo": IMPLEMENTATION, "traceparent": TEXT})
    return st.fixed_dictionaries(required, optional={"nextCursor": TEXT, "_meta": meta})


@pytest.mark.parametrize("rev", MODEL_REVISIONS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_tools_list_result_round_trips(rev: str, data: st.DataObject) -> None:
    m = models_for(rev)
    payload = data.draw(tools_list_payloads(m))
    model = m.ListToolsResult.outbound(**payload)  # built for sending: exact
    assert to_wire(model) == payload
    parsed = parse_result(rev, "tools/list", to_wire(model))  # received: lenient
    assert parsed == model
    assert unknown_fields(parsed) == []


@pytest.mark.parametrize("rev", MODEL_REVISIONS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_generated_tools_list_results_are_schema_valid(rev: str, data: st.DataObject) -> None:
    model = models_for(rev).ListToolsResult.outbound(**data.draw(tools_list_payloads(models_for(rev))))
    oracle.validate(rev, "ListToolsResult", dump_exact(model))

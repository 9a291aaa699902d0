"""What the probe's call step finds about a server's tools (``docs/calls.md``): a call that
fails for arguments its own schema accepts, an ``outputSchema`` in a dialect some clients
refuse, and structured output that is missing or does not match its schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ...versions import Cite
from ._codes import LEGACY, MODERN, FindingCode, FindingInfo

__all__ = ["CALL_FINDINGS"]

_TOOLS_ERRORS = Cite(LEGACY, "server/tools.mdx", "Error Handling")
_DIALECT = Cite(LEGACY, "basic/index.mdx", "JSON Schema Usage")
_STRUCTURED = Cite("2025-06-18", "server/tools.mdx", "Output Schema")
_WHO = ("The finding names the named clients (`mcp-skew peers`) whose quirks refuse it: a "
        "prediction from their models, not a run of theirs.")

CALL_FINDINGS: Final[Mapping[FindingCode, FindingInfo]] = {
    "tool-call-failed": FindingInfo(
        summary="a tool call with arguments valid under the tool's own `inputSchema` failed",
        when="probe: the call step (every real client calls one tool, with arguments generated "
        "from its `inputSchema`, or `--tool NAME --args JSON` checked against it) got a result "
        "with `isError: true`, or a JSON-RPC error. Tools that list but cannot be called (a "
        "schema built with a zod major the server's SDK cannot read: every call is `isError`) "
        "show here; a tool that fails for these arguments only (a path that does not exist) "
        "shows here too, so read its text.",
        rule="`isError: true` reports a tool execution error: the tool ran and failed. Arguments "
        "that fail the tool's own `inputSchema` are the one failure the caller caused.",
        fix="Servers: call the tool with the arguments in the finding; if its schema accepts "
        "them, make the tool accept them (or tighten the schema so clients cannot send them).",
        severities=("warning",),
        cites=(_TOOLS_ERRORS,),
        reported_by=("probe",),
    ),
    "output-schema-dialect": FindingInfo(
        summary="a tool's `outputSchema` declares a `$schema` dialect other than JSON Schema "
        "2020-12",
        when="probe: a listed tool's `outputSchema` carries `$schema` naming draft-07, draft-04 "
        "or another dialect (zod-to-json-schema, which 1.x TypeScript SDK servers use, stamps "
        "draft-07 on every schema). " + _WHO,
        rule="From 2025-11-25, a schema without `$schema` is 2020-12; a schema MAY declare "
        "another dialect, implementations MUST support 2020-12 and are RECOMMENDED to use it, "
        "and MUST handle a dialect they do not support with an error. Clients that support "
        "2020-12 only refuse every call of such a tool (quirk `dialect-2020-12-only`); "
        "those after typescript-sdk PR 2534 read draft-07 and draft-06 but still refuse "
        "draft-04 (quirk `declared-dialects`).",
        fix="Servers: emit 2020-12 (zod-to-json-schema `target: \"jsonSchema2020-12\"`), or "
        "drop `$schema` from `outputSchema`.",
        severities=("warning",),
        cites=(_DIALECT, Cite(MODERN, "basic/index.mdx", "JSON Schema Usage")),
        reported_by=("probe",),
        quirks=("dialect-2020-12-only", "declared-dialects"),
    ),
    "structured-content-missing": FindingInfo(
        summary="a tool with an `outputSchema` returned a result without `structuredContent`",
        when="probe: the call step called a tool whose listing has an `outputSchema`, on a "
        "revision with structured tool output (2025-06-18 and later), and the result (not "
        "`isError`) had no `structuredContent`. " + _WHO,
        rule="If an output schema is provided, servers MUST provide structured results that "
        "conform to this schema (`CallToolResult.structuredContent`). The TypeScript SDK "
        "client fails such a call with -32600 (quirk `needs-structured-content`).",
        fix="Servers: return `structuredContent` with every successful result of a tool that "
        "declares an `outputSchema`, or drop the `outputSchema`.",
        severities=("error",),
        cites=(_STRUCTURED, Cite("2025-06-18", "schema.json#/definitions/CallToolResult"),
               Cite(MODERN, "schema.json#/$defs/CallToolResult")),
        reported_by=("probe",),
        quirks=("needs-structured-content",),
    ),
    "structured-content-mismatch": FindingInfo(
        summary="a result's `structuredContent` does not match the tool's `outputSchema`",
        when="probe: the call step's result carries `structuredContent` that fails the listed "
        "`outputSchema` (validated in the dialect the schema declares, 2020-12 without "
        "`$schema`), or is not an object where the revision requires one (before "
        "2026-07-28). " + _WHO,
        rule="Servers MUST provide structured results that conform to the output schema; "
        "clients SHOULD validate them. `CallToolResult.structuredContent` is an object up to "
        "2025-11-25 and any JSON value from 2026-07-28. The TypeScript SDK client fails such "
        "a call with -32602 (quirk `checks-structured-content`).",
        fix="Servers: make `structuredContent` match the `outputSchema` the tool lists.",
        severities=("error",),
        cites=(_STRUCTURED, Cite("2025-06-18", "schema.json#/definitions/Tool"),
               Cite(MODERN, "schema.json#/$defs/CallToolResult")),
        reported_by=("probe",),
        quirks=("checks-structured-content",),
    ),
}

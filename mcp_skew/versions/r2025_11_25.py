"""MCP revision 2025-11-25: changes from 2025-06-18.

Changelog: ``docs/specification/2025-11-25/changelog.mdx``. New methods are the
experimental ``tasks/*`` requests (both directions), ``notifications/tasks/status``
and ``notifications/elicitation/complete``
(``schema/2025-11-25/schema.json#/$defs/ClientRequest`` and the other unions).
"""

from __future__ import annotations

from typing import Final

from . import _auth
from . import r2025_06_18 as _previous
from ._profile import Binding, Change, Cite, Deprecation, ErrorCode, Impact, Obligation, Profile
from .r2024_11_05 import BOTH, NOTE, REQ, S2C

__all__ = ["PROFILE"]

REV = "2025-11-25"

TASK_CAPS_CLIENT = (
    "tasks", "tasks.cancel", "tasks.list", "tasks.requests", "tasks.requests.elicitation",
    "tasks.requests.elicitation.create", "tasks.requests.sampling",
    "tasks.requests.sampling.createMessage",
)
TASK_CAPS_SERVER = (
    "tasks", "tasks.cancel", "tasks.list", "tasks.requests", "tasks.requests.tools",
    "tasks.requests.tools.call",
)

PROFILE: Final[Profile] = _previous.PROFILE.evolve(
    revision=REV,
    title="Icons, URL elicitation, sampling with tools, experimental tasks",
    changes=(
        Change(
            id="tasks-experimental",
            summary="Experimental tasks: task-augmented requests polled with tasks/get, "
            "tasks/result, tasks/list, tasks/cancel, in both directions",
            cite=Cite(REV, "basic/utilities/tasks.mdx"),
            impact=Impact.ADDITIVE,
            add={
                "methods": {
                    "tasks/get": REQ(BOTH, "tasks"),
                    "tasks/result": REQ(BOTH, "tasks"),
                    "tasks/list": REQ(BOTH, "tasks.list"),
                    "tasks/cancel": REQ(BOTH, "tasks.cancel"),
                    "notifications/tasks/status": NOTE(BOTH, "tasks"),
                },
                "client_capabilities": list(TASK_CAPS_CLIENT),
                "server_capabilities": list(TASK_CAPS_SERVER),
                "tool_fields": ["execution"],
                "features": ["tasks"],
            },
        ),
        Change(
            id="url-elicitation",
            summary="URL-mode elicitation (elicitation.url), its completion notification and "
            "the URLElicitationRequired error -32042; form mode is elicitation.form",
            cite=Cite(REV, "client/elicitation.mdx", "URL Mode"),
            impact=Impact.ADDITIVE,
            add={
                "methods": {"notifications/elicitation/complete": NOTE(S2C, "elicitation.url")},
                "client_capabilities": ["elicitation.form", "elicitation.url"],
                "errors": {
                    "URLElicitationRequired": ErrorCode(
                        -32042, "URL elicitation required", ("elicitations",)
                    )
                },
                "features": ["url-elicitation"],
            },
        ),
        Change(
            id="sampling-tools",
            summary="Sampling requests may offer tools (sampling.tools) and context "
            "(sampling.context); content gains tool_use and tool_result",
            cite=Cite(REV, "client/sampling.mdx"),
            impact=Impact.ADDITIVE,
            add={
                "client_capabilities": ["sampling.context", "sampling.tools"],
                "sampling_content_types": ["tool_use", "tool_result"],
                "features": ["sampling-with-tools"],
            },
        ),
        Change(
            id="include-context-soft-deprecated",
            summary='includeContext "thisServer" and "allServers" are soft-deprecated',
            cite=Cite(REV, "client/sampling.mdx"),
            impact=Impact.DEPRECATION,
            add={
                "deprecations": {
                    "includeContext thisServer/allServers": Deprecation(
                        since=REV,
                        removal="follows Sampling",
                        migration='omit includeContext or use "none"',
                        cite=Cite(REV, "client/sampling.mdx"),
                    )
                }
            },
        ),
        Change(
            id="icons",
            summary="Icons on tools, prompts, resources, resource links and Implementation",
            cite=Cite(REV, "schema.json#/$defs/Icon"),
            impact=Impact.ADDITIVE,
            add={"tool_fields": ["icons"], "features": ["icons"]},
        ),
        Change(
            id="tool-input-errors-as-tool-errors",
            summary="Tool input-validation errors are tool execution errors (isError: true), "
            "not JSON-RPC protocol errors; an unknown tool stays -32602",
            cite=Cite(REV, "server/tools.mdx", "Error Handling"),
            impact=Impact.BEHAVIOUR,
            settings={"tool_input_errors": "tool execution error (isError)"},
            steps=(
                "Servers: return bad tool arguments (wrong format, out of range) as a "
                "CallToolResult with isError: true and a text block the model can read; keep "
                "-32602 for an unknown tool or a request that fails the CallToolRequest schema.",
                "Clients: expect bad arguments to come back as a CallToolResult with isError: "
                "true, not as -32602, and give its text to the model so it can correct the call.",
            ),
            severity={
                "client": Binding(Obligation.SHOULD, "Clients SHOULD provide tool execution "
                                  "errors to language models to enable self-correction"),
            },
        ),
        Change(
            id="json-schema-2020-12",
            summary="JSON Schema 2020-12 is the default dialect of inputSchema and outputSchema",
            cite=Cite(REV, "basic/index.mdx", "JSON Schema Usage"),
            impact=Impact.BEHAVIOUR,
            settings={"tool_schema_dialect": "2020-12"},
            steps=(
                "Servers: write inputSchema and outputSchema as JSON Schema 2020-12, or name "
                "another dialect in $schema.",
                "Clients: validate schemas as 2020-12 unless their $schema names another "
                "dialect.",
            ),
        ),
        Change(
            id="sse-polling",
            summary="Streamable HTTP: servers may close SSE streams; clients resume by polling "
            "with GET; an invalid Origin gets 403",
            cite=Cite(REV, "basic/transports.mdx", "Streamable HTTP"),
            impact=Impact.BEHAVIOUR,
            transport="http",
            steps=(
                "Servers: before closing an SSE stream early, send a priming event (an id and "
                "empty data) and a retry hint; answer an invalid Origin with 403.",
                "Clients: when the server closes a stream, resume it with GET and "
                "Last-Event-ID after the retry delay.",
            ),
        ),
        Change(
            id="implementation-description",
            summary="Implementation gains description, icons and websiteUrl",
            cite=Cite(REV, "schema.json#/$defs/Implementation"),
            impact=Impact.ADDITIVE,
        ),
        *_auth.changes(REV),  # the authorization rules (``_auth``)
    ),
)

"""The fields of each revision's results, from its official schema: generated, do not edit.

Regenerate with ``.venv/bin/python tests/generated/generate.py``: it reads
``schema/<revision>/schema.json`` of each built-in revision (:data:`SOURCES`: the
sha256 of each). :func:`mcp_skew.versions.unknown_fields` reads this table.

:data:`RESULTS`: per revision, each method -> the result definitions its response
may hold (``InputRequiredResult`` first where the revision allows one). :data:`TYPES`:
per revision, each object type those use -> its properties, or a union -> its
alternatives. A property is ``name``, ``!name`` if required, ``name:Type`` or
``name:Type[]`` (a list) for an object or union looked into, ``name:=value`` for a
string constant; a value that is not looked into (a scalar, a map, a JSON Schema,
``_meta`` without named keys) has no type. ``*`` marks an open object: keys it does
not name are data, not unknown fields (``_meta``, ``Result``). An inline object or
union is named ``Parent.property``.
"""

from typing import Final

SOURCES: Final[dict[str, str]] = {
    "2024-11-05": "61cea2392d4f284092d09bc84b9ac488c0d5618ac2b38a56942fc5b99fd960ce",
    "2025-03-26": "e720669548c8100a4282c49e580efd6ddf7f28899ea786fc8db251dbdb356131",
    "2025-06-18": "af845e7e5b9d27107d1690f0936022546177a1403e63ffb11470135b296a2e01",
    "2025-11-25": "268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7",
    "2026-07-28": "ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203",
}

RESULTS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "2024-11-05": {
        "completion/complete": ("CompleteResult",),
        "initialize": ("InitializeResult",),
        "logging/setLevel": ("Result",),
        "ping": ("Result",),
        "prompts/get": ("GetPromptResult",),
        "prompts/list": ("ListPromptsResult",),
        "resources/list": ("ListResourcesResult",),
        "resources/read": ("ReadResourceResult",),
        "resources/subscribe": ("Result",),
        "resources/templates/list": ("ListResourceTemplatesResult",),
        "resources/unsubscribe": ("Result",),
        "roots/list": ("ListRootsResult",),
        "sampling/createMessage": ("CreateMessageResult",),
        "tools/call": ("CallToolResult",),
        "tools/list": ("ListToolsResult",),
    },
    "2025-03-26": {
        "completion/complete": ("CompleteResult",),
        "initialize": ("InitializeResult",),
        "logging/setLevel": ("Result",),
        "ping": ("Result",),
        "prompts/get": ("GetPromptResult",),
        "prompts/list": ("ListPromptsResult",),
        "resources/list": ("ListResourcesResult",),
        "resources/read": ("ReadResourceResult",),
        "resources/subscribe": ("Result",),
        "resources/templates/list": ("ListResourceTemplatesResult",),
        "resources/unsubscribe": ("Result",),
        "roots/list": ("ListRootsResult",),
        "sampling/createMessage": ("CreateMessageResult",),
        "tools/call": ("CallToolResult",),
        "tools/list": ("ListToolsResult",),
    },
    "2025-06-18": {
        "completion/complete": ("CompleteResult",),
        "elicitation/create": ("ElicitResult",),
        "initialize": ("InitializeResult",),
        "logging/setLevel": ("Result",),
        "ping": ("Result",),
        "prompts/get": ("GetPromptResult",),
        "prompts/list": ("ListPromptsResult",),
        "resources/list": ("ListResourcesResult",),
        "resources/read": ("ReadResourceResult",),
        "resources/subscribe": ("Result",),
        "resources/templates/list": ("ListResourceTemplatesResult",),
        "resources/unsubscribe": ("Result",),
        "roots/list": ("ListRootsResult",),
        "sampling/createMessage": ("CreateMessageResult",),
        "tools/call": ("CallToolResult",),
        "tools/list": ("ListToolsResult",),
    },
    "2025-11-25": {
        "completion/complete": ("CompleteResult",),
        "elicitation/create": ("ElicitResult",),
        "initialize": ("InitializeResult",),
        "logging/setLevel": ("Result",),
        "ping": ("Result",),
        "prompts/get": ("GetPromptResult",),
        "prompts/list": ("ListPromptsResult",),
        "resources/list": ("ListResourcesResult",),
        "resources/read": ("ReadResourceResult",),
        "resources/subscribe": ("Result",),
        "resources/templates/list": ("ListResourceTemplatesResult",),
        "resources/unsubscribe": ("Result",),
        "roots/list": ("ListRootsResult",),
        "sampling/createMessage": ("CreateMessageResult",),
        "tasks/cancel": ("CancelTaskResult",),
        "tasks/get": ("GetTaskResult",),
        "tasks/list": ("ListTasksResult",),
        "tasks/result": ("GetTaskPayloadResult",),
        "tools/call": ("CallToolResult",),
        "tools/list": ("ListToolsResult",),
    },
    "2026-07-28": {
        "completion/complete": ("CompleteResult",),
        "prompts/get": ("InputRequiredResult", "GetPromptResult"),
        "prompts/list": ("ListPromptsResult",),
        "resources/list": ("ListResourcesResult",),
        "resources/read": ("InputRequiredResult", "ReadResourceResult"),
        "resources/templates/list": ("ListResourceTemplatesResult",),
        "server/discover": ("DiscoverResult",),
        "subscriptions/listen": ("SubscriptionsListenResult",),
        "tools/call": ("InputRequiredResult", "CallToolResult"),
        "tools/list": ("ListToolsResult",),
    },
}

TYPES: Final[dict[str, dict[str, str | tuple[str, ...]]]] = {
    "2024-11-05": {
        "BlobResourceContents": "!blob mimeType !uri",
        "CallToolResult": "_meta !content:CallToolResult.content[] isError",
        "CallToolResult.content": ("TextContent", "ImageContent", "EmbeddedResource"),
        "CompleteResult": "_meta !completion:CompleteResult.completion",
        "CompleteResult.completion": "hasMore total !values",
        "CreateMessageResult": "_meta !content:CreateMessageResult.content !model !role stopReason",
        "CreateMessageResult.content": ("TextContent", "ImageContent"),
        "EmbeddedResource": (
            "annotations:EmbeddedResource.annotations !resource:EmbeddedResource.resource !type:=resource"
        ),
        "EmbeddedResource.annotations": "audience priority",
        "EmbeddedResource.resource": ("TextResourceContents", "BlobResourceContents"),
        "GetPromptResult": "_meta description !messages:PromptMessage[]",
        "ImageContent": "annotations:ImageContent.annotations !data !mimeType !type:=image",
        "ImageContent.annotations": "audience priority",
        "Implementation": "!name !version",
        "InitializeResult": (
            "_meta !capabilities:ServerCapabilities instructions !protocolVersion "
            "!serverInfo:Implementation"
        ),
        "ListPromptsResult": "_meta nextCursor !prompts:Prompt[]",
        "ListResourceTemplatesResult": "_meta nextCursor !resourceTemplates:ResourceTemplate[]",
        "ListResourcesResult": "_meta nextCursor !resources:Resource[]",
        "ListRootsResult": "_meta !roots:Root[]",
        "ListToolsResult": "_meta nextCursor !tools:Tool[]",
        "Prompt": "arguments:PromptArgument[] description !name",
        "PromptArgument": "description !name required",
        "PromptMessage": "!content:PromptMessage.content !role",
        "PromptMessage.content": ("TextContent", "ImageContent", "EmbeddedResource"),
        "ReadResourceResult": "_meta !contents:ReadResourceResult.contents[]",
        "ReadResourceResult.contents": ("TextResourceContents", "BlobResourceContents"),
        "Resource": "annotations:Resource.annotations description mimeType !name size !uri",
        "Resource.annotations": "audience priority",
        "ResourceTemplate": (
            "annotations:ResourceTemplate.annotations description mimeType !name !uriTemplate"
        ),
        "ResourceTemplate.annotations": "audience priority",
        "Result": "* _meta",
        "Root": "name !uri",
        "ServerCapabilities": (
            "experimental logging prompts:ServerCapabilities.prompts "
            "resources:ServerCapabilities.resources tools:ServerCapabilities.tools"
        ),
        "ServerCapabilities.prompts": "listChanged",
        "ServerCapabilities.resources": "listChanged subscribe",
        "ServerCapabilities.tools": "listChanged",
        "TextContent": "annotations:TextContent.annotations !text !type:=text",
        "TextContent.annotations": "audience priority",
        "TextResourceContents": "mimeType !text !uri",
        "Tool": "description !inputSchema !name",
    },
    "2025-03-26": {
        "Annotations": "audience priority",
        "AudioContent": "annotations:Annotations !data !mimeType !type:=audio",
        "BlobResourceContents": "!blob mimeType !uri",
        "CallToolResult": "_meta !content:CallToolResult.content[] isError",
        "CallToolResult.content": ("TextContent", "ImageContent", "AudioContent", "EmbeddedResource"),
        "CompleteResult": "_meta !completion:CompleteResult.completion",
        "CompleteResult.completion": "hasMore total !values",
        "CreateMessageResult": "_meta !content:CreateMessageResult.content !model !role stopReason",
        "CreateMessageResult.content": ("TextContent", "ImageContent", "AudioContent"),
        "EmbeddedResource": "annotations:Annotations !resource:EmbeddedResource.resource !type:=resource",
        "EmbeddedResource.resource": ("TextResourceContents", "BlobResourceContents"),
        "GetPromptResult": "_meta description !messages:PromptMessage[]",
        "ImageContent": "annotations:Annotations !data !mimeType !type:=image",
        "Implementation": "!name !version",
        "InitializeResult": (
            "_meta !capabilities:ServerCapabilities instructions !protocolVersion "
            "!serverInfo:Implementation"
        ),
        "ListPromptsResult": "_meta nextCursor !prompts:Prompt[]",
        "ListResourceTemplatesResult": "_meta nextCursor !resourceTemplates:ResourceTemplate[]",
        "ListResourcesResult": "_meta nextCursor !resources:Resource[]",
        "ListRootsResult": "_meta !roots:Root[]",
        "ListToolsResult": "_meta nextCursor !tools:Tool[]",
        "Prompt": "arguments:PromptArgument[] description !name",
        "PromptArgument": "description !name required",
        "PromptMessage": "!content:PromptMessage.content !role",
        "PromptMessage.content": ("TextContent", "ImageContent", "AudioContent", "EmbeddedResource"),
        "ReadResourceResult": "_meta !contents:ReadResourceResult.contents[]",
        "ReadResourceResult.contents": ("TextResourceContents", "BlobResourceContents"),
        "Resource": "annotations:Annotations description mimeType !name size !uri",
        "ResourceTemplate": "annotations:Annotations description mimeType !name !uriTemplate",
        "Result": "* _meta",
        "Root": "name !uri",
        "ServerCapabilities": (
            "completions experimental logging prompts:ServerCapabilities.prompts "
            "resources:ServerCapabilities.resources tools:ServerCapabilities.tools"
        ),
        "ServerCapabilities.prompts": "listChanged",
        "ServerCapabilities.resources": "listChanged subscribe",
        "ServerCapabilities.tools": "listChanged",
        "TextContent": "annotations:Annotations !text !type:=text",
        "TextResourceContents": "mimeType !text !uri",
        "Tool": "annotations:ToolAnnotations description !inputSchema !name",
        "ToolAnnotations": "destructiveHint idempotentHint openWorldHint readOnlyHint title",
    },
    "2025-06-18": {
        "Annotations": "audience lastModified priority",
        "AudioContent": "_meta annotations:Annotations !data !mimeType !type:=audio",
        "BlobResourceContents": "_meta !blob mimeType !uri",
        "CallToolResult": "_meta !content:ContentBlock[] isError structuredContent",
        "CompleteResult": "_meta !completion:CompleteResult.completion",
        "CompleteResult.completion": "hasMore total !values",
        "ContentBlock": ("TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource"),
        "CreateMessageResult": "_meta !content:CreateMessageResult.content !model !role stopReason",
        "CreateMessageResult.content": ("TextContent", "ImageContent", "AudioContent"),
        "ElicitResult": "_meta !action content",
        "EmbeddedResource": (
            "_meta annotations:Annotations !resource:EmbeddedResource.resource !type:=resource"
        ),
        "EmbeddedResource.resource": ("TextResourceContents", "BlobResourceContents"),
        "GetPromptResult": "_meta description !messages:PromptMessage[]",
        "ImageContent": "_meta annotations:Annotations !data !mimeType !type:=image",
        "Implementation": "!name title !version",
        "InitializeResult": (
            "_meta !capabilities:ServerCapabilities instructions !protocolVersion "
            "!serverInfo:Implementation"
        ),
        "ListPromptsResult": "_meta nextCursor !prompts:Prompt[]",
        "ListResourceTemplatesResult": "_meta nextCursor !resourceTemplates:ResourceTemplate[]",
        "ListResourcesResult": "_meta nextCursor !resources:Resource[]",
        "ListRootsResult": "_meta !roots:Root[]",
        "ListToolsResult": "_meta nextCursor !tools:Tool[]",
        "Prompt": "_meta arguments:PromptArgument[] description !name title",
        "PromptArgument": "description !name required title",
        "PromptMessage": "!content:ContentBlock !role",
        "ReadResourceResult": "_meta !contents:ReadResourceResult.contents[]",
        "ReadResourceResult.contents": ("TextResourceContents", "BlobResourceContents"),
        "Resource": "_meta annotations:Annotations description mimeType !name size title !uri",
        "ResourceLink": (
            "_meta annotations:Annotations description mimeType !name size title !type:=resource_link "
            "!uri"
        ),
        "ResourceTemplate": "_meta annotations:Annotations description mimeType !name title !uriTemplate",
        "Result": "* _meta",
        "Root": "_meta name !uri",
        "ServerCapabilities": (
            "completions experimental logging prompts:ServerCapabilities.prompts "
            "resources:ServerCapabilities.resources tools:ServerCapabilities.tools"
        ),
        "ServerCapabilities.prompts": "listChanged",
        "ServerCapabilities.resources": "listChanged subscribe",
        "ServerCapabilities.tools": "listChanged",
        "TextContent": "_meta annotations:Annotations !text !type:=text",
        "TextResourceContents": "_meta mimeType !text !uri",
        "Tool": "_meta annotations:ToolAnnotations description !inputSchema !name outputSchema title",
        "ToolAnnotations": "destructiveHint idempotentHint openWorldHint readOnlyHint title",
    },
    "2025-11-25": {
        "Annotations": "audience lastModified priority",
        "AudioContent": "_meta annotations:Annotations !data !mimeType !type:=audio",
        "BlobResourceContents": "_meta !blob mimeType !uri",
        "CallToolResult": "_meta !content:ContentBlock[] isError structuredContent",
        "CancelTaskResult": "_meta !createdAt !lastUpdatedAt pollInterval !status statusMessage !taskId !ttl",
        "CompleteResult": "_meta !completion:CompleteResult.completion",
        "CompleteResult.completion": "hasMore total !values",
        "ContentBlock": ("TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource"),
        "CreateMessageResult": "_meta !content:CreateMessageResult.content !model !role stopReason",
        "CreateMessageResult.content": (
            "TextContent",
            "ImageContent",
            "AudioContent",
            "ToolUseContent",
            "ToolResultContent",
            "SamplingMessageContentBlock[]",
        ),
        "ElicitResult": "_meta !action content",
        "EmbeddedResource": (
            "_meta annotations:Annotations !resource:EmbeddedResource.resource !type:=resource"
        ),
        "EmbeddedResource.resource": ("TextResourceContents", "BlobResourceContents"),
        "GetPromptResult": "_meta description !messages:PromptMessage[]",
        "GetTaskPayloadResult": "* _meta",
        "GetTaskResult": "_meta !createdAt !lastUpdatedAt pollInterval !status statusMessage !taskId !ttl",
        "Icon": "mimeType sizes !src theme",
        "ImageContent": "_meta annotations:Annotations !data !mimeType !type:=image",
        "Implementation": "description icons:Icon[] !name title !version websiteUrl",
        "InitializeResult": (
            "_meta !capabilities:ServerCapabilities instructions !protocolVersion "
            "!serverInfo:Implementation"
        ),
        "ListPromptsResult": "_meta nextCursor !prompts:Prompt[]",
        "ListResourceTemplatesResult": "_meta nextCursor !resourceTemplates:ResourceTemplate[]",
        "ListResourcesResult": "_meta nextCursor !resources:Resource[]",
        "ListRootsResult": "_meta !roots:Root[]",
        "ListTasksResult": "_meta nextCursor !tasks:Task[]",
        "ListToolsResult": "_meta nextCursor !tools:Tool[]",
        "Prompt": "_meta arguments:PromptArgument[] description icons:Icon[] !name title",
        "PromptArgument": "description !name required title",
        "PromptMessage": "!content:ContentBlock !role",
        "ReadResourceResult": "_meta !contents:ReadResourceResult.contents[]",
        "ReadResourceResult.contents": ("TextResourceContents", "BlobResourceContents"),
        "Resource": "_meta annotations:Annotations description icons:Icon[] mimeType !name size title !uri",
        "ResourceLink": (
            "_meta annotations:Annotations description icons:Icon[] mimeType !name size title "
            "!type:=resource_link !uri"
        ),
        "ResourceTemplate": (
            "_meta annotations:Annotations description icons:Icon[] mimeType !name title !uriTemplate"
        ),
        "Result": "* _meta",
        "Root": "_meta name !uri",
        "SamplingMessageContentBlock": (
            "TextContent",
            "ImageContent",
            "AudioContent",
            "ToolUseContent",
            "ToolResultContent",
        ),
        "ServerCapabilities": (
            "completions experimental logging prompts:ServerCapabilities.prompts "
            "resources:ServerCapabilities.resources tasks:ServerCapabilities.tasks "
            "tools:ServerCapabilities.tools"
        ),
        "ServerCapabilities.prompts": "listChanged",
        "ServerCapabilities.resources": "listChanged subscribe",
        "ServerCapabilities.tasks": "cancel list requests:ServerCapabilities.tasks.requests",
        "ServerCapabilities.tasks.requests": "tools:ServerCapabilities.tasks.requests.tools",
        "ServerCapabilities.tasks.requests.tools": "call",
        "ServerCapabilities.tools": "listChanged",
        "Task": "!createdAt !lastUpdatedAt pollInterval !status statusMessage !taskId !ttl",
        "TextContent": "_meta annotations:Annotations !text !type:=text",
        "TextResourceContents": "_meta mimeType !text !uri",
        "Tool": (
            "_meta annotations:ToolAnnotations description execution:ToolExecution icons:Icon[] "
            "!inputSchema !name outputSchema title"
        ),
        "ToolAnnotations": "destructiveHint idempotentHint openWorldHint readOnlyHint title",
        "ToolExecution": "taskSupport",
        "ToolResultContent": (
            "_meta !content:ContentBlock[] isError structuredContent !toolUseId !type:=tool_result"
        ),
        "ToolUseContent": "_meta !id !input !name !type:=tool_use",
    },
    "2026-07-28": {
        "Annotations": "audience lastModified priority",
        "AudioContent": "_meta annotations:Annotations !data !mimeType !type:=audio",
        "BlobResourceContents": "_meta !blob mimeType !uri",
        "CallToolResult": (
            "_meta:ResultMetaObject !content:ContentBlock[] isError !resultType structuredContent"
        ),
        "CompleteResult": "_meta:ResultMetaObject !completion:CompleteResult.completion !resultType",
        "CompleteResult.completion": "hasMore total !values",
        "ContentBlock": ("TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource"),
        "DiscoverResult": (
            "_meta:ResultMetaObject !cacheScope !capabilities:ServerCapabilities instructions !resultType "
            "!supportedVersions !ttlMs"
        ),
        "EmbeddedResource": (
            "_meta annotations:Annotations !resource:EmbeddedResource.resource !type:=resource"
        ),
        "EmbeddedResource.resource": ("TextResourceContents", "BlobResourceContents"),
        "GetPromptResult": "_meta:ResultMetaObject description !messages:PromptMessage[] !resultType",
        "Icon": "mimeType sizes !src theme",
        "ImageContent": "_meta annotations:Annotations !data !mimeType !type:=image",
        "Implementation": "description icons:Icon[] !name title !version websiteUrl",
        "InputRequiredResult": (
            "_meta:ResultMetaObject inputRequests requestState !resultType:=input_required"
        ),
        "ListPromptsResult": (
            "_meta:ResultMetaObject !cacheScope nextCursor !prompts:Prompt[] !resultType !ttlMs"
        ),
        "ListResourceTemplatesResult": (
            "_meta:ResultMetaObject !cacheScope nextCursor !resourceTemplates:ResourceTemplate[] "
            "!resultType !ttlMs"
        ),
        "ListResourcesResult": (
            "_meta:ResultMetaObject !cacheScope nextCursor !resources:Resource[] !resultType !ttlMs"
        ),
        "ListToolsResult": "_meta:ResultMetaObject !cacheScope nextCursor !resultType !tools:Tool[] !ttlMs",
        "Prompt": "_meta arguments:PromptArgument[] description icons:Icon[] !name title",
        "PromptArgument": "description !name required title",
        "PromptMessage": "!content:ContentBlock !role",
        "ReadResourceResult": (
            "_meta:ResultMetaObject !cacheScope !contents:ReadResourceResult.contents[] !resultType "
            "!ttlMs"
        ),
        "ReadResourceResult.contents": ("TextResourceContents", "BlobResourceContents"),
        "Resource": "_meta annotations:Annotations description icons:Icon[] mimeType !name size title !uri",
        "ResourceLink": (
            "_meta annotations:Annotations description icons:Icon[] mimeType !name size title "
            "!type:=resource_link !uri"
        ),
        "ResourceTemplate": (
            "_meta annotations:Annotations description icons:Icon[] mimeType !name title !uriTemplate"
        ),
        "ResultMetaObject": "* io.modelcontextprotocol/serverInfo:Implementation",
        "ServerCapabilities": (
            "completions experimental extensions logging prompts:ServerCapabilities.prompts "
            "resources:ServerCapabilities.resources tools:ServerCapabilities.tools"
        ),
        "ServerCapabilities.prompts": "listChanged",
        "ServerCapabilities.resources": "listChanged subscribe",
        "ServerCapabilities.tools": "listChanged",
        "SubscriptionsListenResult": "!_meta:SubscriptionsListenResultMetaObject !resultType",
        "SubscriptionsListenResultMetaObject": (
            "* io.modelcontextprotocol/serverInfo:Implementation !io.modelcontextprotocol/subscriptionId"
        ),
        "TextContent": "_meta annotations:Annotations !text !type:=text",
        "TextResourceContents": "_meta mimeType !text !uri",
        "Tool": (
            "_meta annotations:ToolAnnotations description icons:Icon[] !inputSchema !name outputSchema "
            "title"
        ),
        "ToolAnnotations": "destructiveHint idempotentHint openWorldHint readOnlyHint title",
    },
}

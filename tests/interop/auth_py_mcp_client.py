"""Driver (run in an environment with the ``mcp`` package): the official Python client with
its OAuth provider, headless, against a protected ``mcp-skew serve --http`` server.

``python auth_py_mcp_client.py URL``: connects with ``OAuthClientProvider`` (dynamic
registration; the redirect handler GETs the authorization URL itself and reads the 302's
``Location``, since the test authorization server approves at once), initializes, lists
tools, and prints one JSON object: ``{"ok": true, "tools": N}`` or ``{"ok": false,
"error": "..."}``. Used by ``tests/interop/test_auth_realpeer.py``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from urllib.parse import parse_qs, urlsplit

import httpx
from mcp import ClientSession
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamablehttp_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

REDIRECT = "http://127.0.0.1:33418/callback"


class Memory(TokenStorage):
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


async def main(url: str) -> dict[str, object]:
    answer: dict[str, str] = {}

    async def redirect(auth_url: str) -> None:
        async with httpx.AsyncClient(follow_redirects=False) as http:
            got = await http.get(auth_url)
        query = parse_qs(urlsplit(got.headers.get("location", "")).query)
        answer.update({k: v[0] for k, v in query.items()})

    async def callback() -> tuple[str, str | None]:
        if "code" not in answer:
            raise RuntimeError(f"no code in the authorization response: {answer}")
        return answer["code"], answer.get("state")

    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(client_name="mcp-skew drift", redirect_uris=[REDIRECT],
                                            grant_types=["authorization_code", "refresh_token"],
                                            response_types=["code"],
                                            token_endpoint_auth_method="none"),
        storage=Memory(), redirect_handler=redirect, callback_handler=callback)
    async with streamablehttp_client(url, auth=provider) as (read, write, _), \
            ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
    return {"ok": True, "tools": len(tools.tools)}


if __name__ == "__main__":
    try:
        result = asyncio.run(asyncio.wait_for(main(sys.argv[1]), 60))
    except BaseException as exc:  # the verdict is the output
        inner = exc
        while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
            inner = inner.exceptions[0]
        result = {"ok": False, "error": f"{type(inner).__name__}: {inner}"[:500]}
    print(json.dumps(result), flush=True)

// Driver: the TypeScript SDK client (v1) with an OAuthClientProvider, headless, against a
// protected `mcp-skew serve --http` server.
//
//   node auth_ts_sdk_client.mjs <node_modules dir> <url>
//
// Connects with StreamableHTTPClientTransport({ authProvider }); on the 401 the SDK
// discovers, registers and calls redirectToAuthorization, which GETs the authorization URL
// itself (the test authorization server approves at once) and keeps the code from the
// 302's Location; the SDK then throws UnauthorizedError, the driver calls finishAuth(code)
// and connects again. Prints one JSON object: {"ok": true, "tools": N} or {"ok": false,
// "error": "..."}. Used by tests/interop/test_auth_realpeer.py.
import { createRequire } from 'node:module';
import path from 'node:path';

const [nodeModules, target] = process.argv.slice(2);
const req = createRequire(path.join(path.resolve(nodeModules), '..', 'package.json'));
const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = req('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { UnauthorizedError } = req('@modelcontextprotocol/sdk/client/auth.js');

const REDIRECT = 'http://127.0.0.1:33418/callback';
const url = new URL(target);
let info, tokens, verifier, code, refused;
const provider = {
  get redirectUrl() { return REDIRECT; },
  get clientMetadata() {
    return { client_name: 'mcp-skew drift', redirect_uris: [REDIRECT],
             grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
             token_endpoint_auth_method: 'none' };
  },
  clientInformation() { return info; },
  saveClientInformation(i) { info = i; },
  tokens() { return tokens; },
  saveTokens(t) { tokens = t; },
  async redirectToAuthorization(authUrl) {
    const answer = await fetch(authUrl, { redirect: 'manual' });
    const location = new URL(answer.headers.get('location') ?? '', url);
    code = location.searchParams.get('code') ?? undefined;
    refused = location.searchParams.get('error') ?? undefined;
  },
  saveCodeVerifier(v) { verifier = v; },
  codeVerifier() { return verifier; },
};

async function connect() {
  const client = new Client({ name: 'mcp-skew-drift', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

const timer = setTimeout(() => { console.log(JSON.stringify({ ok: false, error: 'timeout' })); process.exit(0); }, 60000);
try {
  let client;
  try {
    client = await connect();
  } catch (err) {
    if (!(err instanceof UnauthorizedError) || !code) throw refused ? new Error(`authorization refused: ${refused}`) : err;
    await new StreamableHTTPClientTransport(url, { authProvider: provider }).finishAuth(code);
    client = await connect();
  }
  const listed = await client.listTools();
  console.log(JSON.stringify({ ok: true, tools: listed.tools.length }));
  await client.close();
} catch (err) {
  console.log(JSON.stringify({ ok: false, error: String(err).slice(0, 500) }));
}
clearTimeout(timer);
process.exit(0);

// Minimal Streamable HTTP MCP server on the TypeScript SDK 1.x (@modelcontextprotocol/sdk):
// tools `echo` and `fail`, resource `mem://hello`, served at /mcp on 127.0.0.1.
//
// Usage: node ts_sdk_http_server.mjs <node_modules dir> <port>
//   <node_modules dir>  an npm prefix built by mcp_skew.realpeers._envs holding @modelcontextprotocol/sdk 1.x
//
// Sessions as in the reference server-everything (src/everything/streamableHttp.ts): a POST with
// a known Mcp-Session-Id goes to that session's transport; any other request goes to a fresh
// StreamableHTTPServerTransport (sessionIdGenerator: randomUUID), which starts a session on
// initialize and refuses anything else with 400 "Bad Request: Server not initialized"; an
// unknown session id gets 404.
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';

const [nodeModules, portText] = process.argv.slice(2);
if (!nodeModules || !portText) {
  process.stderr.write('usage: node ts_sdk_http_server.mjs <node_modules dir> <port>\n');
  process.exit(2);
}
const req = createRequire(path.join(path.resolve(nodeModules), '..', 'package.json'));
const { z } = req('zod');
const { McpServer } = req('@modelcontextprotocol/sdk/server/mcp.js');
const { StreamableHTTPServerTransport } = req('@modelcontextprotocol/sdk/server/streamableHttp.js');
const HELLO = 'hello from mcp-skew';

function make() {
  const server = new McpServer({ name: 'mcp-skew-ts-http-server', version: '0.0.0' });
  server.registerTool('echo', { description: 'Return the text unchanged.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('fail', { description: 'Always fails.', inputSchema: { text: z.string().optional() } },
    async ({ text }) => { throw new Error(`fail tool called: ${text ?? ''}`); });
  server.registerResource('hello', 'mem://hello', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: String(uri.href ?? uri), mimeType: 'text/plain', text: HELLO }],
  }));
  return server;
}

const sessions = new Map();

const httpServer = http.createServer(async (request, response) => {
  try {
    if (!request.url.startsWith('/mcp')) {
      response.writeHead(404).end();
      return;
    }
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    let body;
    if (text) {
      try { body = JSON.parse(text); } catch { body = undefined; }
    }
    const sid = request.headers['mcp-session-id'];
    let transport = sid ? sessions.get(sid) : undefined;
    if (sid && !transport) {
      response.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify(
        { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => { sessions.set(id, transport); },
      });
      transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId); };
      await make().connect(transport);
    }
    await transport.handleRequest(request, response, body);
  } catch (err) {
    if (!response.headersSent) response.writeHead(500).end(String(err));
  }
});
httpServer.listen(Number(portText), '127.0.0.1');

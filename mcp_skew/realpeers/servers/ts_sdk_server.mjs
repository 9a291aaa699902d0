// Minimal stdio MCP server on the TypeScript SDK: tools `echo` and `fail`, resource `mem://hello`, no prompts.
//
// Usage: node ts_sdk_server.mjs <node_modules dir> [--v1 | --v2] [--plain-connect | --legacy-reject]
//   <node_modules dir>  an npm prefix built by mcp_skew.realpeers._envs (argv or $MCP_SKEW_NODE_MODULES)
//   --v1   @modelcontextprotocol/sdk 1.x (McpServer + StdioServerTransport)
//   --v2   @modelcontextprotocol/server 2.x; served with serveStdio(factory), the dual-era entry,
//          unless --plain-connect, which uses server.connect(new StdioServerTransport())
//   --legacy-reject  (v2) serveStdio(factory, { legacy: 'reject' }): modern only
//   Without --v1/--v2 the script uses v2 when @modelcontextprotocol/server resolves, else v1.
// Packages are loaded with createRequire rooted at that prefix (ESM ignores NODE_PATH).
import { createRequire } from 'node:module';
import path from 'node:path';

const args = process.argv.slice(2);
const nodeModules = args.find((a) => !a.startsWith('--')) ?? process.env.MCP_SKEW_NODE_MODULES;
if (!nodeModules) {
  process.stderr.write('usage: node ts_sdk_server.mjs <node_modules dir> [--v1|--v2] [--plain-connect]\n');
  process.exit(2);
}
const req = createRequire(path.join(path.resolve(nodeModules), '..', 'package.json'));
const has = (spec) => {
  try {
    req.resolve(spec);
    return true;
  } catch {
    return false;
  }
};
const wantV2 = args.includes('--v2') || (!args.includes('--v1') && has('@modelcontextprotocol/server'));
const { z } = req('zod');
const HELLO = 'hello from mcp-skew';

function register(server, schemaFor) {
  server.registerTool(
    'echo',
    { description: 'Return the text unchanged.', inputSchema: schemaFor({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'fail',
    { description: 'Always fails.', inputSchema: schemaFor({ text: z.string().optional() }) },
    async ({ text }) => {
      throw new Error(`fail tool called: ${text ?? ''}`);
    },
  );
  server.registerResource('hello', 'mem://hello', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: String(uri.href ?? uri), mimeType: 'text/plain', text: HELLO }],
  }));
  return server;
}

if (wantV2) {
  const { McpServer } = req('@modelcontextprotocol/server');
  const stdio = req('@modelcontextprotocol/server/stdio');
  const make = () =>
    register(new McpServer({ name: 'mcp-skew-ts-server-v2', version: '0.0.0' }), (shape) => z.object(shape));
  if (args.includes('--plain-connect')) {
    await make().connect(new stdio.StdioServerTransport());
  } else if (args.includes('--legacy-reject')) {
    stdio.serveStdio(() => make(), { legacy: 'reject' });
  } else {
    stdio.serveStdio(() => make());
  }
} else {
  const { McpServer } = req('@modelcontextprotocol/sdk/server/mcp.js');
  const { StdioServerTransport } = req('@modelcontextprotocol/sdk/server/stdio.js');
  const server = register(new McpServer({ name: 'mcp-skew-ts-server-v1', version: '0.0.0' }), (shape) => shape);
  await server.connect(new StdioServerTransport());
}

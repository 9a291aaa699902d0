// Drive a TypeScript SDK client against a stdio server, then print one line `RESULT {json}`.
//
// Usage: node ts_client.mjs <node_modules dir> --v1|--v2 [--mode legacy|auto|pin] [--probe-timeout MS] -- CMD...
//   --v1   @modelcontextprotocol/sdk 1.x Client + StdioClientTransport
//   --v2   @modelcontextprotocol/client 2.x Client; --mode auto sets versionNegotiation {mode: 'auto'},
//          --mode pin sets versionNegotiation {mode: {pin: '2026-07-28'}} (default: legacy, the
//          package's default); --probe-timeout sets probe.timeoutMs
// The client connects, lists the tools once and closes. RESULT carries ok, protocol_version,
// tools, error and elapsed_s. --call NAME then calls that tool with no arguments through
// callTool (which reads the result as the SDK does: outputSchema dialect, structuredContent),
// and RESULT.call carries {ok, error}. Packages are loaded with createRequire rooted at the prefix.
import { createRequire } from 'node:module';
import path from 'node:path';

const argv = process.argv.slice(2);
const dashdash = argv.indexOf('--');
const own = dashdash >= 0 ? argv.slice(0, dashdash) : argv;
const command = dashdash >= 0 ? argv.slice(dashdash + 1) : [];
const nodeModules = own.find((a) => !a.startsWith('--'));
const option = (name) => {
  const i = own.indexOf(name);
  return i >= 0 ? own[i + 1] : undefined;
};
if (!nodeModules || command.length === 0) {
  process.stderr.write('usage: node ts_client.mjs <node_modules> --v1|--v2 [--mode legacy|auto|pin] [--probe-timeout MS] -- CMD...\n');
  process.exit(2);
}
const req = createRequire(path.join(path.resolve(nodeModules), '..', 'package.json'));
const v2 = own.includes('--v2');
const mode = option('--mode') ?? 'legacy';
const probeTimeout = option('--probe-timeout');
const callName = option('--call');

const started = Date.now();
let out;
let client;
try {
  let transport;
  let negotiated;
  const params = { command: command[0], args: command.slice(1), stderr: 'ignore' };
  if (v2) {
    const { Client } = req('@modelcontextprotocol/client');
    const { StdioClientTransport } = req('@modelcontextprotocol/client/stdio');
    const options = {};
    if (mode === 'auto' || mode === 'pin') {
      options.versionNegotiation = { mode: mode === 'pin' ? { pin: '2026-07-28' } : 'auto' };
      if (probeTimeout) options.versionNegotiation.probe = { timeoutMs: Number(probeTimeout) };
    }
    client = new Client({ name: 'mcp-skew-ts-client', version: '0.0.0' }, options);
    transport = new StdioClientTransport(params);
    await client.connect(transport);
    negotiated = client.getNegotiatedProtocolVersion();
  } else {
    const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = req('@modelcontextprotocol/sdk/client/stdio.js');
    client = new Client({ name: 'mcp-skew-ts-client', version: '0.0.0' }, {});
    transport = new StdioClientTransport(params);
    transport.setProtocolVersion = (version) => {
      negotiated = version;
    };
    await client.connect(transport);
  }
  const tools = await client.listTools();
  out = { ok: true, protocol_version: negotiated, tools: tools.tools.map((t) => t.name) };
  if (callName) {
    try {
      const result = await client.callTool({ name: callName, arguments: {} });
      out.call = { ok: result.isError !== true, error: null };
    } catch (error) {
      out.call = { ok: false, error: `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}`.slice(0, 600) };
    }
  }
} catch (error) {
  out = { ok: false, error: `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}`.slice(0, 600) };
}
out.elapsed_s = Math.round((Date.now() - started) / 10) / 100;
process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
try {
  await client?.close();
} catch {
  // closing a failed client is best effort
}
process.exit(0);

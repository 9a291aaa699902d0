// Start the reference server @modelcontextprotocol/server-everything from an npm prefix, in this
// process, as its own bin (dist/index.js) would start it.
//
// Usage: node server_everything.mjs <node_modules dir> [stdio|streamableHttp] [--port N]
//   stdio           (default) the server on standard input and output
//   streamableHttp  Streamable HTTP at http://127.0.0.1:N/mcp (the package reads $PORT; --port sets it)
//   sse             the 2024-11-05 HTTP+SSE transport at http://127.0.0.1:N/sse (POSTs to /message)
// Releases before 2025.4.28 take no transport argument (their bin is stdio only; `sse` runs
// their dist/sse.js).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const nodeModules = args[0];
if (!nodeModules) {
  process.stderr.write('usage: node server_everything.mjs <node_modules dir> [stdio|streamableHttp] [--port N]\n');
  process.exit(2);
}
const transport = args.find((a, i) => i > 0 && !a.startsWith('--') && args[i - 1] !== '--port') ?? 'stdio';
const port = args.includes('--port') ? args[args.indexOf('--port') + 1] : undefined;
if (port) process.env.PORT = port;
const req = createRequire(path.join(path.resolve(nodeModules), '..', 'package.json'));
const pkgDir = path.dirname(req.resolve('@modelcontextprotocol/server-everything/package.json'));
const bin = req('@modelcontextprotocol/server-everything/package.json').bin['mcp-server-everything'];
const main = path.join(pkgDir, bin);
// before 2025.4.28 the bin is stdio only and the HTTP+SSE server is dist/sse.js, run on its own
const ownSse = path.join(path.dirname(main), 'sse.js');
const takesArgument = readFileSync(main, 'utf8').includes('process.argv');
const entry = transport === 'sse' && !takesArgument ? ownSse : main;
process.argv = [process.argv[0], entry, transport];
await import(pathToFileURL(entry).href);

// Drive the MCP Inspector's CLI (@modelcontextprotocol/inspector, `inspector --cli`) as a client
// against a stdio server, then print one line `RESULT {json}`.
//
// Usage: node inspector_client.mjs <node_modules dir> --era legacy|auto|modern
//                                  [--connect-timeout MS] -- CMD...
//   The CLI runs `--protocol-era ERA --method tools/list --format json -q` with the server as its
//   target. It does not print the revision it negotiated, so the target is this script in tap
//   mode (`--tap FILE BASE64`, the command as base64 JSON, out of reach of the CLI's own option
//   parser), which passes stdin and stdout through unchanged and writes to FILE the revision
//   the wire shows: the protocolVersion of an initialize result, or the
//   _meta protocol version of the last request answered with a result.
// RESULT carries ok, protocol_version, tools, error and elapsed_s.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const argv = process.argv.slice(2);
const dashdash = argv.indexOf('--');
const own = dashdash >= 0 ? argv.slice(0, dashdash) : argv;
const command = dashdash >= 0 ? argv.slice(dashdash + 1) : [];
const option = (name) => {
  const i = own.indexOf(name);
  return i >= 0 ? own[i + 1] : undefined;
};
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

if (argv[0] === '--tap') {
  // tap mode: the server between the Inspector and the real command
  const file = argv[1];
  const target = JSON.parse(Buffer.from(argv[2], 'base64').toString('utf8'));
  const child = spawn(target[0], target.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  const asked = new Map();
  let seen = null;
  const note = (version) => {
    seen = version;
    writeFileSync(file, String(version));
  };
  readline.createInterface({ input: process.stdin }).on('line', (line) => {
    try {
      const m = JSON.parse(line);
      const v = m?.params?._meta?.[VERSION_KEY];
      if (m && m.id !== undefined && typeof v === 'string') asked.set(m.id, v);
    } catch {}
    child.stdin.write(line + '\n');
  }).on('close', () => child.stdin.end());
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      const m = JSON.parse(line);
      if (m?.result && typeof m.result.protocolVersion === 'string') note(m.result.protocolVersion);
      else if (m?.result && asked.has(m.id)) note(asked.get(m.id));
    } catch {}
    process.stdout.write(line + '\n');
  });
  child.on('exit', (code) => process.exit(code ?? 0));
  process.on('SIGTERM', () => child.kill('SIGTERM'));
} else {
  const nodeModules = own[0]?.startsWith('--') ? undefined : own[0];
  const era = option('--era') ?? 'legacy';
  if (!nodeModules || command.length === 0) {
    process.stderr.write('usage: node inspector_client.mjs <node_modules> --era legacy|auto|modern [--connect-timeout MS] -- CMD...\n');
    process.exit(2);
  }
  const req = createRequire(path.join(path.resolve(nodeModules), '..', 'package.json'));
  const pkgDir = path.dirname(req.resolve('@modelcontextprotocol/inspector/package.json'));
  const bin = path.join(pkgDir, req('@modelcontextprotocol/inspector/package.json').bin.inspector);
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-skew-inspector-'));
  const tapFile = path.join(dir, 'revision');
  const self = new URL(import.meta.url).pathname;
  const extra = option('--connect-timeout') ? ['--connect-timeout', option('--connect-timeout')] : [];
  const started = Date.now();
  const run = spawnSync(process.execPath, [bin, '--cli', '--protocol-era', era, '--method', 'tools/list',
    '--format', 'json', '-q', ...extra, process.execPath, self, '--tap', tapFile,
    Buffer.from(JSON.stringify(command)).toString('base64')],
  { encoding: 'utf8', timeout: 170_000, env: { ...process.env, HOME: dir } });
  let out;
  try {
    const body = JSON.parse(run.stdout || 'null');
    let version = null;
    try { version = readFileSync(tapFile, 'utf8'); } catch {}
    if (run.status === 0 && body?.result) {
      out = { ok: true, protocol_version: version, tools: (body.result.tools ?? []).map((t) => t.name) };
    } else {
      const err = (run.stderr || '').trim().split('\n').slice(-1)[0] ?? '';
      out = { ok: false, error: `exit ${run.status}: ${err}`.slice(0, 600) };
    }
  } catch (error) {
    out = { ok: false, error: `exit ${run.status}: ${(run.stderr || String(error)).trim().slice(-600)}` };
  }
  out.elapsed_s = Math.round((Date.now() - started) / 10) / 100;
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

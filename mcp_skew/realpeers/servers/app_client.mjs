// Drive an AI app's own MCP health check, headless and without an account, against one
// stdio server, and say whether the app connected.
//
// Usage: node app_client.mjs NODE_MODULES --app claude-code|gemini-cli|opencode -- SERVER...
// Prints one line `RESULT {"ok": bool, "error": str|null, "elapsed_s": N, "said": str}` and
// exits 0 when the app reported the server connected, 1 when not (so it can also be the
// client of `mcp-skew probe-client`, whose `{server}` is SERVER).
//
// Each app runs with a private HOME (and XDG folders) made here and removed after: the
// server is configured there as the app's own `mcp add` writes it (read from what each
// release writes), nothing of the machine's own configuration is read, and the apps'
// update checks and telemetry are turned off by their documented variables. Each app's
// check connects (initialize or its probe, then tools/list for the apps that list tools on
// connect) and prints one status line per server:
//   claude-code  `claude mcp list`   "NAME: COMMAND - ✔ Connected" / "✘ Failed to connect"
//   gemini-cli   `gemini mcp list`   "✓ NAME: COMMAND (stdio) - Connected" / "✗ … Disconnected"
//   opencode     `opencode mcp list` "✓ NAME connected" / "✗ NAME failed"
// The app's exit status says nothing (each exits 0 either way), so the line is read.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, realpathSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const NAME = "sim";
// how long a hung app may run before this script gives up on it (not a measure of work)
const HANG_MS = 120000;

function usage(message) {
  process.stderr.write(`app_client.mjs: ${message}\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
if (argv.length < 3 || dash < 0 || dash === argv.length - 1) usage("NODE_MODULES --app APP -- SERVER...");
const nodeModules = argv[0];
const own = argv.slice(1, dash);
const server = argv.slice(dash + 1);
const appAt = own.indexOf("--app");
const app = appAt >= 0 ? own[appAt + 1] : undefined;

const home = realpathSync(mkdtempSync(join(tmpdir(), "mcp-skew-app-")));
const work = join(home, "work");
mkdirSync(work);
const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local", "share"),
  XDG_CACHE_HOME: join(home, ".cache"),
  XDG_STATE_HOME: join(home, ".local", "state"),
  TMPDIR: home,
  LANG: "C.UTF-8",
  NO_COLOR: "1",
  CI: "1",
  // claude-code: no update check, no telemetry or error reports
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  // opencode: no update, no models.dev fetch
  OPENCODE_DISABLE_AUTOUPDATE: "1",
  OPENCODE_DISABLE_MODELS_FETCH: "1",
  OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
};
// The server is started here, before the app, and the app gets a relay to it: an app's probe
// wait runs from the moment it spawns its server (Claude Code: about 2.5 s), and a Python
// server on a loaded machine can take longer than that to start, which would measure the
// machine, not the app. The relay (a few lines of Node) connects its stdin and stdout to a
// Unix socket; each connection is handed the next server process, started ahead of it (an
// app that restarts its server gets a fresh process, as it would). Every process started
// here is in this script's process group and ends with it.
const spares = [];
function startServer() {
  const proc = spawn(server[0], server.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  proc.on("error", () => {});
  proc.stdin.on("error", () => {});
  spares.push(proc);
}
const socketPath = join(home, "relay.sock");
const relayCode = [
  'const s = require("node:net").connect(process.argv[1]);',
  "process.stdin.pipe(s); s.pipe(process.stdout);",
  's.on("close", () => process.exit(0)); s.on("error", () => process.exit(1));',
].join(" ");
const relay = createServer((sock) => {
  const proc = spares.shift();
  startServer();
  sock.on("error", () => {});
  sock.pipe(proc.stdin);
  proc.stdout.pipe(sock);
  proc.on("exit", () => sock.destroy());
  sock.on("close", () => { proc.stdin.end(); });
});
const stdio = { type: "stdio", command: process.execPath, args: ["-e", relayCode, socketPath] };
let command;
let connected;
let failed;
if (app === "claude-code") {
  writeFileSync(join(home, ".claude.json"), JSON.stringify({ mcpServers: { [NAME]: stdio } }));
  command = [join(nodeModules, ".bin", "claude"), "mcp", "list"];
  connected = /^sim: .* - ✔ Connected\s*$/m;
  failed = /^sim: .* - ✘ /m;
} else if (app === "gemini-cli") {
  mkdirSync(join(home, ".gemini"));
  writeFileSync(join(home, ".gemini", "settings.json"),
                JSON.stringify({ mcpServers: { [NAME]: { command: stdio.command, args: stdio.args } } }));
  writeFileSync(join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [work]: "TRUST_FOLDER" }));
  command = [process.execPath, join(nodeModules, "@google", "gemini-cli", "bundle", "gemini.js"), "mcp", "list"];
  connected = /^✓ sim: .* - Connected\s*$/m;
  failed = /^✗ sim: /m;
} else if (app === "opencode") {
  writeFileSync(join(work, "opencode.json"), JSON.stringify({
    mcp: { [NAME]: { type: "local", command: [stdio.command, ...stdio.args], enabled: true } } }));
  command = [join(nodeModules, ".bin", "opencode"), "mcp", "list"];
  connected = /✓ sim\s+connected/;
  failed = /✗ sim\b/;
} else {
  usage(`--app must be claude-code, gemini-cli or opencode, not ${app}`);
}

startServer();
await new Promise((resolve) => relay.listen(socketPath, resolve));
const started = Date.now();
const child = spawn(command[0], command.slice(1), { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] });
let out = "";
child.stdout.on("data", (chunk) => { out += chunk; });
child.stderr.on("data", (chunk) => { out += chunk; });
const timer = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
child.on("error", (err) => finish(null, String(err)));
child.on("close", (code, signal) => finish(code, signal ? `ended by ${signal}` : null));

let done = false;
function finish(code, why) {
  if (done) return;
  done = true;
  clearTimeout(timer);
  // eslint-disable-next-line no-control-regex
  const said = out.replace(/\x1b\[[0-9;]*m/g, "");
  const ok = connected.test(said);
  const line = said.split("\n").find((l) => l.includes(NAME) && (connected.test(l) || failed.test(l)));
  const error = ok ? null : (line ?? why ?? `exit ${code}: no status line for ${NAME}`).trim();
  relay.close();
  for (const proc of spares) proc.kill("SIGTERM");
  rmSync(home, { recursive: true, force: true });
  process.stdout.write(`RESULT ${JSON.stringify({ ok, error, elapsed_s: (Date.now() - started) / 1000, said: said.trim().slice(-2000) })}\n`);
  process.exitCode = ok ? 0 : 1;
  // servers still connected end with their relays; give them a moment, then leave
  setTimeout(() => process.exit(ok ? 0 : 1), 500).unref();
}

// tuidriver-server as users get it: packed, with tuidriver (by version) and this machine's
// platform package, installed from the tarballs into a fresh project; then the MCP client
// configuration printed in docs/server.md, spawned as a client would in that project, offline.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SERVER_DIR } from './helpers.mjs';

const ROOT = path.resolve(SERVER_DIR, '..');
// The installed package must find its own bundled binary, not one from the environment.
const { TUIDRIVER_BIN: _bin, TUIDRIVER_ENGINES: _engines, ...CLEAN_ENV } = process.env;
const OFFLINE_ENV = { ...CLEAN_ENV, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

function npm(args, cwd) {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', env: OFFLINE_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
}

function pack(dir, dest) {
  return path.join(dest, JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dest], dir))[0].filename);
}

/** The MCP client configuration block of docs/server.md, parsed. */
function printedConfig() {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'server.md'), 'utf8');
  const block = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('mcpServers'));
  assert.ok(block, 'docs/server.md prints an mcpServers configuration');
  return JSON.parse(block);
}

test('packed and installed from tarballs in a fresh project; the docs\' MCP configuration runs as printed, offline', { timeout: 300_000 }, async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tuidriver-server-pack-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const pkg = JSON.parse(fs.readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8'));
  const main = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.dependencies.tuidriver, main.version, 'tuidriver-server depends on tuidriver by version');

  const platform = path.join(ROOT, 'npm', `tuidriver-${process.platform}-${process.arch}`);
  assert.ok(fs.existsSync(path.join(platform, 'bin', 'tuidriver')), `${platform}/bin/tuidriver is missing: run npm run build`);
  const tarballs = [pack(ROOT, tmp), pack(platform, tmp), pack(SERVER_DIR, tmp)];
  const project = path.join(tmp, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'fresh', version: '1.0.0', private: true }));
  // tuidriver and tuidriver-server come from the tarballs only (they need no registry);
  // their third-party dependencies from npm's cache, fetched once if it lacks them.
  npm(['install', '--no-package-lock', '--omit=dev', '--offline=false', '--prefer-offline', ...tarballs], project);
  const installed = path.join(project, 'node_modules', 'tuidriver-server');
  assert.ok(fs.existsSync(path.join(installed, 'bin', 'tuidriver-mcp.mjs')));
  assert.ok(!fs.lstatSync(path.join(project, 'node_modules', 'tuidriver')).isSymbolicLink(), 'tuidriver is installed, not linked');

  const [name, server] = Object.entries(printedConfig().mcpServers)[0];
  assert.equal(typeof name, 'string');
  const client = new Client({ name: 'packaging-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, cwd: project, env: { ...OFFLINE_ENV, ...(server.env ?? {}) }, stderr: 'pipe' }));
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.ok(tools.some((x) => x.name === 'run'));
  const started = await client.callTool({ name: 'session_start', arguments: { engine: 'python' } });
  assert.ok(!started.isError, started.content?.[0]?.text);
  const ran = await client.callTool({ name: 'run', arguments: { session_id: started.structuredContent.session_id, line: '6*7' } });
  assert.equal(ran.structuredContent.output, '42');
  await client.callTool({ name: 'terminate', arguments: { session_id: started.structuredContent.session_id } });
});

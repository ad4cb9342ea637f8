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

/**
 * A lockfile for a project that installs `tarballs` (packed from `dirs`): theirs by file,
 * and every other package as server/package-lock.json pins it. With it npm needs only what
 * `npm ci` in server/ cached (without one, `npm install` asks for each package's full
 * registry metadata, which npm ci does not cache).
 */
function freshLock(dirs, tarballs) {
  const lock = JSON.parse(fs.readFileSync(path.join(SERVER_DIR, 'package-lock.json'), 'utf8'));
  const packages = { '': { name: 'fresh', version: '1.0.0', dependencies: {} } };
  for (const [i, dir] of dirs.entries()) {
    const { name, version, dependencies, optionalDependencies, bin, engines, os: osList, cpu, license } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const resolved = `file:${path.basename(tarballs[i])}`;
    packages[''].dependencies[name] = resolved;
    packages[`node_modules/${name}`] = { version, resolved, license, dependencies, optionalDependencies, bin, engines, os: osList, cpu };
  }
  // tuidriver's binaries for other platforms: optional, skipped here by their os and cpu.
  for (const name of Object.keys(packages['node_modules/tuidriver'].optionalDependencies ?? {})) {
    if (packages[`node_modules/${name}`]) continue;
    const { version, license, os: osList, cpu } = JSON.parse(fs.readFileSync(path.join(ROOT, 'npm', name, 'package.json'), 'utf8'));
    packages[`node_modules/${name}`] = { version, license, optional: true, os: osList, cpu };
  }
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key.startsWith('node_modules/') && !entry.dev && !entry.link && !packages[key]) packages[key] = entry;
  }
  return { name: 'fresh', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

/**
 * `npm ci --offline` of `tarballs` (packed from `dirs`) into `project`: no registry at all.
 * A package the cache lacks is an error that says so and how to fill the cache.
 */
function installOffline(dirs, tarballs, project) {
  const lock = freshLock(dirs, tarballs);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ ...lock.packages[''], private: true }));
  fs.writeFileSync(path.join(project, 'package-lock.json'), JSON.stringify(lock, null, 2));
  try {
    npm(['ci', '--omit=dev', '--offline', '--ignore-scripts'], project);
  } catch (e) {
    const out = `${e.stdout ?? ''}${e.stderr ?? ''}`;
    if (!/ENOTCACHED/.test(out)) throw e;
    const missing = out.match(/request to (\S+) failed: cache mode is 'only-if-cached'/)?.[1] ?? '(see npm\'s log below)';
    throw new Error(`npm's cache lacks a package tuidriver-server needs (${missing}): run \`npm ci\` at the repository root and in server/ first (scripts/test.sh does), then run this test again.\n${out}`);
  }
}

/** The MCP client configuration block of docs/server.md whose command is `command`, parsed. */
function printedConfig(command) {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'server.md'), 'utf8');
  const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).filter((b) => b.includes('mcpServers')).map((b) => JSON.parse(b));
  const config = blocks.find((b) => Object.values(b.mcpServers)[0].command === command);
  assert.ok(config, `docs/server.md prints an mcpServers configuration running ${command}`);
  return config;
}

/** Spawns `server` (a configuration's entry) in `cwd` with the SDK's client; runs python's 6*7. */
async function runsPython(t, server, cwd) {
  const client = new Client({ name: 'packaging-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, cwd, env: { ...OFFLINE_ENV, ...(server.env ?? {}) }, stderr: 'pipe' }));
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.ok(tools.some((x) => x.name === 'run'));
  const started = await client.callTool({ name: 'session_start', arguments: { engine: 'python' } });
  assert.ok(!started.isError, started.content?.[0]?.text);
  const ran = await client.callTool({ name: 'run', arguments: { session_id: started.structuredContent.session_id, line: '6*7' } });
  assert.equal(ran.structuredContent.output, '42');
  await client.callTool({ name: 'terminate', arguments: { session_id: started.structuredContent.session_id } });
}

test('the docs\' MCP configuration for a checkout runs as printed (the checkout\'s path filled in), from another directory', { timeout: 120_000 }, async (t) => {
  const server = Object.values(printedConfig('node').mcpServers)[0];
  const args = server.args.map((a) => a.replace('/path/to/tuidriver', ROOT));
  assert.ok(fs.existsSync(args[0]), args[0]);
  await runsPython(t, { ...server, args }, os.tmpdir());
});

test('packed and installed from tarballs in a fresh project; the docs\' MCP configuration runs as printed, offline', { timeout: 300_000 }, async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tuidriver-server-pack-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const pkg = JSON.parse(fs.readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8'));
  const main = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.dependencies.tuidriver, main.version, 'tuidriver-server depends on tuidriver by version');

  const platform = path.join(ROOT, 'npm', `tuidriver-${process.platform}-${process.arch}`);
  assert.ok(fs.existsSync(path.join(platform, 'bin', 'tuidriver')), `${platform}/bin/tuidriver is missing: run npm run build`);
  const project = path.join(tmp, 'project');
  fs.mkdirSync(project);
  const dirs = [ROOT, platform, SERVER_DIR];
  const tarballs = dirs.map((dir) => pack(dir, project));
  // tuidriver and tuidriver-server come from the tarballs only (they need no registry);
  // their third-party dependencies from npm's cache, which `npm ci` in server/ filled.
  installOffline(dirs, tarballs, project);
  const installed = path.join(project, 'node_modules', 'tuidriver-server');
  assert.ok(fs.existsSync(path.join(installed, 'bin', 'tuidriver-mcp.mjs')));
  assert.ok(!fs.lstatSync(path.join(project, 'node_modules', 'tuidriver')).isSymbolicLink(), 'tuidriver is installed, not linked');

  await runsPython(t, Object.values(printedConfig('npx').mcpServers)[0], project);
});

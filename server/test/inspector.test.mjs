// tuidriver-mcp as the MCP Inspector's CLI mode sees it (npm @modelcontextprotocol/inspector,
// a client nobody here wrote), over stdio and streamable HTTP; and raw JSON-RPC lines on stdio.
import { strict as assert } from 'node:assert';
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { BIN_MCP, SERVER_DIR, waitForLine } from './helpers.mjs';

const INSPECTOR = path.join(SERVER_DIR, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');

/** Runs the Inspector's CLI; resolves with { code, out (parsed JSON), err } (its own notices dropped). */
function inspector(t, args) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tuidriver-inspector-'));
  t.after(() => fs.rmSync(home, { recursive: true, force: true }));
  return new Promise((resolve) => {
    execFile(process.execPath, [INSPECTOR, '--cli', ...args], { env: { ...process.env, HOME: home, MCP_INSPECTOR_SECRET_STORE: 'memory' }, timeout: 60_000 }, (e, stdout, stderr) => {
      const err = stderr.split('\n').filter((l) => l !== '' && !l.startsWith('[mcp-inspector]')).join('\n');
      let out = null;
      try { out = JSON.parse(stdout); } catch { out = stdout; }
      resolve({ code: e ? e.code : 0, out, err });
    });
  });
}

async function httpServer(t, args) {
  const child = spawn(process.execPath, [BIN_MCP, '--http', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(() => child.kill('SIGTERM'));
  const line = await waitForLine(child.stderr, /listening on (http:\S+)/);
  return line.match(/listening on (http:\S+)/)[1];
}

test('Inspector CLI over stdio: the tools with titles and annotations, no schema portability findings (--strict)', { timeout: 90_000 }, async (t) => {
  const r = await inspector(t, [process.execPath, BIN_MCP, '--method', 'tools/list', '--strict']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '', 'portability findings');
  const tools = r.out.tools;
  assert.ok(tools.length >= 17);
  for (const tool of tools) {
    assert.ok(tool.title, tool.name);
    assert.equal(typeof tool.annotations.readOnlyHint, 'boolean', tool.name);
  }
  assert.equal(tools.find((x) => x.name === 'screen').annotations.readOnlyHint, true);
  assert.equal(tools.find((x) => x.name === 'terminate').annotations.destructiveHint, true);
});

test('Inspector CLI over streamable HTTP: a session started, run, ended across calls; no token is a plain 401', { timeout: 120_000 }, async (t) => {
  const url = await httpServer(t, ['--token', 'inspector-token-1']);
  const auth = ['--header', 'Authorization: Bearer inspector-token-1'];
  const started = await inspector(t, [url, ...auth, '--method', 'tools/call', '--tool-name', 'session_start', '--tool-arg', 'engine=python']);
  assert.equal(started.code, 0, started.err);
  const id = started.out.structuredContent.session_id;
  const ran = await inspector(t, [url, ...auth, '--method', 'tools/call', '--tool-name', 'run', '--tool-arg', `session_id=${id}`, 'line=6*7']);
  assert.equal(ran.out.structuredContent.output, '42');
  assert.equal(ran.out.structuredContent.state, 'ready');
  const bad = await inspector(t, [url, ...auth, '--method', 'tools/call', '--tool-name', 'keys', '--tool-arg', `session_id=${id}`, 'keys=["Enterr"]']);
  assert.match(JSON.stringify(bad.out), /'Enterr' is not a key name/);
  const ended = await inspector(t, [url, ...auth, '--method', 'tools/call', '--tool-name', 'terminate', '--tool-arg', `session_id=${id}`]);
  assert.equal(ended.out.structuredContent.state, 'exited');

  // Without the token: our 401 and its message, not an OAuth login.
  const denied = await inspector(t, [url, '--method', 'tools/list', '--stored-auth-only']);
  assert.notEqual(denied.code, 0);
  assert.match(JSON.stringify(denied.out) + denied.err, /missing or wrong token: send Authorization: Bearer TOKEN/);
});

test('stdio: a malformed line gets -32700, a non-request -32600, and the server goes on', { timeout: 30_000 }, async (t) => {
  const child = spawn(process.execPath, [BIN_MCP], { stdio: ['pipe', 'pipe', 'ignore'] });
  t.after(() => child.kill('SIGTERM'));
  const replies = [];
  let buf = '';
  child.stdout.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      replies.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
  child.stdin.write('{"jsonrpc":"2.0","id":1,"method":\n');
  child.stdin.write('[1,2]\n');
  child.stdin.write('{"jsonrpc":"2.0","id":7}\n');
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'status', arguments: { session_id: 5 } } })}\n`);
  for (let i = 0; replies.length < 5 && i < 400; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(replies[0].error.code, -32700);
  assert.equal(replies[0].id, null);
  assert.equal(replies[1].error.code, -32600);
  assert.equal(replies[2].error.code, -32600);
  assert.equal(replies[2].id, 7);
  assert.equal(replies[3].id, 2);
  assert.ok(replies[3].result.serverInfo);
  assert.equal(replies[4].id, 3);
  assert.equal(replies[4].error.code, -32602);
  assert.match(replies[4].error.message, /^invalid arguments for status: session_id: /);
});

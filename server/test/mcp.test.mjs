// tuidriver-mcp driven by the MCP SDK's own client, over stdio and over streamable
// HTTP, against real python, bash and vim sessions.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import * as http from 'node:http';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN_MCP, BIN_SERVE, waitForLine } from './helpers.mjs';

const TOOLS = ['session_start', 'run', 'read', 'send', 'keys', 'send_secret', 'signal', 'resize', 'wait_idle', 'screen', 'scrollback', 'expect', 'ask', 'record', 'status', 'list', 'terminate'];
const ARGS = {
  session_start: ['engine', 'command', 'cols', 'rows', 'cwd'],
  run: ['session_id', 'line', 'timeout_ms', 'idle_ms', 'max_chars'],
  read: ['session_id', 'cursor', 'max_chars'],
  send: ['session_id', 'data'],
  keys: ['session_id', 'keys'],
  send_secret: ['session_id', 'secret'],
  signal: ['session_id', 'signal'],
  resize: ['session_id', 'cols', 'rows'],
  wait_idle: ['session_id', 'idle_ms', 'timeout_ms'],
  screen: ['session_id', 'styles'],
  scrollback: ['session_id', 'lines', 'max_chars'],
  expect: ['session_id', 'pattern', 'timeout_ms', 'screen_wide'],
  ask: ['session_id', 'prompt', 'timeout_ms', 'max_chars'],
  record: ['session_id', 'path', 'overwrite', 'stop'],
  status: ['session_id'],
  list: [],
  terminate: ['session_id'],
};
const SECRET = 'hunter2-Zq9x';

/** A client whose every tool result is kept, so the test can check that no secret leaked. */
function recorder(client) {
  const seen = [];
  const call = async (name, args = {}) => {
    const r = await client.callTool({ name, arguments: args });
    seen.push(JSON.stringify(r));
    return r;
  };
  const ok = async (name, args) => {
    const r = await call(name, args);
    assert.ok(!r.isError, `${name} failed: ${r.content?.[0]?.text}`);
    assert.equal(r.content[0].type, 'text');
    return r;
  };
  // A failure while running is a result with isError; bad arguments are JSON-RPC -32602.
  const err = async (name, args, re) => {
    let r;
    try {
      r = await call(name, args);
    } catch (e) {
      assert.equal(e.code, -32602, `${name} ${JSON.stringify(args)}: ${e.message}`);
      assert.doesNotMatch(e.message, /MCP error -32602: MCP error/);
      assert.match(e.message, re);
      return e.message;
    }
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail, got ${JSON.stringify(r)}`);
    assert.match(r.content[0].text, re);
    return r.content[0].text;
  };
  return { call, ok, err, seen };
}

async function scenario(client, dir) {
  const { ok, err, seen } = recorder(client);

  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), TOOLS);
  for (const t of tools) {
    assert.deepEqual(Object.keys(t.inputSchema.properties ?? {}).sort(), ARGS[t.name].slice().sort(), t.name);
    assert.equal(t.inputSchema.additionalProperties, false, t.name);
    assert.ok(t.outputSchema, `${t.name} has an output schema`);
    assert.ok(t.description.length > 20, `${t.name} is described`);
    assert.ok(t.title && t.annotations?.title === t.title, `${t.name} has a title`);
    assert.equal(typeof t.annotations.readOnlyHint, 'boolean', t.name);
    assert.equal(typeof t.annotations.destructiveHint, 'boolean', t.name);
    assert.ok(t.outputSchema.properties.state || t.name === 'list', `${t.name} says the state`);
    // Portable: one plain type per field, no unions or nullables.
    assert.doesNotMatch(JSON.stringify(t.outputSchema), /anyOf|oneOf|"null"|"type":\[/, t.name);
  }

  // python: run and ask, result as text and as structuredContent.
  const py = (await ok('session_start', { engine: 'python', cols: 100, rows: 30 })).structuredContent;
  assert.match(py.session_id, /^[a-z0-9-]+\.[0-9a-f]{12}$/);
  assert.equal(py.engine, 'python');
  assert.equal(py.cols, 100);
  const run = await ok('run', { session_id: py.session_id, line: '6*7' });
  assert.equal(run.content[0].text, '42\n[state ready]');
  assert.equal(run.structuredContent.output, '42');
  assert.equal(run.structuredContent.state, 'ready');
  assert.equal(run.structuredContent.running, false);
  const ask = await ok('ask', { session_id: py.session_id, prompt: 'print("a\\nb")', timeout_ms: 20_000 });
  assert.equal(ask.structuredContent.text, 'a\nb');
  assert.equal(ask.structuredContent.markdown, '');

  // bash (engine): run, then vim driven with send, keys, expect and screen.
  const sh = (await ok('session_start', { engine: 'bash', cwd: dir, cols: 80, rows: 24 })).structuredContent.session_id;
  assert.equal((await ok('run', { session_id: sh, line: 'echo hi-$((6*7))' })).structuredContent.output, 'hi-42');
  await ok('send', { session_id: sh, data: 'vim -u NONE -N -n notes.txt\r' });
  await ok('expect', { session_id: sh, pattern: '"notes.txt" \\[New\\]', timeout_ms: 20_000, screen_wide: true });
  await ok('keys', { session_id: sh, keys: ['i'] });
  await ok('send', { session_id: sh, data: 'hello from vim' });
  await ok('keys', { session_id: sh, keys: ['Escape'] });
  await ok('expect', { session_id: sh, pattern: '(?m)^hello from vim$', screen_wide: true });
  const scr = await ok('screen', { session_id: sh });
  assert.equal(scr.structuredContent.lines[0], 'hello from vim');
  assert.equal(scr.structuredContent.rows, 24);
  assert.equal(scr.structuredContent.alt_screen, true);
  assert.match(scr.content[0].text, /^hello from vim\n~/);
  await ok('keys', { session_id: sh, keys: [':', 'w', 'q', 'Return'] });
  assert.equal((await ok('run', { session_id: sh, line: 'cat notes.txt' })).structuredContent.output, 'hello from vim');
  assert.equal(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'hello from vim\n');

  // send_secret: the program gets it, no result shows it.
  await ok('send', { session_id: sh, data: 'read -rs PW; echo "len=${#PW} rev=$(rev <<<"$PW")"\r' });
  // Typed before read turned echo off, bash can flush it: wait until it reads.
  await ok('wait_idle', { session_id: sh, idle_ms: 300 });
  const sent = await ok('send_secret', { session_id: sh, secret: `${SECRET}\r` });
  assert.equal(sent.structuredContent.sent, true);
  assert.equal(sent.structuredContent.session_id, sh);
  const m = await ok('expect', { session_id: sh, pattern: 'len=(\\d+) rev=(\\S+)', screen_wide: true });
  assert.deepEqual(m.structuredContent.groups, [String(SECRET.length), [...SECRET].reverse().join('')]);
  await ok('screen', { session_id: sh });
  await ok('scrollback', { session_id: sh });

  const sb = await ok('scrollback', { session_id: sh, lines: 200 });
  assert.ok(sb.structuredContent.lines.includes('hi-42'), 'scrollback holds earlier output');
  const st = await ok('status', { session_id: sh });
  assert.equal(st.structuredContent.state, 'ready');
  assert.equal(st.structuredContent.engine, 'bash');
  assert.equal(st.structuredContent.cwd, dir);

  // A raw command: run waits for quiet output.
  const raw = (await ok('session_start', { command: ['python3', '-q'] })).structuredContent;
  assert.equal(raw.engine, '');
  assert.deepEqual(raw.command, ['python3', '-q']);
  // The prompt may already be on screen, where rows lose their trailing
  // spaces, or still to come in the output: match both.
  await ok('expect', { session_id: raw.session_id, pattern: '(?m)^>>> ?$', timeout_ms: 20_000, screen_wide: true });
  assert.equal((await ok('run', { session_id: raw.session_id, line: 'print(6*7)' })).structuredContent.output, '42');

  const list = await ok('list', {});
  assert.deepEqual(list.structuredContent.sessions.map((s) => s.session_id).sort(), [py.session_id, sh, raw.session_id].sort());

  // Clear errors for bad input; the sessions keep working.
  await err('status', { session_id: 'nope' }, /unknown session_id "nope"/);
  await err('run', { line: '1' }, /session_id/);
  await err('run', { session_id: 42, line: '1' }, /session_id/);
  await err('run', { sessionId: py.session_id, line: '1' }, /sessionId|session_id/);
  await err('keys', { session_id: sh, keys: 'Enter' }, /keys/);
  await err('session_start', { engine: 'python', command: ['bash'] }, /exactly one of engine/);
  await err('session_start', {}, /exactly one of engine/);
  await err('session_start', { engine: 'no-such-engine' }, /engine/);
  await err('session_start', { command: ['/no/such/program'] }, /session_start failed/);
  await err('ask', { session_id: raw.session_id, prompt: '1' }, /not an engine/);
  const timedOut = await err('expect', { session_id: py.session_id, pattern: 'never-shown', timeout_ms: 300 }, /timeout/);
  assert.match(timedOut, /\nscreen:\n.*>>>/, 'a timeout shows the screen');
  await err('keys', { session_id: sh, keys: ['Cmd+C'] }, /'Cmd\+C' is not a key name.*C-c/);
  await err('expect', { session_id: py.session_id, pattern: '(' }, /protocol|pattern/);
  await err('no_such_tool', {}, /no_such_tool/);
  assert.equal((await ok('run', { session_id: py.session_id, line: '2**10' })).structuredContent.output, '1024');

  // A program that exits: run reports it, status says so.
  assert.equal((await ok('run', { session_id: raw.session_id, line: 'exit()' })).structuredContent.exited, true);
  const ex = await ok('status', { session_id: raw.session_id });
  assert.equal(ex.structuredContent.state, 'exited');
  assert.equal(ex.structuredContent.exit_code, 0);

  for (const id of [py.session_id, sh, raw.session_id]) {
    const t = await ok('terminate', { session_id: id });
    assert.equal(t.structuredContent.session_id, id);
  }
  await err('screen', { session_id: sh }, /unknown session_id/);
  assert.deepEqual((await ok('list', {})).structuredContent.sessions, []);

  for (const s of seen) assert.ok(!s.includes(SECRET), `a tool result holds the secret: ${s}`);
}

/** The cap: max-sessions 2, a third start is refused until one is terminated. */
async function capScenario(client) {
  const { ok, err } = recorder(client);
  const a = (await ok('session_start', { command: ['cat'] })).structuredContent.session_id;
  const b = (await ok('session_start', { command: ['cat'] })).structuredContent.session_id;
  await err('session_start', { command: ['cat'] }, /session cap \(2\)/);
  await ok('terminate', { session_id: a });
  const c = (await ok('session_start', { command: ['cat'] })).structuredContent.session_id;
  await ok('terminate', { session_id: b });
  await ok('terminate', { session_id: c });
}

function tempDir(t) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tuidriver-mcp-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function stdioClient(t, args) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN_MCP, ...args], stderr: 'pipe' });
  let stderr = '';
  transport.stderr.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  t.after(() => client.close());
  return { client, stderr: () => stderr };
}

async function httpServer(t, args) {
  const child = spawn(process.execPath, [BIN_MCP, '--http', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGTERM'));
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const line = await waitForLine(child.stderr, /listening on (http:\S+)/);
  return { url: new URL(line.match(/listening on (http:\S+)/)[1]), stderr: () => stderr, child };
}

async function httpClient(t, url) {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url));
  t.after(() => client.close());
  return client;
}

test('stdio: every tool against python, bash and vim; errors; send_secret kept out', { timeout: 120_000 }, async (t) => {
  const { client, stderr } = await stdioClient(t, []);
  await scenario(client, tempDir(t));
  assert.ok(!stderr().includes(SECRET), 'the log holds the secret');
  assert.match(stderr(), /started/);
});

test('stdio: the session cap', { timeout: 60_000 }, async (t) => {
  const { client } = await stdioClient(t, ['--max-sessions', '2']);
  await capScenario(client);
});

test('stdio: idle sessions are closed', { timeout: 60_000 }, async (t) => {
  const { client } = await stdioClient(t, ['--idle-timeout', '1']);
  const r = await client.callTool({ name: 'session_start', arguments: { command: ['cat'] } });
  const id = r.structuredContent.session_id;
  for (;;) {
    const l = await client.callTool({ name: 'list', arguments: {} });
    if (l.structuredContent.sessions.length === 0) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  const s = await client.callTool({ name: 'status', arguments: { session_id: id } });
  assert.equal(s.isError, true);
  assert.match(s.content[0].text, /unknown session_id/);
});

test('streamable HTTP: the same tools; sessions outlive one client connection; the cap', { timeout: 120_000 }, async (t) => {
  const srv = await httpServer(t, ['--max-sessions', '4']);
  const client = await httpClient(t, srv.url);
  await scenario(client, tempDir(t));

  // A session started by one client is there for the next one.
  const first = (await client.callTool({ name: 'session_start', arguments: { engine: 'python' } })).structuredContent.session_id;
  const second = await httpClient(t, srv.url);
  const r = await second.callTool({ name: 'run', arguments: { session_id: first, line: '6*7' } });
  assert.equal(r.structuredContent.output, '42');
  await second.callTool({ name: 'terminate', arguments: { session_id: first } });

  const capped = await httpServer(t, ['--max-sessions', '2']);
  await capScenario(await httpClient(t, capped.url));
  assert.ok(!srv.stderr().includes(SECRET));

  // Not JSON, too large, wrong method, wrong path: HTTP errors, the server keeps running.
  const bad = await fetch(srv.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
  assert.equal(bad.status, 400);
  const big = await fetch(srv.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(2 << 20) });
  assert.equal(big.status, 413);
  assert.equal((await fetch(srv.url, { method: 'GET' })).status, 405);
  assert.equal((await fetch(new URL('/other', srv.url), { method: 'POST' })).status, 404);
  const l = await client.callTool({ name: 'list', arguments: {} });
  assert.deepEqual(l.structuredContent.sessions, []);
});

/** Status of a raw POST with a given Host header (fetch does not let one set Host). */
function postWithHost(url, host, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { host, 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end('{}');
  });
}

test('streamable HTTP: --token guards /mcp; a foreign Host is refused (DNS rebinding); --host needs a token', { timeout: 60_000 }, async (t) => {
  const srv = await httpServer(t, ['--token', 'mcp-token-123456']);
  await assert.rejects(httpClient(t, srv.url), /401|Unauthorized|token/i);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(srv.url, { requestInit: { headers: { authorization: 'Bearer mcp-token-123456' } } }));
  t.after(() => client.close());
  assert.equal((await client.listTools()).tools.length, TOOLS.length);
  assert.equal(await postWithHost(srv.url, 'evil.example:80', { authorization: 'Bearer mcp-token-123456' }), 403);
  assert.equal(await postWithHost(srv.url, `localhost:${srv.url.port}`), 401);

  const open = spawn(process.execPath, [BIN_MCP, '--http', '0', '--host', '0.0.0.0'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TUIDRIVER_TOKEN: '' } });
  let err = '';
  open.stderr.on('data', (d) => { err += d; });
  assert.equal(await new Promise((r) => open.on('close', r)), 2);
  assert.match(err, /not loopback: give a --token/);
  // A token as short as tuidriver-serve refuses is refused here too.
  const short = spawnSync(process.execPath, [BIN_MCP, '--http', '0', '--token', 'abc'], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(short.status, 2);
  assert.match(short.stderr, /--token must be at least 8 characters/);
});

test('stdio: a call that outlasts the idle timeout keeps its session', { timeout: 60_000 }, async (t) => {
  const { client } = await stdioClient(t, ['--idle-timeout', '1']);
  const id = (await client.callTool({ name: 'session_start', arguments: { engine: 'python' } })).structuredContent.session_id;
  const r = await client.callTool({ name: 'run', arguments: { session_id: id, line: 'import time; time.sleep(3); print("slept")' } });
  assert.equal(r.structuredContent.output, 'slept');
  const l = await client.callTool({ name: 'list', arguments: {} });
  assert.deepEqual(l.structuredContent.sessions.map((s) => s.session_id), [id]);
});

/** The pids of the processes whose parent is `pid` (Linux /proc). */
function childPids(pid) {
  const out = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = fs.readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1];
      if (Number(ppid) === pid) out.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

async function until(what, pred, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

test('stdio: --warm python=1 hands out a session started before session_start, and starts its replacement', { timeout: 120_000 }, async (t) => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN_MCP, '--warm', 'python=1', '--warm', 'nonsuch=1'], stderr: 'pipe' });
  let stderr = '';
  transport.stderr.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  t.after(() => client.close());
  const server = transport.pid;
  // The warm python: a daemon of the server, and its python child, there before anyone asked.
  const warmPython = await until('the warm python', () => childPids(server).flatMap(childPids).find((p) => /python/.test(fs.readFileSync(`/proc/${p}/cmdline`, 'utf8'))));
  const r = await client.callTool({ name: 'session_start', arguments: { engine: 'python' } });
  assert.equal(r.isError, undefined, r.content?.[0]?.text);
  assert.equal(r.structuredContent.pid, warmPython, 'session_start gave the warm session');
  assert.equal(r.structuredContent.state, 'ready');
  const id = r.structuredContent.session_id;
  const run = await client.callTool({ name: 'run', arguments: { session_id: id, line: '6*7' } });
  assert.match(run.content[0].text, /42/);
  // Its replacement starts at once; a session with its own size starts cold.
  await until('a replacement warm daemon', () => childPids(server).length >= 2);
  const sized = await client.callTool({ name: 'session_start', arguments: { engine: 'python', cols: 60 } });
  assert.notEqual(sized.structuredContent.pid, warmPython);
  assert.equal(sized.structuredContent.cols, 60);
  // An engine that cannot start is said on stderr at once, and session_start reports it.
  await until('the --warm failure on stderr', () => /--warm nonsuch: a session failed to start: .*nonsuch/.test(stderr));
  const bad = await client.callTool({ name: 'session_start', arguments: { engine: 'nonsuch' } });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /nonsuch/);
});

test('--warm refuses what is not ENGINE=N, in both servers', () => {
  for (const bin of [BIN_MCP, BIN_SERVE]) {
    for (const [args, re] of [[['python'], /ENGINE=N/], [['python=0'], /from 1 to 16/], [['python=17'], /from 1 to 16/], [['python=1', '--warm', 'python=2'], /twice/]]) {
      const r = spawnSync(process.execPath, [bin, '--warm', ...args], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(r.status, 2, `${bin} ${args}`);
      assert.match(r.stderr, re);
    }
  }
});

test('streamable HTTP: a call cancelled by the SDK (AbortSignal, its request timeout) is cancelled, and the next call does not wait', { timeout: 120_000 }, async (t) => {
  const srv = await httpServer(t, []);
  const client = await httpClient(t, srv.url);
  const call = async (name, args) => (await client.callTool({ name, arguments: args })).structuredContent;
  // An engine run: the SDK's AbortSignal sends notifications/cancelled in a POST of its own.
  const py = (await call('session_start', { engine: 'python' })).session_id;
  const ac = new AbortController();
  const slow = client.callTool({ name: 'run', arguments: { session_id: py, line: 'import time; time.sleep(20); print("never")' } }, undefined, { signal: ac.signal });
  await new Promise((r) => setTimeout(r, 1000));
  ac.abort();
  await assert.rejects(slow, /abort/i);
  let t0 = Date.now();
  assert.equal((await call('run', { session_id: py, line: '6*7' })).output, '42');
  assert.ok(Date.now() - t0 < 5000, `the next run waited ${Date.now() - t0} ms`);
  // The SDK's own request timeout cancels the same way.
  await assert.rejects(client.callTool({ name: 'run', arguments: { session_id: py, line: 'time.sleep(20)' } }, undefined, { timeout: 1000 }), /timed out|timeout/i);
  t0 = Date.now();
  assert.equal((await call('run', { session_id: py, line: '7*6' })).output, '42');
  assert.ok(Date.now() - t0 < 5000, `the next run waited ${Date.now() - t0} ms`);
  assert.doesNotMatch((await call('screen', { session_id: py })).lines.join('\n'), /^never$/m, 'the cancelled run was interrupted');
  // A run cancelled while it waits behind an earlier one that timed out ends its wait only.
  assert.equal((await call('run', { session_id: py, line: 'time.sleep(3); print("earlier-done")', timeout_ms: 500 })).running, true);
  const ac3 = new AbortController();
  const behind = client.callTool({ name: 'run', arguments: { session_id: py, line: '1+1' } }, undefined, { signal: ac3.signal });
  await new Promise((r) => setTimeout(r, 300));
  ac3.abort();
  await assert.rejects(behind, /abort/i);
  await call('expect', { session_id: py, pattern: '(?m)^earlier-done$', screen_wide: true, timeout_ms: 20_000 });

  // A raw session: the cancelled command is interrupted; the next run's output is its own.
  const sh = (await call('session_start', { command: ['bash', '--norc', '--noprofile'] })).session_id;
  for (let i = 0; i < 3; i++) {
    const ac2 = new AbortController();
    const cancelled = client.callTool({ name: 'run', arguments: { session_id: sh, line: `echo start-${i}; sleep 20; echo end-${i}` } }, undefined, { signal: ac2.signal });
    await new Promise((r) => setTimeout(r, 800));
    ac2.abort();
    await assert.rejects(cancelled, /abort/i);
    t0 = Date.now();
    const next = await call('run', { session_id: sh, line: `echo next-${i}` });
    assert.equal(next.output, `next-${i}`, JSON.stringify(next));
    assert.ok(Date.now() - t0 < 5000, `the next run waited ${Date.now() - t0} ms`);
  }
  assert.doesNotMatch((await call('screen', { session_id: sh })).lines.join('\n'), /^end-\d$/m, 'the cancelled commands were interrupted');
});

/** POSTs `body` (a string) to /mcp as JSON; resolves with the status and the parsed answer. */
function postRaw(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let data = '';
      res.on('data', (d) => { data += d; });
      res.on('end', () => resolve({ status: res.statusCode, json: data ? JSON.parse(data) : null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('streamable HTTP protocol: no listChanged; bad tools/call params are -32602 in one line; batches refused', { timeout: 60_000 }, async (t) => {
  const srv = await httpServer(t, []);
  const client = await httpClient(t, srv.url);
  assert.notEqual(client.getServerCapabilities().tools?.listChanged, true);
  for (const params of [undefined, { name: 'list', arguments: [] }, { name: 'list', arguments: 'x' }, { name: 'list', arguments: 5 }, { arguments: {} }]) {
    const r = await postRaw(srv.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', ...(params !== undefined ? { params } : {}) }));
    assert.equal(r.json.error?.code, -32602, `${JSON.stringify(params)}: ${JSON.stringify(r.json)}`);
    assert.doesNotMatch(r.json.error.message, /\n/, 'one line');
    assert.match(r.json.error.message, /tools\/call takes params/);
  }
  const batch = await postRaw(srv.url, JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]));
  assert.equal(batch.status, 400);
  assert.equal(batch.json.error.code, -32600);
  assert.match(batch.json.error.message, /batches/);
  // One call, no session: still answered statelessly.
  const one = await postRaw(srv.url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list', arguments: {} } }));
  assert.equal(one.status, 200);
  assert.deepEqual(one.json.result.structuredContent, { sessions: [] });
});

// Several tuidriver-serve instances behind a real nginx running server/router/nginx.conf
// (docs/scaling.md): sessions started through the router spread over the instances, and
// each one is reached over REST, SSE, the WebSocket and MCP through the router; an
// instance killed mid-session makes its sessions' calls fail at once while the others'
// go on; an instance at its cap passes new sessions to the others.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium } from 'playwright-core';
import { BIN_SERVE, SERVER_DIR, caller, waitForLine } from './helpers.mjs';
import { TOKEN, WsClient, sseEvents, termLines } from './serve_helpers.mjs';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const CONF = path.join(SERVER_DIR, 'router', 'nginx.conf');
const skip = fs.existsSync(NGINX) ? false : `no nginx at ${NGINX} (NGINX_PATH): bash scripts/deps.sh --server installs Debian's`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const NAMES = ['a', 'b', 'c'];
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** One tuidriver-serve process (a crash is a SIGKILL of it), stopped after the test. */
async function startInstance(t, name, extra = []) {
  const child = spawn(process.execPath, [BIN_SERVE, '--port', '0', '--instance', name, '--token', TOKEN, '--mcp', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.setEncoding('utf8');
  child.stderr.resume();
  const exited = new Promise((r) => child.once('exit', r));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  const line = await waitForLine(child.stdout, /instance \S+ listening on http:/);
  assert.match(line, new RegExp(`instance ${name} listening`));
  return { name, child, exited, port: Number(line.match(/:(\d+)$/)[1]) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

/**
 * nginx with the shipped file, its example ports (7701-7703, 8080) replaced by the
 * instances' and a free one; everything it writes goes to a temporary directory.
 */
async function startNginx(t, instances) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuidriver-nginx-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  let conf = fs.readFileSync(CONF, 'utf8');
  instances.forEach((inst, i) => {
    const example = `127.0.0.1:${7701 + i}`;
    assert.equal(conf.split(example).length - 1, 2, `${CONF} names ${example} in the map and the upstream`);
    conf = conf.replaceAll(example, `127.0.0.1:${inst.port}`);
  });
  assert.ok(conf.includes('listen 8080;'));
  conf = conf.replace('listen 8080;', `listen 127.0.0.1:${port};`);
  fs.writeFileSync(path.join(dir, 'tuidriver.conf'), conf);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `${k}_temp_path ${dir}/${k};`).join(' ');
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `daemon off; worker_processes 2; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 512; }
http { access_log ${dir}/access.log; ${temp} include ${dir}/tuidriver.conf; }
`);
  const child = spawn(NGINX, ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((r) => child.once('exit', r));
  t.after(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}${fs.readFileSync(`${dir}/error.log`, 'utf8')}`);
    try {
      await fetch(`${url}/instances`);
      return url;
    } catch (e) {
      if (i > 100) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function apiOf(url) {
  return async (method, p, body) => {
    const res = await fetch(url + p, {
      method,
      headers: { ...AUTH, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
}

async function mcpClient(t, url) {
  const client = new Client({ name: 'scale-test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: AUTH } });
  await client.connect(transport);
  t.after(() => client.close());
  return { client, transport, call: caller(client) };
}

const instanceOf = (id) => id.split('.')[0];

/** An SSE stream read as it comes: its output so far, and whether it ended. */
class SseReader {
  constructor(res) {
    this.output = '';
    this.ended = false;
    this.waiters = [];
    this.done = (async () => {
      try {
        for await (const ev of sseEvents(res)) {
          if (ev.event === 'output') this.output += ev.data.data;
          this.wake();
        }
      } catch { /* the connection broke: ended too */ }
      this.ended = true;
      this.wake();
    })();
  }

  wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves once the output holds `text`; rejects if the stream ends first. */
  async until(text) {
    while (!this.output.includes(text)) {
      if (this.ended) throw new Error(`the SSE stream ended before ${JSON.stringify(text)}`);
      await new Promise((r) => this.waiters.push(r));
    }
  }
}

test('three instances behind nginx: sessions spread; REST, SSE, WebSocket and MCP reach each; a killed one fails at once, the others go on', { skip, timeout: 600_000 }, async (t) => {
  const instances = await Promise.all(NAMES.map((name) => startInstance(t, name)));
  const router = await startNginx(t, instances);
  const api = apiOf(router);

  assert.deepEqual((await api('GET', '/instances')).json, { instances: NAMES });

  // New sessions spread over every instance; each id names the one holding it.
  const ids = [];
  for (let i = 0; i < 6; i++) {
    const r = await api('POST', '/sessions', { engine: 'bash' });
    assert.equal(r.status, 201, JSON.stringify(r.json));
    assert.match(r.json.session_id, /^[abc]\.[0-9a-f]{12}$/);
    ids.push(r.json.session_id);
  }
  assert.deepEqual(new Set(ids.map(instanceOf)), new Set(NAMES), `sessions on every instance: ${ids}`);
  for (const name of NAMES) {
    const listed = (await api('GET', `/sessions?instance=${name}`)).json.sessions.map((s) => s.session_id).sort();
    assert.deepEqual(listed, ids.filter((id) => instanceOf(id) === name).sort(), `instance ${name}'s list`);
  }
  const one = Object.fromEntries(NAMES.map((n) => [n, ids.find((id) => instanceOf(id) === n)]));

  // Each instance's session: an SSE stream, a WebSocket and MCP, all through the router.
  const streams = {};
  for (const name of NAMES) {
    const id = one[name];
    const events = await fetch(`${router}/sessions/${id}/events`, { headers: AUTH });
    assert.equal(events.status, 200);
    streams[name] = new SseReader(events);
    const ws = await WsClient.open(router, TOKEN, `?instance=${name}`);
    t.after(() => ws.close());
    const ch = await ws.attach(id);
    ws.input(ch, `echo ws-$((6*7))-${name}\r`);
    await ws.until(() => ws.text(ch).includes(`ws-42-${name}`), `the WebSocket's output on ${name}`);
    await streams[name].until(`ws-42-${name}`);

    const { call } = await mcpClient(t, `${router}/mcp?instance=${name}`);
    const run = await call('run', { session_id: id, line: `echo mcp-$((6*7))-${name}` });
    assert.equal(run.output.trim(), `mcp-42-${name}`);
    assert.equal((await api('POST', `/sessions/${id}/input`, { data: `echo rest-$((6*7))-${name}\n` })).status, 200);
    assert.equal((await api('POST', `/sessions/${id}/wait_idle`, { idle_ms: 200 })).json.idle, true);
    const screen = (await api('GET', `/sessions/${id}/screen`)).json;
    assert.ok(screen.lines.includes(`rest-42-${name}`), screen.lines.join('\n'));
  }

  // A WebSocket on one instance attaching another's session: refused, naming the holder.
  const wsA = await WsClient.open(router, TOKEN, '?instance=a');
  t.after(() => wsA.close());
  await assert.rejects(wsA.attach(one.b), /held by instance b, not by this one \(a\)/);

  // An MCP client without ?instance: initialize is balanced, and its MCP session id
  // names the instance that every later request of it goes to (by that header).
  const plain = await mcpClient(t, `${router}/mcp`);
  const home = instanceOf(plain.transport.sessionId);
  assert.ok(NAMES.includes(home), plain.transport.sessionId);
  const started = await plain.call('session_start', { engine: 'bash' });
  assert.equal(instanceOf(started.session_id), home);
  for (let i = 0; i < 6; i++) {
    assert.equal((await plain.call('run', { session_id: started.session_id, line: `echo plain-${i}` })).output.trim(), `plain-${i}`);
  }
  const other = NAMES.find((n) => n !== home);
  await assert.rejects(plain.call('run', { session_id: one[other], line: 'true' }), new RegExp(`held by instance ${other}`));

  // No such instance behind the router: nginx's own 404.
  const nowhere = await api('GET', '/sessions/zz.0123456789ab');
  assert.deepEqual([nowhere.status, nowhere.json.code], [404, 'not_found']);
  assert.match(nowhere.json.error, /no instance named zz/);

  // Instance c dies (SIGKILL: no goodbye). Its sessions' calls fail at once, saying why.
  const pids = (await api('GET', '/sessions?instance=c')).json.sessions.map((s) => s.pid);
  instances[2].child.kill('SIGKILL');
  await instances[2].exited;
  const t0 = Date.now();
  const dead = await api('POST', `/sessions/${one.c}/input`, { data: 'echo x\n' });
  assert.ok(Date.now() - t0 < 5000, `the call to a dead instance took ${Date.now() - t0} ms`);
  assert.deepEqual([dead.status, dead.json.code], [502, 'instance_down']);
  assert.match(dead.json.error, /instance 'c' does not answer/);
  await assert.rejects(WsClient.open(router, TOKEN, '?instance=c'), /502/);
  // c's SSE stream ended with it; a's and b's sessions go on, over every way in.
  await streams.c.done;
  assert.equal(streams.c.ended, true);
  for (const name of ['a', 'b']) {
    assert.equal((await api('POST', `/sessions/${one[name]}/input`, { data: `echo after-$((6*7))-${name}\n` })).status, 200);
    await streams[name].until(`after-42-${name}`);
  }
  // Its programs end with it (each daemon ends when the server's pipe to it closes).
  const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
  for (let i = 0; pids.some(alive); i++) {
    assert.ok(i < 200, `c's programs still run 20 s after it died: ${pids.filter(alive)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // New sessions go to the instances that answer.
  for (let i = 0; i < 4; i++) {
    const r = await api('POST', '/sessions', { engine: 'bash' });
    assert.equal(r.status, 201, JSON.stringify(r.json));
    assert.match(r.json.session_id, /^[ab]\./);
  }
});

test('an instance at its --max-sessions: new sessions go to the others; 429 once every one is full', { skip, timeout: 300_000 }, async (t) => {
  // Round-robin alone would send the fourth start to a again, and fail it.
  const caps = [1, 3, 3];
  const instances = await Promise.all(NAMES.map((name, i) => startInstance(t, name, ['--max-sessions', String(caps[i])])));
  const api = apiOf(await startNginx(t, instances));
  const held = { a: 0, b: 0, c: 0 };
  for (let i = 0; i < 7; i++) {
    const r = await api('POST', '/sessions', { command: ['cat'] });
    assert.equal(r.status, 201, `start ${i + 1}: ${JSON.stringify(r.json)}`);
    held[instanceOf(r.json.session_id)]++;
  }
  assert.deepEqual(held, { a: 1, b: 3, c: 3 });
  const full = await api('POST', '/sessions', { command: ['cat'] });
  assert.equal(full.status, 429, JSON.stringify(full.json));
});

test('the page through nginx: lists the sessions of every instance, shows each and types into it', { skip, timeout: 600_000 }, async (t) => {
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium (scripts/deps.sh --server), or set CHROMIUM_PATH`);
  const instances = await Promise.all(NAMES.map((name) => startInstance(t, name)));
  const router = await startNginx(t, instances);
  const api = apiOf(router);
  const one = {};
  while (Object.keys(one).length < NAMES.length) {
    const r = await api('POST', '/sessions', { engine: 'bash' });
    assert.equal(r.status, 201, JSON.stringify(r.json));
    one[instanceOf(r.json.session_id)] ??= r.json.session_id;
  }
  for (const name of NAMES) {
    await api('POST', `/sessions/${one[name]}/input`, { data: `echo page-$((6*7))-${name}\n` });
  }

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  assert.equal((await page.goto(`${router}/?token=${TOKEN}`)).status(), 200);
  const options = () => page.$$eval('#sessions option', (os) => os.map((o) => o.value));
  // Listed without a reload: the page asks each instance named by the router's /instances.
  await until(async () => {
    const listed = await options();
    return Object.values(one).every((id) => listed.includes(id));
  }, 'the sessions of every instance listed');

  for (const name of NAMES) {
    const id = one[name];
    await page.selectOption('#sessions', id);
    await page.waitForSelector(`body[data-live="${id}"]`);
    await until(async () => (await termLines(page)).includes(`page-42-${name}`), `session ${id}'s output on the page`);
    for (const other of NAMES.filter((n) => n !== name)) assert.ok(!(await termLines(page)).includes(`page-42-${other}`), `${other}'s output shown for ${name}`);
    await page.click('#terminal');
    await page.keyboard.type(`echo typed-$((6*7))-${name}`);
    await page.keyboard.press('Enter');
    await until(async () => (await api('GET', `/sessions/${id}/screen`)).json.lines.includes(`typed-42-${name}`), `the typing in ${id}`);
  }
  assert.deepEqual(errors, []);
});

async function until(fn, what) {
  for (let i = 0; ; i++) {
    if (await fn()) return;
    if (i > 600) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

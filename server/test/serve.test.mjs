// tuidriver-serve: REST routes, auth, limits, SSE and the WebSocket, against real bash and python.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import WebSocket from 'ws';
import { BIN_SERVE, waitForLine } from './helpers.mjs';
import { TOKEN, WsClient, sseEvents, startTestServer } from './serve_helpers.mjs';

/** The text lines of raw terminal output: escape codes removed, any line end. */
const plainLines = (raw) => stripVTControlCharacters(raw).split(/\r\n|\r|\n/);

const ROUTES = [
  ['GET', '/'], ['GET', '/app.js'], ['GET', '/vendor/xterm.js'], ['GET', '/sessions'], ['POST', '/sessions'],
  ['GET', '/sessions/ID'], ['DELETE', '/sessions/ID'], ['POST', '/sessions/ID/input'], ['POST', '/sessions/ID/keys'],
  ['POST', '/sessions/ID/resize'], ['POST', '/sessions/ID/ask'], ['POST', '/sessions/ID/answer'], ['GET', '/sessions/ID/screen'],
  ['GET', '/sessions/ID/scrollback'], ['GET', '/sessions/ID/output'], ['GET', '/sessions/ID/events'], ['GET', '/nowhere'],
  ['GET', '/sessions/ID/read'], ['POST', '/sessions/ID/signal'], ['POST', '/sessions/ID/wait_idle'], ['POST', '/sessions/ID/record'],
];

/** Resolves with the HTTP status a WebSocket upgrade got (101 when it opened). */
function upgradeStatus(url, headers) {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { headers });
    ws.on('open', () => { ws.close(); resolve(101); });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode));
    ws.on('error', () => undefined);
  });
}

test('auth: every route, the page and the WebSocket need the token (401)', { timeout: 60_000 }, async (t) => {
  const { api, url } = await startTestServer(t);
  const id = (await api('POST', '/sessions', { command: ['cat'] })).json.session_id;
  for (const [method, path] of ROUTES) {
    const p = path.replace('ID', id);
    for (const token of [null, 'wrong-token', `${TOKEN}x`, '']) {
      const r = await api(method, p, method === 'POST' ? {} : undefined, { token, raw: true });
      assert.equal(r.status, 401, `${method} ${p} with token ${token}`);
      assert.equal(r.headers.get('www-authenticate'), 'Bearer');
    }
    const q = await fetch(`${url}${p}${p.includes('?') ? '&' : '?'}token=nope`, { method });
    assert.equal(q.status, 401, `${method} ${p}?token=nope`);
  }
  assert.equal(await upgradeStatus(url, {}), 401);
  assert.equal(await upgradeStatus(url, { authorization: 'Bearer nope' }), 401);
  assert.equal(await upgradeStatus(url, { authorization: `Bearer ${TOKEN}` }), 101);
  assert.equal(await upgradeStatus(url, { authorization: `Bearer ${TOKEN}`, origin: 'http://elsewhere.example' }), 403);
  assert.equal(await upgradeStatus(url, { authorization: `Bearer ${TOKEN}`, origin: url }), 101);
  const badCookie = await fetch(`${url}/sessions`, { headers: { cookie: 'tuidriver_token=%E0%A4%A' } });
  assert.equal(badCookie.status, 401);
  assert.equal(await upgradeStatus(url, { cookie: 'tuidriver_token=%E0%A4%A' }), 401);
  // The session was not touched by any of it.
  assert.equal((await api('GET', `/sessions/${id}`)).json.state, 'ready');
});

test('the page: /?token= sets a cookie that then authorizes the page, the API and the WebSocket', { timeout: 30_000 }, async (t) => {
  const { url } = await startTestServer(t);
  const r = await fetch(`${url}/?token=${TOKEN}`, { redirect: 'manual' });
  assert.equal(r.status, 303);
  assert.equal(r.headers.get('location'), '/');
  const cookie = r.headers.get('set-cookie').split(';')[0];
  assert.match(r.headers.get('set-cookie'), /HttpOnly; SameSite=Strict/);
  const page = await fetch(`${url}/`, { headers: { cookie } });
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type'), /text\/html/);
  const xterm = await fetch(`${url}/vendor/xterm.js`, { headers: { cookie } });
  assert.equal(xterm.status, 200);
  assert.match(await xterm.text(), /Terminal/);
  assert.equal((await fetch(`${url}/sessions`, { headers: { cookie } })).status, 200);
  assert.equal((await fetch(`${url}/sessions`, { headers: { cookie: 'tuidriver_token=bad' } })).status, 401);
  assert.equal(await upgradeStatus(url, { cookie }), 101);
});

test('the bin: prints a generated token once; --host and --port; bad options', { timeout: 30_000 }, async (t) => {
  const env = { ...process.env };
  delete env.TUIDRIVER_TOKEN;
  const child = spawn(process.execPath, [BIN_SERVE, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGTERM'));
  const page = await waitForLine(child.stdout, /page /);
  const [, url, token] = page.match(/page (http:\S+)\/\?token=(\S+)/);
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(token.length >= 32);
  assert.equal((await fetch(`${url}/sessions`)).status, 401);
  assert.equal((await fetch(`${url}/sessions`, { headers: { authorization: `Bearer ${token}` } })).status, 200);

  const bad = spawn(process.execPath, [BIN_SERVE, '--port', 'abc'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  bad.stderr.on('data', (d) => { err += d; });
  const code = await new Promise((r) => bad.on('close', r));
  assert.equal(code, 2);
  assert.match(err, /--port must be an integer/);
});

test('REST: every route on bash and python; output drained with the exit status; clear errors', { timeout: 90_000 }, async (t) => {
  const { api } = await startTestServer(t);
  const created = await api('POST', '/sessions', { engine: 'bash', cols: 80, rows: 24, env: { TD_GREETING: 'hello-env' } });
  assert.equal(created.status, 201);
  const id = created.json.session_id;
  assert.equal(created.json.cols, 80);
  assert.deepEqual((await api('GET', '/sessions')).json.sessions.map((s) => s.session_id), [id]);
  const one = (await api('GET', `/sessions/${id}`)).json;
  assert.equal(one.engine, 'bash');
  assert.equal(one.state, 'ready');

  await api('GET', `/sessions/${id}/output`);
  assert.deepEqual((await api('POST', `/sessions/${id}/input`, { data: 'echo "$TD_GREETING"\r' })).json, { ok: true });
  // Drain until the echo's output shows; each read returns only what is new.
  let drained = '';
  let last = null;
  while (!plainLines(drained).includes('hello-env')) {
    last = (await api('GET', `/sessions/${id}/output`)).json;
    assert.equal(last.exited, false);
    drained += last.data;
  }
  const again = (await api('GET', `/sessions/${id}/output`)).json;
  assert.equal(again.from, last.to);

  await api('POST', `/sessions/${id}/input`, { data: 'echo keyed' });
  await api('POST', `/sessions/${id}/keys`, { keys: ['Enter'] });
  await api('POST', `/sessions/${id}/input`, { data: 'read -rs S; echo "got ${#S}"\r' });
  await api('POST', `/sessions/${id}/input`, { data: 'swordfish\r', secret: true });
  const resized = (await api('POST', `/sessions/${id}/resize`, { cols: 100, rows: 30 })).json;
  assert.deepEqual(resized, { ok: true, cols: 100, rows: 30 });
  let scr;
  do scr = (await api('GET', `/sessions/${id}/screen`)).json; while (!scr.lines.includes('got 9'));
  assert.equal(scr.cols, 100);
  assert.ok(scr.lines.includes('keyed'));
  const sb = (await api('GET', `/sessions/${id}/scrollback?lines=50`)).json;
  assert.ok(sb.lines.includes('hello-env'));

  // Errors: each a clear JSON error with the right status; the session is unharmed.
  const cases = [
    ['POST', '/sessions', '{', 400, /not valid JSON/],
    ['POST', '/sessions', '[1]', 400, /JSON object/],
    ['POST', '/sessions', {}, 400, /exactly one of engine/],
    ['POST', '/sessions', { command: 'bash' }, 400, /argv array|array of strings/],
    ['POST', '/sessions', { engine: 'bash', cols: 0 }, 400, /cols/],
    ['POST', '/sessions', { engine: 'no-such-engine' }, 422, /engine/],
    ['GET', '/sessions/nope', undefined, 404, /unknown session_id "nope"/],
    ['POST', `/sessions/${id}/input`, { data: 5 }, 400, /data is required/],
    ['POST', `/sessions/${id}/keys`, { keys: [] }, 400, /keys/],
    ['POST', `/sessions/${id}/resize`, { cols: -5, rows: 10 }, 400, /cols must be an integer from 2 to 1000/],
    ['POST', `/sessions/${id}/resize`, { cols: 80 }, 400, /rows/],
    ['GET', `/sessions/${id}/scrollback?lines=abc`, undefined, 400, /lines must be a positive integer/],
    ['POST', `/sessions/${id}/ask`, { prompt: '1', timeout_ms: 0 }, 400, /timeout_ms/],
    ['POST', `/sessions/${id}/ask`, {}, 400, /prompt/],
    ['POST', `/sessions/${id}/answer`, { ask_id: 9, option: 1 }, 409, /not waiting/],
    ['GET', `/sessions/${id}/input`, undefined, 405, /use POST/],
    ['PUT', '/sessions', undefined, 405, /GET or POST/],
    ['GET', `/sessions/${id}/nothing`, undefined, 404, /no route/],
    ['GET', '/elsewhere', undefined, 404, /no route/],
  ];
  for (const [method, path, b, status, re] of cases) {
    const r = await api(method, path, b);
    assert.equal(r.status, status, `${method} ${path} ${JSON.stringify(b)}: ${JSON.stringify(r.json)}`);
    assert.match(r.json.error, re);
  }

  // python: ask (and the SSE stream sees its chunks and reply).
  const py = (await api('POST', '/sessions', { engine: 'python' })).json.session_id;
  const ask = await api('POST', `/sessions/${py}/ask`, { prompt: '6*7', timeout_ms: 20_000 });
  assert.deepEqual(ask.json, { ask_id: 1, text: '42', markdown: null });
  const rawAsk = await api('POST', `/sessions/${(await api('POST', '/sessions', { command: ['cat'] })).json.session_id}/ask`, { prompt: 'x' });
  assert.equal(rawAsk.status, 400);
  assert.match(rawAsk.json.error, /not an engine/);

  // The program exits: /output says how, DELETE ends the session, and it is gone.
  await api('POST', `/sessions/${id}/input`, { data: 'exit 3\r' });
  let out;
  do out = (await api('GET', `/sessions/${id}/output`)).json; while (!out.exited);
  assert.equal(out.exit_code, 3);
  assert.equal((await api('GET', `/sessions/${id}`)).json.state, 'exited');
  const del = await api('DELETE', `/sessions/${id}`);
  assert.deepEqual(del.json, { session_id: id, exit_code: 3, signal: null });
  assert.equal((await api('GET', `/sessions/${id}`)).status, 404);
  assert.equal((await api('DELETE', `/sessions/${id}`)).status, 404);
});

test('limits: 429 at the session cap, 413 over the body cap', { timeout: 60_000 }, async (t) => {
  const { api } = await startTestServer(t, { maxSessions: 2, maxBody: 4096 });
  const a = await api('POST', '/sessions', { command: ['cat'] });
  const b = await api('POST', '/sessions', { command: ['cat'] });
  assert.equal(a.status, 201);
  assert.equal(b.status, 201);
  const c = await api('POST', '/sessions', { command: ['cat'] });
  assert.equal(c.status, 429);
  assert.match(c.json.error, /session cap \(2\)/);
  const big = await api('POST', `/sessions/${a.json.session_id}/input`, { data: 'x'.repeat(8192) });
  assert.equal(big.status, 413);
  await api('DELETE', `/sessions/${a.json.session_id}`);
  assert.equal((await api('POST', '/sessions', { command: ['cat'] })).status, 201);
});

test('SSE: output in order, numbered, then exit; ask chunks then reply; questions answered', { timeout: 60_000 }, async (t) => {
  const { api, url } = await startTestServer(t);
  const id = (await api('POST', '/sessions', { command: ['bash', '--norc', '--noprofile'] })).json.session_id;
  const res = await fetch(`${url}/sessions/${id}/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /text\/event-stream/);
  const events = sseEvents(res);
  await api('POST', `/sessions/${id}/input`, { data: 'for i in $(seq 1 300); do echo line-$i; done; exit 7\r' });
  let text = '';
  let lastId = 0;
  let exit = null;
  for await (const ev of events) {
    assert.ok(ev.id > lastId, 'ids increase');
    lastId = ev.id;
    assert.equal(ev.data.session_id, id);
    if (ev.event === 'output') text += ev.data.data;
    if (ev.event === 'exit') { exit = ev.data; break; }
  }
  assert.equal(exit.exit_code, 7);
  const lines = plainLines(text).filter((l) => /^line-\d+$/.test(l));
  assert.deepEqual(lines, Array.from({ length: 300 }, (_, i) => `line-${i + 1}`));
  await res.body.cancel().catch(() => undefined);

  // An ask's chunks come before its reply; a question inside the turn is answered by text.
  const py = (await api('POST', '/sessions', { engine: 'python' })).json.session_id;
  const res2 = await fetch(`${url}/sessions/${py}/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const ev2 = sseEvents(res2);
  // (next() by hand: leaving a for-await loop would end the stream.)
  const nextOf = async (type) => {
    for (;;) {
      const r = await ev2.next();
      assert.ok(!r.done, `the stream ended before a ${type} event`);
      seen.push(r.value.event);
      if (r.value.event === type) return r.value.data;
    }
  };
  const seen = [];
  const asked = api('POST', `/sessions/${py}/ask`, { prompt: 'exec("import time\\nfor i in range(3): print(i, flush=True); time.sleep(0.3)")' });
  assert.equal((await nextOf('reply')).text, '0\n1\n2');
  assert.equal((await asked).json.text, '0\n1\n2');
  const order = seen.filter((e) => e === 'ask' || e === 'chunk' || e === 'reply');
  assert.equal(order[0], 'ask');
  assert.equal(order.at(-1), 'reply');
  assert.ok(order.filter((e) => e === 'chunk').length >= 2, `chunks: ${order}`);

  const q = api('POST', `/sessions/${py}/ask`, { prompt: 'name = input("Your name? "); name.upper()', on_input: 'wait' });
  const question = await nextOf('needs_input');
  assert.match(question.question, /Your name\?/);
  assert.deepEqual(question.options, []);
  assert.equal((await api('POST', `/sessions/${py}/answer`, { ask_id: question.ask_id, text: 'ada' })).status, 200);
  assert.equal((await q).json.text, "Your name? ada\n'ADA'");
  assert.equal((await nextOf('reply')).text, "Your name? ada\n'ADA'");
  await res2.body.cancel().catch(() => undefined);
});

test('WebSocket: multiplexed sessions, input by channel, ask, errors', { timeout: 60_000 }, async (t) => {
  const { api, url } = await startTestServer(t);
  const a = (await api('POST', '/sessions', { command: ['bash', '--norc', '--noprofile'] })).json.session_id;
  const p = (await api('POST', '/sessions', { engine: 'python' })).json.session_id;
  const c = await WsClient.open(url);
  t.after(() => c.close());
  const cha = await c.attach(a);
  const chp = await c.attach(p);
  assert.deepEqual([cha, chp], [0, 1]);
  c.input(cha, 'echo one-$((1+1))\r');
  await c.until(() => plainLines(c.text(cha)).includes('one-2'), 'bash output');
  assert.ok(!c.text(chp).includes('one-2'), 'no output crosses channels');

  // A character split between two frames arrives whole.
  const e = Buffer.from('echo ü-$((2+3))\r', 'utf8');
  const cut = e.indexOf(0xc3) + 1;
  c.ws.send(Buffer.concat([Buffer.from([cha]), e.subarray(0, cut)]));
  c.ws.send(Buffer.concat([Buffer.from([cha]), e.subarray(cut)]));
  await c.until(() => plainLines(c.text(cha)).includes('ü-5'), 'the split character');

  c.send({ type: 'ask', session_id: p, prompt: '6*7' });
  const reply = await c.message((m) => m.type === 'reply' && m.session_id === p, 'the reply');
  assert.equal(reply.text, '42');
  assert.ok(c.messages.some((m) => m.type === 'chunk' && m.delta.includes('42')));
  assert.ok(c.text(chp).includes('42'), 'the terminal shows the ask too');

  c.send({ type: 'resize', session_id: a, cols: 90, rows: 20 });
  c.send({ type: 'keys', session_id: a, keys: ['e', 'c', 'h', 'o', 'Space', '$', 'C', 'O', 'L', 'U', 'M', 'N', 'S', 'Enter'] });
  await c.until(() => c.text(cha).includes('90'), 'the resize');
  
  // Errors are messages; the socket stays open.
  c.send({ type: 'attach', session_id: 'nope' });
  assert.match((await c.message((m) => m.type === 'error' && /unknown session_id "nope"/.test(m.error))).error, /nope/);
  c.ws.send('not json');
  await c.message((m) => m.type === 'error' && /JSON object/.test(m.error));
  c.send({ type: 'dance', session_id: a });
  await c.message((m) => m.type === 'error' && /unknown message type/.test(m.error));
  c.input(7, 'x');
  await c.message((m) => m.type === 'error' && /channel 7 is not attached/.test(m.error));
  c.send({ type: 'attach', session_id: a });
  await c.message((m) => m.type === 'error' && m.code === 'conflict');

  // DELETE reaches attached clients as `closed`.
  await api('DELETE', `/sessions/${a}`);
  await c.message((m) => m.type === 'closed' && m.session_id === a);
  await c.message((m) => m.type === 'detached' && m.session_id === a);
  assert.equal(c.closed, undefined);
});

test('WebSocket: reconnecting replays scrollback and screen, then live output, nothing lost or repeated', { timeout: 90_000 }, async (t) => {
  const { api, url } = await startTestServer(t);
  // Counts for ever, a line every few ms: output keeps coming through every reconnect.
  const counter = 'import time\nfor i in range(10**7):\n    print(f"n={i}", flush=True)\n    time.sleep(0.002)\n';
  const id = (await api('POST', '/sessions', { command: ['python3', '-u', '-c', counter], rows: 10 })).json.session_id;

  const numbers = (text) => [...text.matchAll(/n=(\d+)\r\n/g)].map((m) => Number(m[1]));
  const contiguous = (ns) => ns.every((n, i) => n === i);

  const first = await WsClient.open(url);
  const ch1 = await first.attach(id);
  await first.until(() => numbers(first.text(ch1)).length >= 200, '200 lines');
  await first.close();

  // Output goes on while nobody is attached; the next client gets all of it.
  for (let round = 0; round < 3; round++) {
    const c = await WsClient.open(url);
    const ch = await c.attach(id);
    const attached = c.messages.find((m) => m.type === 'attached');
    assert.equal(attached.truncated, false);
    const target = numbers(c.text(ch)).length + 300;
    await c.until(() => numbers(c.text(ch)).length >= target, `${target} lines`);
    const ns = numbers(c.text(ch));
    assert.ok(contiguous(ns), `round ${round}: the replay plus live output skip or repeat a line near ${ns.find((n, i) => n !== i)}`);
    await c.close();
  }
  // The replay is the session's own output: the screen it shows is the daemon's.
  const c = await WsClient.open(url);
  const ch = await c.attach(id);
  const replayed = c.text(ch);
  assert.ok(replayed.startsWith('\x1b[H\x1b[2J'), 'the replay starts with the screen as it was when the log began');
  assert.ok(numbers(replayed).length > 800);
  await c.close();
});

test('WebSocket: a replay over the log cap says it is truncated and still joins live output cleanly', { timeout: 60_000 }, async (t) => {
  const { api, url } = await startTestServer(t, { logChars: 4096 });
  const id = (await api('POST', '/sessions', { command: ['bash', '--norc', '--noprofile'] })).json.session_id;
  await api('POST', `/sessions/${id}/input`, { data: 'for i in $(seq 1 2000); do echo row-$i; done\r' });
  let scr;
  do scr = (await api('GET', `/sessions/${id}/screen`)).json; while (!scr.lines.includes('row-2000'));
  const c = await WsClient.open(url);
  t.after(() => c.close());
  const ch = await c.attach(id);
  assert.equal(c.messages.find((m) => m.type === 'attached').truncated, true);
  const replay = c.text(ch);
  assert.ok(replay.length <= 4096 + 4096, 'at most the cap plus one chunk');
  assert.ok(replay.includes('row-2000'));
  c.input(ch, 'echo after-replay\r');
  await c.until(() => plainLines(c.text(ch)).includes('after-replay'), 'live output after the replay');
});

test('WebSocket: output printed before the server listened, scrolled off the screen, is in the replay', { timeout: 30_000 }, async (t) => {
  const { api, url } = await startTestServer(t);
  // 100 lines at once on a 10-row terminal, very likely before the server subscribes.
  const id = (await api('POST', '/sessions', { command: ['bash', '--norc', '--noprofile', '-c', 'seq 1 100; sleep 30'], rows: 10 })).json.session_id;
  let scr;
  do scr = (await api('GET', `/sessions/${id}/screen`)).json; while (!scr.lines.includes('100'));
  const c = await WsClient.open(url);
  t.after(() => c.close());
  const ch = await c.attach(id);
  const numbers = plainLines(c.text(ch)).filter((l) => /^\d+$/.test(l)).map(Number);
  assert.deepEqual(numbers, Array.from({ length: 100 }, (_, i) => i + 1));
});

test('REST: unknown fields are a 400 naming the field; read, signal, wait_idle, record, styled screen; state', { timeout: 60_000 }, async (t) => {
  const { api } = await startTestServer(t);
  const bad = await api('POST', '/sessions', { command: ['bash', '--norc'], colums: 80 });
  assert.equal(bad.status, 400);
  assert.match(bad.json.error, /unknown field "colums"/);
  const { json: s } = await api('POST', '/sessions', { command: ['bash', '--norc', '--noprofile'] });
  const id = s.session_id;
  for (const [route, body, field] of [['input', { data: 'x', secrets: true }, 'secrets'], ['keys', { keys: ['Enter'], key: 1 }, 'key'], ['resize', { cols: 80, rows: 24, row: 2 }, 'row'], ['signal', { signal: 'INT', pid: 1 }, 'pid']]) {
    const r = await api('POST', `/sessions/${id}/${route}`, body);
    assert.equal(r.status, 400, route);
    assert.match(r.json.error, new RegExp(`unknown field "${field}"`), route);
  }
  const misspelt = await api('POST', `/sessions/${id}/keys`, { keys: ['Enterr'] });
  assert.equal(misspelt.status, 422);
  assert.match(misspelt.json.error, /'Enterr' is not a key name/);
  // Half an emoji, as JSON.stringify writes it: answered, typed as U+FFFD.
  const half = await api('POST', `/sessions/${id}/input`, '{"data":"echo a\\ud83db\\r"}');
  assert.equal(half.status, 200);
  assert.equal((await api('POST', `/sessions/${id}/wait_idle`, { idle_ms: 300 })).json.idle, true);
  assert.ok((await api('GET', `/sessions/${id}/screen`)).json.lines.includes('a\uFFFDb'));

  let r = (await api('GET', `/sessions/${id}/read`)).json;
  assert.match(r.output, /^a\uFFFDb$/m);
  assert.equal(typeof r.next_cursor, 'number');
  await api('POST', `/sessions/${id}/input`, { data: "printf '\\033[1mbold\\033[0m\\n'\r" });
  await api('POST', `/sessions/${id}/wait_idle`, { idle_ms: 300 });
  r = (await api('GET', `/sessions/${id}/read?cursor=${r.next_cursor}`)).json;
  assert.match(r.output, /^bold$/m);
  assert.doesNotMatch(r.output, /a\uFFFDb/);
  const scr = (await api('GET', `/sessions/${id}/screen?styles=1`)).json;
  assert.deepEqual(scr.styles[scr.lines.indexOf('bold')], [{ col: 0, len: 4, bold: true }]);
  assert.equal(scr.state, 'ready');
  await api('POST', `/sessions/${id}/input`, { data: 'sleep 30\r' });
  await api('POST', `/sessions/${id}/wait_idle`, { idle_ms: 300 });
  assert.equal((await api('GET', `/sessions/${id}/read`)).json.state, 'running');
  const sig = (await api('POST', `/sessions/${id}/signal`, { signal: 'INT' })).json;
  assert.equal(sig.signal, 'SIGINT');
  const quiet = await api('POST', `/sessions/${id}/wait_idle`, { idle_ms: 300, timeout_ms: 5000 });
  assert.equal(quiet.json.state, 'ready');
  assert.equal((await api('POST', `/sessions/${id}/record`, {})).status, 400);
});

test('--mcp: MCP at /mcp on the same server and sessions; Origin checked; a plain 401', { timeout: 60_000 }, async (t) => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { api, url } = await startTestServer(t, { mcp: true });
  const { json: s } = await api('POST', '/sessions', { command: ['bash', '--norc', '--noprofile'] });
  const agent = new Client({ name: 'agent', version: '1' });
  await agent.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  t.after(() => agent.close());
  const listed = await agent.callTool({ name: 'list', arguments: {} });
  assert.deepEqual(listed.structuredContent.sessions.map((x) => x.session_id), [s.session_id]);
  const ran = await agent.callTool({ name: 'run', arguments: { session_id: s.session_id, line: 'echo from-mcp' } });
  assert.equal(ran.structuredContent.output, 'from-mcp');

  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
  const post = (headers, body = JSON.stringify(init)) => fetch(new URL('/mcp', url), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
  const noToken = await post({});
  assert.equal(noToken.status, 401);
  assert.equal(noToken.headers.get('www-authenticate').startsWith('Bearer'), true);
  assert.doesNotMatch(noToken.headers.get('www-authenticate'), /resource_metadata/);
  // No OAuth metadata: a client without the token has nothing to start a login with.
  assert.equal((await fetch(new URL('/.well-known/oauth-protected-resource', url))).status, 404);
  assert.equal((await fetch(new URL('/.well-known/oauth-authorization-server', url))).status, 404);
  const auth = { authorization: `Bearer ${TOKEN}` };
  assert.equal((await post({ ...auth, origin: 'http://evil.example' })).status, 403);
  assert.equal((await post({ ...auth, origin: url })).status, 200);
  const parse = await post(auth, '{"jsonrpc":');
  assert.equal(parse.status, 400);
  assert.equal((await parse.json()).error.code, -32700);
});

test('REST read: each finished row once, the prompt pending until finished, paging across it, cursors kept over a re-wrapping resize', { timeout: 60_000 }, async (t) => {
  const { api } = await startTestServer(t);
  const id = (await api('POST', '/sessions', { command: ['bash', '--norc', '--noprofile'], cols: 40, rows: 10 })).json.session_id;
  const read = async (query = '') => (await api('GET', `/sessions/${id}/read${query}`)).json;
  const typed = async (data) => {
    await api('POST', `/sessions/${id}/input`, { data });
    await api('POST', `/sessions/${id}/wait_idle`, { idle_ms: 300 });
  };
  const scr = (await api('GET', `/sessions/${id}/screen`)).json;
  const prompt = scr.lines[scr.cursor.row];
  assert.match(prompt, /[$#]$/);
  const first = await read();
  const rows = [];
  const drain = async () => {
    let r;
    do {
      r = await read('?max_chars=100');
      if (r.output !== '') rows.push(...r.output.split('\n'));
    } while (r.has_more);
    return r;
  };
  await typed('seq 1 30\r');
  await drain();
  // At 40 columns this line takes two rows; after the resize to 25, three.
  const wide = `echo ${'w'.repeat(45)}`;
  await typed(`${wide}\r`);
  await drain();
  await api('POST', `/sessions/${id}/resize`, { cols: 25, rows: 10 });
  await typed('echo after\r');
  const last = await drain();
  const row40 = (s) => [s.slice(0, 40), s.slice(40)].filter((x) => x !== '');
  assert.deepEqual(rows, [`${prompt} seq 1 30`, ...Array.from({ length: 30 }, (_, i) => String(i + 1)), ...row40(`${prompt} ${wide}`), ...row40('w'.repeat(45)), `${prompt} echo after`, 'after']);
  assert.deepEqual([first.output, first.pending, last.pending], ['', prompt, prompt], 'the prompt waits in pending');
  const bad = await api('GET', `/sessions/${id}/read?cursor=${last.next_cursor + 1}`);
  assert.equal(bad.status, 400);
  assert.match(bad.json.error, /past the last finished row/);
});

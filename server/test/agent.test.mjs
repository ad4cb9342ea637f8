// Issue 24: an agent driving tuidriver-mcp through a confirm prompt, a long command, vim,
// a cancelled call and a misspelt key never waits longer than it asked, and always
// learns the session's state. Driven by the MCP SDK's own client, over stdio and HTTP.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN_MCP, waitForLine } from './helpers.mjs';

async function stdioClient(t) {
  const client = new Client({ name: 'agent-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN_MCP], stderr: 'ignore' }));
  t.after(() => client.close());
  return client;
}

async function httpServer(t, args = []) {
  const child = spawn(process.execPath, [BIN_MCP, '--http', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(() => child.kill('SIGTERM'));
  const line = await waitForLine(child.stderr, /listening on (http:\S+)/);
  return new URL(line.match(/listening on (http:\S+)/)[1]);
}

/** callTool that fails the test on isError; returns structuredContent and the time taken. */
function caller(client) {
  return async (name, args, opts) => {
    const t0 = Date.now();
    const r = await client.callTool({ name, arguments: args }, undefined, opts);
    assert.ok(!r.isError, `${name} failed: ${r.content?.[0]?.text}`);
    return { ...r.structuredContent, ms: Date.now() - t0, text: r.content[0].text };
  };
}

const BASH = ['bash', '--norc', '--noprofile'];

test('run: questions end the wait with needs_input; quiet means the command is done; timeouts leave it running', { timeout: 120_000 }, async (t) => {
  const client = await stdioClient(t);
  const call = caller(client);
  const id = (await call('session_start', { command: BASH })).session_id;
  // Not a pause in the output: the command runs until it prints, and only then is done.
  const slow = await call('run', { session_id: id, line: 'sleep 2; echo done' });
  assert.equal(slow.output, 'done');
  assert.equal(slow.running, false);
  assert.equal(slow.state, 'ready');
  assert.ok(slow.ms >= 2000);

  // Yes/no questions, as a shell script and as programs ask them.
  for (const [line, question] of [
    ['read -p "Continue? [y/N] " a', 'Continue? [y/N]'],
    ['read -p "Overwrite? [Y/n] " a', 'Overwrite? [Y/n]'],
    ['read -p "Really (y/n) " a', 'Really (y/n)'],
    ['read -p "package name: (demo) " a', 'package name: (demo)'],
    ['python3 -c "input(\'Proceed (Y/n)? \')"', 'Proceed (Y/n)?'],
    ['echo "unclosed', '>'],
    // No shape at all: decided from the process (bash's read waits on the terminal).
    ['read -n1 -p "Press any key to continue..."', 'Press any key to continue...'],
    ['python3 -c "import sys; sys.stdout.write(\'> \'); sys.stdout.flush(); input()"', '>'],
  ]) {
    const r = await call('run', { session_id: id, line, timeout_ms: 20_000 });
    assert.equal(r.state, 'needs_input', `${line}: ${JSON.stringify(r)}`);
    // A question is no timeout: not "still running after 30000 ms".
    assert.equal(r.running, false);
    assert.doesNotMatch(r.text, /still running/);
    assert.equal(r.output, question);
    assert.ok(r.ms < 10_000, `${line} took ${r.ms} ms`);
    const answered = await call('run', { session_id: id, line: line.startsWith('echo') ? '"' : 'y' });
    assert.equal(answered.state, 'ready', line);
  }

  // Progress text ending in ':' is no question while nothing reads the terminal.
  const progress = await call('run', { session_id: id, line: 'echo "Building:"; sleep 2; echo built', timeout_ms: 20_000 });
  assert.equal(progress.output, 'Building:\nbuilt');
  assert.equal(progress.state, 'ready');

  // The timeout returns what was printed so far; the program goes on; signal ends it.
  const part = await call('run', { session_id: id, line: 'echo first; sleep 30; echo never', timeout_ms: 1500 });
  assert.equal(part.output, 'first');
  assert.equal(part.running, true);
  assert.equal(part.state, 'running');
  assert.ok(part.ms < 10_000);
  assert.equal((await call('status', { session_id: id })).state, 'running');
  assert.equal((await call('signal', { session_id: id, signal: 'INT' })).signal, 'SIGINT');
  await call('wait_idle', { session_id: id, idle_ms: 300 });
  assert.equal((await call('run', { session_id: id, line: 'echo after' })).output, 'after');

  // A line of several lines: no prompt and no typed line in the output.
  assert.equal((await call('run', { session_id: id, line: 'echo a\necho b' })).output, 'a\nb');
  assert.equal((await call('run', { session_id: id, line: 'for i in 1 2; do\necho i$i\ndone' })).output, 'i1\ni2');
  // A run behind one that timed out waits for it (within its own time), then its output is its own.
  assert.equal((await call('run', { session_id: id, line: 'sleep 2; echo slept', timeout_ms: 500 })).running, true);
  assert.equal((await call('run', { session_id: id, line: 'echo next' })).output, 'next');
  assert.equal((await call('run', { session_id: id, line: 'sleep 3', timeout_ms: 300 })).running, true);
  const busy = await client.callTool({ name: 'run', arguments: { session_id: id, line: 'echo typed-ahead', timeout_ms: 500 } });
  assert.equal(busy.isError, true);
  assert.match(busy.content[0].text, /previous command .* still running/);
  assert.equal((await call('run', { session_id: id, line: 'echo after-sleep' })).output, 'after-sleep');

  // Big output: the tail, capped, said so; no line twice.
  const big = await call('run', { session_id: id, line: 'seq 1 200000', max_chars: 1000, timeout_ms: 60_000 });
  assert.equal(big.truncated, true);
  assert.ok(big.output.length <= 1000);
  assert.ok(big.output.endsWith('199999\n200000'), big.output.slice(-30));
  assert.equal(new Set(big.output.split('\n').slice(1)).size, big.output.split('\n').length - 1);
});

test('run on the bash and python engines: a question ends the turn with needs_input, answered with run', { timeout: 120_000 }, async (t) => {
  const client = await stdioClient(t);
  const call = caller(client);
  const sh = (await call('session_start', { engine: 'bash' })).session_id;
  for (const [line, question, answer, got] of [
    ['read -p "Delete all? [y/N] " a; echo "got=$a"', 'Delete all? [y/N]', 'y', 'got=y'],
    ['read -p "Continue? [y/N] " a; read -p "Sure? [y/N] " b; echo "got=$a$b"', 'Continue? [y/N]', 'y', null],
    ['read -n1 -p "Press any key to continue..." a; echo; echo "got=$a"', 'Press any key to continue...', 'k', 'got=k'],
  ]) {
    const t0 = Date.now();
    const r = await call('run', { session_id: sh, line, timeout_ms: 20_000 });
    assert.equal(r.state, 'needs_input', `${line}: ${JSON.stringify(r)}`);
    assert.equal(r.running, false, 'a question is no timeout');
    assert.doesNotMatch(r.text, /still running/);
    assert.equal(r.output.split(question).length, 2, `the question once: ${r.output}`);
    assert.ok(Date.now() - t0 < 10_000, `${line} took ${Date.now() - t0} ms`);
    // The answer is a run: typed into the question, not run as a command after a C-c.
    const a = await call('run', { session_id: sh, line: answer, timeout_ms: 20_000 });
    if (got === null) {
      // A second question in the same command: answered the same way.
      assert.equal(a.state, 'needs_input', JSON.stringify(a));
      assert.match(a.output, /Sure\? \[y\/N\]/);
      const b = await call('run', { session_id: sh, line: 'n', timeout_ms: 20_000 });
      assert.equal(b.output, 'got=yn');
      assert.equal(b.state, 'ready');
      continue;
    }
    assert.equal(a.output, got, JSON.stringify(a));
    assert.equal(a.state, 'ready');
  }
  // Answered with send instead: the next run waits for the command's end, then runs.
  assert.equal((await call('run', { session_id: sh, line: 'read -p "Name? " n; echo "hello $n"' })).state, 'needs_input');
  await call('send', { session_id: sh, data: 'ada\r' });
  assert.equal((await call('run', { session_id: sh, line: 'echo after-$n' })).output, 'after-ada');
  const py = (await call('session_start', { engine: 'python' })).session_id;
  assert.equal((await call('status', { session_id: py })).state, 'ready');
  const q = await call('run', { session_id: py, line: 'name = input("Your name? ")', timeout_ms: 20_000 });
  assert.equal(q.state, 'needs_input');
  assert.match(q.output, /Your name\?/);
  assert.equal((await call('status', { session_id: py })).state, 'needs_input');
  const answered = await call('run', { session_id: py, line: 'bob' });
  assert.equal(answered.state, 'ready', JSON.stringify(answered));
  assert.doesNotMatch(answered.output, /KeyboardInterrupt|NameError/);
  assert.equal((await call('run', { session_id: py, line: 'name.upper()' })).output, "'BOB'");

  // An engine run that outlives its timeout: partial output, still running, not interrupted.
  const slow = await call('run', { session_id: py, line: 'import time; print("started", flush=True); time.sleep(4); print("finished")', timeout_ms: 1500 });
  assert.equal(slow.running, true);
  assert.equal(slow.state, 'running');
  assert.match(slow.output, /started/);
  const busy = await client.callTool({ name: 'run', arguments: { session_id: py, line: '1+1', timeout_ms: 300 } });
  assert.equal(busy.isError, true);
  assert.match(busy.content[0].text, /still running/);
  const state = await call('status', { session_id: py });
  assert.equal(state.state, 'running');
  await call('expect', { session_id: py, pattern: 'finished', timeout_ms: 10_000, screen_wide: true });
  await call('wait_idle', { session_id: py, idle_ms: 300 });
  assert.equal((await call('run', { session_id: py, line: '6*7' })).output, '42');
});

test('run on vim: the screen as rendered, no escape bytes; expect matches only what comes after the call', { timeout: 60_000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuidriver-agent-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const client = await stdioClient(t);
  const call = caller(client);
  const id = (await call('session_start', { command: BASH, cwd: dir, cols: 80, rows: 24 })).session_id;
  const vim = await call('run', { session_id: id, line: 'vim -u NONE -N -n file.txt' });
  assert.doesNotMatch(vim.output, /\x1b|\[\d+;\d+m|4;2m/);
  assert.match(vim.output, /^~/m);
  assert.match(vim.output, /"file.txt" \[New\]/);
  assert.equal(vim.state, 'fullscreen');
  await call('keys', { session_id: id, keys: [':', 'q', 'Enter'] });
  await call('wait_idle', { session_id: id, idle_ms: 300 });

  // The echo of what was sent is output too, and may come after the call: the
  // pattern is one only the command's output holds (ready-42, not $((6*7))).
  await call('send', { session_id: id, data: 'sleep 1; echo ready-$((6*7))\r' });
  const m = await call('expect', { session_id: id, pattern: 'ready-42\\r?\\n', timeout_ms: 10_000 });
  assert.ok(m.ms >= 900, `matched after ${m.ms} ms, before the output`);
  // Printed before the call: only screen_wide finds it.
  await assert.rejects(async () => {
    const r = await client.callTool({ name: 'expect', arguments: { session_id: id, pattern: 'ready-42', timeout_ms: 500 } });
    if (r.isError) throw new Error(r.content[0].text);
  }, /timeout/);
  const wide = await call('expect', { session_id: id, pattern: 'ready-42', screen_wide: true, timeout_ms: 500 });
  assert.equal(wide.match, 'ready-42');
});

test('cancelling a call cancels the daemon request: the next call does not wait (stdio and HTTP disconnect)', { timeout: 60_000 }, async (t) => {
  const client = await stdioClient(t);
  const call = caller(client);
  const id = (await call('session_start', { engine: 'python' })).session_id;
  const ac = new AbortController();
  const long = client.callTool({ name: 'run', arguments: { session_id: id, line: 'import time; time.sleep(30)' } }, undefined, { signal: ac.signal, timeout: 60_000 });
  await new Promise((r) => setTimeout(r, 700));
  ac.abort();
  await assert.rejects(long, /abort/i);
  const next = await call('run', { session_id: id, line: '6*7', timeout_ms: 10_000 });
  assert.equal(next.output, '42');
  assert.ok(next.ms < 8000, `the next run waited ${next.ms} ms`);

  // An expect over HTTP whose client goes away: the daemon forgets it.
  const url = await httpServer(t);
  const h = new Client({ name: 'agent-test', version: '1' });
  await h.connect(new StreamableHTTPClientTransport(url));
  const hid = (await caller(h)('session_start', { command: BASH })).session_id;
  const ac2 = new AbortController();
  const pending = h.callTool({ name: 'expect', arguments: { session_id: hid, pattern: 'never', timeout_ms: 600_000 } }, undefined, { signal: ac2.signal, timeout: 700_000 });
  await new Promise((r) => setTimeout(r, 500));
  ac2.abort();
  await assert.rejects(pending);
  const h2 = new Client({ name: 'agent-test', version: '1' });
  await h2.connect(new StreamableHTTPClientTransport(url));
  t.after(() => h2.close());
  const st = await caller(h2)('run', { session_id: hid, line: 'echo still-here' });
  assert.equal(st.output, 'still-here');
  // Progress over HTTP: the call is answered as a stream that carries it.
  const progress = [];
  await h2.callTool({ name: 'run', arguments: { session_id: hid, line: 'sleep 2.5' } }, undefined, { onprogress: (p) => progress.push(p) });
  assert.ok(progress.length >= 2, `progress over HTTP: ${JSON.stringify(progress)}`);
  await h.close();
});

test('keys: aliases work, misspelt names are errors naming the accepted forms; a lone surrogate is answered', { timeout: 60_000 }, async (t) => {
  const client = await stdioClient(t);
  const call = caller(client);
  const id = (await call('session_start', { command: BASH })).session_id;
  for (const bad of ['Cmd+C', 'Enterr', 'NoSuchKey-X', 'hello', 'Escape ']) {
    const r = await client.callTool({ name: 'keys', arguments: { session_id: id, keys: ['x', bad] } });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, new RegExp(`'${bad.replace('+', '\\+')}' is not a key name.*C-c.*send`));
    assert.ok(!(await call('screen', { session_id: id })).lines.join('\n').includes(`x${bad.trim()}`), `nothing was typed for ${bad}`);
  }
  // The interrupt goes to a running sleep: sent before bash has started it, it would
  // cut bash's own line reading, and bash drops typeahead with it (as for a person).
  await call('send', { session_id: id, data: 'sleep 30\r' });
  await call('wait_idle', { session_id: id, idle_ms: 300 });
  await call('keys', { session_id: id, keys: ['ctrl-c'] });
  assert.equal((await call('run', { session_id: id, line: 'echo ok' })).output, 'ok');
  // xdotool's and Playwright's names: Return, Escape, BackSpace.
  await call('send', { session_id: id, data: 'echo xdotoolZ' });
  await call('keys', { session_id: id, keys: ['BackSpace', 'Return'] });
  await call('expect', { session_id: id, pattern: '(?m)^xdotool$', screen_wide: true, timeout_ms: 5000 });
  // Half an emoji: the SDK sends "\ud83d" as JSON; the call is answered.
  const half = '😀'.slice(0, 1);
  const s = await call('send', { session_id: id, data: `echo a${half}b\r`, });
  assert.equal(s.state === 'ready' || s.state === 'running', true);
  const m = await call('expect', { session_id: id, pattern: 'a\uFFFDb', screen_wide: true, timeout_ms: 5000 });
  assert.equal(m.match, 'a\uFFFDb');
});

test('read pages the rendered output by cursor; progress notifications for long calls; screen styles; resize; record', { timeout: 60_000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuidriver-agent-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const client = await stdioClient(t);
  const call = caller(client);
  const id = (await call('session_start', { command: BASH })).session_id;
  await call('read', { session_id: id });
  await call('send', { session_id: id, data: 'seq 1 3000\r' });
  await call('wait_idle', { session_id: id, idle_ms: 300 });
  const rows = [];
  let r = await call('read', { session_id: id, max_chars: 2000 });
  for (let pages = 1; r.has_more; pages++) {
    assert.ok(r.output.length <= 2000);
    rows.push(...r.output.split('\n'));
    r = await call('read', { session_id: id, cursor: r.next_cursor, max_chars: 2000 });
    assert.ok(pages < 50);
  }
  rows.push(...r.output.split('\n'));
  const numbers = rows.filter((x) => /^\d+$/.test(x));
  assert.deepEqual(numbers, Array.from({ length: 3000 }, (_, i) => String(i + 1)));
  assert.doesNotMatch(rows.join('\n'), /\x1b/);

  const progress = [];
  await client.callTool({ name: 'run', arguments: { session_id: id, line: 'sleep 2.5' } }, undefined, { onprogress: (p) => progress.push(p) });
  assert.ok(progress.length >= 2, `progress: ${JSON.stringify(progress)}`);

  await call('run', { session_id: id, line: "printf '\\033[31mred\\033[0m\\n'" });
  const scr = await call('screen', { session_id: id, styles: true });
  const row = scr.lines.findIndex((l) => l === 'red');
  assert.deepEqual(scr.styles[row], [{ col: 0, len: 3, fg: '1' }]);
  assert.deepEqual([(await call('resize', { session_id: id, cols: 50, rows: 20 })).cols, (await call('run', { session_id: id, line: 'tput cols' })).output], [50, '50']);
  const cast = path.join(dir, 'a.cast');
  await call('record', { session_id: id, path: cast });
  await call('run', { session_id: id, line: 'echo recorded-line' });
  await call('record', { session_id: id, stop: true });
  assert.match(fs.readFileSync(cast, 'utf8'), /recorded-line/);
  // An existing file is refused unless overwrite; a relative path is the program's cwd's.
  const again = await client.callTool({ name: 'record', arguments: { session_id: id, path: cast } });
  assert.equal(again.isError, true);
  assert.match(again.content[0].text, /exists; give overwrite: true/);
  assert.match(fs.readFileSync(cast, 'utf8'), /recorded-line/, 'the file is untouched');
  assert.equal((await call('record', { session_id: id, path: cast, overwrite: true })).recording, true);
  await call('record', { session_id: id, stop: true });
  await call('run', { session_id: id, line: `cd ${dir}` });
  assert.equal((await call('record', { session_id: id, path: 'rel.cast' })).path, path.join(dir, 'rel.cast'));
  await call('record', { session_id: id, stop: true });
  assert.ok(fs.existsSync(path.join(dir, 'rel.cast')));
  const { tools } = await client.listTools();
  assert.equal(tools.find((x) => x.name === 'record').annotations.destructiveHint, true);
  assert.equal(tools.find((x) => x.name === 'read').annotations.readOnlyHint, false, 'read moves the shared cursor');

  // An exited program: run and resize say so.
  await call('send', { session_id: id, data: 'exit\r' });
  for (let i = 0; (await call('status', { session_id: id })).state !== 'exited'; i++) {
    assert.ok(i < 100, 'bash exits');
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const [name, args] of [['run', { line: 'echo x' }], ['resize', { cols: 60, rows: 20 }]]) {
    const r = await client.callTool({ name, arguments: { session_id: id, ...args } });
    assert.equal(r.isError, true, `${name} on an exited session`);
    assert.match(r.content[0].text, /exited.*start a new session/);
  }
});

test('send then expect at once never matches the echo of the line just sent (100 tries)', { timeout: 180_000 }, async (t) => {
  const call = caller(await stdioClient(t));
  const id = (await call('session_start', { command: BASH })).session_id;
  for (let i = 0; i < 100; i++) {
    // The echo shows tok<i>-$((6*7)), the output tok<i>-42: the pattern fits both.
    await call('send', { session_id: id, data: `echo tok${i}-$((6*7))\r` });
    const m = await call('expect', { session_id: id, pattern: `tok${i}-(\\S+)`, timeout_ms: 10_000 });
    assert.equal(m.groups[0], '42', `try ${i}: matched ${m.match}`);
  }
});

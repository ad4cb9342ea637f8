// Asks against the real binary and the python and bash engines.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Session } from 'tuidriver';
import { ROOT, rejectsWith, tempDir } from './helpers';

// Prints 0, 1, 2 with pauses, so the reply arrives in parts.
const SLOW_COUNT = 'exec("import time\\nfor i in range(3): print(i, flush=True); time.sleep(0.3)")';
const SLEEP = 'import time; time.sleep(30)';

test('python: ask, queued asks in order, askStream in parts', { timeout: 60_000 }, async () => {
  const s = await Session.spawn('python', { cols: 100, rows: 30 });
  try {
    assert.equal(s.engine, 'python');
    assert.ok(s.pid > 0);
    assert.equal(await s.ask('6*7'), '42');

    // Concurrent asks are queued, not rejected, and answer in call order.
    const replies = await Promise.all(['1+1', 'print("a\\nb")', '"x"*3'].map((p) => s.ask(p)));
    assert.deepEqual(replies, ['2', 'a\nb', "'xxx'"]);

    const deltas: string[] = [];
    const gen = s.askStream(SLOW_COUNT);
    let r = await gen.next();
    while (!r.done) {
      deltas.push(r.value);
      r = await gen.next();
    }
    assert.equal(r.value, '0\n1\n2');
    assert.ok(deltas.length > 1, `expected several deltas, got ${JSON.stringify(deltas)}`);
    assert.equal(deltas.join(''), r.value);

    // askTurn with onChunk streams the same way and still resolves with the whole turn.
    const parts: string[] = [];
    const turn = await s.askTurn(SLOW_COUNT, { onChunk: (d) => parts.push(d) });
    assert.equal(turn.text, '0\n1\n2');
    assert.equal(turn.markdown, null);
    assert.ok(parts.length > 1, `expected several deltas, got ${JSON.stringify(parts)}`);
    assert.equal(parts.join(''), turn.text);

    const st = await s.status();
    assert.equal(st.state, 'ready');
    assert.equal(st.engine, 'python');
    assert.equal(st.cols, 100);
    assert.equal(st.cliVersion, null); // python's engine names no npm package
    assert.deepEqual(st.warnings, []);
  } finally {
    await s.close();
  }
});

test('python: AbortSignal cancels through the protocol; timeouts; the session stays usable', { timeout: 60_000 }, async () => {
  const s = await Session.spawn('python');
  try {
    const ac = new AbortController();
    const p = s.ask(SLEEP, { signal: ac.signal });
    // Abort once the ask is running (its prompt was typed), not while it is queued.
    await s.expect('time\\.sleep\\(30\\)');
    ac.abort();
    const err = await rejectsWith(p, 'cancelled');
    assert.match(err.message, /cancelled/);

    // An already aborted signal never sends the ask.
    await rejectsWith(s.ask('1/0', { signal: AbortSignal.abort() }), 'cancelled');

    const t = await rejectsWith(s.ask(SLEEP, { timeoutMs: 500 }), 'timeout');
    assert.equal(typeof t.text, 'string');

    // A queued ask behind a cancelled one still runs.
    const ac2 = new AbortController();
    const first = s.ask(SLEEP, { signal: ac2.signal });
    const second = s.ask('2**10');
    setTimeout(() => ac2.abort(), 300);
    await rejectsWith(first, 'cancelled');
    assert.equal(await second, '1024');

    // A failing program reply is still a reply.
    assert.match(await s.ask('1/0'), /ZeroDivisionError/);
  } finally {
    await s.close();
  }
});

test('python: breaking out of askStream cancels the ask', { timeout: 60_000 }, async () => {
  const s = await Session.spawn('python');
  try {
    const seen: string[] = [];
    for await (const d of s.askStream('exec("import time\\nfor i in range(1000): print(i, flush=True); time.sleep(0.05)")')) {
      seen.push(d);
      if (seen.join('').includes('\n1')) break;
    }
    assert.match(seen.join(''), /^0\n1(\n\d+)*$/);
    // The loop was interrupted: the next ask gets its own answer, not leftover numbers.
    assert.equal(await s.ask('6*7'), '42');

    // An aborted stream throws cancelled out of the loop.
    const ac = new AbortController();
    await rejectsWith((async () => {
      for await (const d of s.askStream(SLOW_COUNT.replace('range(3)', 'range(100)'), { signal: ac.signal })) {
        if (d.startsWith('0')) ac.abort();
      }
    })(), 'cancelled');
    assert.equal(await s.ask('7*6'), '42');
  } finally {
    await s.close();
  }
});

test('bash: ask, the rest of the protocol, output events', { timeout: 60_000 }, async () => {
  const s = await Session.spawn('bash', { cols: 90, rows: 25, env: { ...process.env, SHIM_TEST_VAR: 'from-env' } });
  try {
    assert.equal(await s.ask('echo $SHIM_TEST_VAR'), 'from-env');
    assert.equal(await s.ask('printf "one\\ntwo\\n"'), 'one\ntwo');

    let out = '';
    const sub = s.onOutput((d) => { out += d; });
    await s.send('echo sent-$((40+2))\r');
    await s.expect(/^sent-42$/m, { timeoutMs: 10_000 });
    await s.waitIdle({ idleMs: 100 });
    assert.match(out, /sent-42/);
    sub.dispose();

    await s.keys(['echo keyed', 'Space', 'word', 'Enter']);
    const m = await s.expect('keyed (\\w+)');
    assert.deepEqual(m.groups, ['word']);

    await s.sendSecret('echo secret-$((1+1))\r');
    await s.expect('secret-2');

    const pasted = await s.paste('echo pasted');
    assert.equal(typeof pasted.bracketed, 'boolean');
    await s.keys('Enter');
    await s.expect('^pasted$|\\npasted');

    assert.deepEqual(await s.resize(70, 20), { cols: 70, rows: 20 });
    const scr = await s.screen();
    assert.equal(scr.cols, 70);
    assert.equal(scr.rows, 20);
    assert.equal(scr.lines.length, 20);
    assert.equal(scr.altScreen, false);
    assert.ok(scr.lines.some((l) => l === 'sent-42'));

    const hist = await s.scrollback({ lines: 200 });
    assert.ok(hist.includes('from-env'));

    assert.equal(await s.signal('INT'), 'SIGINT');
    await rejectsWith(s.expect('never-printed', { timeoutMs: 200 }), 'timeout');
    await rejectsWith(s.expect('(unclosed', { timeoutMs: 200 }), 'protocol');
    assert.equal(await s.ask('echo still-here'), 'still-here');

    const st = await s.status();
    assert.equal(st.cols, 70);
    assert.equal(st.exitCode, null);
  } finally {
    await s.close();
  }
});

test('engineFile, mode and scrollback options reach the daemon', { timeout: 30_000 }, async (t) => {
  const file = path.join(tempDir(t), 'my-bash.json');
  fs.copyFileSync(path.join(ROOT, 'engines', 'bash.json'), file);
  const s = await Session.spawn('my-bash', { engineFile: file, mode: 'agent', scrollback: 5 });
  try {
    const st = await s.status();
    assert.equal(st.engine, 'my-bash');
    assert.equal(st.mode, 'agent');
    await s.send('seq 1 100\r');
    await s.expect(/^100$/m);
    const hist = await s.scrollback();
    assert.ok(hist.length <= 5 + st.rows, `only 5 lines of history are kept, got ${hist.length} lines`);
    assert.ok(hist.includes('100') && !hist.includes('50'));
  } finally {
    await s.close();
  }
});

test('extraEnv reaches the program over the engine\'s env; COLORTERM says truecolor', { timeout: 30_000 }, async () => {
  const s = await Session.spawn('bash', { extraEnv: { TERM_PROGRAM: 'vscode', PAGER: 'less -R' } });
  try {
    assert.equal(await s.ask('echo "$TERM_PROGRAM|$PAGER|$COLORTERM"'), 'vscode|less -R|truecolor');
  } finally {
    await s.close();
  }
});

test('scrollbackRows({ wrapped: true }) tells a wrapped line and the cursor row; resize follows a row through a re-wrap', { timeout: 30_000 }, async () => {
  const s = await Session.spawnCommand(['bash', '--norc', '--noprofile'], { cols: 40, rows: 10 });
  try {
    await s.send(`printf '%s\\n' ${'a'.repeat(50)} end\r`);
    await s.expect(/^end$/m, { timeoutMs: 10_000 });
    await s.waitIdle({ idleMs: 200 });
    const r = await s.scrollbackRows({ wrapped: true });
    const at = r.lines.indexOf('a'.repeat(40));
    assert.ok(at > 0, JSON.stringify(r.lines));
    assert.deepEqual([r.wrapped?.[at], r.wrapped?.[at + 1], r.lines[at + 1], r.lines[at + 2]], [true, false, 'a'.repeat(10), 'end']);
    assert.equal(r.cursorRow, r.firstRow + r.lines.length - 1, 'the cursor is on the prompt, the last row');
    assert.equal(r.altScreen, false);
    // At 20 columns the command line and the 50 a's take more rows: "end" moves down.
    const endRow = r.firstRow + at + 2;
    const moved = await s.resize(20, 10, { followRow: endRow });
    const after = await s.scrollbackRows();
    assert.ok(moved.followRow! > endRow, `${moved.followRow} after ${endRow}`);
    assert.equal(after.lines[moved.followRow! - after.firstRow], 'end');
  } finally {
    await s.close();
  }
});

// The shim subscribes with the base64 encoding: the bytes come exactly, and a
// character the program writes in two parts, in two events, arrives whole.
test('output events: a character split across events arrives whole; the exit comes after the last', { timeout: 30_000 }, async () => {
  const s = await Session.spawnCommand(['sh', '-c', 'read x; printf "\\342\\204"; sleep 0.3; printf "\\242 done\\n"; printf "\\377"']);
  let out = '';
  const chunks: string[] = [];
  try {
    s.onOutput((d) => { out += d; chunks.push(d); });
    await s.subscribe();
    await s.send('go\n');
    const exit = await new Promise((resolve) => s.onExit(resolve));
    assert.deepEqual(exit, { exitCode: 0, signal: null });
    assert.equal(out, 'go\r\n\u2122 done\r\n\ufffd');
    assert.ok(chunks.length >= 2, `the two parts came in separate events: ${JSON.stringify(chunks)}`);
  } finally {
    await s.close();
  }
});

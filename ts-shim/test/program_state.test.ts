// What a program does, as the daemon judges it (status().programState, the programState
// event), and paint(), the one function that draws a mirror's snapshot.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Session, paint, type ProgramStateEvent, type SessionStatus } from 'tuidriver';
import { tempDir } from './helpers';

async function until(what: string, f: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('run: the output without the echo or the prompt, a [y/N] answered by the next run, a cancel', { timeout: 60_000 }, async (t) => {
  const s = await Session.spawnCommand(['bash', '--norc', '--noprofile'], { cols: 40, env: { ...process.env, PS1: '$ ' } });
  t.after(() => s.close());
  assert.deepEqual(await s.run('ls /nope'), {
    output: "ls: cannot access '/nope': No such file or directory", programState: 'ready', question: null, running: false,
  });
  const asked = await s.run("read -p 'Delete? [y/N] ' a; echo got $a");
  assert.deepEqual([asked.programState, asked.question], ['needs_input', 'Delete? [y/N]']);
  assert.equal((await s.run('n')).output, 'got n');
  const late = await s.run('sleep 1; echo late', { timeoutMs: 300 });
  assert.deepEqual([late.running, late.programState], [true, 'running']);
  const aborted = new AbortController();
  const long = s.run('sleep 30', { signal: aborted.signal, timeoutMs: 60_000 });
  setTimeout(() => aborted.abort(), 1500);
  await assert.rejects(long, (e: Error & { kind?: string }) => e.kind === 'cancelled');
  assert.equal((await s.run('echo after')).output, 'after');
});

test('raw python: ready at its prompt, needs_input with the question, running, fullscreen; each change heard once', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'numbers.txt');
  fs.writeFileSync(file, Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  const env = { ...process.env, TERM: 'xterm-256color', LESS: '', LESSHISTFILE: '-' };
  const s = await Session.spawnCommand(['python3', '-q'], { cols: 80, rows: 20, env });
  t.after(() => s.close());
  const heard: ProgramStateEvent[] = [];
  s.on('programState', (e) => heard.push(e));
  let st: SessionStatus | undefined;
  await until('the prompt', async () => (st = await s.status()).programState === 'ready');
  assert.equal(st?.question, null);
  await until('the ready event', () => heard.some((e) => e.state === 'ready'));

  await s.send('name = input("Name? ")\r');
  await until('the question', async () => (st = await s.status()).programState === 'needs_input');
  assert.equal(st?.question, 'Name?');
  await until('the needs_input event', () => heard.some((e) => e.state === 'needs_input'));
  assert.deepEqual(heard.filter((e) => e.state === 'needs_input'), [{ state: 'needs_input', question: 'Name?' }]);

  await s.send('bob\r');
  await until('ready again', async () => (await s.status()).programState === 'ready');
  await s.send('import time; time.sleep(3)\r');
  await until('running', async () => (await s.status()).programState === 'running');
  await until('the running event', () => heard.some((e) => e.state === 'running'));
  await until('ready after the sleep', async () => (await s.status()).programState === 'ready');

  await s.send(`import subprocess; subprocess.run(["less", ${JSON.stringify(file)}])\r`);
  await s.expect('(?m)^line 19$', { timeoutMs: 10_000 });
  await until('fullscreen', async () => (st = await s.status()).programState === 'fullscreen');
  assert.equal(st?.question, null);
  await until('the fullscreen event', () => heard.some((e) => e.state === 'fullscreen'));
  await s.keys('q');
  await until('ready after less', async () => (await s.status()).programState === 'ready');
  const states = heard.map((e) => e.state);
  for (let i = 1; i < heard.length; i++) assert.notDeepEqual(heard[i], heard[i - 1], `a change heard twice: ${states}`);
  assert.deepEqual([...new Set(states)].sort(), ['fullscreen', 'needs_input', 'ready', 'running']);
});

test('paint: the history scrolled just off the screen, then the screen and the cursor', () => {
  const screen = { lines: ['$ ls', 'a'], cursor: { row: 1, col: 1, visible: true }, cols: 10, rows: 2, altScreen: false, title: '' };
  assert.equal(paint(screen), '\x1b[H\x1b[2J$ ls\r\na\x1b[2;2H\x1b[?25h');
  assert.equal(paint({ ...screen, history: ['old'] }), 'old\r\n\r\n\x1b[H\x1b[2J$ ls\r\na\x1b[2;2H\x1b[?25h');
  assert.equal(paint({ ...screen, altScreen: true, cursor: { row: 0, col: 0, visible: false } }), '\x1b[?1049h\x1b[H\x1b[2J$ ls\r\na\x1b[1;1H\x1b[?25l');
});

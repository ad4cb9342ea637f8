// Full-screen programs in raw sessions (less, vim), and the VS Code pseudoterminal adapter.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Session, toPseudoterminal, type ExitInfo, type MirrorSnapshot } from 'tuidriver';
import { tempDir } from './helpers';

const ENV = { ...process.env, TERM: 'xterm-256color', LESS: '', LESSHISTFILE: '-' };

test('less: screen and keys', { timeout: 30_000 }, async (t) => {
  const file = path.join(tempDir(t), 'numbers.txt');
  fs.writeFileSync(file, Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  const s = await Session.spawnCommand(['less', file], { cols: 60, rows: 20, env: ENV });
  try {
    await s.expect(/^line 19$/m, { timeoutMs: 10_000 });
    let scr = await s.screen();
    assert.equal(scr.altScreen, true);
    assert.equal(scr.lines[0], 'line 1');
    assert.equal(scr.lines[18], 'line 19');

    await s.keys('G'); // to the end
    await s.expect('line 200');
    scr = await s.screen();
    assert.equal(scr.lines[18], 'line 200');

    await s.keys(['g', '/line 150', 'Enter']);
    await s.expect('(?m)^line 150$');
    scr = await s.screen();
    assert.equal(scr.lines[0], 'line 150');

    await s.resize(40, 10);
    await s.expect('(?m)^line 158$'); // less redraws 9 lines at the new height
    const exited = new Promise<ExitInfo>((r) => s.onExit(r));
    await s.keys('q');
    assert.deepEqual(await exited, { exitCode: 0, signal: null });
  } finally {
    await s.close();
  }
});

test('vim: type, save, quit', { timeout: 30_000 }, async (t) => {
  const file = path.join(tempDir(t), 'note.txt');
  const s = await Session.spawnCommand(['vim', '-u', 'NONE', '-i', 'NONE', '-N', '-n', file], { cols: 80, rows: 24, env: ENV });
  try {
    await s.expect('"note.txt"|note\\.txt', { timeoutMs: 10_000 });
    await s.keys(['i', 'hello from tuidriver', 'Enter', 'second line', 'Escape']);
    await s.expect('(?m)^second line$');
    const scr = await s.screen();
    assert.equal(scr.lines[0], 'hello from tuidriver');
    assert.equal(scr.lines[1], 'second line');
    assert.equal(scr.lines[2], '~');
    const exited = new Promise<ExitInfo>((r) => s.onExit(r));
    await s.keys([':wq', 'Enter']);
    assert.deepEqual(await exited, { exitCode: 0, signal: null });
    assert.equal(fs.readFileSync(file, 'utf8'), 'hello from tuidriver\nsecond line\n');
  } finally {
    await s.close();
  }
});

test('toPseudoterminal: paints the screen, streams output, forwards input and size, closes', { timeout: 30_000 }, async () => {
  const s = await Session.spawn('bash', { cols: 80, rows: 24 });
  try {
    await s.send('echo before-open\r');
    await s.expect('(?m)^before-open$');
    const pty = toPseudoterminal(s);
    let written = '';
    const closed = new Promise<number | void>((r) => pty.onDidClose(r));
    const sub = pty.onDidWrite((d) => { written += d; });
    pty.open({ columns: 100, rows: 30 });
    // The first write paints what was on screen before open (bash's redraw for the new size comes after).
    await until(() => written.includes('before-open'));
    assert.ok(written.startsWith('\x1b[H\x1b[2J'), JSON.stringify(written.slice(0, 20)));

    pty.handleInput('echo typed-$((6*7))\r');
    await until(() => written.includes('typed-42'));
    assert.equal((await s.status()).cols, 100);
    pty.setDimensions({ columns: 90, rows: 20 });
    await until(async () => (await s.status()).cols === 90);

    // The session still answers asks while mirrored, and the panel sees them.
    assert.equal(await s.ask('echo asked'), 'asked');
    await until(() => written.includes('asked'));
    sub.dispose();

    await s.send('exit 5\r');
    assert.equal(await closed, 5);
    assert.deepEqual(await s.close(), { exitCode: 5, signal: null });
  } finally {
    await s.close();  // when an assertion failed: a live daemon would keep this test file's process running
  }
});

test('session.toPseudoterminal(), the method of earlier releases, is the same function', { timeout: 30_000 }, async () => {
  const s = await Session.spawn('python');
  try {
    const pty = s.toPseudoterminal({ closeSession: false });
    assert.equal(pty.constructor, toPseudoterminal(s).constructor);
  } finally {
    await s.close();
  }
});

test('toPseudoterminal: closing the panel closes the session', { timeout: 30_000 }, async () => {
  const s = await Session.spawn('bash');
  const pty = toPseudoterminal(s);
  pty.open(undefined);
  const exited = new Promise<ExitInfo>((r) => s.onExit(r));
  pty.close();
  assert.deepEqual(await exited, { exitCode: 0, signal: null });
  assert.equal(s.exited, true);
});

async function until(cond: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 20));
}

test('mirror with history: the lines above the screen, then the screen, then live output', { timeout: 30_000 }, async () => {
  const s = await Session.spawnCommand(['bash', '--norc', '--noprofile', '-c', 'seq 1 60; read -r x; echo "got $x"; sleep 30'], { cols: 40, rows: 10 });
  try {
    await s.expect(/^60$/m, { timeoutMs: 10_000 });
    let snapshot: MirrorSnapshot | null = null;
    let live = '';
    const m = s.mirror((scr) => { snapshot = scr; }, (d) => { live += d; }, { history: true });
    await m.ready;
    const snap = snapshot as unknown as MirrorSnapshot;
    assert.ok(Array.isArray(snap.history), 'nothing was printed between the two replies');
    const rows = snap.lines.slice();
    while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
    assert.deepEqual([...snap.history!, ...rows], Array.from({ length: 60 }, (_, i) => String(i + 1)));
    assert.equal(snap.history!.length, 51);
    await s.send('x\r');
    await s.expect('got x');
    assert.match(live, /got x/);
    assert.ok(!live.includes('60'), 'live output starts after the snapshot');
    m.dispose();
  } finally {
    await s.close();
  }
});

test('mirror: the snapshot comes before any chunk, even when output follows the screen reply at once', { timeout: 30_000 }, async () => {
  // 50 lines every 0.2 ms: the screen reply and the next output often share one read.
  const ticker = 'import sys, time\nwhile True:\n    sys.stdout.write("tick\\n" * 50); sys.stdout.flush(); time.sleep(0.0002)';
  const s = await Session.spawnCommand(['python3', '-c', ticker], { cols: 40, rows: 10 });
  try {
    await s.expect('tick', { timeoutMs: 10_000 });
    for (let i = 0; i < 30; i++) {
      const order: string[] = [];
      const m = s.mirror(() => order.push('snapshot'), () => order.push('chunk'));
      await m.ready;
      await until(() => order.includes('chunk'));
      m.dispose();
      assert.equal(order[0], 'snapshot', `mirror ${i}: ${order.slice(0, 3).join(', ')}`);
    }
  } finally {
    await s.close();
  }
});

test('screen({ styles: true }): the styled runs of each row', { timeout: 30_000 }, async () => {
  const s = await Session.spawnCommand(
    ['sh', '-c', "printf 'plain \\033[1;31mred\\033[0m \\033[7;48;5;21mrev\\033[38;2;1;2;3mrgb\\033[m'; exec sleep 60"],
    { cols: 30, rows: 3 });
  try {
    await s.expect('rgb');
    const plain = await s.screen();
    assert.equal('styles' in plain, false);
    const scr = await s.screen({ styles: true });
    assert.deepEqual(scr.lines, plain.lines);
    assert.deepEqual(scr.styles, [
      [{ col: 6, len: 3, fg: 1, bold: true },
        { col: 10, len: 3, bg: 21, reverse: true },
        { col: 13, len: 3, fg: '#010203', bg: 21, reverse: true }],
      [], [],
    ]);
  } finally {
    await s.close();
  }
});

test('record(): an asciicast v2 file, a secret as a marker only', { timeout: 30_000 }, async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'run.cast');
  const again = path.join(dir, 'again.cast');
  const s = await Session.spawnCommand(['cat'], { cols: 40, rows: 5, record: file });
  try {
    await s.send('shown\r');
    await s.sendSecret('hidden\r');
    await s.expect(/hidden\r?\n.*hidden/s);
    await s.record({ stop: true });
    await s.record({ path: again });
    await s.send('more\r');
    await s.expect(/more\r?\n.*more/s);
  } finally {
    await s.close();
  }
  const read = (f: string) => fs.readFileSync(f, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
  const [header, ...events] = read(file);
  assert.equal(header.version, 2);
  assert.equal(header.width, 40);
  assert.equal(header.height, 5);
  assert.deepEqual(events.filter((e) => e[1] !== 'o').map((e) => e.slice(1)), [['i', 'shown\r'], ['m', '[secret]']]);
  assert.deepEqual(read(again).slice(1).filter((e) => e[1] === 'i').map((e) => e[2]), ['more\r']);
});

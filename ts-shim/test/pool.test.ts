// SessionPool: warm sessions of one engine, against the real binary.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { SessionPool, TuiDriverError } from 'tuidriver';
import { rejectsWith, tempDir } from './helpers';

/** The pids of the tuidriver daemons this test process started and that still run. */
function daemonPids(): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  } catch {
    return [];  // ps exits 1 when no process matches
  }
  return out.split('\n').map((l) => l.trim().split(/\s+/)).filter((f) => f[1] === 'tuidriver').map((f) => Number(f[0]));
}

async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('pool: acquire gives ready, distinct sessions and keeps the pool full', { timeout: 60_000 }, async () => {
  const pool = new SessionPool('python', { size: 2, cols: 80, rows: 24 });
  try {
    assert.equal(pool.size, 2);
    const a = await pool.acquire();
    const b = await pool.acquire();
    assert.notEqual(a.pid, b.pid);
    assert.equal(pool.available, 2, 'each acquire starts a replacement');
    // Each is an ordinary session: it answers, and the two share no state.
    await a.ask('x = 1');
    assert.equal(await a.ask('x'), '1');
    assert.match(await b.ask('x'), /NameError: name 'x' is not defined/);
    assert.equal((await a.screen()).cols, 80, 'spawn options reach the sessions');
    await a.close();
    await b.close();
  } finally {
    await pool.close();
  }
});

test('pool: a warm session whose daemon died is skipped, not handed out', { timeout: 60_000 }, async () => {
  const pool = new SessionPool('python', { size: 1 });
  try {
    await until(() => daemonPids().length === 1, 'the warm daemon');
    const [warm] = daemonPids();
    // Killed while it waits in the pool (whether or not its prompt showed yet).
    process.kill(warm!, 'SIGKILL');
    const s = await pool.acquire();
    try {
      assert.notEqual(s.daemonPid, warm);
      assert.equal(s.exited, false);
      assert.equal(await s.ask('6*7'), '42');
    } finally {
      await s.close();
    }
  } finally {
    await pool.close();
  }
});

test('pool: a program that always dies at start: acquire fails after a bounded number of starts', { timeout: 60_000 }, async (t) => {
  const engineFile = path.join(tempDir(t), 'dies.json');
  fs.writeFileSync(engineFile, JSON.stringify({ command: ['sh', '-c', 'exit 3'], prompt: { pattern: '\\$ $' } }));
  const pool = new SessionPool('dies', { size: 2, engineFile });
  await rejectsWith(pool.acquire(), 'exited');
  await pool.close();
  await until(() => daemonPids().length === 0, 'no daemon left');
});

test('pool: a start that fails is reported by acquire, and not retried in a loop', { timeout: 60_000 }, async () => {
  const early: unknown[] = [];
  const pool = new SessionPool('no-such-engine', { size: 2, onStartError: (err) => early.push(err) });
  await until(() => early.length === 2, 'onStartError for each warm start, before any acquire');
  assert.ok(early.every((err) => err instanceof TuiDriverError && err.kind === 'engine' && /no-such-engine/.test(err.message)));
  const e = await rejectsWith(pool.acquire(), 'engine');
  assert.match(e.message, /no-such-engine/);
  await pool.close();
  // Three starts at most (two warm, one replacement), all ended.
  await until(() => daemonPids().length === 0, 'no daemon left');
});

test('pool: close ends the warm sessions, keeps the taken ones, and later acquires are cancelled', { timeout: 60_000 }, async () => {
  const pool = new SessionPool('python', { size: 2 });
  const taken = await pool.acquire();
  await pool.close();
  assert.equal(pool.available, 0);
  await until(() => daemonPids().length === 1, 'only the taken session left');
  assert.equal(await taken.ask('1+1'), '2');
  await rejectsWith(pool.acquire(), 'cancelled');
  await taken.close();
  await until(() => daemonPids().length === 0, 'no daemon left');
});

test('pool: a size that is not a whole number of at least 1 is refused', () => {
  for (const size of [0, -1, 1.5, NaN]) {
    assert.throws(() => new SessionPool('python', { size }), (e: unknown) => e instanceof TuiDriverError && /size must be/.test(e.message));
  }
  assert.equal(daemonPids().length, 0, 'a refused pool starts nothing');
});

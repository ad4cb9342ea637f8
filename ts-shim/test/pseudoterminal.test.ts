// toPseudoterminal and the program's exit: nothing of the program stays running (no daemon
// left behind), and calls still get their answers. Real daemons, real python; processes are
// looked up in /proc.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { Session, toPseudoterminal, type ScreenState } from 'tuidriver';
import { rejectsWith } from './helpers';

test('toPseudoterminal: exit() typed in the panel ends the daemon, three times over, and os._exit(3) too', { timeout: 60_000 }, async () => {
  const ended: number[] = [];
  for (const [line, code] of [['exit()', 0], ['exit()', 0], ['exit()', 0], ['import os; os._exit(3)', 3]] as const) {
    const s = await Session.spawn('python');
    const pty = toPseudoterminal(s);
    const closed = new Promise<number | void>((r) => pty.onDidClose(r));
    pty.open({ columns: 100, rows: 30 });
    assert.equal(await s.ask('6*7'), '42');
    pty.handleInput(`${line}\r`);
    assert.equal(await closed, code);
    await waitFor(() => !alive(s.daemonPid), `the daemon of '${line}' (pid ${s.daemonPid}) is still alive`);
    assert.equal(alive(s.pid), false, 'the program outlived its daemon');
    // Later calls get the exited error, and close() still says how the program ended.
    await rejectsWith(s.screen(), 'exited');
    await rejectsWith(s.ask('1'), 'exited');
    assert.deepEqual(await s.close(), { exitCode: code, signal: null });
    ended.push(s.daemonPid);
  }
  assert.deepEqual(daemonsOf(process.pid), [], 'a tuidriver daemon of this process is still running');
  assert.equal(ended.length, 4);
});

test('toPseudoterminal: calls waiting at the exit, and those made in an exit listener, get their answers first', { timeout: 60_000 }, async () => {
  const s = await Session.spawn('python');
  const pty = toPseudoterminal(s);
  pty.open(undefined);
  await s.ask('print("ready")');
  const waiting = s.expect('never-printed', { timeoutMs: 60_000 });
  let final: Promise<ScreenState> | undefined;
  s.on('exit', () => { final = s.screen(); });
  // The ask's own code ends the interpreter.
  const e = await rejectsWith(s.ask('import os; os._exit(3)'), 'exited');
  assert.ok(e.reply, `the daemon answered the ask (not its death): ${e.message}`);
  const w = await rejectsWith(waiting, 'exited');
  assert.ok(w.reply, `the daemon answered the expect: ${w.message}`);
  assert.ok(final, 'the exit event came');
  assert.match((await final).lines.join('\n'), /ready/);
  await waitFor(() => !alive(s.daemonPid), `the daemon (pid ${s.daemonPid}) is still alive`);
  assert.deepEqual(s.exitInfo, { exitCode: 3, signal: null });
});

test('closeSession: false keeps the daemon after the exit, so the final screen can still be read', { timeout: 30_000 }, async () => {
  const s = await Session.spawn('python');
  try {
    const pty = toPseudoterminal(s, { closeSession: false });
    const closed = new Promise<number | void>((r) => pty.onDidClose(r));
    pty.open(undefined);
    await s.ask('print("still-here")');
    pty.handleInput('exit()\r');
    assert.equal(await closed, 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(alive(s.daemonPid), true);
    assert.match((await s.screen()).lines.join('\n'), /still-here/);
  } finally {
    assert.deepEqual(await s.close(), { exitCode: 0, signal: null });
  }
  assert.equal(alive(s.daemonPid), false);
});

test('session.closeOnExit() after the exit closes at once', { timeout: 30_000 }, async () => {
  const s = await Session.spawnCommand(['sh', '-c', 'exit 4']);
  await waitFor(() => s.exitInfo !== null, 'no exit event');
  assert.equal(alive(s.daemonPid), true);
  s.closeOnExit();
  await waitFor(() => !alive(s.daemonPid), `the daemon (pid ${s.daemonPid}) is still alive`);
  assert.deepEqual(await s.close(), { exitCode: 4, signal: null });
});

/** True while `pid` is a process that has not been reaped or is not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The live `tuidriver` processes whose parent is `ppid`. */
function daemonsOf(ppid: number): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;  // gone meanwhile
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (comm === 'tuidriver' && Number(parent) === ppid && state !== 'Z') found.push(Number(name));
  }
  return found;
}

async function waitFor(cond: () => boolean, why: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(why);
    await new Promise((r) => setTimeout(r, 20));
  }
}

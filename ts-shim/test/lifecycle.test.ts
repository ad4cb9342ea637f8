// Starting, closing, disposing, crashing, and finding the binary.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Session, TuiDriverError, findBinary, platformKey, type ExitInfo } from 'tuidriver';
import { ROOT, rejectsWith, tempDir } from './helpers';

const BUNDLED = path.join(ROOT, 'bin', platformKey(), 'tuidriver');
// The checkout links its own platform package (package-lock.json); npm run build fills it.
const PLATFORM_PACKAGE = path.join(ROOT, 'npm', `tuidriver-${platformKey()}`, 'bin', 'tuidriver');

test('the bundled binary is fully static: no program interpreter, no shared library (readelf)', () => {
  assert.ok(fs.existsSync(BUNDLED), `${BUNDLED} is missing: run npm run build`);
  const out = execFileSync('readelf', ['-lW', '-d', BUNDLED], { encoding: 'utf8' });
  assert.doesNotMatch(out, /INTERP/, 'the binary asks for a loader');
  assert.doesNotMatch(out, /\(NEEDED\)/, 'the binary needs shared libraries');
  assert.match(out, /There is no dynamic section/);
});

test('binary lookup: the platform package first, explicit settings win, errors name the place', () => {
  assert.equal(findBinary({ env: {} }), PLATFORM_PACKAGE);
  assert.ok(fs.readFileSync(PLATFORM_PACKAGE).equals(fs.readFileSync(BUNDLED)), 'npm run build put the same binary in both');
  assert.equal(findBinary({ binaryPath: BUNDLED, env: {} }), BUNDLED);
  assert.equal(findBinary({ env: { TUIDRIVER_BIN: BUNDLED } }), BUNDLED);
  assert.throws(() => findBinary({ binaryPath: '/nonexistent/tuidriver' }),
    (e: unknown) => e instanceof TuiDriverError && e.kind === 'spawn' && e.message.includes('/nonexistent/tuidriver'));
  assert.throws(() => findBinary({ env: { TUIDRIVER_BIN: '/etc' } }),
    (e: unknown) => e instanceof TuiDriverError && /TUIDRIVER_BIN=\/etc: not a file/.test(e.message));
});

test('a missing binary: spawn fails listing every place looked', async (t) => {
  // A copy of dist/ without bin/ beside it, run with a PATH that holds no tuidriver.
  const dir = tempDir(t);
  fs.cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
  const emptyDir = path.join(dir, 'empty');
  fs.mkdirSync(emptyDir);
  const script = `
    const { Session } = require(${JSON.stringify(path.join(dir, 'dist', 'index.js'))});
    Session.spawn('python').then(() => console.log('spawned?!'), (e) => console.log(JSON.stringify({ kind: e.kind, message: e.message })));`;
  const out = execFileSync(process.execPath, ['-e', script], { env: { PATH: emptyDir }, encoding: 'utf8' });
  const { kind, message } = JSON.parse(out) as { kind: string; message: string };
  assert.equal(kind, 'spawn');
  assert.match(message, /binaryPath option: not set/);
  assert.match(message, /TUIDRIVER_BIN: not set/);
  assert.ok(message.includes(`tuidriver-${platformKey()} (platform package): not installed`), message);
  assert.ok(message.includes(path.join(dir, 'bin', platformKey(), 'tuidriver')), message);
  assert.ok(message.includes(path.join(emptyDir, 'tuidriver') + ' (PATH): not found'), message);

  await rejectsWith(Session.spawn('python', { binaryPath: path.join(emptyDir, 'tuidriver') }), 'spawn');
});

test('startup errors: unknown engine, bad option, program that cannot start, ready timeout', { timeout: 30_000 }, async (t) => {
  const e = await rejectsWith(Session.spawn('no-such-engine'), 'engine');
  assert.match(e.message, /unknown engine 'no-such-engine'/);
  assert.match(e.stderr, /unknown engine/);
  await rejectsWith(Session.spawn('python', { cols: 1 }), 'spawn');
  await rejectsWith(Session.spawnCommand(['/nonexistent/program']), 'spawn');
  await rejectsWith(Session.spawn('python', { cwd: '/nonexistent/dir' }), 'spawn');
  // A program that never shows the engine's prompt: not_ready (there is no session to stay
  // usable, as `timeout` would promise), whether the shim's limit or the engine's ran out.
  const t0 = Date.now();
  await rejectsWith(Session.spawn('bash', { extraArgs: ['-c', 'sleep 60'], readyTimeoutMs: 300 }), 'not_ready');
  assert.ok(Date.now() - t0 < 20_000);
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'mute.json'), JSON.stringify({ command: ['sleep', '60'], prompt: '^\\$ $', timeouts: { ready_ms: 300 } }));
  const mute = await rejectsWith(Session.spawn('mute', { engineFile: path.join(dir, 'mute.json') }), 'not_ready');
  assert.match(mute.message, /not ready|prompt/);
  // A program that exits before its prompt: the error says how, and shows its last words.
  const x = await rejectsWith(Session.spawn('bash', { extraArgs: ['-c', 'echo no tty for me; exit 5'] }), 'exited');
  assert.match(x.message, /exited before it showed its prompt: the program exited with code 5/);
  assert.match(x.stderr, /\| no tty for me/);
});

test('close resolves with the exit, cancelling asks; later calls reject with exited', { timeout: 30_000 }, async () => {
  const s = await Session.spawn('bash');
  const exits: ExitInfo[] = [];
  s.on('exit', (i) => exits.push(i));
  const running = rejectsWith(s.ask('sleep 30'), 'cancelled');
  const queued = rejectsWith(s.ask('echo never'), 'cancelled');
  await s.expect('sleep 30');
  const info = await s.close();
  // The quit keys wait until bash is back at its prompt after the interrupt, so it exits by
  // itself, with the status of the interrupted `sleep` (128 + SIGINT).
  assert.deepEqual(info, { exitCode: 130, signal: null });
  assert.deepEqual(exits, [info]);
  await running;
  await queued;
  assert.deepEqual(await s.close(), info); // idempotent
  assert.equal(s.exited, true);
  await rejectsWith(s.ask('echo late'), 'exited');
  await rejectsWith(s.screen(), 'exited');
});

test('a program that exits on its own: exit event, exited errors, close still works', { timeout: 30_000 }, async () => {
  const s = await Session.spawnCommand(['sh', '-c', 'read line; exit 3']);
  assert.equal(s.engine, null);
  const exited = new Promise<ExitInfo>((r) => s.onExit(r));
  await s.send('go\r');
  assert.deepEqual(await exited, { exitCode: 3, signal: null });
  await rejectsWith(s.send('x'), 'exited');
  await rejectsWith(s.ask('x'), 'error'); // a raw session cannot ask
  assert.deepEqual(await s.close(), { exitCode: 3, signal: null });
});

test('Symbol.asyncDispose (await using) closes the session', { timeout: 30_000 }, async () => {
  let outer: Session | undefined;
  {
    await using s = await Session.spawn('bash');
    outer = s;
    assert.equal(await s.ask('echo in-scope'), 'in-scope');
  }
  assert.equal(outer.exited, true);
  assert.deepEqual(outer.exitInfo, { exitCode: 0, signal: null });
});

test('when the daemon dies, every pending call rejects at once', { timeout: 30_000 }, async () => {
  const s = await Session.spawn('python');
  const pending = [
    s.ask('import time; time.sleep(30)'),
    s.ask('1+1'),
    s.expect('never-printed', { timeoutMs: 60_000 }),
    (async () => { for await (const _ of s.askStream('2+2')) { /* queued */ } })(),
  ].map((p) => rejectsWith(p, 'exited'));
  const exit = new Promise<ExitInfo>((r) => s.on('exit', r));
  await s.expect('time\\.sleep\\(30\\)');
  process.kill(s.daemonPid, 'SIGKILL');
  for (const e of await Promise.all(pending)) {
    assert.match(e.message, /daemon exited \(killed by SIGKILL\)/);
  }
  assert.deepEqual(await exit, { exitCode: null, signal: 'SIGKILL' });
  await rejectsWith(s.status(), 'exited');
  assert.deepEqual(await s.close(), { exitCode: null, signal: 'SIGKILL' });
  // The program did not outlive its daemon.
  await waitFor(() => !alive(s.pid));
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}

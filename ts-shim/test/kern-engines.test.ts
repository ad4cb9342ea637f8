// tuidriver/kern-engines used the way a kern-engines user uses its client: the seed's own
// interface (PtyCliSession, ClaudeCliSession, askClaudeOnce, PtySessionError and its four
// kinds), against the real binary with python, bash, a scripted Claude TUI for each reply
// marker, and the genuine Claude Code CLI against the loopback fake API (tests/e2e).
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import {
  ClaudeCliSession, ClaudeSessionError, ClaudeSessionTimeout, PtyCliSession, PtySessionError, askClaudeOnce,
  type PtySessionErrorKind,
} from 'tuidriver/kern-engines';
import { TuiDriverError, type TuiDriverErrorKind } from 'tuidriver';
import { ROOT, tempDir } from './helpers';

/** Asserts that `p` rejects with a PtySessionError of `kind` (and tuidriver's `tuidriverKind`). */
async function rejectsWith(p: Promise<unknown>, kind: PtySessionErrorKind, tuidriverKind: TuiDriverErrorKind): Promise<PtySessionError> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof PtySessionError)) throw new Error(`expected a PtySessionError (${kind}), got ${String(e)}`);
    assert.equal(e.kind, kind, `kind of: ${e.message}`);
    assert.equal(e.tuidriverKind, tuidriverKind, `tuidriverKind of: ${e.message}`);
    return e;
  }
  throw new Error(`expected a rejection with kind ${kind}, but it resolved`);
}

async function collect(gen: AsyncGenerator<string, string, void>): Promise<{ deltas: string[]; text: string }> {
  const deltas: string[] = [];
  for (;;) {
    const r = await gen.next();
    if (r.done) return { deltas, text: r.value };
    deltas.push(r.value);
  }
}

const SLOW_COUNT = 'import time\nfor i in range(3):\n    print(i, flush=True)\n    time.sleep(0.3)';

test('kern-engines: python asks; a 5000-character line at --cols 8000 comes back whole', { timeout: 90_000 }, async () => {
  // The seed's sizes are accepted and clamped to the daemon's 1000; pythonBin is ignored.
  const s = await PtyCliSession.spawn('python', { cols: 8000, rows: 2000, pythonBin: '/no/such/python3' });
  try {
    assert.equal(s.id, 'python');
    const st = await s.session.status();
    assert.deepEqual([st.cols, st.rows], [1000, 1000]);
    assert.equal(await s.ask('6*7'), '42');
    assert.equal(await s.ask('print("x" * 5000)'), 'x'.repeat(5000));
    const wide = '漢'.repeat(2999) + 'end';  // 6001 columns: wraps six times at 1000
    assert.equal(await s.ask(`print("漢" * 2999 + "end")`), wide);
    assert.equal(await s.ask('print("a\\nb")\n"done"'), "a\nb\n'done'");
  } finally {
    await s.close();
  }
});

test('kern-engines: askStream yields deltas and returns the whole text; leaving early cancels', { timeout: 60_000 }, async () => {
  const s = await PtyCliSession.spawn('python');
  try {
    const { deltas, text } = await collect(s.askStream(SLOW_COUNT, 30_000));
    assert.equal(text, '0\n1\n2');
    assert.ok(deltas.length > 1, `expected several deltas, got ${JSON.stringify(deltas)}`);
    assert.equal(deltas.join(''), text);

    // A for-await loop left at the first delta: the ask is cancelled, and the next one answers.
    for await (const d of s.askStream('import time\nfor i in range(100):\n    print(i, flush=True)\n    time.sleep(0.2)')) {
      assert.equal(d, '0');
      break;
    }
    assert.equal(await s.ask('1+1'), '2');
  } finally {
    await s.close();
  }
});

test('kern-engines: bash asks; one ask at a time; a timeout leaves the session usable', { timeout: 60_000 }, async () => {
  const s = await PtyCliSession.spawn('bash', { cols: 80, rows: 24 });
  try {
    assert.equal(await s.ask('echo hello'), 'hello');
    assert.equal(await s.ask('for i in 1 2; do\n  echo "n=$i"\ndone'), 'n=1\nn=2');

    // As in the seed, a second ask while one runs is refused (tuidriver itself would queue it).
    const first = s.ask('sleep 0.5; echo first');
    const busy = await rejectsWith(s.ask('echo second'), 'engine', 'busy');
    assert.match(busy.message, /busy/);
    assert.equal(await first, 'first');
    const stream = s.askStream('sleep 0.5; echo streamed');
    const started = stream.next();  // the stream holds its ask from its first pull
    await rejectsWith(s.ask('echo third'), 'engine', 'busy');
    assert.deepEqual(await started, { done: false, value: 'streamed' });
    assert.equal((await collect(stream)).text, 'streamed');

    const t = await rejectsWith(s.ask('sleep 30', 500), 'timeout', 'timeout');
    assert.ok(t instanceof Error && t.cause instanceof TuiDriverError, 'the TuiDriverError is the cause');
    assert.equal(await s.ask('echo after'), 'after');
  } finally {
    await s.close();
  }
});

test('kern-engines: close; asks after close; a program that exits early', { timeout: 60_000 }, async (t) => {
  const s = await PtyCliSession.spawn('bash');
  const daemon = s.session.daemonPid;
  await s.close();
  await s.close();  // twice is fine
  assert.throws(() => process.kill(daemon, 0), 'the daemon is gone');
  await rejectsWith(s.ask('echo x'), 'engine', 'exited');
  await rejectsWith(collect(s.askStream('echo x')), 'engine', 'exited');

  // The program ends in the middle of the session: that ask, and every later one.
  const b = await PtyCliSession.spawn('bash');
  try {
    await rejectsWith(b.ask('exit 3'), 'engine', 'exited');
    await rejectsWith(b.ask('echo x'), 'engine', 'exited');
    const exit = b.session.exitInfo ?? await new Promise((r) => b.session.once('exit', r));
    assert.deepEqual(exit, { exitCode: 3, signal: null });
  } finally {
    await b.close();
  }

  // The program ends before it is ready.
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'quitter.json'), JSON.stringify({ command: ['sh', '-c', 'echo bye; exit 3'], prompt: '^\\$ $' }));
  const early = await rejectsWith(PtyCliSession.spawn('quitter', { env: { TUIDRIVER_ENGINES: dir } }), 'engine', 'exited');
  assert.ok(early.cause instanceof TuiDriverError);
});

test('kern-engines: an unknown engine, no binary, a start that times out', { timeout: 60_000 }, async () => {
  const unknown = await rejectsWith(PtyCliSession.spawn('no-such-engine'), 'engine', 'engine');
  assert.match(unknown.message, /no-such-engine/);
  await rejectsWith(PtyCliSession.spawn('python', { env: { TUIDRIVER_BIN: '/no/such/tuidriver' } }), 'spawn', 'spawn');
  await rejectsWith(PtyCliSession.spawn('bash', { cols: 1 }), 'spawn', 'spawn');  // the daemon's own usage error
  await rejectsWith(PtyCliSession.spawn('python', { daemonTimeoutMs: 1 }), 'timeout', 'not_ready');
  // The error class is the seed's, under both its names.
  assert.equal(ClaudeSessionError, PtySessionError);
  const e = new PtySessionError('protocol', 'made by hand');
  assert.deepEqual([e.kind, e.tuidriverKind, e.name, e.message], ['protocol', 'protocol', 'PtySessionError', 'made by hand']);
});

// --- Claude: a scripted TUI for each reply marker, then the genuine CLI ---

/** What a parent Claude Code session leaves in its children's environment (engines/claude.json strips it). */
const LEAKED = {
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: '11111111-2222-4333-8444-555555555555',
  CLAUDE_CODE_CHILD_SESSION: '1',
  CLAUDE_CODE_SESSION_ATTENDED: '1',
  CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS: '11111111-2222-4333-8444-555555555555',
  CLAUDE_PID: '4242',
  CLAUDE_EFFORT: 'high',
  CLAUDE_TOOL_RESULT_FD: '9',
};

/** The seed's launch arguments for Claude, passed as extraArgv. */
const SEED_CLAUDE_ARGS = [
  '--allowedTools', 'Bash Edit Read Write MultiEdit Glob Grep TodoWrite WebFetch WebSearch Task NotebookEdit',
  '--setting-sources', 'project,local',
];

function fakeClaudeEnv(dir: string, marker: string): Record<string, string> {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'ts-shim', 'test', 'fake_claude.py'), path.join(bin, 'claude'));
  // CLAUDE_CONFIG_DIR is the user's own setting, not a leak: it must reach the CLI.
  return { ...LEAKED, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: dir, FAKE_CLAUDE_MARKER: marker, CLAUDE_CONFIG_DIR: path.join(dir, 'cfg') };
}

for (const marker of ['⏺', '●']) {
  test(`kern-engines: Claude replies marked ${marker} (scripted TUI); leaked variables stripped; launch arguments`, { timeout: 60_000 }, async (t) => {
    const dir = tempDir(t);
    const env = fakeClaudeEnv(dir, marker);
    const s = await ClaudeCliSession.spawn({ env, cwd: dir, extraArgv: SEED_CLAUDE_ARGS });
    try {
      const st = await s.session.status();
      assert.deepEqual([st.cols, st.rows], [1000, 1000], "the seed's 8000 x 2000, clamped");
      assert.equal(await s.ask('hello there'), 'You said: hello there');
      assert.equal(await s.ask('two\nlines'), 'You said: two\nlines');
      // The user's CLAUDE_CONFIG_DIR passes, and the engine sets its own; no leak is left.
      assert.equal(await s.ask('env'), 'CLAUDE_CODE_DISABLE_ALTERNATE_SCREEN, CLAUDE_CONFIG_DIR');
      assert.equal(await s.ask('args'), SEED_CLAUDE_ARGS.join('\n'));
      const { deltas, text } = await collect(s.askStream('streamed'));
      assert.equal(text, 'You said: streamed');
      assert.equal(deltas.join(''), text);
    } finally {
      await s.close();
    }
    assert.equal(await askClaudeOnce('once', { env, cwd: dir }), 'You said: once');
    // The start times out (the engine waits 300 ms for the screen to settle): a ClaudeSessionTimeout.
    const late = await rejectsWith(ClaudeCliSession.spawn({ env, cwd: dir, daemonTimeoutMs: 100 }), 'timeout', 'not_ready');
    assert.ok(late instanceof ClaudeSessionTimeout);
  });
}

const E2E = path.join(ROOT, 'tests', 'e2e');
const CLAUDE_CLI = path.join(E2E, 'node_modules', '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude');
const FAKE_KEY = 'sk-ant-fake-0123456789abcdefghijklmnopqrstuvwxyz';

/** tests/e2e/fake_api.mjs on a free port. */
async function startFakeApi(t: { after(fn: () => void): void }): Promise<{ port: number; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [path.join(E2E, 'fake_api.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => proc.kill());
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`fake_api.mjs exited (${code})`)));
  });
  return { port: (JSON.parse(line) as { port: number }).port, proc };
}

/** A fresh home that has finished onboarding and trusts `cwd`, as tests/e2e/homes.py writes it. */
function claudeHome(dir: string, cwd: string, port: number): Record<string, string> {
  const home = path.join(dir, 'home');
  const bin = path.join(home, 'bin');
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  fs.mkdirSync(bin);
  fs.symlinkSync(CLAUDE_CLI, path.join(bin, 'claude'));
  fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify({
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: [FAKE_KEY.slice(-20)], rejected: [] },
    projects: { [fs.realpathSync(cwd)]: { hasTrustDialogAccepted: true } },
  }));
  return {
    HOME: home,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    ANTHROPIC_API_KEY: FAKE_KEY,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    NO_UPDATE_NOTIFIER: '1',
  };
}

/** The fake API with `replies` queued, and a fresh directory with a project folder in it. */
async function fakeApiWithReplies(t: { after(fn: () => void): void }, replies: unknown[]): Promise<{ port: number; dir: string; cwd: string }> {
  assert.ok(fs.existsSync(CLAUDE_CLI), `${CLAUDE_CLI} is missing: run (cd tests/e2e && npm ci --ignore-scripts) (scripts/test.sh does)`);
  const api = await startFakeApi(t);
  const dir = tempDir(t);
  const cwd = path.join(dir, 'project');
  fs.mkdirSync(cwd);
  const res = await fetch(`http://127.0.0.1:${api.port}/_control/replies`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ replies }),
  });
  assert.equal(res.status, 200);
  return { port: api.port, dir, cwd };
}

test('kern-engines: the genuine Claude Code CLI (● replies) against the fake API; long and tall replies whole; nothing leaked', { timeout: 180_000 }, async (t) => {
  const paragraph = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');  // 2289 columns: Claude wraps it
  const token = 'https://example.com/' + 'p'.repeat(1480);  // one word longer than the 1000-column row
  // 1199 rows: taller than the clamped 1000-row screen (the seed's 2000 rows held it).
  const tall = Array.from({ length: 600 }, (_, i) => `line ${i} of a tall reply`).join('\n\n');
  const replies = [{ text: 'Hello from the fake model.' }, { text: paragraph }, { text: `see ${token} and more` }, { text: tall }];
  const { port, dir, cwd } = await fakeApiWithReplies(t, replies);

  const s = await ClaudeCliSession.spawn({ cwd, env: { ...claudeHome(dir, cwd, port), ...LEAKED } });
  try {
    // The CLI's own environment has none of the parent's session variables.
    const environ = fs.readFileSync(`/proc/${s.session.pid}/environ`, 'utf8').split('\0').map((kv) => kv.split('=')[0]);
    for (const name of Object.keys(LEAKED)) assert.ok(!environ.includes(name), `${name} reached the CLI`);
    assert.ok(environ.includes('ANTHROPIC_BASE_URL'));

    assert.equal(await s.ask('hi'), 'Hello from the fake model.');
    const { deltas, text } = await collect(s.askStream('a long paragraph please', 60_000));
    assert.equal(text, paragraph);
    assert.equal(deltas.join(''), text);
    assert.equal(await s.ask('a long link please', 60_000), `see ${token} and more`);
    assert.equal(await s.ask('a tall reply please', 60_000), tall);
  } finally {
    await s.close();
  }
});

// Issue 22, item 1: a kern-engines user sees only `text`, and real turns nearly
// all call tools: the answer after a tool call is the reply, also when it is
// taller than the screen.
test('kern-engines: the genuine Claude Code CLI: the answer after a tool call, short and tall', { timeout: 180_000 }, async (t) => {
  const tool = { tool_call: { name: 'Bash', input: { command: 'echo tdtool-42', description: 'Run it' } } };
  const tall = Array.from({ length: 60 }, (_, i) => `row ${i} of the answer after the tool`).join('\n\n');
  const { port, dir, cwd } = await fakeApiWithReplies(t, [tool, { text: 'tool said: tdtool-42' }, tool, { text: tall }]);
  const s = await ClaudeCliSession.spawn({ cwd, env: claudeHome(dir, cwd, port), rows: 40 });
  try {
    assert.equal(await s.ask('run the tool', 60_000), 'tool said: tdtool-42');
    assert.equal(await s.ask('run the tool, then answer at length', 60_000), tall);
  } finally {
    await s.close();
  }
});

// Issue 22, item 3: the daemon refuses fields a request's type does not have, so the
// shim (and through it kern-engines and tuidriver-server, which send nothing of their own)
// must never send one. Every request the shim can send goes through a recording wrapper
// around the real binary; each line's fields are compared with `tuidriver --list-fields`.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Session } from 'tuidriver';
import { PtyCliSession } from 'tuidriver/kern-engines';
import { ROOT, tempDir } from './helpers';

const DAEMON = path.join(ROOT, 'build', 'tuidriver');

/** A wrapper that logs every request line to `log`, then hands it to the real daemon. */
function recordingWrapper(dir: string, log: string): string {
  const file = path.join(dir, 'tuidriver');
  fs.writeFileSync(file, `#!/usr/bin/env python3
import subprocess, sys
child = subprocess.Popen([${JSON.stringify(DAEMON)}] + sys.argv[1:], stdin=subprocess.PIPE)
with open(${JSON.stringify(log)}, "ab") as log:
    for line in sys.stdin.buffer:
        log.write(line); log.flush()
        child.stdin.write(line); child.stdin.flush()
child.stdin.close()
sys.exit(child.wait())
`, { mode: 0o755 });
  return file;
}

/** The request types the shim's source can send: every `type: '…'` in a request literal. */
function typesInShimSource(): Set<string> {
  const src = fs.readFileSync(path.join(ROOT, 'ts-shim', 'src', 'session.ts'), 'utf8');
  const types = new Set([...src.matchAll(/(?:this\.(?:call|request)\(|'path' in opts \? )\{ type: '(\w+)'/g)].map((m) => m[1]!));
  for (const m of src.matchAll(/askRequest\('(\w+)'/g)) types.add(m[1]!);
  return types;
}

test('the shim and kern-engines send only fields the daemon knows (tuidriver --list-fields)', { timeout: 120_000 }, async (t) => {
  const known = JSON.parse(execFileSync(DAEMON, ['--list-fields'], { encoding: 'utf8' })) as Record<string, string[]>;
  const dir = tempDir(t);
  const log = path.join(dir, 'requests.ndjson');
  const bin = recordingWrapper(dir, log);

  const s = await Session.spawn('bash', { binaryPath: bin, cwd: dir });
  try {
    assert.equal(await s.ask('echo one', { timeoutMs: 20_000 }), 'one');
    await s.askTurn('echo two', { timeoutMs: 20_000, onInput: () => 1 });
    for await (const _ of s.askStream('echo three', { timeoutMs: 20_000 })) { /* drained */ }
    const aborted = new AbortController();
    const slow = s.ask('sleep 5', { signal: aborted.signal }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    aborted.abort();
    await slow;
    await s.answer(999, 1).catch(() => undefined);  // no such ask: refused, but sent
    await s.answer(999, 'text').catch(() => undefined);
    await s.send('echo sent\r');
    await s.sendSecret('\r');
    await s.keys(['C-u']);
    await s.paste('x');
    await s.keys('C-u');
    await s.resize(90, 30);
    await s.resize(90, 30, { followRow: 0 });
    await s.screen();
    await s.screen({ styles: true });
    await s.record({ path: path.join(dir, 'rec.cast') });
    await s.record({ stop: true });
    await s.scrollback();
    await s.scrollback({ lines: 5 });
    await s.scrollbackRows({ lines: 5, wrapped: true });
    await s.expect(/^one$/m, { timeoutMs: 10_000 });
    await s.expect('one', {});
    await s.waitIdle({ idleMs: 50, timeoutMs: 10_000 });
    await s.waitIdle();
    await s.signal('SIGWINCH');
    await s.status();
    await assert.rejects(s.history(), (e: Error & { kind?: string }) => e.kind === 'history');  // bash keeps no transcript
    await s.subscribe();
  } finally {
    await s.close();
  }
  const raw = await Session.spawnCommand(['bash', '--norc', '--noprofile'], { binaryPath: bin, cwd: dir });
  try {
    assert.equal((await raw.run('echo raw', { timeoutMs: 10_000, idleMs: 200 })).output, 'raw');
    await raw.run('echo default');
  } finally {
    await raw.close();
  }
  const k = await PtyCliSession.spawn('bash', { cwd: dir, env: { TUIDRIVER_BIN: bin } });
  try {
    assert.equal(await k.ask('echo four'), 'four');
    for await (const _ of k.askStream('echo five')) { /* drained */ }
  } finally {
    await k.close();
  }

  const sent = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const seen = new Set<string>();
  for (const req of sent) {
    const type = String(req.type);
    seen.add(type);
    assert.ok(known[type], `the shim sent a type the daemon does not know: ${JSON.stringify(req)}`);
    for (const field of Object.keys(req)) {
      assert.ok(known[type]!.includes(field), `the shim sent '${field}' in ${JSON.stringify(req)}; the daemon knows ${known[type]!.join(', ')}`);
    }
  }
  // Issue 29, point 5: every duration on the wire is in ms (`timeout` in seconds is only the older spelling).
  assert.ok(sent.every((req) => !('timeout' in req)), 'a request carried timeout (seconds) instead of timeout_ms');
  const limits = sent.filter((req) => 'timeout_ms' in req).map((req) => `${String(req.type)} ${String(req.timeout_ms)}`);
  for (const want of ['ask 20000', 'ask_stream 20000', 'expect 10000', 'wait_idle 10000', 'run 10000']) assert.ok(limits.includes(want), `${want} not in ${limits.join(', ')}`);
  // Every type the shim's source can send was exercised above (a new method needs a line here).
  for (const type of typesInShimSource()) assert.ok(seen.has(type), `no request of type '${type}' was exercised`);
  assert.ok(seen.size >= 15, [...seen].join(' '));
  // tuidriver-server drives daemons only through the shim's methods.
  for (const file of fs.readdirSync(path.join(ROOT, 'server', 'src'))) {
    const src = fs.readFileSync(path.join(ROOT, 'server', 'src', file), 'utf8');
    assert.doesNotMatch(src, /stdin\.write|\.request\(\{/, `${file} writes to a daemon itself`);
  }
});

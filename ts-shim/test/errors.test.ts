// Issue 29, point 1: the shim's TuiDriverErrorKind lists every error kind the daemon
// sends (`tuidriver --list-error-kinds`, error_kind.h), and passes each through as
// itself instead of turning it into a plain 'error'.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Session } from 'tuidriver';
import { ROOT, rejectsWith, tempDir } from './helpers';

const DAEMON = path.join(ROOT, 'build', 'tuidriver');

/** The members of `export type TuiDriverErrorKind = | 'a' | 'b' …;` in errors.ts. */
function kindsInShimSource(): string[] {
  const src = fs.readFileSync(path.join(ROOT, 'ts-shim', 'src', 'errors.ts'), 'utf8');
  const union = /export type TuiDriverErrorKind =([^;]*);/.exec(src);
  assert.ok(union, 'errors.ts declares TuiDriverErrorKind');
  return [...union[1]!.matchAll(/'(\w+)'/g)].map((m) => m[1]!);
}

test('TuiDriverErrorKind lists exactly the kinds the daemon sends (tuidriver --list-error-kinds)', () => {
  const daemon = execFileSync(DAEMON, ['--list-error-kinds'], { encoding: 'utf8' }).trim().split('\n');
  assert.ok(daemon.length > 10, `too few kinds from the daemon: ${daemon.join(',')}`);
  assert.deepEqual([...kindsInShimSource()].sort(), [...daemon].sort());
});

test('a daemon error kind reaches the caller as itself: record', async (t) => {
  const dir = tempDir(t);
  const s = await Session.spawnCommand(['bash', '--norc', '--noprofile'], { binaryPath: DAEMON });
  t.after(() => s.close());
  // A directory that does not exist: the daemon replies kind "record".
  const e = await rejectsWith(s.record({ path: path.join(dir, 'missing', 'x.cast') }), 'record');
  assert.match(e.message, /missing/);
});

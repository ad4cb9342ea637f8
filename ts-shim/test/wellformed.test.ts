// The shim writes well-formed strings: half an emoji (a lone UTF-16 surrogate, as
// `'😀'.slice(0, 1)` gives) goes to the daemon as U+FFFD, never as a "\ud83d" escape.
// A stand-in daemon records the request lines as they arrive.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Session } from 'tuidriver';
import { tempDir } from './helpers';

const RECORDER = `#!/usr/bin/env python3
import json, sys
log = open(sys.argv[-1], "a")
print(json.dumps({"type": "ready", "pid": 1, "engine": None}), flush=True)
for line in sys.stdin:
    log.write(line); log.flush()
    msg = json.loads(line)
    print(json.dumps({"id": msg.get("id"), "type": "reply", "ok": True}), flush=True)
`;

test('lone surrogates are sent as U+FFFD', async (t) => {
  const dir = tempDir(t);
  const bin = path.join(dir, 'fake-tuidriver');
  fs.writeFileSync(bin, RECORDER, { mode: 0o755 });
  const log = path.join(dir, 'lines.jsonl');
  // The stand-in takes the log file as its last argument: the command's argv.
  const s = await Session.spawnCommand([log], { binaryPath: bin, readyTimeoutMs: 10_000 });
  t.after(() => { s.close().catch(() => undefined); });
  const half = '😀'.slice(0, 1);
  await s.send(`a${half}b`);
  await s.keys([`x${half}`]);
  await s.sendSecret(`${half}`);
  const lines = fs.readFileSync(log, 'utf8').trim().split('\n').filter((l) => !l.includes('"subscribe"'));
  for (const line of lines) assert.doesNotMatch(line, /\\ud8[0-9a-f]{2}/i, line);
  const sent = lines.map((l) => JSON.parse(l) as { type: string; data?: string; keys?: string[] });
  assert.equal(sent.find((m) => m.type === 'send')!.data, 'a\uFFFDb');
  assert.deepEqual(sent.find((m) => m.type === 'keys')!.keys, ['x\uFFFD']);
  assert.equal(sent.find((m) => m.type === 'send_secret')!.data, '\uFFFD');
  // A whole emoji stays itself.
  await s.send('😀');
  const last = JSON.parse(fs.readFileSync(log, 'utf8').trim().split('\n').pop()!) as { data: string };
  assert.equal(last.data, '😀');
});

// askTurn, sessionId and resume: the exact turn from an agent CLI's transcript, against a
// tiny CLI that keeps a Claude-format transcript (tests/programs/transcript_cli.py).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Session } from 'tuidriver';
import { ROOT, rejectsWith, tempDir } from './helpers';

function engineFile(dir: string): string {
  const file = path.join(dir, 'fakeagent.json');
  fs.writeFileSync(file, JSON.stringify({
    command: ['python3', path.join(ROOT, 'tests', 'programs', 'transcript_cli.py')],
    prompt: { pattern: '^❯ $', scope: 'cursor_line' },
    submit: { mode: 'type' },
    reply: { start: '^● ', continuation_indent: '  ' },
    transcript: {
      format: 'claude', path: '{home}/proj/{session_id}.jsonl',
      session_args: ['--session-id', '{session_id}'], resume_args: ['--resume', '{session_id}'],
    },
  }));
  return file;
}

test('askTurn: the markdown, the tools and the session id; resume continues it', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const opts = { engineFile: engineFile(dir), env: { ...process.env, HOME: dir } };
  const s = await Session.spawn('fakeagent', opts);
  let sessionId: string;
  try {
    assert.match(s.sessionId ?? '', /^[0-9a-f-]{36}$/);
    sessionId = s.sessionId!;
    const r = await s.askTurn('hello there');
    assert.equal(r.markdown, '## You said\n\n- `hello there`');
    assert.match(r.text, /hello there/);  // the screen's rendering
    assert.deepEqual(r.turn, { sessionId, tools: [], usage: { inputTokens: 7, outputTokens: 11 }, model: 'fake-model' });
    const tool = await s.askTurn('tool: hi');
    assert.equal(tool.markdown, 'The tool said **hi**.');
    assert.deepEqual(tool.turn!.tools, [{ name: 'Bash', input: { command: 'echo hi' }, output: 'hi', ok: true }]);
    assert.equal(await s.ask('plain ask'), '## You said\n\n- `plain ask`');  // ask is unchanged
    assert.equal((await s.status()).sessionId, sessionId);
  } finally {
    await s.close();
  }
  const again = await Session.spawn('fakeagent', { ...opts, resume: sessionId });
  try {
    assert.equal(again.sessionId, sessionId);
    assert.equal((await again.askTurn('more')).turn!.sessionId, sessionId);
  } finally {
    await again.close();
  }
  // An unknown id: the CLI's own message, and the daemon ends with 3.
  const e = await rejectsWith(Session.spawn('fakeagent', { ...opts, resume: '00000000-0000-4000-8000-000000000000' }), 'exited');
  assert.match(e.stderr, /No conversation found with session ID: 00000000/);
});

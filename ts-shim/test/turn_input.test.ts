// Questions inside a turn: ask(prompt, { onInput }) and the needsInput event, against a
// small real TUI that asks mid-turn (tests/programs/asking_tui.py).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Session, type NeedsInputEvent } from 'tuidriver';
import { ROOT, rejectsWith, tempDir } from './helpers';

function engineFile(dir: string): string {
  const file = path.join(dir, 'asking.json');
  fs.writeFileSync(file, JSON.stringify({
    command: ['python3', path.join(ROOT, 'tests', 'programs', 'asking_tui.py')],
    prompt: { pattern: '^\\$ $', scope: 'cursor_line' },
    submit: { mode: 'type' },
    needs_input: ['^Proceed to production\\?', '^Your name\\?'],
    needs_input_options: { option: '^(?:❯ |  )(\\d+)\\. (.+)$', selected: '^❯' },
  }));
  return file;
}

test('onInput answers a question inside the turn; needsInput events', { timeout: 60_000 }, async (t) => {
  const s = await Session.spawn('asking', { engineFile: engineFile(tempDir(t)) });
  try {
    const events: NeedsInputEvent[] = [];
    s.on('needsInput', (e) => events.push(e));
    const seen: NeedsInputEvent[] = [];
    const reply = await s.ask('deploy', {
      onInput: async (q) => {
        seen.push(q);
        return q.options.find((o) => o.label === 'No')!.index;
      },
    });
    assert.match(reply, /chose No/);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].question, 'Proceed to production?');
    assert.deepEqual(seen[0].options.map((o) => o.label), ['Yes', 'Yes, and do not ask again', 'No']);
    assert.deepEqual(events, seen);

    assert.match(await s.ask('name', { onInput: () => 'Ada' }), /hello Ada/);

    // Without onInput the question ends the ask, as before.
    const err = await rejectsWith(s.ask('deploy'), 'needs_input');
    assert.match(err.question ?? '', /Proceed to production\?/);
  } finally {
    await s.close();
  }
});

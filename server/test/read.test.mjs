// Issue 24's `read`: output since the last read, by cursor, with paging. Every row the
// program finished comes in exactly one read's output; the line still being written (a
// prompt, a question, a partial line) is `pending` until it is finished; row numbers stay
// valid when a resize re-wraps the rows.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { caller, stdioClient } from './helpers.mjs';

const BASH = ['bash', '--norc', '--noprofile'];

/** Reads until has_more is false, `maxChars` a page; returns every page. */
async function readAll(call, id, maxChars, cursor) {
  const pages = [];
  let r = await call('read', { session_id: id, max_chars: maxChars, ...(cursor !== undefined ? { cursor } : {}) });
  pages.push(r);
  while (r.has_more) {
    assert.ok(r.output.length <= maxChars, `a page of ${r.output.length} characters`);
    r = await call('read', { session_id: id, max_chars: maxChars, cursor: r.next_cursor });
    pages.push(r);
    assert.ok(pages.length < 200);
  }
  return pages;
}

/** `s` as a terminal `w` columns wide shows it: rows of `w` characters. */
const wrap = (s, w) => Array.from({ length: Math.max(1, Math.ceil(s.length / w)) }, (_, i) => s.slice(i * w, (i + 1) * w));

const rowsOf = (pages) => pages.flatMap((p) => (p.output === '' ? [] : p.output.split('\n')));

/** The prompt row bash shows now, as the screen has it. */
async function promptOf(call, id) {
  const scr = await call('screen', { session_id: id });
  return scr.lines[scr.cursor.row];
}

/** Sends `data`, then waits until the program is quiet. */
async function type(call, id, data) {
  await call('send', { session_id: id, data });
  await call('wait_idle', { session_id: id, idle_ms: 300, timeout_ms: 10_000 });
}

test('read: each finished row once across reads; the prompt is pending until it is finished', { timeout: 60_000 }, async (t) => {
  const call = caller(await stdioClient(t));
  const id = (await call('session_start', { command: BASH })).session_id;
  const prompt = await promptOf(call, id);
  assert.match(prompt, /[$#]$/);
  const pages = [await call('read', { session_id: id })];
  for (const word of ['one', 'two', 'three']) {
    await type(call, id, `echo ${word}\r`);
    pages.push(await call('read', { session_id: id }));
  }
  assert.deepEqual(rowsOf(pages), [`${prompt} echo one`, 'one', `${prompt} echo two`, 'two', `${prompt} echo three`, 'three']);
  for (const [i, r] of pages.entries()) {
    // The prompt waits in pending (trailing blanks trimmed, as on screen), every time.
    assert.equal(r.pending, prompt);
    if (i > 0) assert.equal(r.cursor, pages[i - 1].next_cursor, 'each read goes on where the last stopped');
  }
  assert.match(pages[0].text, /unfinished, not read yet: ".*[$#]"/);
  // Nothing new: nothing again.
  const again = await call('read', { session_id: id });
  assert.equal(again.output, '');
  assert.equal(again.next_cursor, pages[pages.length - 1].next_cursor);
  // clear draws over rows already read: what it draws there is new output.
  await type(call, id, 'seq 1 40\r');
  await call('read', { session_id: id });
  await type(call, id, 'clear; echo after-clear\r');
  assert.equal((await call('read', { session_id: id })).output, 'after-clear');
  await type(call, id, 'echo next\r');
  assert.equal((await call('read', { session_id: id })).output, `${prompt} echo next\nnext`);
});

test('read: paging stops at the partial line, which comes once finished; past the end is an error', { timeout: 60_000 }, async (t) => {
  const call = caller(await stdioClient(t));
  const id = (await call('session_start', { command: BASH })).session_id;
  const prompt = await promptOf(call, id);
  const command = 'seq 1 80; printf part; read -r x; echo "end $x"';
  await type(call, id, `${command}\r`);
  const pages = await readAll(call, id, 100);
  assert.ok(pages.length >= 3, `paged: ${JSON.stringify(pages)}`);
  const waiting = pages[pages.length - 1];
  await type(call, id, 'ial\r');
  pages.push(...await readAll(call, id, 100));
  const numbers = Array.from({ length: 80 }, (_, i) => String(i + 1));
  assert.deepEqual(rowsOf(pages), [`${prompt} ${command}`, ...numbers, 'partial', 'end ial']);
  assert.equal(waiting.pending, 'part', 'the partial line waits in pending');
  assert.equal(waiting.has_more, false);
  // A cursor from an earlier read reads those rows again, as they were.
  assert.deepEqual(rowsOf(await readAll(call, id, 100, pages[1].cursor)).slice(0, 3), rowsOf([pages[1]]).slice(0, 3));
  const last = pages[pages.length - 1].next_cursor;
  await assert.rejects(call('read', { session_id: id, cursor: last + 5 }), /cursor \d+ is past the last finished row/);
});

test('read: row numbers survive resizes that re-wrap the rows (narrower, then wider)', { timeout: 90_000 }, async (t) => {
  const call = caller(await stdioClient(t));
  const id = (await call('session_start', { command: BASH, cols: 80, rows: 24 })).session_id;
  const prompt = await promptOf(call, id);
  // 120 lines of 60 characters: at 30 columns each takes two rows, so rows renumber.
  const long = (i) => `line${String(i).padStart(3, '0')}-${'x'.repeat(52)}`;
  const command = "for i in $(seq 1 120); do printf 'line%03d-%s\\n' $i $(printf 'x%.0s' $(seq 1 52)); done";
  await type(call, id, `${command}\r`);
  // On a loaded machine the loop can pause longer than type's quiet: wait for its end.
  await call('expect', { session_id: id, pattern: `line120-x{52}\\n`, screen_wide: true, timeout_ms: 60_000 });
  await call('wait_idle', { session_id: id, idle_ms: 300, timeout_ms: 10_000 });
  const before = await readAll(call, id, 2000);
  const lines = Array.from({ length: 120 }, (_, i) => long(i + 1));
  assert.deepEqual(rowsOf(before), [...wrap(`${prompt} ${command}`, 80), ...lines]);
  // A partial line longer than the terminal is wide: all its rows wait in pending.
  const partial = 'p'.repeat(100);
  const asking = `printf ${partial}; read -r x; echo "got $x"`;
  await type(call, id, `${asking}\r`);
  const waiting = await call('read', { session_id: id });
  assert.deepEqual(rowsOf([waiting]), wrap(`${prompt} ${asking}`, 80));

  await call('resize', { session_id: id, cols: 30, rows: 24 });
  await type(call, id, 'yes\r');
  await type(call, id, 'echo after-narrow\r');
  const narrow = await readAll(call, id, 2000);
  assert.deepEqual(rowsOf(narrow), [...wrap(`${partial}yes`, 30), 'got yes', ...wrap(`${prompt} echo after-narrow`, 30), 'after-narrow']);

  await call('resize', { session_id: id, cols: 100, rows: 24 });
  await type(call, id, 'echo after-wide\r');
  assert.deepEqual(rowsOf(await readAll(call, id, 2000)), [`${prompt} echo after-wide`, 'after-wide']);
  // Rows read before the resizes keep their numbers and their text.
  assert.deepEqual(rowsOf(await readAll(call, id, 2000, before[0].cursor)).slice(0, 5), rowsOf(before).slice(0, 5));
  assert.deepEqual(waiting.pending.split('\n'), wrap(partial, 80), 'all rows of the partial line waited in pending');
});

test('read: a first read after the history overflowed counts the rows it cannot give in dropped_rows', { timeout: 120_000 }, async (t) => {
  const call = caller(await stdioClient(t));
  const id = (await call('session_start', { command: BASH })).session_id;
  await call('run', { session_id: id, line: 'seq 1 30000', timeout_ms: 60_000 });
  const r = await call('read', { session_id: id, max_chars: 1_000_000 });
  assert.ok(r.dropped_rows > 0, `dropped_rows ${r.dropped_rows} from row ${r.cursor}`);
  // Every row before the first one returned is counted: none is skipped unsaid.
  assert.equal(r.dropped_rows, r.cursor);
  assert.equal(r.output.split('\n').at(-1), '30000');
});

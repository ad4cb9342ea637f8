// The pure parts: the output log, run output's rows, the cap, the session state.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { OutputLog } from '../src/output_log.mjs';
import { RowLog } from '../src/row_log.mjs';
import { capTail, echoOf, jsRegex, rowAfter, screenText, unshown } from '../src/sessions.mjs';
import { keyName, keyNames } from '../src/keys.mjs';

test('OutputLog: offsets, draining from an offset, old chunks (or the front of one, to a line start) dropped over the cap', () => {
  const log = new OutputLog(10);
  assert.equal(log.append('abcd'), 0);
  assert.equal(log.append('efgh'), 4);
  assert.deepEqual(log.all(), { data: 'abcdefgh', from: 0, truncated: false });
  assert.deepEqual(log.since(2), { data: 'cdefgh', from: 2, to: 8, dropped: 0 });
  assert.deepEqual(log.since(8), { data: '', from: 8, to: 8, dropped: 0 });
  log.append('ijkl'); // 12 > 10: 'abcd' goes
  assert.deepEqual(log.all(), { data: 'efghijkl', from: 4, truncated: true });
  assert.deepEqual(log.since(1), { data: 'efghijkl', from: 4, to: 12, dropped: 3 });
  assert.deepEqual(log.since(6), { data: 'ghijkl', from: 6, to: 12, dropped: 0 });
  log.append('x'.repeat(50)); // one chunk over the cap without a line start to cut at is kept whole
  assert.equal(log.all().data, 'x'.repeat(50));
  assert.equal(log.end, 62);
  // One large chunk of lines (as the daemon batches them), then a prompt: the last lines stay.
  log.append('row-1\nrow-2\nrow-3\n');
  log.append('$ ');
  assert.deepEqual(log.all(), { data: 'row-3\n$ ', from: 62 + 12, truncated: true });
  assert.deepEqual(log.since(70), { data: 'row-3\n$ ', from: 74, to: 82, dropped: 4 });
  const one = new OutputLog(10);
  one.append('a\nbbbb\ncccc\ndd'); // a single chunk over the cap is cut at a line start too
  assert.deepEqual(one.all(), { data: 'cccc\ndd', from: 7, truncated: true });
});

test('capTail: the tail, never half an emoji', () => {
  assert.deepEqual(capTail('abc', 5), { text: 'abc', truncated: false });
  assert.deepEqual(capTail('abcdef', 3), { text: 'def', truncated: true });
  assert.deepEqual(capTail('a😀b', 2), { text: 'b', truncated: true });
});

test('screenText: rows without the blank ones below, then the cursor', () => {
  const scr = { lines: ['$ vim', '~', '', ''], cursor: { row: 1, col: 0, visible: true }, cols: 80, rows: 4, altScreen: true, title: 'vim' };
  assert.equal(screenText(scr), '$ vim\n~\n[cursor row 1, col 0; 80x4; alternate screen; title "vim"]');
});

/** A scrollback reply with wrap flags: `lines` from `firstRow`, the cursor on `cursorRow`. */
const reply = (firstRow, lines, cursorRow, wrapped = lines.map(() => false), altScreen = false) => ({ firstRow, lines, wrapped, cursorRow, altScreen });

test('RowLog: finished rows once; the cursor\'s logical line pending; gaps from the daemon counted as dropped; the cap', () => {
  const log = new RowLog(10);
  log.take(reply(10, ['$ echo a', 'a', '$'], 12), false);
  assert.deepEqual([log.start, log.end, log.pending], [10, 12, ['$']]);
  // The cursor's line wrapped from the row above: both rows wait.
  log.take(reply(10, ['$ echo a', 'a', '$ printf xxxx', 'xx'], 13, [false, false, true, false]), false);
  assert.deepEqual([log.end, log.pending], [12, ['$ printf xxxx', 'xx']]);
  assert.deepEqual(log.read(10, 100), { rows: ['$ echo a', 'a'], dropped: 0, next: 12, more: false });
  // An editor on the alternate screen: nothing taken, nothing pending.
  log.take(reply(10, ['$ echo a', 'a', 'vim row'], 12, undefined, true), false);
  assert.deepEqual([log.end, log.pending], [12, []]);
  // The daemon dropped rows 12..14 before they were taken: numbered, not held.
  log.take(reply(15, ['b', 'c', '$'], 17), false);
  assert.deepEqual([log.start, log.end], [10, 17]);
  assert.deepEqual(log.read(12, 100), { rows: ['b', 'c'], dropped: 3, next: 17, more: false });
  // A gap after rows ends the page: its count comes with the next read.
  assert.deepEqual(log.read(11, 100), { rows: ['a'], dropped: 0, next: 12, more: true });
  // The program exited: its last line is finished too.
  log.take(reply(15, ['b', 'c', 'bye'], 17), true);
  assert.deepEqual([log.end, log.pending], [18, []]);
  assert.deepEqual(log.read(16, 4), { rows: ['c'], dropped: 0, next: 17, more: true });
  assert.deepEqual(log.read(17, 4), { rows: ['bye'], dropped: 0, next: 18, more: false });
  // Rows drawn over with other text (clear, then new output at the top) are taken again;
  // rows drawn over with the same text are not.
  const redrawn = new RowLog(10);
  redrawn.take(reply(0, ['a', 'b', 'c', '$'], 3), false);
  redrawn.take(reply(0, ['a', 'x', 'c', '$ y'], 3), false);
  assert.deepEqual(redrawn.read(0, 100).rows, ['a', 'b', 'c', 'x', 'c']);
  redrawn.take(reply(0, ['a', 'x', 'c', '$ y'], 3), false);
  assert.equal(redrawn.end, 5);
  // Over the cap the oldest rows go, counted as dropped for a reader behind them.
  const small = new RowLog(3);
  small.take(reply(0, ['1', '2', '3', '4', '5', '$'], 5), false);
  assert.deepEqual([small.start, small.end], [2, 5]);
  assert.deepEqual(small.read(0, 100), { rows: ['3', '4', '5'], dropped: 2, next: 5, more: false });
});

test('keyName: tmux names and the aliases xdotool and Playwright users type; anything else is no key', () => {
  for (const [typed, name] of [['Enter', 'Enter'], ['Return', 'Enter'], ['esc', 'Escape'], ['ESC', 'Escape'], ['Escape', 'Escape'],
    ['BackSpace', 'BSpace'], ['ArrowUp', 'Up'], ['Page_Down', 'PageDown'], ['Prior', 'PageUp'], ['KP_Enter', 'KPEnter'],
    ['C-c', 'C-c'], ['ctrl-c', 'C-c'], ['Ctrl-C', 'C-C'], ['^C', 'C-c'], ['Control+c', 'C-c'], ['ctrl+shift+c', 'C-S-c'],
    ['ctrl-shift-c', 'C-S-c'], ['Shift+ArrowLeft', 'S-Left'], ['M-x', 'M-x'], ['alt+F4', 'M-F4'], ['S-Tab', 'S-Tab'], ['a', 'a'], [':', ':'], ['é', 'é']]) {
    assert.equal(keyName(typed), name, typed);
  }
  for (const bad of ['NoSuchKey-X', 'hello', 'Enterr', 'Ctrl+Xyzzy', 'Cmd+C', 'F13', 'Escape ', '', ':wq', 'C-', 'super+a']) {
    assert.equal(keyName(bad), null, bad);
  }
  assert.deepEqual(keyNames(['Return', 'esc']), { names: ['Enter', 'Escape'] });
  assert.match(keyNames(['Enter', 'hello']).error, /^'hello' is not a key name\. Accepted: .*Return.*C-c.*Text goes through send$/);
});

test('unshown: a turn returned in parts gives each row once (the answered question row counts as shown)', () => {
  assert.equal(unshown('', 'a\nb'), 'a\nb');
  assert.equal(unshown('Delete all? [y/N]', 'Delete all? [y/N] y\ngot=y'), 'got=y');
  assert.equal(unshown('started\nYour name? ', 'started\nYour name? bob\nhi bob'), 'hi bob');
  assert.equal(unshown('other', 'a\nb'), 'a\nb');
});

test('send\'s echo: the last line typed, the row after its echo, RE2 patterns as JavaScript', () => {
  assert.equal(echoOf('echo tok-$((6*7))\r'), 'cho tok-$((6*7))'); // its last 16 characters
  assert.equal(echoOf('a\rb\r'), 'b');
  assert.equal(echoOf('\r'), '');
  assert.equal(echoOf('\x1b[A'), '');
  const r = { firstRow: 10, lines: ['$ echo aaaa', 'aaaa', '$ echo bbbbbbbb', 'bbb', 'bbbbbbbbbbb', '$'], wrapped: [false, false, true, false, false, false] };
  assert.equal(rowAfter(r, 10, 'echo aaaa'), 11);
  assert.equal(rowAfter(r, 12, 'echo bbbbbbbbbbb'), 14); // the echo wrapped over two rows
  assert.equal(rowAfter(r, 12, 'nowhere'), null);
  assert.deepEqual(jsRegex('(?m)^tok-(\\d+)$').exec('x\ntok-42').slice(1), ['42']);
  assert.equal(jsRegex('(?P<n>\\d+)').exec('a7').groups.n, '7');
  assert.equal(jsRegex('a(?i)b'), null);
  assert.equal(jsRegex('[[:alpha:]]+'), null);
});

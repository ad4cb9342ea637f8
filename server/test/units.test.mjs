// The pure parts: the output log and the text cleaning of raw run output.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { OutputLog } from '../src/output_log.mjs';
import { cleanOutput, screenText } from '../src/sessions.mjs';

test('OutputLog: offsets, draining from an offset, whole chunks dropped over the cap', () => {
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
  log.append('x'.repeat(50)); // one chunk over the cap is kept whole
  assert.equal(log.all().data, 'x'.repeat(50));
  assert.equal(log.end, 62);
});

test('cleanOutput: escapes removed, CR LF, redrawn lines, the echo dropped', () => {
  assert.equal(cleanOutput('print(1)\r\n1\r\n>>> ', 'print(1)'), '1\n>>> ');
  assert.equal(cleanOutput('\x1b[?2004l\rls\r\n\x1b[01;34mdir\x1b[0m\r\n$ ', 'ls'), 'dir\n$ ');
  assert.equal(cleanOutput('x\r\n10%\r50%\r100%\r\n', 'x'), '100%\n');
  assert.equal(cleanOutput('no echo\r\n', 'other'), 'no echo\n');
  assert.equal(cleanOutput('a\x07b\r\n', ''), 'ab\n');
});

test('screenText: rows without the blank ones below, then the cursor', () => {
  const scr = { lines: ['$ vim', '~', '', ''], cursor: { row: 1, col: 0, visible: true }, cols: 80, rows: 4, altScreen: true, title: 'vim' };
  assert.equal(screenText(scr), '$ vim\n~\n[cursor row 1, col 0; 80x4; alternate screen; title "vim"]');
});

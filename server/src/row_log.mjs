// The rows `read` hands out, kept by the server and numbered by it. The daemon numbers
// rows too, but a resize to another width re-wraps its rows and renumbers them; a cursor
// a client holds must not move under it. So each row is taken once, as the emulator
// rendered it, into this log, and read from here. Only finished rows are taken: those
// before the logical line (wrapped rows joined) the cursor is on. The cursor's line and
// any rows below it may still change (a prompt, a question, a partial line): they are
// `pending`, shown but not yet read. A taken row the program later draws over with other
// text (`clear`) is new output, taken again. Because the log's place in the daemon's rows is
// always the start of a logical line, the daemon can say exactly where it went after a
// re-wrap (resize's follow_row).

/** The tallest screen (docs/protocol.md: resize): only rows on it can be redrawn. */
const MAX_SCREEN_ROWS = 1000;

export class RowLog {
  /** @param {number} maxRows the most rows kept (older ones are dropped) */
  constructor(maxRows) {
    this.maxRows = maxRows;
    /** Rows taken, oldest first; null for a row the daemon dropped before it was taken. */
    this.rows = [];
    /** Our number of rows[0]. */
    this.start = 0;
    /** The daemon's number of the next row to take; undefined before the first take. */
    this.next = undefined;
    /** The unfinished rows at the last take. */
    this.pending = [];
    /** The text of recently taken rows by the daemon's number: a program may redraw them. */
    this.recent = new Map();
  }

  /** Our number just past the last row taken. */
  get end() {
    return this.start + this.rows.length;
  }

  /**
   * Takes the rows the program finished since the last take from a scrollback reply with
   * wrap flags (`ScrollbackRows` of the shim). `done`: the program exited, so its last
   * line is finished too. Nothing is taken while the alternate screen shows (an editor's
   * screen is not output).
   */
  take(r, done) {
    const linesEnd = r.firstRow + r.lines.length;
    if (this.next === undefined) {
      this.start = r.firstRow;
      this.next = r.firstRow;
    }
    if (r.firstRow > this.next) this.skip(r.firstRow - this.next); // gone before we took them
    if (r.altScreen) {
      // An editor's screen is no output; the history cannot grow under it.
      this.pending = [];
      return;
    }
    let limit = linesEnd;
    if (!done) {
      limit = Math.min(r.cursorRow, linesEnd);
      // Back to the start of the cursor's logical line: its earlier rows wrapped into it.
      while (limit > r.firstRow && r.wrapped[limit - 1 - r.firstRow]) limit--;
    }
    this.next = this.redrawnFrom(r, linesEnd);
    for (let row = this.next; row < limit; row++) {
      this.rows.push(r.lines[row - r.firstRow]);
      this.recent.set(row, r.lines[row - r.firstRow]);
    }
    if (limit > this.next) this.next = limit;
    this.pending = r.lines.slice(this.next - r.firstRow);
    for (const row of this.recent.keys()) if (row < this.next - MAX_SCREEN_ROWS || row < r.firstRow) this.recent.delete(row);
    this.trim();
  }

  /**
   * Where to take from: `next`, or the first taken row the program has since drawn over
   * with other text (it moved the cursor back up: `clear`, a multi-line progress display).
   * Those rows are new output and are taken again, once finished.
   */
  redrawnFrom(r, linesEnd) {
    let from = this.next;
    for (const [row, text] of this.recent) {
      if (row >= from || row < r.firstRow) continue;
      const now = row < linesEnd ? r.lines[row - r.firstRow] : '';
      if (now !== text) from = row;
    }
    return from;
  }

  /** The daemon renumbered its rows (a re-wrap); `next` is where our next row went. */
  moved(next) {
    this.next = next;
    this.recent.clear();
  }

  /** `n` rows the daemon dropped before they were taken: numbered, not held. */
  skip(n) {
    if (n >= this.maxRows) {
      this.start = this.end + n;
      this.rows = [];
    } else {
      for (let i = 0; i < n; i++) this.rows.push(null);
    }
    this.next += n;
    this.trim();
  }

  trim() {
    const over = this.rows.length - this.maxRows;
    if (over > 0) {
      this.rows.splice(0, over);
      this.start += over;
    }
  }

  /**
   * Rows from our number `from` on, up to `maxChars` (at least one row, its tail if it is
   * longer). `dropped` counts rows from `from` on that are no longer held.
   */
  read(from, maxChars) {
    let dropped = Math.max(0, this.start - from);
    let i = Math.max(from, this.start) - this.start;
    const out = [];
    let chars = 0;
    for (; i < this.rows.length; i++) {
      const row = this.rows[i];
      if (row === null) {
        if (out.length === 0) dropped++;
        else break; // a gap ends the page: its count belongs to the next read
        continue;
      }
      const cost = row.length + 1;
      if (out.length > 0 && chars + cost > maxChars) break;
      out.push(row.length > maxChars ? row.slice(-maxChars) : row);
      chars += cost;
    }
    return { rows: out, dropped, next: this.start + i, more: i < this.rows.length };
  }
}

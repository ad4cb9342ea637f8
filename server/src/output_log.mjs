// The raw output of one session, kept (bounded) so that a client that attaches
// late or reconnects can be given what it missed, and so that HTTP clients can
// drain output "since the last read". Offsets count characters from the start
// of the session; old chunks are dropped whole once the log exceeds its cap.

export class OutputLog {
  /** @param {number} maxChars the most characters kept */
  constructor(maxChars) {
    this.maxChars = maxChars;
    /** @type {string[]} */
    this.chunks = [];
    this.size = 0;
    /** Offset of the first character still held. */
    this.start = 0;
    /** Offset just past the last character appended. */
    this.end = 0;
  }

  /** Appends a chunk; returns the offset it starts at. */
  append(data) {
    const at = this.end;
    this.chunks.push(data);
    this.size += data.length;
    this.end += data.length;
    // Keep at least the newest chunk, however large.
    while (this.size > this.maxChars && this.chunks.length > 1) {
      const old = this.chunks.shift();
      this.size -= old.length;
      this.start += old.length;
    }
    return at;
  }

  /** Everything held, and whether earlier output was dropped. */
  all() {
    return { data: this.chunks.join(''), from: this.start, truncated: this.start > 0 };
  }

  /**
   * The output from `offset` on. `dropped` counts characters after `offset` that were
   * no longer held (the reader fell more than the cap behind).
   */
  since(offset) {
    const from = Math.max(offset, this.start);
    const dropped = from - Math.min(offset, from);
    let skip = from - this.start;
    const parts = [];
    for (const c of this.chunks) {
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      parts.push(skip > 0 ? c.slice(skip) : c);
      skip = 0;
    }
    return { data: parts.join(''), from, to: this.end, dropped };
  }
}

// The raw output of one session, kept (bounded) so that a client that attaches
// late or reconnects can be given what it missed, and so that HTTP clients can
// drain output "since the last read". Offsets count characters from the start
// of the session. Over the cap, old output goes: whole chunks first, then the
// front of the oldest chunk up to a line start, so a replay never begins inside
// a line (or an escape sequence) and one large chunk (the daemon batches output)
// still keeps its last lines.

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
    while (this.chunks.length > 1 && this.size - this.chunks[0].length >= this.maxChars) {
      this.dropFront(this.chunks[0].length);
    }
    if (this.size > this.maxChars) {
      const oldest = this.chunks[0];
      const lineStart = oldest.indexOf('\n', this.size - this.maxChars - 1) + 1;
      if (lineStart > 0 && lineStart < oldest.length) this.dropFront(lineStart);
      else if (this.chunks.length > 1) this.dropFront(oldest.length);
      // else: one chunk with no line start to cut at is kept whole.
    }
    return at;
  }

  /** Forgets the first `n` characters held, `n` at most the oldest chunk's length. */
  dropFront(n) {
    const oldest = this.chunks[0];
    if (n >= oldest.length) this.chunks.shift();
    else this.chunks[0] = oldest.slice(n);
    this.size -= n;
    this.start += n;
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

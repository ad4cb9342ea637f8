#include "screen_write.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "swar.h"
#include "utf8.h"

namespace tuidriver {

namespace {

// DEC special graphics (ESC ( 0), as xterm maps it: 0x5f..0x7e ('_' is a
// blank, as in xterm's charsets.c).
const char32_t kLineDrawing[32] = {
    0x0020, 0x25c6, 0x2592, 0x2409, 0x240c, 0x240d, 0x240a, 0x00b0,  // _ ` a b c d e f
    0x00b1, 0x2424, 0x240b, 0x2518, 0x2510, 0x250c, 0x2514, 0x253c,  // g h i j k l m n
    0x23ba, 0x23bb, 0x2500, 0x23bc, 0x23bd, 0x251c, 0x2524, 0x2534,  // o p q r s t u v
    0x252c, 0x2502, 0x2264, 0x2265, 0x03c0, 0x2260, 0x00a3, 0x00b7,  // w x y z { | } ~
};

// Bytes of `cp` in UTF-8.
size_t Utf8Length(char32_t cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

// The character at `p` if it is whole and valid UTF-8 (as Terminal's
// byte-at-a-time decoder judges): its code point, and its length as the
// result; 0 if it is cut by `end` or invalid.
inline size_t DecodeWhole(const unsigned char* p, const unsigned char* end, char32_t* cp) {
  unsigned char b = p[0];
  if (b < 0x80) {
    *cp = b;
    return 1;
  }
  if (b < 0xC2 || b > 0xF4) return 0;
  size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
  if (static_cast<size_t>(end - p) < n) return 0;
  char32_t v = b & (0x7F >> n);
  for (size_t i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (p[i] & 0x3F);
  }
  static const char32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < kMin[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return n;
}

// Columns of a character a run can write as it is: 1 or 2; 0 for one that
// needs WriteChar (a C1 control, a mark, a joiner).
inline int RunWidth(char32_t cp) {
  if (cp < 0x80) return 1;
  if (cp < 0xA0) return 0;  // C1
  int width = CharWidth(cp);
  return width == 1 || width == 2 ? width : 0;
}

}  // namespace

Screen::Screen(int cols, int rows, size_t scrollback_limit) : grid_(cols, rows, scrollback_limit), bottom_(rows) {
  ResetTabStops();
}

// ---- text ------------------------------------------------------------------

// The fast path: text written straight into the cursor's row, up to the
// margin or the first character that needs more (see RunWidth, DecodeWhole).
// What a character at a time would do at each cell is done once at the
// run's edges: its start may split a wide character, its end may leave a
// stray right half. One function: a call per run costs the throughput.
const unsigned char* Screen::WriteRun(const unsigned char* p, const unsigned char* end) {
  char32_t cp;
  size_t bytes = DecodeWhole(p, end, &cp);
  if (bytes == 0) return p;
  int width = RunWidth(cp);
  if (width == 0 || (wrap_next_ ? 0 : cursor_.col) + width > grid_.cols()) {
    WriteChar(cp);  // wraps or drops a wide character at the margin
    return p + bytes;
  }
  if (wrap_next_) WrapToNextLine();
  GridLine& line = grid_.Row(cursor_.row);
  int col = cursor_.col;
  if (line.cells[static_cast<size_t>(col)].kind == kWideRight) line.SplitWideAt(col);
  GridCell* cells = line.cells.data();
  const GridCell pen = pen_;  // a copy: the cells written cannot alias it
  const int cols = grid_.cols();
  char32_t last = 0;
  for (;;) {
    if (width == 1 && cp < 0x80) {
      // ASCII, most of the text: the bytes up to the margin or the next other byte.
      size_t n = std::min(static_cast<size_t>(end - p), static_cast<size_t>(cols - col));
      size_t ascii = 1 + swar::AsciiPrefix(p + 1, n - 1);
      FillAscii(cells + col, p, ascii, pen);
      last = p[ascii - 1];
      p += ascii;
      col += static_cast<int>(ascii);
    } else {
      GridCell& cell = cells[static_cast<size_t>(col)];
      cell = pen;
      cell.ch = cp;
      if (width == 2) {
        cell.kind = kWideLeft;
        cells[static_cast<size_t>(col) + 1] = pen;
        cells[static_cast<size_t>(col) + 1].kind = kWideRight;
      }
      last = 0;
      p += bytes;
      col += width;
    }
    if (col >= cols || p == end) break;
    bytes = DecodeWhole(p, end, &cp);
    if (bytes == 0) break;
    width = RunWidth(cp);
    if (width == 0 || col + width > cols) break;
  }
  line.ClearPaddingAfter(col);
  last_char_ = last;
  line.used = std::max(line.used, col);
  line.Touch(col);
  if (col >= cols) {
    cursor_.col = cols - 1;
    wrap_next_ = autowrap_;
  } else {
    cursor_.col = col;
  }
  return p;
}

// A cell is written as two words, the character in the low half of the
// first (words are little-endian, swar.h): the pen then stays in registers
// instead of being copied field by field for every character.
void Screen::FillAscii(GridCell* cells, const unsigned char* text, size_t n, const GridCell& pen) {
  static_assert(offsetof(GridCell, ch) == 0 && sizeof(GridCell::ch) == 4, "the character is the low half of word 0");
  uint64_t style[2];
  memcpy(style, &pen, sizeof style);
  style[0] &= ~uint64_t{0xFFFFFFFF};
  for (size_t i = 0; i < n; ++i) {
    uint64_t cell[2] = {style[0] | text[i], style[1]};
    memcpy(static_cast<void*>(cells + i), cell, sizeof cell);
  }
}

void Screen::WriteChar(char32_t cp) {
  if (cp >= 0x80 && cp < 0xA0) return;  // C1 controls sent as UTF-8: not text
  char32_t ascii = cp < 0x80 ? cp : 0;
  last_char_ = 0;
  if (graphics_[shift_] && cp >= 0x5f && cp <= 0x7e) cp = kLineDrawing[cp - 0x5f];
  // As tmux 3.3: a zero-width joiner joins the next character, whatever its
  // width, to the cell before (an emoji sequence takes one cell).
  if (cp == 0x200D) {
    joining_ = true;
    return;
  }
  if (joining_) {
    joining_ = false;
    AddCombining(0x200D);
    AddCombining(cp);
    return;
  }
  int width = cp < 0x80 ? 1 : CharWidth(cp);
  if (width == 0) {
    AddCombining(cp);
    return;
  }
  if (wrap_next_) WrapToNextLine();
  if (width == 2 && cursor_.col == grid_.cols() - 1) {
    if (!autowrap_ || grid_.cols() < 2) return;  // it cannot be shown
    WrapToNextLine();
  }
  if (insert_mode_) InsertCells(width);
  GridLine& line = grid_.Row(cursor_.row);
  int col = cursor_.col;
  WriteWide(&line, col, cp, width);
  last_char_ = ascii;
  if (col + width >= grid_.cols()) {
    cursor_.col = grid_.cols() - 1;
    wrap_next_ = autowrap_;
  } else {
    cursor_.col = col + width;
  }
}

// Character `cp`, `width` columns, at `col` of `line`, in the pen's style.
void Screen::WriteWide(GridLine* line, int col, char32_t cp, int width) {
  if (line->cells[static_cast<size_t>(col)].kind == kWideRight) line->SplitWideAt(col);
  line->ClearPaddingAfter(col + width);
  GridCell& cell = line->cells[static_cast<size_t>(col)];
  cell = pen_;
  cell.ch = cp;
  if (width == 2) {
    cell.kind = kWideLeft;
    GridCell& right = line->cells[static_cast<size_t>(col + 1)];
    right = pen_;
    right.kind = kWideRight;
  }
  line->used = std::max(line->used, col + width);
  line->Touch(col + width);
}

// A combining mark joins the cell before the cursor, blank or not, while
// the cell's UTF-8 stays within tmux's limit; past it, marks are dropped.
void Screen::AddCombining(char32_t cp) {
  int col = wrap_next_ ? cursor_.col : cursor_.col - 1;
  if (col < 0) return;
  GridLine& line = grid_.Row(cursor_.row);
  if (line.cells[static_cast<size_t>(col)].kind == kWideRight) {
    if (col == 0) return;
    --col;
  }
  GridCell& cell = line.cells[static_cast<size_t>(col)];
  size_t bytes = Utf8Length(cell.ch) + Utf8Length(cp);
  if (cell.marks != 0) {
    for (char32_t m : line.marks[cell.marks - 1]) bytes += Utf8Length(m);
  }
  if (bytes > kMaxClusterBytes) return;
  if (cell.marks == 0) {
    // Overwritten cells leave their marks behind: drop them now and then.
    if (line.marks.size() >= line.cells.size() * 2 + 16) line.CompactMarks();
    line.marks.emplace_back();
    cell.marks = static_cast<uint16_t>(line.marks.size());
  }
  line.marks[cell.marks - 1].push_back(cp);
  line.used = std::max(line.used, col + 1);
  line.Touch(col + 1);
}

void Screen::Repeat(int count) {
  int times = std::min(count, wrap_next_ ? 0 : grid_.cols() - cursor_.col);
  char32_t ch = last_char_;
  for (int i = 0; ch != 0 && i < times; ++i) WriteChar(ch);
}

void Screen::WrapToNextLine() {
  grid_.Row(cursor_.row).wrapped = true;
  wrap_next_ = false;
  cursor_.col = 0;
  IndexWith(0);  // as tmux: a wrap scrolls in a default row, a line feed a BCE one
}

// ---- the cursor ------------------------------------------------------------

void Screen::MoveTo(int row, int col) {
  cursor_.row = std::clamp(row, 0, grid_.rows() - 1);
  cursor_.col = std::clamp(col, 0, grid_.cols() - 1);
  wrap_next_ = false;
}

void Screen::CursorTo(int row, int col) {
  int r = (origin_mode_ ? top_ : 0) + row;
  MoveTo(origin_mode_ ? std::min(r, bottom_ - 1) : r, col);
}

// Vertical moves stop at the scroll region's edges when they start inside
// it (VPR, CSI e, ignores them, as in xterm: MoveTo).
void Screen::CursorUp(int count) {
  int limit = cursor_.row >= top_ ? top_ : 0;
  MoveTo(std::max(cursor_.row - count, limit), cursor_.col);
}

void Screen::CursorDown(int count) {
  int limit = cursor_.row < bottom_ ? bottom_ - 1 : grid_.rows() - 1;
  MoveTo(std::min(cursor_.row + count, limit), cursor_.col);
}

void Screen::CarriageReturn() {
  wrap_next_ = false;
  cursor_.col = 0;
}

void Screen::Backspace() {
  if (wrap_next_) wrap_next_ = false;  // as tmux: back onto the last column
  else if (cursor_.col > 0) --cursor_.col;
}

void Screen::Tab() {
  int from = cursor_.col;
  TabForward(1);
  MarkTab(from, cursor_.col);
}

void Screen::TabForward(int count) {
  int col = cursor_.col;
  while (count-- > 0) {
    do ++col;
    while (col < grid_.cols() - 1 && !tab_stops_[static_cast<size_t>(col)]);
    if (col >= grid_.cols() - 1) break;
  }
  cursor_.col = std::min(col, grid_.cols() - 1);
}

// Cells [from, to) a TAB moved over, if all blank.
void Screen::MarkTab(int from, int to) {
  if (to <= from) return;
  GridLine& line = grid_.Row(cursor_.row);
  for (int c = from; c < to; ++c) {
    const GridCell& cell = line.cells[static_cast<size_t>(c)];
    if ((cell.ch != 0 && cell.ch != ' ') || cell.marks != 0 || (cell.kind != kNarrow && cell.kind != kTabSkip)) {
      return;
    }
  }
  for (int c = from; c < to; ++c) line.cells[static_cast<size_t>(c)].kind = c == from ? kTab : kTabSkip;
  line.Touch(to);
}

void Screen::TabBack(int count) {
  wrap_next_ = false;
  int col = cursor_.col;
  while (count-- > 0 && col > 0) {
    do --col;
    while (col > 0 && !tab_stops_[static_cast<size_t>(col)]);
  }
  cursor_.col = col;
}

void Screen::SetTabStop() { tab_stops_[static_cast<size_t>(cursor_.col)] = true; }
void Screen::ClearTabStop() { tab_stops_[static_cast<size_t>(cursor_.col)] = false; }
void Screen::ClearAllTabStops() { std::fill(tab_stops_.begin(), tab_stops_.end(), false); }

// A stop every 8 columns.
void Screen::ResetTabStops() {
  tab_stops_.assign(static_cast<size_t>(grid_.cols()), false);
  for (int c = 0; c < grid_.cols(); c += 8) tab_stops_[static_cast<size_t>(c)] = true;
}

// ---- lines and scrolling ---------------------------------------------------

void Screen::LineFeed() {
  Index();
  if (newline_mode_) cursor_.col = 0;
}

void Screen::Index() {
  wrap_next_ = false;
  IndexWith(pen_.bg);
}

void Screen::NextLine() {
  wrap_next_ = false;
  cursor_.col = 0;
  IndexWith(pen_.bg);
}

void Screen::IndexWith(uint32_t bg) {
  if (cursor_.row == bottom_ - 1) grid_.ScrollRows(top_, bottom_, 1, !grid_.alt() && top_ == 0, bg);
  else if (cursor_.row < grid_.rows() - 1) ++cursor_.row;
}

void Screen::ReverseIndex() {
  wrap_next_ = false;
  if (cursor_.row == top_) grid_.ScrollRows(top_, bottom_, -1, false, pen_.bg);
  else if (cursor_.row > 0) --cursor_.row;
}

void Screen::ScrollUp(int count) { grid_.ScrollRows(top_, bottom_, count, !grid_.alt() && top_ == 0, pen_.bg); }

void Screen::ScrollDown(int count) { grid_.ScrollRows(top_, bottom_, -count, false, pen_.bg); }

// Lines are inserted or deleted only inside the scroll region.
void Screen::InsertLines(int count) {
  if (cursor_.row < top_ || cursor_.row >= bottom_) return;
  grid_.ScrollRows(cursor_.row, bottom_, -count, false, pen_.bg);
  cursor_.col = 0;
  wrap_next_ = false;
}

void Screen::DeleteLines(int count) {
  if (cursor_.row < top_ || cursor_.row >= bottom_) return;
  grid_.ScrollRows(cursor_.row, bottom_, count, false, pen_.bg);
  cursor_.col = 0;
  wrap_next_ = false;
}

void Screen::SetRegion(int top, int bottom) {
  bottom = std::min(bottom, grid_.rows());
  if (top + 1 >= bottom) return;  // two rows at least, as xterm
  top_ = top;
  bottom_ = bottom;
  MoveTo(origin_mode_ ? top_ : 0, 0);
}

// ---- erasing and editing ---------------------------------------------------

// Erases keep a pending wrap, as EL does (below).
void Screen::EraseInDisplay(int how) {
  if (how == 0) {
    EraseInLine(0);
    grid_.BlankRows(cursor_.row + 1, grid_.rows(), pen_.bg);
  } else if (how == 1) {
    grid_.BlankRows(0, cursor_.row, pen_.bg);
    EraseInLine(1);
  } else if (how == 2) {
    grid_.BlankRows(0, grid_.rows(), pen_.bg);
  }
  // 3 (erase the scrollback) keeps the history: replies may still be read from it.
  if (how == 0) ForgetPlaces(cursor_.row, cursor_.col, grid_.rows(), 0);
  else if (how == 1) ForgetPlaces(0, 0, cursor_.row, cursor_.col + 1);
  else if (how == 2) ForgetPlaces(0, 0, grid_.rows(), 0);
}

// With a wrap pending the cursor is past the last column, as tmux and
// xterm.js keep it: EL 0 erases nothing, EL 1 the whole row, and the wrap
// stays pending (the next character starts the next row). X11 xterm and
// the Linux console cancel the wrap and erase the last column: GNU grep's
// colours end a match with ESC[K, and a match ending in the last column
// would lose its last character.
void Screen::EraseInLine(int how) {
  if (how > 2) return;
  GridLine& line = grid_.Row(cursor_.row);
  int col = wrap_next_ ? grid_.cols() : cursor_.col;
  int from = how == 0 ? col : 0;
  int to = how == 1 ? std::min(col + 1, grid_.cols()) : grid_.cols();
  if (from >= to) return;
  line.BlankCells(from, to, pen_.bg);  // a wide character's other half stays, as in tmux
  if (to == grid_.cols()) line.wrapped = false;
  ForgetPlaces(cursor_.row, from, cursor_.row, to);
}

// Cells are erased one by one, wide halves too (as tmux); a pending wrap ends.
void Screen::EraseCells(int count) {
  grid_.Row(cursor_.row).BlankCells(cursor_.col, std::min(grid_.cols(), cursor_.col + count), pen_.bg);
  wrap_next_ = false;
}

// ICH and DCH move cells as they are: a wide character's halves may part,
// and a lone half stays (the left one still shows its character), as in tmux.
void Screen::InsertCells(int count) {
  GridLine& line = grid_.Row(cursor_.row);
  int col = cursor_.col;
  int n = std::min(count, grid_.cols() - col);
  std::copy_backward(line.cells.begin() + col, line.cells.end() - n, line.cells.end());
  if (line.extent > col) line.extent = std::min(grid_.cols(), line.extent + n);
  line.BlankCells(col, col + n, pen_.bg);
  if (line.used > col) line.used = std::min(grid_.cols(), line.used + n);
  wrap_next_ = false;
}

void Screen::DeleteCells(int count) {
  GridLine& line = grid_.Row(cursor_.row);
  int col = cursor_.col;
  int n = std::min(count, grid_.cols() - col);
  std::copy(line.cells.begin() + col + n, line.cells.end(), line.cells.begin() + col);
  line.BlankCells(grid_.cols() - n, grid_.cols(), pen_.bg);
  wrap_next_ = false;
}

void Screen::AlignmentTest() {
  for (int r = 0; r < grid_.rows(); ++r) {
    GridLine& line = grid_.Row(r);
    for (GridCell& cell : line.cells) {
      cell = GridCell();
      cell.ch = 'E';
    }
    line.marks.clear();
    line.wrapped = false;
    line.used = grid_.cols();
    line.extent = grid_.cols();
  }
  top_ = 0;
  bottom_ = grid_.rows();
  origin_mode_ = false;
  MoveTo(0, 0);
}

// ---- the modes -------------------------------------------------------------

void Screen::SetAutowrap(bool on) {
  autowrap_ = on;
  if (!on) wrap_next_ = false;
}

void Screen::SetOriginMode(bool on) {
  origin_mode_ = on;
  MoveTo(origin_mode_ ? top_ : 0, 0);
}

// ---- saved cursors, screens, resets ----------------------------------------

void Screen::SaveCursor() {
  SavedCursor& s = saved_[grid_.alt()];
  s.row = cursor_.row;
  s.col = cursor_.col;
  s.wrap_next = wrap_next_;
  s.origin_mode = origin_mode_;
  s.graphics[0] = graphics_[0];
  s.graphics[1] = graphics_[1];
  s.shift = shift_;
  s.pen = pen_;
}

// A cursor saved before the screen shrank comes back onto the screen. A
// wrap pending when it was saved is not (tmux 3.3 and xterm.js, VS Code's
// terminal: the next character overwrites the last column; X11 xterm 379
// and DEC's VT220 and later restore it).
void Screen::RestoreCursor() {
  const SavedCursor& s = saved_[grid_.alt()];
  MoveTo(s.row, s.col);
  origin_mode_ = s.origin_mode;
  graphics_[0] = s.graphics[0];
  graphics_[1] = s.graphics[1];
  shift_ = s.shift;
  pen_ = s.pen;
}

// The alternate screen starts blank each time, as in tmux.
void Screen::SwitchScreen(bool alt) {
  if (alt == grid_.alt()) return;
  if (!alt) {
    for (auto& kv : places_) kv.second.held &= !kv.second.alt;  // that screen is gone
  }
  grid_.UseAlt(alt);
  if (alt) grid_.BlankRows(0, grid_.rows());
  // A pending wrap stays pending across the switch, as in tmux and xterm.
}

void Screen::SoftReset() {
  pen_ = GridCell();
  autowrap_ = true;
  origin_mode_ = insert_mode_ = newline_mode_ = false;
  graphics_[0] = graphics_[1] = false;
  shift_ = 0;
  top_ = 0;
  bottom_ = grid_.rows();
  cursor_.visible = true;
  wrap_next_ = false;
}

void Screen::Reset() {
  SwitchScreen(false);
  grid_.BlankRows(0, grid_.rows());
  SoftReset();
  saved_[0] = saved_[1] = SavedCursor();
  ResetTabStops();
  MoveTo(0, 0);
  last_char_ = 0;
  joining_ = false;
  for (auto& kv : places_) kv.second.held = false;
}

// The grid resizes the cells (grid_reflow.cc); the cursor, the tab stops and
// the scroll region follow here.
bool Screen::Resize(int cols, int rows) {
  int old_cols = grid_.cols();
  int old_rows = grid_.rows();
  // The main screen's cursor: the live one, or the one saved on entering
  // the alternate screen (restored on leaving it).
  SavedCursor& saved = saved_[0];
  bool alt = grid_.alt();
  GridCursor main{alt ? std::clamp(saved.row, 0, old_rows - 1) : cursor_.row,
                  alt ? std::clamp(saved.col, 0, old_cols - 1) : cursor_.col, alt ? saved.wrap_next : wrap_next_};
  int alt_row = cursor_.row;
  std::vector<GridPlace*> places;
  for (auto& kv : places_) places.push_back(&kv.second);
  grid_.Resize(cols, rows, &main, alt ? &alt_row : nullptr, autowrap_, places);
  if (cols == old_cols && rows == old_rows) return false;
  tab_stops_.resize(static_cast<size_t>(cols), false);
  for (int c = (old_cols + 7) / 8 * 8; c < cols; c += 8) tab_stops_[static_cast<size_t>(c)] = true;
  // The region goes back to the whole screen; a program redraws (and sets
  // its region again) on the SIGWINCH that follows.
  top_ = 0;
  bottom_ = rows;
  if (alt) {
    saved.row = main.row;
    saved.col = main.col;
    saved.wrap_next = main.wrap_next;
    MoveTo(alt_row, cursor_.col);
  } else {
    MoveTo(main.row, main.col);
    wrap_next_ = main.wrap_next && cursor_.col == cols - 1;
  }
  return true;
}

// ---- places ----------------------------------------------------------------

// A pending wrap puts the next character on the next row: the place is there.
void Screen::KeepPlace(int key) {
  bool next_row = wrap_next_ && autowrap_;
  places_[key] = {grid_.lines_scrolled() + static_cast<uint64_t>(cursor_.row + (next_row ? 1 : 0)),
                  next_row ? 0 : cursor_.col, grid_.alt(), true};
}

GridPlace Screen::place(int key) const {
  auto it = places_.find(key);
  return it == places_.end() ? GridPlace() : it->second;
}

void Screen::ForgetPlaces(int from_row, int from_col, int to_row, int to_col) {
  uint64_t top = grid_.lines_scrolled();
  auto before = [](uint64_t r1, int c1, uint64_t r2, int c2) { return r1 < r2 || (r1 == r2 && c1 < c2); };
  for (auto& kv : places_) {
    GridPlace& p = kv.second;
    if (p.alt != grid_.alt() || !p.held) continue;
    if (!before(p.row, p.col, top + static_cast<uint64_t>(from_row), from_col) &&
        before(p.row, p.col, top + static_cast<uint64_t>(to_row), to_col)) {
      p.held = false;
    }
  }
}

}  // namespace tuidriver

#include "grid.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "utf8.h"

namespace tuidriver {

void GridLine::BlankCells(int from, int to, uint32_t bg) {
  from = std::max(from, 0);
  to = std::min(to, static_cast<int>(cells.size()));
  static_assert(std::is_trivially_copyable<GridCell>::value, "cells are blanked with memset");
  if (from >= to) return;
  if (bg == 0) {
    // Past the extent the cells are blank already.
    int end = std::min(to, extent);
    if (from >= end) return;
    memset(static_cast<void*>(cells.data() + from), 0, static_cast<size_t>(end - from) * sizeof(GridCell));
    if (end == extent) extent = from;
    return;
  }
  GridCell blank;
  blank.bg = bg;
  std::fill(cells.begin() + from, cells.begin() + to, blank);
  Touch(to);
}

void GridLine::Clear(int cols, uint32_t bg) {
  BlankCells(0, cols, bg);
  marks.clear();
  wrapped = false;
  used = 0;
}

void GridLine::SplitWideAt(int col) {
  int n = static_cast<int>(cells.size());
  if (col < 0 || col >= n || cells[static_cast<size_t>(col)].kind != kWideRight) return;
  bool pair = col > 0 && cells[static_cast<size_t>(col - 1)].kind == kWideLeft;
  BlankCells(pair ? col - 1 : col, col + 1);
}

void GridLine::CompactMarks() {
  std::vector<std::u32string> kept;
  for (GridCell& cell : cells) {
    if (cell.marks == 0) continue;
    kept.push_back(std::move(marks[cell.marks - 1]));
    cell.marks = static_cast<uint16_t>(kept.size());
  }
  marks = std::move(kept);
}

Grid::Grid(int cols, int rows, size_t scrollback_limit)
    : cols_(cols), rows_(rows), scrollback_limit_(scrollback_limit) {
  CutBuffer(&main_, cols, rows, nullptr);
  CutBuffer(&alt_, cols, rows, nullptr);
}

void Grid::ScrollRows(int top, int bottom, int up, bool to_history, uint32_t bg) {
  int height = bottom - top;
  if (height <= 0 || up == 0) return;
  int n = std::min(std::abs(up), height);
  if (up > 0 && to_history) {
    for (int r = top; r < top + n; ++r) PushHistory(Row(r));
    TrimHistory();
  }
  auto first = screen_->order.begin() + top;
  auto last = screen_->order.begin() + bottom;
  if (up > 0) {
    std::rotate(first, first + n, last);
    BlankRows(bottom - n, bottom, bg);
  } else {
    std::rotate(first, last - n, last);
    BlankRows(top, top + n, bg);
  }
}

void Grid::BlankRows(int from, int to, uint32_t bg) {
  for (int r = std::max(from, 0); r < std::min(to, rows_); ++r) Row(r).Clear(cols_, bg);
}

bool Grid::BlankPastExtent() const {
  for (const Buffer* b : {&main_, &alt_}) {
    for (const GridLine& line : b->pool) {
      for (size_t c = line.Extent(); c < line.cells.size(); ++c) {
        const GridCell& cell = line.cells[c];
        if (cell.ch != 0 || cell.fg != 0 || cell.bg != 0 || cell.marks != 0 || cell.attrs != 0 || cell.kind != kNarrow) {
          return false;
        }
      }
    }
  }
  return true;
}

char* Grid::EncodeCells(const GridLine& line, size_t end, char* out, bool tabs) {
  const GridCell* cells = line.cells.data();
  bool in_tab = false;  // the cells of a TAB follow its first
  for (size_t i = 0; i < end; ++i) {
    const GridCell& cell = cells[i];
    // Most cells: one narrow ASCII character (or a blank), no marks.
    if (cell.ch < 0x80 && cell.kind == kNarrow && cell.marks == 0) {
      *out++ = cell.ch == 0 ? ' ' : static_cast<char>(cell.ch);
      in_tab = false;
      continue;
    }
    if (cell.kind == kWideRight) continue;  // its character is in the left half
    in_tab = cell.kind == kTab || (in_tab && cell.kind == kTabSkip);
    if (tabs && in_tab) {
      if (cell.kind == kTab) *out++ = '\t';
      continue;
    }
    char32_t first = cell.ch;
    if (first < 0x80) *out++ = first == 0 ? ' ' : static_cast<char>(first);
    else out = WriteUtf8(first, out);
    if (cell.marks == 0) continue;
    for (char32_t mark : line.marks[cell.marks - 1]) out = WriteUtf8(mark, out);
  }
  return out;
}

// Text of cells [0, end).
std::string Grid::LineText(const GridLine& line, size_t end, bool tabs) {
  std::string buf(end * kMaxCellBytes, '\0');
  size_t n = static_cast<size_t>(EncodeCells(line, end, &buf[0], tabs) - buf.data());
  return std::string(buf.data(), n);
}

namespace {

// Cells up to the last one that is not blank, looking from `end` back.
template <typename Cells>
size_t TrimmedEnd(const Cells& cells, size_t end) {
  while (end > 0 && (cells[end - 1].ch == 0 || cells[end - 1].ch == ' ') && cells[end - 1].marks == 0 &&
         (cells[end - 1].kind == 0 || cells[end - 1].kind >= 3)) {  // (3, 4: a TAB's cells)
    --end;
  }
  return end;
}

}  // namespace

std::string Grid::RowText(int row) const {
  if (row < 0 || row >= rows_) return std::string();
  const GridLine& line = Row(row);
  return LineText(line, TrimmedEnd(line.cells, line.Extent()));
}

std::string Grid::RowPrefix(int row, int cols) const {
  if (row < 0 || row >= rows_) return std::string();
  const GridLine& line = Row(row);
  return LineText(line, static_cast<size_t>(std::max(0, std::min(cols, cols_))));
}

std::vector<StyleRun> Grid::RowStyles(int row) const {
  std::vector<StyleRun> runs;
  if (row < 0 || row >= rows_) return runs;
  const GridLine& line = Row(row);
  for (int c = 0; c < cols_; ++c) {
    const GridCell& cell = line.cells[static_cast<size_t>(c)];
    if (cell.fg == 0 && cell.bg == 0 && cell.attrs == 0) continue;
    if (!runs.empty()) {
      StyleRun& last = runs.back();
      if (last.col + last.len == c && last.fg == cell.fg && last.bg == cell.bg && last.attrs == cell.attrs) {
        ++last.len;
        continue;
      }
    }
    runs.push_back(StyleRun{c, 1, cell.fg, cell.bg, cell.attrs});
  }
  return runs;
}

bool Grid::RowWrapped(int row) const {
  return row >= 0 && row < rows_ && Row(row).wrapped;
}

void Grid::PushHistory(const GridLine& line) {
  history_.push_back(ToHistory(line));
  ++lines_scrolled_;
}

Grid::HistoryLine Grid::ToHistory(const GridLine& line) {
  size_t end = TrimmedEnd(line.cells, line.Extent());
  if (encode_buf_.size() < end * kMaxCellBytes) encode_buf_.resize(end * kMaxCellBytes);
  size_t n = static_cast<size_t>(EncodeCells(line, end, encode_buf_.data(), true) - encode_buf_.data());
  HistoryLine h{std::string(encode_buf_.data(), n), line.wrapped, 0};
  h.blanks = static_cast<uint16_t>(std::max(0, line.used - static_cast<int>(end)));
  return h;
}

// The cells of a history line again, as they were printed: a character and
// the marks (or joined characters) after it share a cell.
GridLine Grid::FromHistory(const HistoryLine& h, int cols) {
  GridLine line;
  line.wrapped = h.wrapped;
  line.cells.reserve(static_cast<size_t>(cols));
  size_t pos = 0;
  bool joining = false;
  uint32_t cp;
  while (pos < h.text.size()) {
    DecodeUtf8(h.text, &pos, &cp);
    if (cp == '\t') {  // a TAB kept in history: its cells up to the next stop of 8
      size_t stop = (line.cells.size() / 8 + 1) * 8;
      GridCell cell;
      cell.kind = kTab;
      do {
        line.cells.push_back(cell);
        cell.kind = kTabSkip;
      } while (line.cells.size() < stop);
      joining = false;
      continue;
    }
    int width = CharWidth(cp);
    if ((joining || width <= 0) && !line.cells.empty()) {
      GridCell& cell = line.cells[line.cells.size() - (line.cells.back().kind == kWideRight ? 2 : 1)];
      if (cell.marks == 0) {
        line.marks.emplace_back();
        cell.marks = static_cast<uint16_t>(line.marks.size());
      }
      line.marks[cell.marks - 1].push_back(cp);
      joining = cp == 0x200D;
      continue;
    }
    GridCell cell;
    cell.ch = cp;
    cell.kind = width == 2 ? kWideLeft : kNarrow;
    line.cells.push_back(cell);
    if (width == 2) {
      cell = GridCell();
      cell.kind = kWideRight;
      line.cells.push_back(cell);
    }
  }
  line.used = static_cast<int>(line.cells.size()) + h.blanks;
  line.cells.resize(static_cast<size_t>(std::max(cols, line.used)));
  line.extent = static_cast<int>(line.cells.size());
  return line;
}

void Grid::TrimHistory() {
  while (history_.size() > scrollback_limit_) {
    if (pinned_ && first_retained_row() >= pin_row_) break;
    history_.pop_front();
  }
}

bool Grid::LineAt(uint64_t abs, std::string* text, bool* wrapped, bool tabs) const {
  if (abs < first_retained_row()) return false;
  if (abs < lines_scrolled_) {
    const HistoryLine& h = history_[static_cast<size_t>(abs - first_retained_row())];
    if (tabs || h.text.find('\t') == std::string::npos) {
      *text = h.text;
    } else {
      GridLine cells = FromHistory(h, cols_);
      *text = LineText(cells, TrimmedEnd(cells.cells, cells.Extent()));
    }
    *wrapped = h.wrapped;
    if (h.wrapped) text->append(h.blanks, ' ');
    return true;
  }
  uint64_t row = abs - lines_scrolled_;
  if (row >= static_cast<uint64_t>(rows_)) return false;
  const GridLine& line = Row(static_cast<int>(row));
  *wrapped = line.wrapped;
  size_t end = TrimmedEnd(line.cells, line.Extent());
  if (line.wrapped) end = std::max(end, static_cast<size_t>(std::min(line.used, cols_)));
  *text = LineText(line, end, tabs);
  return true;
}

bool Grid::LineBefore(uint64_t abs, int col, std::string* text) const {
  if (abs < first_retained_row()) return false;
  if (abs >= lines_scrolled_ + static_cast<uint64_t>(rows_)) return false;
  GridLine history;
  if (abs < lines_scrolled_) history = FromHistory(history_[static_cast<size_t>(abs - first_retained_row())], cols_);
  const GridLine& line = abs < lines_scrolled_ ? history : Row(static_cast<int>(abs - lines_scrolled_));
  size_t end = TrimmedEnd(line.cells, std::min(static_cast<size_t>(std::max(col, 0)), line.Extent()));
  *text = LineText(line, end, true);
  return true;
}

void Grid::PinHistory(uint64_t abs) {
  pinned_ = true;
  pin_row_ = abs;
}

void Grid::UnpinHistory() {
  pinned_ = false;
  TrimHistory();
}

}  // namespace tuidriver

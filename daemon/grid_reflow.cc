// Grid::Resize, after tmux 3.3 (screen_resize_cursor, grid_reflow): the
// height changes first at the old width, then the main screen and its
// history are reflowed to the new width. tmux is the reference the tests
// compare with.
#include <algorithm>
#include <utility>

#include "grid.h"

namespace tuidriver {

std::vector<GridLine> Grid::TakeLines(Buffer* b) {
  std::vector<GridLine> lines;
  lines.reserve(b->order.size());
  for (int index : b->order) lines.push_back(std::move(b->pool[static_cast<size_t>(index)]));
  return lines;
}

void Grid::PutLines(Buffer* b, std::vector<GridLine> lines) {
  // Resized and reflowed rows: no cell is known to be blank.
  for (GridLine& line : lines) line.extent = static_cast<int>(line.cells.size());
  b->order.resize(lines.size());
  for (size_t r = 0; r < lines.size(); ++r) b->order[r] = static_cast<int>(r);
  b->pool = std::move(lines);
}

// No reflow (the alternate screen): rows below the cursor go first, then
// rows at the top; a wide character cut by the new right edge goes away.
void Grid::CutBuffer(Buffer* b, int cols, int rows, int* cursor_row) {
  std::vector<GridLine> lines = TakeLines(b);
  int old_rows = static_cast<int>(lines.size());
  if (rows < old_rows && cursor_row != nullptr) {
    int eat = std::min(old_rows - rows, std::max(0, old_rows - 1 - *cursor_row));
    int drop = old_rows - rows - eat;
    lines.erase(lines.begin(), lines.begin() + drop);
    *cursor_row -= drop;
  }
  lines.resize(static_cast<size_t>(rows));
  for (GridLine& line : lines) {
    line.cells.resize(static_cast<size_t>(cols));
    if (line.cells.back().kind == kWideLeft) line.cells.back() = GridCell();
    line.used = std::min(line.used, cols);
  }
  PutLines(b, std::move(lines));
}

// tmux's screen_resize_y: a shorter screen drops the rows below the cursor,
// then moves rows into the history; a taller one takes rows back from it.
void Grid::ResizeMainHeight(int rows, int* cursor_row) {
  std::vector<GridLine> lines = TakeLines(&main_);
  if (rows < rows_) {
    int needed = rows_ - rows;
    int eat = std::min(needed, std::max(0, rows_ - 1 - *cursor_row));
    lines.resize(static_cast<size_t>(rows_ - eat));
    int push = needed - eat;
    for (int r = 0; r < push; ++r) PushHistory(lines[static_cast<size_t>(r)]);
    lines.erase(lines.begin(), lines.begin() + push);
    TrimHistory();
    *cursor_row -= push;
  } else if (rows > rows_) {
    size_t pull = std::min(static_cast<size_t>(rows - rows_), history_.size());
    std::vector<GridLine> back;
    for (size_t i = history_.size() - pull; i < history_.size(); ++i) {
      back.push_back(FromHistory(history_[i], cols_));
    }
    history_.resize(history_.size() - pull);
    lines_scrolled_ -= pull;
    lines.insert(lines.begin(), std::make_move_iterator(back.begin()), std::make_move_iterator(back.end()));
    *cursor_row += static_cast<int>(pull);
    lines.resize(static_cast<size_t>(rows));
    for (GridLine& line : lines) line.cells.resize(static_cast<size_t>(cols_));
  }
  PutLines(&main_, std::move(lines));
}

namespace {

// Where the cursor is in its logical line (wrapped rows joined), as tmux's
// grid_wrap_position: the line's number and the column in it, or its end
// when the cursor is past what its row used.
struct WrapPosition {
  size_t line = 0;
  size_t col = 0;
  bool at_end = false;
};

// `col` on row `cursor` of `all` as a WrapPosition (tmux's grid_wrap_position).
template <typename Lines>
WrapPosition FindWrapPosition(const Lines& all, size_t cursor, int col) {
  WrapPosition where;
  for (size_t i = 0; i < cursor; ++i) {
    if (all[i].wrapped) {
      where.col += static_cast<size_t>(all[i].used);
    } else {
      where.col = 0;
      ++where.line;
    }
  }
  if (col >= all[cursor].used) where.at_end = true;
  else where.col += static_cast<size_t>(col);
  return where;
}

// The row and column of `where` in `out`, whose logical line starts at row
// `start` (tmux's grid_unwrap_position).
template <typename Lines>
void Unwrap(const Lines& out, size_t start, const WrapPosition& where, size_t* row, size_t* col) {
  size_t y = start;
  size_t x = where.col;
  if (where.at_end) {
    while (y + 1 < out.size() && out[y].wrapped) ++y;
    x = static_cast<size_t>(out[y].used);
  } else {
    while (y + 1 < out.size() && out[y].wrapped && x >= static_cast<size_t>(out[y].used)) {
      x -= static_cast<size_t>(out[y].used);
      ++y;
    }
  }
  *row = y;
  *col = x;
}

// A place on the main screen or in its history, as a WrapPosition, to be
// found again once the lines are laid out anew (an OSC mark's cell).
struct PlaceToMove {
  GridPlace* place;
  WrapPosition where;
};

// The held places on the main screen, in `all` (its row 0 is absolute row
// `base`); a place whose row was dropped from the history is gone.
template <typename Lines>
std::vector<PlaceToMove> PlacesIn(const Lines& all, uint64_t base, const std::vector<GridPlace*>& places) {
  std::vector<PlaceToMove> found;
  for (GridPlace* p : places) {
    if (!p->held || p->alt) continue;
    p->held = p->row >= base && p->row < base + all.size();
    if (p->held) found.push_back({p, FindWrapPosition(all, static_cast<size_t>(p->row - base), p->col)});
  }
  return found;
}

}  // namespace

// Reflows history and main screen to `cols` columns (tmux's grid_reflow):
// each logical line is laid out again, a wide character that does not fit
// at a row's end going to the next row.
void Grid::ReflowMain(int cols, GridCursor* cursor, bool autowrap, const std::vector<GridPlace*>& places) {
  uint64_t base = first_retained_row();
  std::vector<GridLine> all;
  all.reserve(history_.size() + static_cast<size_t>(rows_));
  for (const HistoryLine& h : history_) all.push_back(FromHistory(h, cols_));
  size_t history_rows = all.size();
  for (GridLine& line : TakeLines(&main_)) all.push_back(std::move(line));
  history_.clear();

  size_t cursor_at = history_rows + static_cast<size_t>(cursor->row);
  WrapPosition where = FindWrapPosition(all, cursor_at, cursor->wrap_next ? cols_ : cursor->col);
  std::vector<PlaceToMove> moving = PlacesIn(all, base, places);

  std::vector<GridLine> out;
  std::vector<uint64_t> map(all.size());
  std::vector<size_t> line_start;  // each logical line's first row in `out`
  for (size_t i = 0; i < all.size();) {
    size_t last = i;
    while (last + 1 < all.size() && all[last].wrapped) ++last;
    line_start.push_back(out.size());
    Rewrap(&all, i, last, cols, &out, &map);
    i = last + 1;
  }
  size_t cursor_line_start = where.line < line_start.size() ? line_start[where.line] : 0;
  while (out.size() < static_cast<size_t>(rows_)) {
    out.emplace_back();
    out.back().cells.resize(static_cast<size_t>(cols));
  }

  size_t y, x;
  Unwrap(out, cursor_line_start, where, &y, &x);
  size_t new_history = out.size() - static_cast<size_t>(rows_);
  if (y < new_history) {  // it went into the history: tmux puts it home
    y = new_history;
    x = 0;
  }
  cursor->row = static_cast<int>(y - new_history);
  cursor->wrap_next = x >= static_cast<size_t>(cols) && autowrap;
  cursor->col = static_cast<int>(std::min(x, static_cast<size_t>(cols - 1)));
  for (PlaceToMove& m : moving) {
    size_t row, col;
    Unwrap(out, line_start[m.where.line], m.where, &row, &col);
    m.place->row = base + row;
    m.place->col = static_cast<int>(std::min(col, static_cast<size_t>(cols - 1)));
  }

  for (size_t i = 0; i < new_history; ++i) history_.push_back(ToHistory(out[i]));
  out.erase(out.begin(), out.begin() + static_cast<long>(new_history));
  PutLines(&main_, std::move(out));
  RecordReflow(base, map, all.size(), new_history);
}

// What RowAfterResize answers from: the reflow moved absolute row base + i
// to base + map[i]; the history now ends at base + new_history.
void Grid::RecordReflow(uint64_t base, const std::vector<uint64_t>& map, size_t old_rows, size_t new_history) {
  resize_base_ = base;
  resize_map_.resize(map.size());
  for (size_t i = 0; i < map.size(); ++i) resize_map_[i] = base + map[i];
  resize_old_end_ = base + old_rows;
  resize_new_end_ = base + new_history + static_cast<uint64_t>(rows_);
  lines_scrolled_ = base + new_history;
  if (pinned_) pin_row_ = RowAfterResize(pin_row_);
  TrimHistory();
}

// Lays out rows [first, last] of `all` (one logical line) at `cols` columns
// onto `out`; map[i] gets the row of `out` that row i's first cell went to.
void Grid::Rewrap(std::vector<GridLine>* all, size_t first, size_t last, int cols,
                  std::vector<GridLine>* out, std::vector<uint64_t>* map) {
  GridLine cur;
  cur.cells.resize(static_cast<size_t>(cols));
  int col = 0;
  for (size_t r = first; r <= last; ++r) {
    GridLine& src = (*all)[r];
    (*map)[r] = out->size();
    bool placed = false;
    for (int c = 0; c < src.used && c < static_cast<int>(src.cells.size()); ++c) {
      const GridCell& cell = src.cells[static_cast<size_t>(c)];
      if (cell.kind == kWideRight) continue;  // travels with its left half
      int width = cell.kind == kWideLeft ? 2 : 1;
      if (col + width > cols) {
        cur.wrapped = true;
        cur.used = cur.extent = col;
        out->push_back(std::move(cur));
        cur = GridLine();
        cur.cells.resize(static_cast<size_t>(cols));
        col = 0;
      }
      if (!placed) (*map)[r] = out->size();
      placed = true;
      GridCell& dst = cur.cells[static_cast<size_t>(col)];
      dst = cell;
      if (cell.marks != 0) {
        cur.marks.push_back(std::move(src.marks[cell.marks - 1]));
        dst.marks = static_cast<uint16_t>(cur.marks.size());
      }
      if (width == 2) {
        GridCell right = cell;
        right.ch = 0;
        right.marks = 0;
        right.kind = kWideRight;
        cur.cells[static_cast<size_t>(col + 1)] = right;
      }
      col += width;
    }
  }
  cur.wrapped = (*all)[last].wrapped;
  cur.used = cur.extent = col;
  out->push_back(std::move(cur));
}

void Grid::Resize(int cols, int rows, GridCursor* main, int* alt_row, bool autowrap,
                  const std::vector<GridPlace*>& places) {
  // Until a reflow says otherwise, rows keep their numbers.
  resize_map_.clear();
  resize_base_ = resize_old_end_ = resize_new_end_ = first_retained_row();
  if (cols == cols_ && rows == rows_) return;
  ResizeMainHeight(rows, &main->row);
  CutBuffer(&alt_, cols_, rows, alt_row);
  rows_ = rows;
  if (cols != cols_) {
    ReflowMain(cols, main, autowrap, places);
    CutBuffer(&alt_, cols, rows, nullptr);
  }
  cols_ = cols;
}

uint64_t Grid::RowAfterResize(uint64_t abs) const {
  if (abs < resize_base_) return abs;
  if (abs >= resize_old_end_) return abs - resize_old_end_ + resize_new_end_;
  return resize_map_[static_cast<size_t>(abs - resize_base_)];
}

}  // namespace tuidriver

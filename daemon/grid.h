// The emulator's bottom layer, as tmux's grid.c: the cells of the main and
// the alternate screen, the history behind the main screen, the text read
// back from them, and the reflow of a resize (grid_reflow.cc). It knows
// nothing of escape sequences or of the cursor's rules: Screen
// (screen_write.h) writes into it.
//
// Rows live in a fixed pool and scrolling rotates row indices, so scrolling
// never copies the screen; lines that leave the top go to a bounded history,
// kept as text. Rows are numbered two ways. Screen rows are 0..rows()-1.
// Absolute rows count every line held: absolute row lines_scrolled() + r is
// screen row r, and smaller absolute rows are in the history. A reflow
// renumbers rows, and RowAfterResize says where each went.
#ifndef TUIDRIVER_GRID_H_
#define TUIDRIVER_GRID_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace tuidriver {

// Cell attributes (SGR), as bits.
enum CellAttr : uint8_t {
  kBold = 1, kDim = 2, kItalic = 4, kUnderline = 8,
  kBlink = 16, kReverse = 32, kInvisible = 64, kStrike = 128,
};
// A colour: 0 is the default; else a palette index or an RGB value, tagged.
constexpr uint32_t kPaletteColour = 1u << 24;  // | index 0-255
constexpr uint32_t kRgbColour = 2u << 24;      // | 0xrrggbb

// Cells of one row with the same attributes, not all default.
struct StyleRun {
  int col = 0;
  int len = 0;  // columns
  uint32_t fg = 0;
  uint32_t bg = 0;
  uint16_t attrs = 0;
};

// A blank cell is all zero bytes, so rows are blanked with memset.
// A TAB that moved over blank cells marks them (as tmux does), so text
// taken with tabs gives the TAB back: kTab the first, kTabSkip the rest.
enum CellKind : uint8_t { kNarrow = 0, kWideLeft = 1, kWideRight = 2, kTab = 3, kTabSkip = 4 };

struct GridCell {
  char32_t ch = 0;          // the base character; 0: blank
  uint32_t fg = 0;          // colours (kPaletteColour, kRgbColour), 0: default
  uint32_t bg = 0;
  // Combining marks: 0 none, else 1 + index into GridLine::marks (which
  // CompactMarks keeps under 2 * cols + 16, and cols are at most 1000).
  uint16_t marks = 0;
  uint8_t attrs = 0;        // CellAttr bits
  CellKind kind = kNarrow;  // the halves of a wide character are marked
};
static_assert(sizeof(GridCell) == 16, "a cell is 16 bytes: rows are blanked and copied by the kilobyte");

// tmux keeps a cell's UTF-8 up to this many bytes; marks past it are dropped.
constexpr size_t kMaxClusterBytes = 21;

struct GridLine {
  std::vector<GridCell> cells;
  bool wrapped = false;
  // Columns written since the row was blank (tmux's "cellused", erased
  // cells included): what reflow carries over.
  int used = 0;
  // Cells at and past this column are blank (GridCell()); an upper bound,
  // raised by every write. Blanking and trimming a row stop here, so a
  // row that scrolls away costs what it held, not the screen's width.
  int extent = 0;
  // Combining marks (and what a zero-width joiner joined) of this row's
  // cells. Rare, so kept aside: a cell stays small for the ASCII path.
  std::vector<std::u32string> marks;

  void Touch(int end) { extent = std::max(extent, end); }
  size_t Extent() const { return std::min(cells.size(), static_cast<size_t>(extent)); }
  // Erased cells keep background `bg` (the current one for erases: BCE, as tmux).
  void BlankCells(int from, int to, uint32_t bg = 0);
  // Blank, unwrapped and unused, every cell with background `bg`.
  void Clear(int cols, uint32_t bg);
  // Writing over the right half of a wide character destroys all of it (as
  // in xterm; tmux keeps the character and shows it overlapped).
  void SplitWideAt(int col);
  // A character written up to `col` leaves no stray right half after it
  // (inline: every run of text asks; past the extent nothing is there).
  void ClearPaddingAfter(int col) {
    if (col >= 0 && col < extent && cells[static_cast<size_t>(col)].kind == kWideRight) BlankCells(col, col + 1);
  }
  // Drops the marks of cells that were overwritten.
  void CompactMarks();
};

// A cell's place the grid keeps through a reflow (an OSC mark's): absolute
// row and column, on the alternate screen or not; `held` goes false when
// its row leaves the history.
struct GridPlace {
  uint64_t row = 0;
  int col = 0;
  bool alt = false;
  bool held = false;
};

// Where the cursor of the main screen is, for a resize to move.
struct GridCursor {
  int row = 0;
  int col = 0;
  bool wrap_next = false;  // past the last column
};

class Grid {
 public:
  // `scrollback_limit` lines of history are kept (more while pinned).
  Grid(int cols, int rows, size_t scrollback_limit);

  int cols() const { return cols_; }
  int rows() const { return rows_; }
  bool alt() const { return screen_ == &alt_; }
  // The rows below are those of the alternate screen, or of the main one.
  void UseAlt(bool alt) { screen_ = alt ? &alt_ : &main_; }

  GridLine& Row(int row) { return screen_->pool[static_cast<size_t>(screen_->order[static_cast<size_t>(row)])]; }
  const GridLine& Row(int row) const {
    return screen_->pool[static_cast<size_t>(screen_->order[static_cast<size_t>(row)])];
  }
  // Scrolls rows [top, bottom) up by `up` rows (down if negative) by
  // rotating row indices; rows that leave the top go to the history if
  // `to_history`. New rows get background `bg`.
  void ScrollRows(int top, int bottom, int up, bool to_history, uint32_t bg);
  void BlankRows(int from, int to, uint32_t bg = 0);

  // Text of screen row `row`, without trailing blanks.
  std::string RowText(int row) const;
  // Text of the first `cols` columns of screen row `row`, blanks kept.
  std::string RowPrefix(int row, int cols) const;
  bool RowWrapped(int row) const;
  std::vector<StyleRun> RowStyles(int row) const;
  // As Terminal::LineAt and Terminal::LineBefore (terminal.h).
  bool LineAt(uint64_t abs, std::string* text, bool* wrapped, bool tabs = false) const;
  bool LineBefore(uint64_t abs, int col, std::string* text) const;

  uint64_t lines_scrolled() const { return lines_scrolled_; }
  uint64_t first_retained_row() const { return lines_scrolled_ - history_.size(); }
  size_t history_size() const { return history_.size(); }
  void PinHistory(uint64_t abs);
  void UnpinHistory();

  // To `cols` x `rows`, as tmux 3.3 (grid_reflow.cc): `main` is the main
  // screen's cursor, `alt_row` the alternate screen's row (null when it is
  // not shown); `places` on the main screen follow their cells.
  void Resize(int cols, int rows, GridCursor* main, int* alt_row, bool autowrap,
              const std::vector<GridPlace*>& places);
  uint64_t RowAfterResize(uint64_t abs) const;

  // Every row of both screens is blank past its extent.
  bool BlankPastExtent() const;

 private:
  struct Buffer {
    std::vector<GridLine> pool;  // the rows' storage
    std::vector<int> order;      // screen row -> index into pool
  };
  struct HistoryLine {
    std::string text;      // without trailing blanks
    bool wrapped = false;
    uint16_t blanks = 0;   // blank columns after the text that were used
  };

  static std::string LineText(const GridLine& line, size_t end, bool tabs = false);
  // Writes the UTF-8 text of cells [0, end) to `out`, which has room for
  // end * kMaxCellBytes bytes; returns the end of what it wrote.
  static char* EncodeCells(const GridLine& line, size_t end, char* out, bool tabs = false);
  static constexpr size_t kMaxCellBytes = kMaxClusterBytes + 3;
  void PushHistory(const GridLine& line);
  void TrimHistory();
  HistoryLine ToHistory(const GridLine& line);
  static GridLine FromHistory(const HistoryLine& h, int cols);

  // Resize, in grid_reflow.cc.
  void ResizeMainHeight(int rows, int* cursor_row);
  void ReflowMain(int cols, GridCursor* cursor, bool autowrap, const std::vector<GridPlace*>& places);
  void RecordReflow(uint64_t base, const std::vector<uint64_t>& map, size_t old_rows, size_t new_history);
  static void CutBuffer(Buffer* b, int cols, int rows, int* cursor_row);
  static void Rewrap(std::vector<GridLine>* all, size_t first, size_t last, int cols,
                     std::vector<GridLine>* out, std::vector<uint64_t>* map);
  static std::vector<GridLine> TakeLines(Buffer* b);
  static void PutLines(Buffer* b, std::vector<GridLine> lines);

  int cols_;
  int rows_;
  Buffer main_;
  Buffer alt_;
  Buffer* screen_ = &main_;

  std::deque<HistoryLine> history_;
  std::vector<char> encode_buf_;  // PushHistory's scratch, reused
  size_t scrollback_limit_;
  bool pinned_ = false;
  uint64_t pin_row_ = 0;
  uint64_t lines_scrolled_ = 0;
  // The last reflow: absolute row resize_base_ + i went to resize_map_[i];
  // rows from resize_old_end_ on moved to resize_new_end_ on.
  uint64_t resize_base_ = 0;
  std::vector<uint64_t> resize_map_;
  uint64_t resize_old_end_ = 0;
  uint64_t resize_new_end_ = 0;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_GRID_H_

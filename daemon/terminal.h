// The terminal emulator: bytes from the program in, a screen, a scrollback
// history and reply bytes (answers to DA/DSR/colour queries) out. Pure: it
// does no I/O, so it is tested and fuzzed on byte strings.
//
// VtParser splits the bytes into text, controls and sequences; this class
// acts on them the way xterm and tmux do (tmux is the reference the tests
// compare screens with). Screen cells keep characters, colours and
// attributes; the history keeps text. Printable runs are written straight
// into the row, because program output is mostly text and the emulator must
// keep up with the PTY. Rows live in a fixed pool and scrolling rotates row
// indices, so scrolling never copies the screen; lines that leave the top go
// to a bounded history.
//
// Rows are numbered two ways. Screen rows are 0..rows()-1. Absolute rows
// count every line held: absolute row lines_scrolled() + r is screen row r,
// and smaller absolute rows are in the history. An ask keeps its absolute
// start row, so its reply survives scrolling; a resize that reflows lines
// renumbers rows, and RowAfterResize says where each went.
#ifndef TUIDRIVER_TERMINAL_H_
#define TUIDRIVER_TERMINAL_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "vt_parser.h"

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

struct Cursor {
  int row = 0;
  int col = 0;
  bool visible = true;
};

class Terminal : private VtParser::Handler {
 public:
  // `scrollback_limit` lines of history are kept (more while pinned).
  Terminal(int cols, int rows, size_t scrollback_limit);
  ~Terminal() override;
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  // Feeds program output. Split escape sequences and split UTF-8 characters
  // are carried over to the next call.
  void Feed(const char* data, size_t len);

  // Bytes the terminal must send back to the program (device attributes,
  // cursor position reports, colour and keyboard-protocol queries), since
  // the last call. The caller writes them to the PTY.
  std::string TakeReplies();

  // Changes the size as tmux 3.3 does. Rows below the cursor go first when
  // the screen gets shorter, then rows move into the history; when it gets
  // taller, rows come back from the history. On a new width, the main
  // screen and its history are reflowed: lines the terminal wrapped are
  // re-wrapped, so no text is cut, and the cursor stays on its character.
  // The alternate screen is cut or padded.
  void Resize(int cols, int rows);
  // Where absolute row `abs`, as numbered before the last Resize, is now
  // (reflow renumbers rows). For what holds an absolute row across a resize.
  uint64_t RowAfterResize(uint64_t abs) const;

  int cols() const { return cols_; }
  int rows() const { return rows_; }
  Cursor cursor() const { return cursor_; }
  bool alt_screen() const { return alt_screen_; }
  const std::string& title() const { return title_; }
  bool bracketed_paste() const { return bracketed_paste_; }
  bool app_cursor_keys() const { return app_cursor_keys_; }
  bool app_keypad() const { return app_keypad_; }
  // Inside a synchronized update (DECSET 2026) the program is still drawing
  // a frame: the screen is half-drawn until the update ends.
  bool synchronized_update() const { return synchronized_update_; }
  // How many synchronized updates have begun, to tell one frame from the next.
  uint64_t synchronized_updates() const { return synchronized_updates_; }
  // How many primary device-attributes queries (DA1, CSI c) were answered.
  uint64_t da1_queries() const { return da1_queries_; }
  // The latest payload of OSC `number` (e.g. Codex's 7501), "" if none.
  std::string osc(int number) const;
  // synchronized_updates() when OSC `number` last came: a frame begun after
  // it shows what the program drew after reporting that state.
  uint64_t osc_frame(int number) const;
  // The absolute row of the cursor when OSC `number` last came.
  uint64_t osc_row(int number) const { return osc_place(number).row; }
  // Where the cursor was when OSC `number` last came: a mark the program
  // put in its output, such as a REPL's before its prompt (an engine's
  // prompt_osc). The place follows its text through scrolling and reflow;
  // it is forgotten (held false) when the cells there are erased (ED, EL,
  // RIS), or, on the alternate screen, when that screen is left.
  struct OscPlace {
    uint64_t row = 0;  // absolute
    int col = 0;
    bool alt = false;  // on the alternate screen
    bool held = false;
  };
  OscPlace osc_place(int number) const;
  // Its column then. With a wrap pending the mark is at the start of the
  // next row, where the next character goes (an end mark after a full row
  // ends the reply with that row whole).
  int osc_col(int number) const { return osc_place(number).col; }

  // Text of screen row `row`, without trailing blanks.
  std::string RowText(int row) const;
  std::vector<std::string> ScreenLines() const;
  // Text of the first `cols` columns of screen row `row`, blanks kept.
  std::string RowPrefix(int row, int cols) const;
  // True when the terminal wrapped screen row `row` onto the next row.
  bool RowWrapped(int row) const;
  // The styled runs of screen row `row`, left to right; default cells are in none.
  std::vector<StyleRun> RowStyles(int row) const;

  // Lines that have left the top of the main screen, ever.
  uint64_t lines_scrolled() const { return lines_scrolled_; }
  // The oldest absolute row still held.
  uint64_t first_retained_row() const { return lines_scrolled_ - history_.size(); }
  size_t scrollback_size() const { return history_.size(); }
  // Text and wrap flag of absolute row `abs`; false if it is not held. A
  // wrapped row keeps its trailing spaces: they are part of the line. With
  // `tabs`, cells a TAB moved over come back as that TAB (replies,
  // scrollback); else as the spaces the screen shows.
  bool LineAt(uint64_t abs, std::string* text, bool* wrapped, bool tabs = false) const;
  // Text of absolute row `abs` left of column `col`, trailing blanks
  // dropped, TABs given back (as LineAt with `tabs`); false if the row is
  // not held.
  bool LineBefore(uint64_t abs, int col, std::string* text) const;

  // While pinned, history at or after absolute row `abs` is never dropped,
  // whatever the limit (a long reply must survive until it is read).
  void PinHistory(uint64_t abs);
  void UnpinHistory();

  // Changes whenever anything visible changes; cheap to poll.
  uint64_t generation() const { return generation_; }

  // For tests and the fuzzer: every row of both screens is blank past its
  // extent (what blanking and trimming rely on).
  bool BlankPastExtent() const;

 private:
  // A blank cell is all zero bytes, so rows are blanked with memset.
  // A TAB that moved over blank cells marks them (as tmux does), so text
  // taken with tabs gives the TAB back: kTab the first, kTabSkip the rest.
  enum CellKind : uint8_t { kNarrow = 0, kWideLeft = 1, kWideRight = 2, kTab = 3, kTabSkip = 4 };
  struct Cell {
    char32_t ch = 0;          // the base character; 0: blank
    uint32_t fg = 0;          // colours (kPaletteColour, kRgbColour), 0: default
    uint32_t bg = 0;
    // Combining marks: 0 none, else 1 + index into Line::marks (which
    // CompactMarks keeps under 2 * cols + 16, and cols are at most 1000).
    uint16_t marks = 0;
    uint8_t attrs = 0;        // CellAttr bits
    CellKind kind = kNarrow;  // the halves of a wide character are marked
  };
  static_assert(sizeof(Cell) == 16, "a cell is 16 bytes: rows are blanked and copied by the kilobyte");
  struct Line {
    std::vector<Cell> cells;
    bool wrapped = false;
    // Columns written since the row was blank (tmux's "cellused", erased
    // cells included): what reflow carries over.
    int used = 0;
    // Cells at and past this column are blank (Cell()); an upper bound,
    // raised by every write. Blanking and trimming a row stop here, so a
    // row that scrolls away costs what it held, not the screen's width.
    int extent = 0;
    // Combining marks (and what a zero-width joiner joined) of this row's
    // cells. Rare, so kept aside: a cell stays small for the ASCII path.
    std::vector<std::u32string> marks;
  };
  // tmux keeps a cell's UTF-8 up to this many bytes; marks past it are dropped.
  static constexpr size_t kMaxClusterBytes = 21;
  struct Buffer {
    std::vector<Line> pool;   // the rows' storage
    std::vector<int> order;   // screen row -> index into pool
  };
  struct HistoryLine {
    std::string text;      // without trailing blanks
    bool wrapped = false;
    uint16_t blanks = 0;   // blank columns after the text that were used
  };

  // What VtParser found (see vt_parser.h).
  void Print(const unsigned char* text, size_t len) override;
  void Execute(unsigned char control) override;
  void Escape(char intermediate, char final) override;
  void Csi(const CsiSequence& csi) override;
  void Osc(const std::string& payload) override;
  void Dcs(const std::string& payload) override;

  // Text.
  const unsigned char* PrintRun(const unsigned char* p, const unsigned char* end);
  // Cells [0, n) get the ASCII characters text[0, n) in the pen's style.
  static void FillAscii(Cell* cells, const unsigned char* text, size_t n, const Cell& pen);
  void PrintCodePoint(char32_t cp);
  void AddCombining(char32_t cp);
  // A character written up to `col` leaves no stray right half after it
  // (inline: every run of text asks; past the extent nothing is there).
  void ClearPaddingAfter(Line* line, int col) {
    if (col >= 0 && col < line->extent && line->cells[static_cast<size_t>(col)].kind == kWideRight) {
      BlankCells(line, col, col + 1);
    }
  }
  static void CompactMarks(Line* line);
  void WrapToNextLine();
  void DecodeUtf8Byte(unsigned char b);

  // Control sequences, by what they do.
  bool CsiCursor(const CsiSequence& csi);
  bool CsiEdit(const CsiSequence& csi);
  void CsiReport(const CsiSequence& csi);
  void SetModes(const CsiSequence& csi, bool set);
  void SetPrivateMode(int mode, bool set);
  void ReportMode(const CsiSequence& csi);
  void SetScrollRegion(const CsiSequence& csi);
  void SetGraphics(const CsiSequence& csi);
  int ExtendedColour(const CsiSequence& csi, int i, uint32_t* colour);

  // Cursor and screen operations, as the sequences name them.
  void MoveTo(int row, int col);  // clamped to the screen
  // Down one row, scrolling at the region's bottom; new rows get background `bg`.
  void Index(uint32_t bg);
  void ReverseIndex();
  void Tab(int count);
  void BackTab(int count);
  void SaveCursor();
  void RestoreCursor();
  void SwitchScreen(bool alt);
  void EraseInDisplay(int how);
  void EraseInLine(int how);
  void InsertCells(int count);
  void DeleteCells(int count);
  void ScrollRows(int top, int bottom, int up, bool to_history, uint32_t bg);
  void ScreenAlignment();
  void Reset();
  void ResetModes();
  // Forgets the OSC places on the current screen from screen row/column
  // `from` up to (not including) `to`, in reading order: their cells were erased.
  void ForgetOscPlaces(int from_row, int from_col, int to_row, int to_col);

  Line& ScreenLine(int row);
  const Line& ScreenLine(int row) const;
  static std::string LineText(const Line& line, size_t end, bool tabs = false);
  // Writes the UTF-8 text of cells [0, end) to `out`, which has room for
  // end * kMaxCellBytes bytes; returns the end of what it wrote.
  static char* EncodeCells(const Line& line, size_t end, char* out, bool tabs = false);
  void MarkTab(int from, int to);
  static constexpr size_t kMaxCellBytes = kMaxClusterBytes + 3;
  // Erased cells keep background `bg` (the current one for erases: BCE, as tmux).
  void BlankCells(Line* line, int from, int to, uint32_t bg = 0);
  static void Touch(Line* line, int end) { line->extent = std::max(line->extent, end); }
  static size_t Extent(const Line& line) { return std::min(line.cells.size(), static_cast<size_t>(line.extent)); }
  void BlankRows(int from, int to, uint32_t bg = 0);
  void SplitWideAt(Line* line, int col);
  void PushHistory(const Line& line);
  void TrimHistory();
  HistoryLine ToHistory(const Line& line);
  static Line FromHistory(const HistoryLine& h, int cols);

  // Resize, in terminal_resize.cc.
  void ResizeMainHeight(int rows, int* cursor_row);
  void ReflowMain(int cols, int* cursor_row, int* cursor_col, bool* wrap_next);
  static void CutBuffer(Buffer* b, int cols, int rows, int* cursor_row);
  static void Rewrap(std::vector<Line>* all, size_t first, size_t last, int cols,
                     std::vector<Line>* out, std::vector<uint64_t>* map);
  static std::vector<Line> TakeLines(Buffer* b);
  static void PutLines(Buffer* b, std::vector<Line> lines);

  // What DECSC saves and DECRC restores.
  struct SavedCursor {
    int row = 0;
    int col = 0;
    // Past the last column (a wrap pending): where a reflow puts the cursor.
    // DECRC does not restore the pending wrap itself (RestoreCursor).
    bool wrap_next = false;
    bool origin_mode = false;
    bool graphics[2] = {false, false};
    int shift = 0;
    Cell pen;
  };

  VtParser parser_;
  int cols_;
  int rows_;
  Buffer main_;
  Buffer alt_;
  Buffer* screen_ = &main_;
  bool alt_screen_ = false;
  Cursor cursor_;
  // The last character filled the last column: the next one wraps first.
  bool wrap_next_ = false;
  Cell pen_;  // the attributes new characters get (SGR); its ch is unused
  SavedCursor saved_[2];  // main screen, alternate screen
  int top_ = 0;           // scroll region: rows [top_, bottom_)
  int bottom_;
  std::vector<bool> tab_stops_;
  // What REP repeats: the character just printed if it was ASCII, else 0
  // (as tmux, which repeats nothing after other characters or sequences).
  char32_t last_char_ = 0;
  // A zero-width joiner came: the next character joins the cell before (tmux).
  bool joining_ = false;
  // A UTF-8 character in progress: the code point so far and the bytes missing.
  char32_t utf8_cp_ = 0;
  int utf8_missing_ = 0;
  int utf8_length_ = 0;

  // Modes.
  bool autowrap_ = true;
  bool origin_mode_ = false;
  bool insert_mode_ = false;
  bool newline_mode_ = false;
  bool graphics_[2] = {false, false};  // G0, G1 hold DEC line drawing
  int shift_ = 0;                      // SI selects G0, SO G1
  bool bracketed_paste_ = false;
  bool app_cursor_keys_ = false;
  bool app_keypad_ = false;
  bool synchronized_update_ = false;
  std::map<int, bool> other_modes_;  // kept only to answer DECRQM
  uint64_t synchronized_updates_ = 0;
  uint64_t da1_queries_ = 0;

  std::string title_;
  std::map<int, std::string> osc_;
  std::map<int, uint64_t> osc_frame_;
  std::map<int, OscPlace> osc_place_;
  std::string replies_;

  std::deque<HistoryLine> history_;
  std::vector<char> encode_buf_;  // PushHistory's scratch, reused
  size_t scrollback_limit_;
  bool pinned_ = false;
  uint64_t pin_row_ = 0;
  uint64_t lines_scrolled_ = 0;
  uint64_t generation_ = 0;
  // The last reflow: absolute row resize_base_ + i went to resize_map_[i];
  // rows from resize_old_end_ on moved to resize_new_end_ on.
  uint64_t resize_base_ = 0;
  std::vector<uint64_t> resize_map_;
  uint64_t resize_old_end_ = 0;
  uint64_t resize_new_end_ = 0;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_TERMINAL_H_

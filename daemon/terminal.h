// The terminal emulator: bytes from the program in, a screen, a scrollback
// history and reply bytes (answers to DA/DSR/colour queries) out. Pure: it
// does no I/O, so it is tested and fuzzed on byte strings.
//
// libvterm's state layer parses escape sequences; the screen itself is ours,
// because libvterm 0.1.4's screen layer is four times slower than its state
// layer and mishandles overwriting half of a wide character. Rows live in a
// fixed pool and scrolling rotates row indices, so scrolling never copies the
// screen; lines that leave the top go to a bounded history.
//
// Rows are numbered two ways. Screen rows are 0..rows()-1. Absolute rows
// count every line since the start: absolute row lines_scrolled() + r is
// screen row r, and smaller absolute rows are in the history. An ask keeps
// its absolute start row, so its reply survives scrolling.
#ifndef TUIDRIVER_TERMINAL_H_
#define TUIDRIVER_TERMINAL_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct VTerm;
struct VTermState;

namespace tuidriver {

struct CsiParams;

struct Cursor {
  int row = 0;
  int col = 0;
  bool visible = true;
};

class Terminal {
 public:
  // `scrollback_limit` lines of history are kept (more while pinned).
  Terminal(int cols, int rows, size_t scrollback_limit);
  ~Terminal();
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  // Feeds program output. Split escape sequences and split UTF-8 characters
  // are carried over to the next call.
  void Feed(const char* data, size_t len);

  // Bytes the terminal must send back to the program (device attributes,
  // cursor position reports, colour and keyboard-protocol queries), since
  // the last call. The caller writes them to the PTY.
  std::string TakeReplies();

  // Changes the size. History is kept; rows that no longer fit above the
  // cursor move into the history.
  void Resize(int cols, int rows);

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

  // Text of screen row `row`, without trailing blanks.
  std::string RowText(int row) const;
  std::vector<std::string> ScreenLines() const;
  // Text of the first `cols` columns of screen row `row`, blanks kept.
  std::string RowPrefix(int row, int cols) const;
  // True when the terminal wrapped screen row `row` onto the next row.
  bool RowWrapped(int row) const;

  // Lines that have left the top of the main screen, ever.
  uint64_t lines_scrolled() const { return lines_scrolled_; }
  // The oldest absolute row still held.
  uint64_t first_retained_row() const { return lines_scrolled_ - history_.size(); }
  size_t scrollback_size() const { return history_.size(); }
  // Text and wrap flag of absolute row `abs`; false if it is not held.
  bool LineAt(uint64_t abs, std::string* text, bool* wrapped) const;

  // While pinned, history at or after absolute row `abs` is never dropped,
  // whatever the limit (a long reply must survive until it is read).
  void PinHistory(uint64_t abs);
  void UnpinHistory();

  // Changes whenever anything visible changes; cheap to poll.
  uint64_t generation() const { return generation_; }

 private:
  // A blank cell is all zero bytes, so rows are blanked with memset.
  enum CellKind : uint8_t { kNarrow = 0, kWideLeft = 1, kWideRight = 2 };
  struct Cell {
    char32_t ch[3] = {0, 0, 0};  // base character + up to two combining
    CellKind kind = kNarrow;     // the halves of a wide character are marked
  };
  struct Line {
    std::vector<Cell> cells;
    bool wrapped = false;
  };
  struct Buffer {
    std::vector<Line> pool;   // the rows' storage
    std::vector<int> order;   // screen row -> index into pool
  };
  struct HistoryLine {
    std::string text;
    bool wrapped = false;
  };

  // libvterm callbacks (static trampolines live in terminal.cc).
  friend struct TerminalCallbacks;
  void PutGlyph(const uint32_t* chars, int width, int row, int col);
  void PutGlyphSlow(Line* line, const uint32_t* chars, int width, int col);
  void MoveCursor(int row, int col, bool visible);
  void ScrollRect(int top, int bottom, int left, int right, int down, int rightward);
  void Erase(int top, int bottom, int left, int right);
  void SetProp(int prop, const void* value);
  void OnResize(int rows, int cols, int* delta_row);
  bool OnUnknownCsi(const char* leader, const long* args, int argc, char command);
  bool OnUnknownOsc(const char* command, size_t len);

  // Pre-filter for what libvterm 0.1.4 lacks; see terminal.cc.
  void Filter(const char* data, size_t len);
  size_t FilterEscape(const char* p, const char* end, std::string* replacement);
  size_t FilterSequence(const char* p, const char* end, std::string* replacement);
  size_t FilterDcs(const char* p, const char* end, std::string* replacement);
  const char* SkipDcs(const char* p, const char* end);
  size_t FilterOsc(const char* p, const char* end);
  void ClampCursor();
  bool CursorOnScreen() const;
  void TrackPrivateModes(const std::string& params, bool set);
  void Write(const char* data, size_t len);

  Line& ScreenLine(int row);
  const Line& ScreenLine(int row) const;
  static std::string LineText(const Line& line, size_t end);
  // Writes the UTF-8 text of cells [0, end) to `out`, which has room for
  // end * kMaxCellBytes bytes; returns the end of what it wrote.
  static char* EncodeCells(const Cell* cells, size_t end, char* out);
  static constexpr size_t kMaxCellBytes = 12;  // three code points
  void BlankCells(Line* line, int from, int to);
  void SplitWideAt(Line* line, int col);
  void PushHistory(const Line& line);
  void TrimHistory();
  static void ResizeBuffer(Buffer* b, int cols, int rows, int drop_top);

  VTerm* vt_;
  VTermState* state_;
  int cols_;
  int rows_;
  Buffer main_;
  Buffer alt_;
  Buffer* screen_ = &main_;
  bool alt_screen_ = false;
  Cursor cursor_;
  std::string title_;
  std::map<int, std::string> osc_;
  std::map<int, uint64_t> osc_frame_;
  std::string replies_;
  std::string carry_;  // an escape sequence split across Feed calls
  // Set while a long CSI's parameters go on past the last Feed (see
  // kCsiArgsMax in terminal.cc).
  std::unique_ptr<CsiParams> csi_params_;
  bool cursor_restored_ = false;  // the replacement just written restores the cursor
  bool unknown_setting_asked_ = false;  // a DECRQSS for libvterm to skip (see FilterDcs)
  bool skipping_dcs_ = false;  // inside a long DCS, dropped to its end  // a character of width > 0 was ever printed
  bool carry_esc_ = false;  // an ESC ended the last Feed after a long run of controls

  bool bracketed_paste_ = false;
  bool app_cursor_keys_ = false;
  bool app_keypad_ = false;
  bool synchronized_update_ = false;
  uint64_t synchronized_updates_ = 0;
  uint64_t da1_queries_ = 0;
  std::string pending_modes_;  // a DECSET/DECRST seen, not yet applied
  bool pending_modes_set_ = false;

  // Since the last glyph the cursor only advanced past it: if the next glyph
  // lands at column 0 of the row below because it did not fit, the row wrapped.
  bool wrap_pending_ = false;
  int last_glyph_row_ = 0;
  int last_glyph_end_ = 0;  // the column after the last glyph

  std::deque<HistoryLine> history_;
  std::vector<char> encode_buf_;  // PushHistory's scratch, reused
  size_t scrollback_limit_;
  bool pinned_ = false;
  uint64_t pin_row_ = 0;
  uint64_t lines_scrolled_ = 0;
  uint64_t generation_ = 0;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_TERMINAL_H_

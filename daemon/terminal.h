// The terminal emulator: bytes from the program in, a screen, a scrollback
// history and reply bytes (answers to DA/DSR/colour queries) out. Pure: it
// does no I/O, so it is tested and fuzzed on byte strings.
//
// Three layers, as tmux's: VtParser (vt_parser.h, tmux's input.c) splits
// the bytes into text, controls and sequences, and this class dispatches
// them: it maps each to an operation of the Screen (screen_write.h, tmux's
// screen-write.c: the cursor, the pending wrap, the scroll region, the
// drawing modes, the saved cursors, erasing and scrolling), answers the
// queries, and keeps what is not drawn (the title, OSC payloads, the key
// and report modes). Grid (grid.h, tmux's grid.c), under the Screen, holds
// the cells, the history and the reflow. tmux is the reference the tests
// compare screens with.
//
// Rows are numbered two ways. Screen rows are 0..rows()-1. Absolute rows
// count every line held: absolute row lines_scrolled() + r is screen row r,
// and smaller absolute rows are in the history. An ask keeps its absolute
// start row, so its reply survives scrolling; a resize that reflows lines
// renumbers rows, and RowAfterResize says where each went.
#ifndef TUIDRIVER_TERMINAL_H_
#define TUIDRIVER_TERMINAL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "grid.h"
#include "screen_write.h"
#include "vt_parser.h"

namespace tuidriver {

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
  uint64_t RowAfterResize(uint64_t abs) const { return screen_.grid().RowAfterResize(abs); }

  int cols() const { return screen_.cols(); }
  int rows() const { return screen_.rows(); }
  Cursor cursor() const { return screen_.cursor(); }
  bool alt_screen() const { return screen_.alt(); }
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
  using OscPlace = GridPlace;
  OscPlace osc_place(int number) const { return screen_.place(number); }
  // Its column then. With a wrap pending the mark is at the start of the
  // next row, where the next character goes (an end mark after a full row
  // ends the reply with that row whole).
  int osc_col(int number) const { return osc_place(number).col; }

  // Text of screen row `row`, without trailing blanks.
  std::string RowText(int row) const { return screen_.grid().RowText(row); }
  std::vector<std::string> ScreenLines() const;
  // Text of the first `cols` columns of screen row `row`, blanks kept.
  std::string RowPrefix(int row, int cols) const { return screen_.grid().RowPrefix(row, cols); }
  // True when the terminal wrapped screen row `row` onto the next row.
  bool RowWrapped(int row) const { return screen_.grid().RowWrapped(row); }
  // The styled runs of screen row `row`, left to right; default cells are in none.
  std::vector<StyleRun> RowStyles(int row) const { return screen_.grid().RowStyles(row); }

  // Lines that have left the top of the main screen, ever.
  uint64_t lines_scrolled() const { return screen_.grid().lines_scrolled(); }
  // The oldest absolute row still held.
  uint64_t first_retained_row() const { return screen_.grid().first_retained_row(); }
  size_t scrollback_size() const { return screen_.grid().history_size(); }
  // Text and wrap flag of absolute row `abs`; false if it is not held. A
  // wrapped row keeps its trailing spaces: they are part of the line. With
  // `tabs`, cells a TAB moved over come back as that TAB (replies,
  // scrollback); else as the spaces the screen shows.
  bool LineAt(uint64_t abs, std::string* text, bool* wrapped, bool tabs = false) const {
    return screen_.grid().LineAt(abs, text, wrapped, tabs);
  }
  // Text of absolute row `abs` left of column `col`, trailing blanks
  // dropped, TABs given back (as LineAt with `tabs`); false if the row is
  // not held.
  bool LineBefore(uint64_t abs, int col, std::string* text) const { return screen_.grid().LineBefore(abs, col, text); }

  // While pinned, history at or after absolute row `abs` is never dropped,
  // whatever the limit (a long reply must survive until it is read).
  void PinHistory(uint64_t abs) { screen_.grid().PinHistory(abs); }
  void UnpinHistory() { screen_.grid().UnpinHistory(); }

  // Changes whenever anything visible changes; cheap to poll.
  uint64_t generation() const { return generation_; }

  // For tests and the fuzzer: every row of both screens is blank past its
  // extent (what blanking and trimming rely on).
  bool BlankPastExtent() const { return screen_.grid().BlankPastExtent(); }

 private:
  // What VtParser found (see vt_parser.h).
  void Print(const unsigned char* text, size_t len) override;
  void Execute(unsigned char control) override;
  void Escape(char intermediate, char final) override;
  void Csi(const CsiSequence& csi) override;
  void Osc(const std::string& payload) override;
  void Dcs(const std::string& payload) override;

  // Text the screen cannot take as a run: a byte of a multi-byte character.
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
  // RIS: the screen's reset and the modes kept here.
  void Reset();

  VtParser parser_;
  Screen screen_;
  // A UTF-8 character in progress: the code point so far and the bytes missing.
  char32_t utf8_cp_ = 0;
  int utf8_missing_ = 0;
  int utf8_length_ = 0;

  // Modes that change no drawing: keys, pasting, reports.
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
  std::string replies_;

  uint64_t generation_ = 0;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_TERMINAL_H_

// The emulator's middle layer, as tmux's screen-write.c: the screen a
// program draws on and the operations it draws with. It owns the Grid
// (grid.h) and what decides where and how the next character lands: the
// cursor and its pending wrap, the scroll region, the tab stops, the pen
// (the attributes SGR sets), the drawing modes (autowrap, origin, insert,
// new line, the DEC line-drawing charsets), the cursors DECSC saves on each
// screen, and the places OSC marks were left at. It knows no escape
// sequence: Terminal (terminal.h) reads them and calls these operations.
//
// The operations behave as xterm and tmux 3.3 do (tmux is the reference);
// where the two differ, the comment in screen_write.cc says which is
// followed. Printable runs are written straight into the row (WriteRun),
// because program output is mostly text and the emulator must keep up with
// the PTY.
#ifndef TUIDRIVER_SCREEN_WRITE_H_
#define TUIDRIVER_SCREEN_WRITE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "grid.h"

namespace tuidriver {

struct Cursor {
  int row = 0;
  int col = 0;
  bool visible = true;
};

class Screen {
 public:
  // `scrollback_limit` lines of history are kept (more while pinned).
  Screen(int cols, int rows, size_t scrollback_limit);

  // The cells, for reading and for pinning the history; drawing goes
  // through the operations below.
  const Grid& grid() const { return grid_; }
  Grid& grid() { return grid_; }
  int cols() const { return grid_.cols(); }
  int rows() const { return grid_.rows(); }
  bool alt() const { return grid_.alt(); }
  Cursor cursor() const { return cursor_; }
  // The last character filled the last column: the next one wraps first.
  bool wrap_pending() const { return wrap_next_; }
  // Scroll region: rows [region_top(), region_bottom()).
  int region_top() const { return top_; }
  int region_bottom() const { return bottom_; }

  // ---- text
  // Writes the whole characters at `p`, up to `end`, the right margin or
  // the first character that needs more than a plain write (one
  // WriteChar does then). Returns where it stopped: `p` itself when the
  // bytes there are no whole, valid UTF-8 character (the caller decodes
  // them a byte at a time and calls WriteChar).
  const unsigned char* WriteRun(const unsigned char* p, const unsigned char* end);
  // Modes under which every character must go through WriteChar.
  bool WritesOneByOne() const { return graphics_[shift_] || insert_mode_ || joining_; }
  // One character: wraps, inserts, joins marks and maps line drawing as
  // the modes say. C1 controls are dropped.
  void WriteChar(char32_t cp);
  // REP: the ASCII character just written, `count` times, never past the
  // right margin (as tmux). Nothing if the last thing was not ASCII text.
  void Repeat(int count);
  // Anything but text came: REP has nothing to repeat.
  void ForgetLastChar() { last_char_ = 0; }

  // ---- the cursor (every move cancels a pending wrap, unless it says not)
  void MoveTo(int row, int col);  // clamped to the screen
  // CUP: `row` counts from the region's top in origin mode, and stays in it.
  void CursorTo(int row, int col);
  // Up or down `count` rows, stopping at the region's edge when it starts inside.
  void CursorUp(int count);
  void CursorDown(int count);
  void CarriageReturn();
  // BS: back one column; with a wrap pending, back onto the last column.
  void Backspace();
  // The TAB control: to the next stop, marking the blank cells it moved
  // over (so text read with tabs gives the TAB back). A pending wrap stays.
  void Tab();
  // CHT and CBT: `count` stops forward or back, marking nothing.
  void TabForward(int count);
  void TabBack(int count);
  void SetTabStop();
  void ClearTabStop();
  void ClearAllTabStops();

  // ---- lines and scrolling (new rows get the pen's background: BCE)
  // LF, VT, FF: down a row, scrolling at the region's bottom; to column 0
  // too in new-line mode.
  void LineFeed();
  void Index();           // IND: down a row, scrolling at the region's bottom
  void NextLine();        // NEL: column 0, then IND
  void ReverseIndex();    // RI: up a row, scrolling down at the region's top
  void ScrollUp(int count);    // SU: the region, into the history if it is the screen's top
  void ScrollDown(int count);  // SD
  // IL and DL, at the cursor's row inside the scroll region (else nothing).
  void InsertLines(int count);
  void DeleteLines(int count);
  // DECSTBM: rows [top, bottom), bottom cut to the screen; two rows at
  // least, else nothing. Homes the cursor.
  void SetRegion(int top, int bottom);

  // ---- erasing and editing (erased cells get the pen's background)
  // ED and EL: 0 from the cursor, 1 up to it, 2 all. Both keep a pending wrap.
  void EraseInDisplay(int how);
  void EraseInLine(int how);
  void EraseCells(int count);   // ECH
  void InsertCells(int count);  // ICH
  void DeleteCells(int count);  // DCH
  void AlignmentTest();         // DECALN: the screen full of 'E'

  // ---- the pen and the modes
  GridCell& pen() { return pen_; }  // SGR sets it; its ch is unused
  bool autowrap() const { return autowrap_; }
  void SetAutowrap(bool on);
  bool origin_mode() const { return origin_mode_; }
  void SetOriginMode(bool on);  // homes the cursor
  bool insert_mode() const { return insert_mode_; }
  void set_insert_mode(bool on) { insert_mode_ = on; }
  bool newline_mode() const { return newline_mode_; }
  void set_newline_mode(bool on) { newline_mode_ = on; }
  void set_cursor_visible(bool on) { cursor_.visible = on; }
  // ESC ( 0 and ESC ( B: G0 (or G1, `set` 1) holds DEC line drawing or not.
  void SetLineDrawing(int set, bool on) { graphics_[set] = on; }
  // SI (0) and SO (1): which of G0 and G1 is used.
  void SelectCharset(int set) { shift_ = set; }

  // ---- saved cursors and screens
  // DECSC and DECRC, one saved cursor per screen: the place, the origin
  // mode, the charsets and the pen.
  void SaveCursor();
  void RestoreCursor();
  // To the alternate screen (blank each time) or back to the main one.
  void SwitchScreen(bool alt);
  // DECSTR, a soft reset: the modes, the pen and the region.
  void SoftReset();
  // RIS: the main screen blank, every mode, saved cursor, tab stop and
  // place reset. The history stays.
  void Reset();
  // As Terminal::Resize (terminal.h). False if the size is the same.
  bool Resize(int cols, int rows);

  // ---- places (where OSC marks came, terminal.h's osc_place)
  // Keeps where the next character goes under `key`. The place follows its
  // text through scrolling and reflow, and is forgotten (held false) when
  // its cells are erased or its screen (the alternate one) is left.
  void KeepPlace(int key);
  GridPlace place(int key) const;  // held false if none was kept

 private:
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
    GridCell pen;
  };

  // Cells [0, n) get the ASCII characters text[0, n) in the pen's style.
  static void FillAscii(GridCell* cells, const unsigned char* text, size_t n, const GridCell& pen);
  void WriteWide(GridLine* line, int col, char32_t cp, int width);
  void AddCombining(char32_t cp);
  void WrapToNextLine();
  // Down one row, scrolling at the region's bottom; new rows get background `bg`.
  void IndexWith(uint32_t bg);
  void MarkTab(int from, int to);
  void ResetTabStops();
  // Forgets the places on the current screen from screen row/column `from`
  // up to (not including) `to`, in reading order: their cells were erased.
  void ForgetPlaces(int from_row, int from_col, int to_row, int to_col);

  Grid grid_;
  Cursor cursor_;
  bool wrap_next_ = false;
  GridCell pen_;
  SavedCursor saved_[2];  // main screen, alternate screen
  int top_ = 0;           // scroll region: rows [top_, bottom_)
  int bottom_;
  std::vector<bool> tab_stops_;
  // What REP repeats: the character just written if it was ASCII, else 0
  // (as tmux, which repeats nothing after other characters or sequences).
  char32_t last_char_ = 0;
  // A zero-width joiner came: the next character joins the cell before (tmux).
  bool joining_ = false;

  bool autowrap_ = true;
  bool origin_mode_ = false;
  bool insert_mode_ = false;
  bool newline_mode_ = false;
  bool graphics_[2] = {false, false};  // G0, G1 hold DEC line drawing
  int shift_ = 0;                      // SI selects G0, SO G1

  std::map<int, GridPlace> places_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_SCREEN_WRITE_H_

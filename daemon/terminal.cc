#include "terminal.h"

#include <vterm.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "utf8.h"

namespace tuidriver {

// Called for every character the program prints, so the common case (a
// narrow character over a narrow cell) makes no call and its bookkeeping is
// done before the cell is written (no reloads through the cell pointer).
// Defined first so that libvterm's callback below inlines it.
inline __attribute__((always_inline)) void Terminal::PutGlyph(const uint32_t* chars, int width,
                                                              int row, int col) {
  const int cols = cols_;
  if (static_cast<unsigned>(row) >= static_cast<unsigned>(rows_) ||
      static_cast<unsigned>(col) >= static_cast<unsigned>(cols)) {
    return;
  }
  const int* order = screen_->order.data();
  Line* pool = screen_->pool.data();
  const int cells = width == 2 ? 2 : 1;
  // A glyph at column 0 right after one that left it no room in the row
  // above, with no cursor move between: the terminal wrapped that row.
  if (wrap_pending_ && col == 0 && row > 0 && last_glyph_end_ + cells > cols) {
    pool[order[row - 1]].wrapped = true;
  }
  wrap_pending_ = true;
  last_glyph_row_ = row;
  last_glyph_end_ = col + cells;
  ++generation_;
  Line& line = pool[order[row]];
  Cell* cell = line.cells.data() + col;
  if (width == 2 || cell->kind != kNarrow) {
    PutGlyphSlow(&line, chars, width, col);
    return;
  }
  // libvterm ends `chars` with a 0 when it holds fewer than its maximum.
  uint32_t second = chars[1];
  cell->ch[0] = chars[0];
  cell->ch[1] = second;
  cell->ch[2] = second ? chars[2] : 0;
}

// Static trampolines from libvterm's C callbacks to Terminal's methods.
struct TerminalCallbacks {
  static Terminal* T(void* user) { return static_cast<Terminal*>(user); }

  static int PutGlyph(VTermGlyphInfo* info, VTermPos pos, void* user) {
    T(user)->PutGlyph(info->chars, info->width, pos.row, pos.col);
    return 1;
  }
  static int MoveCursor(VTermPos pos, VTermPos, int visible, void* user) {
    T(user)->MoveCursor(pos.row, pos.col, visible != 0);
    return 1;
  }
  static int ScrollRect(VTermRect r, int down, int right, void* user) {
    T(user)->ScrollRect(r.start_row, r.end_row, r.start_col, r.end_col, down, right);
    return 1;
  }
  static int Erase(VTermRect r, int, void* user) {
    T(user)->Erase(r.start_row, r.end_row, r.start_col, r.end_col);
    return 1;
  }
  static int SetTermProp(VTermProp prop, VTermValue* val, void* user) {
    T(user)->SetProp(prop, val);
    return 1;
  }
  static int Resize(int rows, int cols, VTermPos* delta, void* user) {
    T(user)->OnResize(rows, cols, &delta->row);
    return 1;
  }
  static int Csi(const char* leader, const long args[], int argc, const char*,
                 char command, void* user) {
    return T(user)->OnUnknownCsi(leader, args, argc, command) ? 1 : 0;
  }
  static int Osc(const char* command, size_t len, void* user) {
    return T(user)->OnUnknownOsc(command, len) ? 1 : 0;
  }
  static void Output(const char* s, size_t len, void* user) {
    T(user)->replies_.append(s, len);
  }
};

// Where a CSI is while its parameters arrive: leader bytes ("?", ">")
// first, then arguments. libvterm bounds the leader, not the arguments.
struct CsiParams {
  bool leader = true;       // still where leader bytes may come
  bool has_leader = false;  // one came
  int separators = 0;
};

namespace {

const VTermStateCallbacks kStateCallbacks = {
    TerminalCallbacks::PutGlyph,   TerminalCallbacks::MoveCursor,
    TerminalCallbacks::ScrollRect, nullptr /* moverect: scrollrect does it */,
    TerminalCallbacks::Erase,      nullptr /* initpen */,
    nullptr /* setpenattr: no colours kept */,
    TerminalCallbacks::SetTermProp, nullptr /* bell */,
    TerminalCallbacks::Resize,     nullptr /* setlineinfo */,
};

const VTermParserCallbacks kFallbacks = {
    nullptr, nullptr, nullptr, TerminalCallbacks::Csi, TerminalCallbacks::Osc,
    nullptr, nullptr,
};

// A longer run is not an escape sequence we rewrite; pass it through.
constexpr size_t kMaxCarry = 64;
// A DCS cut by the end of the data waits whole for the rest up to this.
constexpr size_t kMaxDcsCarry = 4096;

// libvterm 0.1.4 keeps 16 CSI arguments but does not bound their count: a
// 17th writes past its array, so any program printing ESC [ 1;1;...;1 m
// crashed the daemon (found by terminal_fuzz). Arguments past the 16th are
// dropped before libvterm sees them, as later libvterm versions do.
constexpr int kCsiArgsMax = 16;

// Bytes libvterm executes inside a CSI without ending it: C0 controls but
// CAN, SUB and ESC, which cancel it, and NUL and DEL, which it ignores.
bool InsideCsi(unsigned char b) {
  return (b < 0x20 && b != 0x18 && b != 0x1a && b != 0x1b) || b == 0x7f;
}

// Scans CSI parameter bytes from p and returns where they end (end if they
// go on past the buffer). With `out`, appends them without the arguments
// past the 16th.
const char* ScanCsiParams(const char* p, const char* end, CsiParams* csi, std::string* out) {
  for (; p < end; ++p) {
    unsigned char b = static_cast<unsigned char>(*p);
    if (csi->leader && b >= 0x3c && b <= 0x3f) {
      csi->has_leader = true;
    } else if (!InsideCsi(b)) {
      csi->leader = false;
      if (b == ';' || b == ':') ++csi->separators;
      else if (b < '0' || b > '9') break;
      if (csi->separators >= kCsiArgsMax) continue;  // dropped
    }
    if (out) out->push_back(*p);
  }
  return p;
}


// U+0080..U+009F (C1 controls) sent as UTF-8: libvterm 0.1.4 prints most
// of them as glyphs of width -1, moving the cursor left, off the screen at
// column 0 (found by terminal_fuzz). Its decoder executes controls that
// come inside a character, so "C2 LF 80" is one too. Copies `data` without
// them (their controls kept) into *out and returns true, or returns false
// when there are none (the usual case, found with one memchr). A C2 that
// only controls follow to the end goes after them, to wait for the rest
// like any cut character.
bool StripC1(const char* data, size_t len, std::string* out) {
  const char* end = data + len;
  const char* c2 = static_cast<const char*>(memchr(data, 0xC2, len));
  bool stripped = false;
  const char* copied = data;
  while (c2) {
    const char* q = c2 + 1;
    while (q < end && InsideCsi(static_cast<unsigned char>(*q))) ++q;
    unsigned char next = q < end ? static_cast<unsigned char>(*q) : 0;
    bool c1 = q < end && next >= 0x80 && next <= 0x9f;
    if (c1 || (q == end && q > c2 + 1)) {
      if (!stripped) out->clear();
      stripped = true;
      out->append(copied, static_cast<size_t>(c2 - copied));
      out->append(c2 + 1, static_cast<size_t>(q - c2 - 1));  // the controls
      if (!c1) out->push_back('\xC2');  // the cut character's start
      copied = c1 ? q + 1 : end;
    }
    if (q >= end) break;
    c2 = static_cast<const char*>(memchr(q, 0xC2, static_cast<size_t>(end - q)));
  }
  if (stripped) out->append(copied, static_cast<size_t>(end - copied));
  return stripped;
}

// Bytes at the end of `data` that start a UTF-8 character but do not
// finish it (0 to 3).
size_t IncompleteUtf8Tail(const char* data, size_t len) {
  for (size_t back = 1; back <= 3 && back <= len; ++back) {
    unsigned char b = static_cast<unsigned char>(data[len - back]);
    if ((b & 0xC0) == 0x80) continue;  // a continuation byte: look further back
    size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

}  // namespace

Terminal::Terminal(int cols, int rows, size_t scrollback_limit)
    : vt_(vterm_new(rows, cols)), cols_(cols), rows_(rows),
      scrollback_limit_(scrollback_limit) {
  vterm_set_utf8(vt_, 1);
  vterm_output_set_callback(vt_, TerminalCallbacks::Output, this);
  state_ = vterm_obtain_state(vt_);
  vterm_state_set_callbacks(state_, &kStateCallbacks, this);
  vterm_state_set_unrecognised_fallbacks(state_, &kFallbacks, this);
  ResizeBuffer(&main_, cols, rows, 0);
  ResizeBuffer(&alt_, cols, rows, 0);
  vterm_state_reset(state_, 1);
  // REP (CSI b) repeats the last character; with none printed yet libvterm
  // 0.1.4 loops forever (found by terminal_fuzz: `printf '\e[b'` hung the
  // daemon). A blank printed and taken back gives it one to repeat.
  vterm_input_write(vt_, " \r", 2);
}

Terminal::~Terminal() { vterm_free(vt_); }

void Terminal::Feed(const char* data, size_t len) {
  if (carry_.empty()) {
    Filter(data, len);
    return;
  }
  std::string joined;
  joined.swap(carry_);
  joined.append(data, len);
  Filter(joined.data(), joined.size());
}

std::string Terminal::TakeReplies() {
  std::string out;
  out.swap(replies_);
  return out;
}

void Terminal::Write(const char* data, size_t len) {
  if (len > 0) vterm_input_write(vt_, data, len);
  // Whatever way libvterm found off the screen (see ClampCursor), the cursor
  // is back on it before anyone looks.
  if (!CursorOnScreen()) ClampCursor();
}

// libvterm 0.1.4 lacks CSI s / CSI u (save/restore cursor, which it reads
// as DECSLRM) and mode ?47, and its private modes are not readable. So we
// rewrite those three into what it knows, and watch the modes we need on the
// way. Everything else goes through untouched, in as few writes as possible.
void Terminal::Filter(const char* data, size_t len) {
  std::string without_c1;
  if (StripC1(data, len, &without_c1)) {
    data = without_c1.data();
    len = without_c1.size();
  }
  const char* p = data;
  const char* end = data + len;
  if (skipping_dcs_) p = SkipDcs(p, end);
  if (csi_params_) {
    // A long CSI's parameters go on from the last Feed.
    std::string bounded;
    p = ScanCsiParams(p, end, csi_params_.get(), &bounded);
    Write(bounded.data(), bounded.size());
    if (p < end) csi_params_.reset();
  }
  const char* segment = p;
  std::string replacement;
  while (p < end) {
    const char* esc = static_cast<const char*>(memchr(p, 0x1b, static_cast<size_t>(end - p)));
    if (!esc) break;
    size_t used = FilterEscape(esc, end, &replacement);
    if (used == 0) {  // incomplete: keep it for the next Feed
      Write(segment, static_cast<size_t>(esc - segment));
      carry_.assign(esc, end);
      return;
    }
    if (used == SIZE_MAX) {
      p = esc + 1;
      continue;
    }
    Write(segment, static_cast<size_t>(esc - segment));
    if (pending_modes_set_ || !pending_modes_.empty()) {
      TrackPrivateModes(pending_modes_, pending_modes_set_);
      pending_modes_.clear();
      pending_modes_set_ = false;
    }
    Write(replacement.data(), replacement.size());
    if (cursor_restored_) ClampCursor();
    if (unknown_setting_asked_) {
      replies_ += "\x1bP0$r\x1b\\";  // DECRQSS: not a valid request
      unknown_setting_asked_ = false;
    }
    segment = esc + used;
    p = segment;
  }
  // libvterm 0.1.4 garbles a UTF-8 character split between two writes, so
  // an unfinished one at the end waits for the rest.
  size_t tail = IncompleteUtf8Tail(segment, static_cast<size_t>(end - segment));
  Write(segment, static_cast<size_t>(end - segment) - tail);
  if (tail > 0) carry_.assign(end - tail, end);
  if (carry_esc_) {
    carry_ = "\x1b";
    carry_esc_ = false;
  }
}

// Looks at the escape sequence at `p`. Returns 0 if it is cut off by `end`,
// SIZE_MAX to pass it through unchanged, or the number of bytes to replace
// with *replacement.
size_t Terminal::FilterEscape(const char* p, const char* end, std::string* replacement) {
  size_t avail = static_cast<size_t>(end - p);
  // Bytes libvterm 0.1.4 lets sit between an ESC and the byte that says
  // what it starts: controls (executed), intermediates ("ESC ( B") and
  // bytes >= 0x80 (ignored). With them, "ESC SP [" and "ESC \xff [" still
  // start a CSI, and "ESC NUL \" ends a string miscounted: libvterm reads
  // past its input (both found by terminal_fuzz).
  size_t k = 1;
  bool controls_seen = false;
  bool intermediates_seen = false;  // "ESC # 8" is DECALN, not "ESC 8"
  for (; k < avail; ++k) {
    unsigned char b = static_cast<unsigned char>(p[k]);
    if (InsideCsi(b)) controls_seen = true;
    else if (b >= 0x20 && b <= 0x2f) intermediates_seen = true;
    else if (b < 0x20 || (b > 0x2f && b < 0x80)) break;
  }
  if (k == 1) return FilterSequence(p, end, replacement);
  if (k == avail) {
    if (avail < kMaxCarry) return 0;
    // A long run: what is executed goes now, the ESC waits for the next Feed.
    replacement->clear();
    for (size_t i = 1; i < k; ++i) {
      if (InsideCsi(static_cast<unsigned char>(p[i]))) replacement->push_back(p[i]);
    }
    carry_esc_ = true;
    return avail;
  }
  char x = p[k];
  if (x == '\\') {  // a string's end: nothing else in between
    *replacement = "\x1b\\";
    return k + 1;
  }
  // The controls act the same before the ESC, so they move there; what
  // else was in between is dropped.
  std::string controls;
  for (size_t i = 1; i < k; ++i) {
    if (InsideCsi(static_cast<unsigned char>(p[i]))) controls.push_back(p[i]);
  }
  if (x == 0x1b || x == 0x18 || x == 0x1a) {
    // Another ESC, CAN or SUB cancels this ESC: only the controls remain,
    // and the next ESC is looked at on its own.
    *replacement = controls;
    return k;
  }
  // p + k - 1 stands for the ESC: FilterSequence never reads its first byte.
  // After intermediates only a CSI, DCS or OSC is still what it says.
  bool starts_string_or_csi = x == '[' || x == 'P' || x == ']';
  size_t used = intermediates_seen && !starts_string_or_csi ? SIZE_MAX
                                                            : FilterSequence(p + k - 1, end, replacement);
  if (used == 0) return 0;
  if (used == SIZE_MAX && !controls_seen) return SIZE_MAX;  // "ESC ( B": as it is
  if (used == SIZE_MAX) {
    // Passed on after the controls, and a CSI whole, in one write:
    // libvterm 0.1.4 loses one cut after its "ESC [".
    size_t seq_end = k + 1;
    if (x == '[') {
      CsiParams csi;
      seq_end = static_cast<size_t>(ScanCsiParams(p + k + 1, end, &csi, nullptr) - p);
      while (seq_end < avail && p[seq_end] >= 0x20 && p[seq_end] <= 0x2f) ++seq_end;
      // The final byte, if that is what comes (an ESC starts anew).
      if (seq_end < avail && p[seq_end] >= 0x40 && p[seq_end] <= 0x7e) ++seq_end;
    }
    *replacement = controls + "\x1b";
    for (size_t i = 1; i < k; ++i) {  // the intermediates (and ignored bytes)
      if (!InsideCsi(static_cast<unsigned char>(p[i]))) replacement->push_back(p[i]);
    }
    replacement->append(p + k, seq_end - k);
    return seq_end;
  }
  *replacement = controls + *replacement;
  return k - 1 + used;
}

// libvterm 0.1.4 restores a saved cursor (DECRC, CSI u, leaving the
// alternate screen) without checking it against a size changed since, and
// moves the cursor left for some glyphs it gives a width of -1 (C1 controls
// its UTF-8 decoder assembles even across escape sequences): the cursor
// lands outside the screen and output after it goes astray. Put it back on
// the screen, as xterm would have kept it. A restore is written on its own
// and checked at once; anything else when its write is done.
void Terminal::ClampCursor() {
  cursor_restored_ = false;
  if (CursorOnScreen()) return;
  char cup[32];
  int row = std::clamp(cursor_.row, 0, rows_ - 1), col = std::clamp(cursor_.col, 0, cols_ - 1);
  int n = snprintf(cup, sizeof cup, "\x1b[%d;%dH", row + 1, col + 1);
  vterm_input_write(vt_, cup, static_cast<size_t>(n));
  // libvterm says nothing if its own cursor was there already.
  cursor_.row = row;
  cursor_.col = col;
}

bool Terminal::CursorOnScreen() const {
  return cursor_.row >= 0 && cursor_.row < rows_ && cursor_.col >= 0 && cursor_.col < cols_;
}

namespace {

// For the ESC at p[i] inside a string: the end of the string terminator it
// starts, 0 if it starts none (the string is abandoned), SIZE_MAX if the
// data ends first. libvterm executes controls between the ESC and the '\'
// and still ends the string there.
size_t StringTerminatorEnd(const char* p, size_t i, size_t avail) {
  size_t j = i + 1;
  while (j < avail && InsideCsi(static_cast<unsigned char>(p[j]))) ++j;
  if (j == avail) return SIZE_MAX;
  return p[j] == '\\' ? j + 1 : 0;
}

}  // namespace

// DCS strings (ESC P ... ST). libvterm 0.1.4 does two things wrong with
// them: it loses the part of a string that ends a write (so a string cut
// by a read reaches it shortened), and for a DECRQSS (DCS $ q setting ST)
// of a setting it does not know it passes a length to printf as a string
// and crashes (`printf '\eP$qx\e\\'` killed the daemon; found by
// terminal_fuzz). So a DCS reaches libvterm whole, in one write, or not at
// all: one cut by the end of the data waits for the rest (up to
// kMaxDcsCarry), a longer one (sixel images) is skipped to its end. A
// DECRQSS libvterm cannot answer gets the "invalid request" answer from us.
// p[0] is not read.
size_t Terminal::FilterDcs(const char* p, const char* end, std::string* replacement) {
  size_t avail = static_cast<size_t>(end - p);
  std::string content;  // what libvterm would see: controls are not part of it
  for (size_t i = 2; i < avail; ++i) {
    unsigned char b = static_cast<unsigned char>(p[i]);
    size_t st_end = b == 0x07 ? i + 1 : b == 0x1b ? StringTerminatorEnd(p, i, avail) : 0;
    if (st_end == SIZE_MAX) break;  // cut: wait for what follows
    if (st_end > 0) {
      size_t used = st_end;
      if (content.compare(0, 2, "$q") != 0) {
        replacement->assign("\x1b", 1);  // whole, in this write
        replacement->append(p + 1, used - 1);
        return used;
      }
      std::string setting = content.substr(2);
      for (const char* known : {"m", "r", "s", " q", "\"q"}) {
        if (setting == known) {
          replacement->assign("\x1b", 1);
          replacement->append(p + 1, used - 1);
          return used;
        }
      }
      // CAN: libvterm may still be in a string this one abandoned.
      replacement->assign("\x18", 1);
      unknown_setting_asked_ = true;  // answered once what came before is
      return used;
    }
    if (b == 0x1b || b == 0x18 || b == 0x1a) {
      // Abandoned. libvterm's view of such a string can differ from ours
      // (it crashed on one), so it gets none: CAN instead of the ESC P.
      replacement->assign("\x18", 1);
      return 2;
    }
    if (b >= 0x20 && b != 0x7f) content.push_back(static_cast<char>(b));
  }
  if (avail < kMaxDcsCarry) return 0;
  skipping_dcs_ = true;  // too long to be a request: drop it to its end
  replacement->assign("\x18", 1);  // CAN, as above
  return static_cast<size_t>(SkipDcs(p + 2, end) - p);
}

// An OSC (title, colour query, an engine's busy marker) cut by the end of
// the data waits for the rest, up to kMaxDcsCarry, so that libvterm, which
// loses the part of a string that ends a write (see FilterDcs), gets it
// whole. p[0] is not read.
size_t Terminal::FilterOsc(const char* p, const char* end) {
  size_t avail = static_cast<size_t>(end - p);
  for (size_t i = 2; i < avail; ++i) {
    unsigned char b = static_cast<unsigned char>(p[i]);
    if (b == 0x1b && StringTerminatorEnd(p, i, avail) == SIZE_MAX) break;
    if (b == 0x07 || b == 0x1b || b == 0x18 || b == 0x1a) return SIZE_MAX;  // complete, or abandoned
  }
  return avail < kMaxDcsCarry ? 0 : SIZE_MAX;
}

// Drops the rest of a long DCS from p; returns where the data goes on.
const char* Terminal::SkipDcs(const char* p, const char* end) {
  for (; p < end; ++p) {
    unsigned char b = static_cast<unsigned char>(*p);
    if (b == 0x07) {
      skipping_dcs_ = false;
      return p + 1;
    }
    if (b == 0x18 || b == 0x1a) {  // cancels the string
      skipping_dcs_ = false;
      return p;
    }
    if (b == 0x1b) {
      size_t st_end = StringTerminatorEnd(p, 0, static_cast<size_t>(end - p));
      if (st_end == SIZE_MAX) {  // ST or not: the next Feed tells
        carry_esc_ = true;
        return end;
      }
      skipping_dcs_ = false;
      return st_end > 0 ? p + st_end : p;  // ST, or an escape sequence of its own
    }
  }
  return end;
}

// FilterEscape without controls after the ESC. p[0] is not read: it may
// stand for an ESC that came earlier.
size_t Terminal::FilterSequence(const char* p, const char* end, std::string* replacement) {
  size_t avail = static_cast<size_t>(end - p);
  if (avail < 2) return 0;
  char c = p[1];
  if (c == '=' || c == '>') app_keypad_ = c == '=';
  if (c == 'c') bracketed_paste_ = app_cursor_keys_ = app_keypad_ = synchronized_update_ = false;
  if (c == 'P') return FilterDcs(p, end, replacement);
  if (c == ']') return FilterOsc(p, end);
  if (c == '8') {  // DECRC: restore the cursor, checked once done
    cursor_restored_ = true;
    *replacement = "\x1b" "8";
    return 2;
  }
  if (c != '[') return SIZE_MAX;
  CsiParams csi;
  size_t args_end = static_cast<size_t>(ScanCsiParams(p + 2, end, &csi, nullptr) - p);
  if (args_end == avail && avail < kMaxCarry) return 0;
  if (csi.separators >= kCsiArgsMax || args_end == avail) {
    // Too many arguments, or more than we carry: pass the parameters on
    // bounded, and the rest of the sequence as it comes.
    csi = CsiParams();
    *replacement = "\x1b[";
    ScanCsiParams(p + 2, p + args_end, &csi, replacement);
    if (args_end == avail) csi_params_ = std::make_unique<CsiParams>(csi);
    return args_end;
  }
  size_t i = 2;
  bool priv = i < avail && p[i] == '?';
  if (priv) ++i;
  size_t params_start = i;
  while (i < avail && ((p[i] >= '0' && p[i] <= '9') || p[i] == ';')) ++i;
  if (i >= avail) return avail < kMaxCarry ? 0 : SIZE_MAX;
  char final = p[i];
  // Most sequences (SGR, cursor moves) are none of ours: decide without
  // copying anything.
  if (!priv) {
    // libvterm answers DA1 itself; count it (engines may wait for it).
    if (final == 'c' && (i == params_start || (i == params_start + 1 && p[params_start] == '0'))) {
      ++da1_queries_;
    }
    if (i != params_start || (final != 's' && final != 'u')) return SIZE_MAX;
    *replacement = final == 's' ? "\x1b" "7" : "\x1b" "8";
    cursor_restored_ |= final == 'u';
    return i + 1;
  }
  if (final != 'h' && final != 'l') return SIZE_MAX;
  std::string params(p + params_start, i - params_start);
  // Tracked once the text before it is written (see Filter): a frame's
  // begin must not count before an OSC that came ahead of it.
  pending_modes_ = params;
  pending_modes_set_ = final == 'h';
  // Mode 47 is the old alternate screen: rewrite it as 1047.
  std::string rewritten;
  size_t start = 0;
  while (start <= params.size()) {
    size_t semi = params.find(';', start);
    if (semi == std::string::npos) semi = params.size();
    std::string mode = params.substr(start, semi - start);
    if (mode == "47") mode = "1047";
    if (start > 0) rewritten += ';';
    rewritten += mode;
    start = semi + 1;
  }
  // Leaving the alternate screen restores the cursor too.
  cursor_restored_ |= final == 'l' && (params.find("1049") != std::string::npos ||
                                       params.find("1048") != std::string::npos);
  *replacement = "\x1b[?" + rewritten + final;
  return i + 1;
}

void Terminal::TrackPrivateModes(const std::string& params, bool set) {
  size_t start = 0;
  while (start < params.size()) {
    size_t semi = params.find(';', start);
    if (semi == std::string::npos) semi = params.size();
    int mode = atoi(params.substr(start, semi - start).c_str());
    if (mode == 1) app_cursor_keys_ = set;
    if (mode == 2004) bracketed_paste_ = set;
    if (mode == 2026) {
      if (set && !synchronized_update_) ++synchronized_updates_;
      synchronized_update_ = set;
    }
    start = semi + 1;
  }
}

bool Terminal::OnUnknownCsi(const char* leader, const long* args, int argc, char command) {
  (void)args;
  (void)argc;
  // The kitty keyboard protocol query: answer "not enabled" like a terminal
  // that supports the query, so programs stop waiting for an answer.
  if (leader && leader[0] == '?' && command == 'u') {
    replies_ += "\x1b[?0u";
    return true;
  }
  return false;
}

bool Terminal::OnUnknownOsc(const char* command, size_t len) {
  std::string s(command, len);
  size_t semi = s.find(';');
  if (semi == std::string::npos || semi == 0) return false;
  int number = atoi(s.substr(0, semi).c_str());
  std::string payload = s.substr(semi + 1);
  // Colour queries: a dark background, light text, as most terminals.
  if ((number == 10 || number == 11) && payload == "?") {
    replies_ += number == 10 ? "\x1b]10;rgb:e5e5/e5e5/e5e5\x1b\\"
                             : "\x1b]11;rgb:0000/0000/0000\x1b\\";
    return true;
  }
  osc_[number] = SanitizeUtf8(payload);
  osc_frame_[number] = synchronized_updates_;
  ++generation_;
  return true;
}

std::string Terminal::osc(int number) const {
  auto it = osc_.find(number);
  return it == osc_.end() ? std::string() : it->second;
}

uint64_t Terminal::osc_frame(int number) const {
  auto it = osc_frame_.find(number);
  return it == osc_frame_.end() ? 0 : it->second;
}

Terminal::Line& Terminal::ScreenLine(int row) {
  return screen_->pool[static_cast<size_t>(screen_->order[static_cast<size_t>(row)])];
}

const Terminal::Line& Terminal::ScreenLine(int row) const {
  return screen_->pool[static_cast<size_t>(screen_->order[static_cast<size_t>(row)])];
}

void Terminal::BlankCells(Line* line, int from, int to) {
  from = std::max(from, 0);
  to = std::min(to, static_cast<int>(line->cells.size()));
  static_assert(std::is_trivially_copyable<Cell>::value, "cells are blanked with memset");
  if (from < to) {
    memset(static_cast<void*>(line->cells.data() + from), 0, static_cast<size_t>(to - from) * sizeof(Cell));
  }
}

// Writing over either half of a wide character destroys all of it (as in
// xterm and tmux): blank the other half so no stray half is left.
void Terminal::SplitWideAt(Line* line, int col) {
  int n = static_cast<int>(line->cells.size());
  if (col < 0 || col >= n) return;
  Cell& cell = line->cells[static_cast<size_t>(col)];
  if (cell.kind == kWideRight && col > 0) {
    BlankCells(line, col - 1, col + 1);
  } else if (cell.kind == kWideLeft && col + 1 < n) {
    BlankCells(line, col, col + 2);
  }
}

void Terminal::PutGlyphSlow(Line* line, const uint32_t* chars, int width, int col) {
  if (line->cells[static_cast<size_t>(col)].kind != kNarrow) SplitWideAt(line, col);
  if (width == 2 && col + 1 < cols_ && line->cells[static_cast<size_t>(col + 1)].kind != kNarrow) {
    SplitWideAt(line, col + 1);
  }
  Cell& cell = line->cells[static_cast<size_t>(col)];
  cell = Cell();
  for (int i = 0; i < 3 && chars[i]; ++i) cell.ch[i] = chars[i];
  if (width == 2) cell.kind = kWideLeft;
  if (width == 2 && col + 1 < cols_) {
    Cell& right = line->cells[static_cast<size_t>(col + 1)];
    right = Cell();
    right.kind = kWideRight;
  }
}

void Terminal::MoveCursor(int row, int col, bool visible) {
  // Only the cursor's own advance past the last glyph (or its wait at the
  // last column) keeps a wrap possible; any other move rules it out.
  bool advance = row == last_glyph_row_ &&
                 (col == last_glyph_end_ || (last_glyph_end_ >= cols_ && col == cols_ - 1));
  if (!advance) wrap_pending_ = false;
  cursor_.row = row;
  cursor_.col = col;
  cursor_.visible = visible;
  ++generation_;
}

void Terminal::ScrollRect(int top, int bottom, int left, int right, int down, int rightward) {
  ++generation_;
  // libvterm can pass a rectangle off the screen while its cursor is (see
  // ClampCursor); found by terminal_fuzz under UBSan.
  top = std::max(top, 0);
  left = std::max(left, 0);
  bottom = std::min(bottom, rows_);
  right = std::min(right, cols_);
  int height = bottom - top;
  if (height <= 0 || right <= left) return;
  bool full_width = left == 0 && right == cols_;
  if (full_width && rightward == 0 && std::abs(down) < height) {
    // Whole rows: rotate row indices, then blank the rows that came in.
    if (down > 0 && top == 0 && !alt_screen_) {
      for (int r = 0; r < down; ++r) PushHistory(ScreenLine(r));
      TrimHistory();
    }
    auto first = screen_->order.begin() + top;
    auto last = screen_->order.begin() + bottom;
    if (down > 0) std::rotate(first, first + down, last);
    else std::rotate(first, last + down, last);
    int blank_from = down > 0 ? bottom - down : top;
    int blank_to = down > 0 ? bottom : top - down;
    for (int r = blank_from; r < blank_to; ++r) {
      Line& line = ScreenLine(r);
      BlankCells(&line, 0, cols_);
      line.wrapped = false;
    }
    return;
  }
  // A rectangle, or a scroll by the whole height: move cells one by one.
  std::vector<Line> copy;
  for (int r = top; r < bottom; ++r) copy.push_back(ScreenLine(r));
  for (int r = top; r < bottom; ++r) {
    Line& line = ScreenLine(r);
    for (int c = left; c < right; ++c) {
      int sr = r + down;
      int sc = c + rightward;
      bool inside = sr >= top && sr < bottom && sc >= left && sc < right;
      line.cells[static_cast<size_t>(c)] =
          inside ? copy[static_cast<size_t>(sr - top)].cells[static_cast<size_t>(sc)] : Cell();
    }
    SplitWideAt(&line, left);
    SplitWideAt(&line, right - 1);
  }
}

void Terminal::Erase(int top, int bottom, int left, int right) {
  ++generation_;
  left = std::max(left, 0);  // as in ScrollRect
  right = std::min(right, cols_);
  if (right <= left) return;
  for (int r = std::max(top, 0); r < std::min(bottom, rows_); ++r) {
    Line& line = ScreenLine(r);
    SplitWideAt(&line, left);
    SplitWideAt(&line, right - 1);
    BlankCells(&line, left, right);
    if (right >= cols_) line.wrapped = false;
  }
}

void Terminal::SetProp(int prop, const void* value) {
  const VTermValue* val = static_cast<const VTermValue*>(value);
  ++generation_;
  switch (prop) {
    case VTERM_PROP_ALTSCREEN:
      alt_screen_ = val->boolean != 0;
      screen_ = alt_screen_ ? &alt_ : &main_;
      break;
    case VTERM_PROP_TITLE:
      title_ = SanitizeUtf8(val->string ? val->string : "");
      break;
    case VTERM_PROP_CURSORVISIBLE:
      cursor_.visible = val->boolean != 0;
      break;
    default:
      break;
  }
}

void Terminal::ResizeBuffer(Buffer* b, int cols, int rows, int drop_top) {
  std::vector<Line> lines;
  for (size_t r = static_cast<size_t>(drop_top); r < b->order.size(); ++r) {
    lines.push_back(std::move(b->pool[static_cast<size_t>(b->order[r])]));
  }
  lines.resize(static_cast<size_t>(rows));
  b->order.resize(static_cast<size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    Line& line = lines[static_cast<size_t>(r)];
    line.cells.resize(static_cast<size_t>(cols));
    // A wide character cut in half by the new right edge goes away.
    if (cols > 0 && line.cells.back().kind == kWideLeft) line.cells.back() = Cell();
    b->order[static_cast<size_t>(r)] = r;
  }
  b->pool = std::move(lines);
}

// Called by libvterm in the middle of vterm_set_size: shrinking rows moves
// the top rows into history, so the cursor's row stays on the screen.
void Terminal::OnResize(int rows, int cols, int* delta_row) {
  int drop = std::max(0, cursor_.row - (rows - 1));
  if (!alt_screen_) {
    for (int r = 0; r < drop; ++r) PushHistory(ScreenLine(r));
    TrimHistory();
  }
  ResizeBuffer(&main_, cols, rows, alt_screen_ ? 0 : drop);
  ResizeBuffer(&alt_, cols, rows, alt_screen_ ? drop : 0);
  *delta_row = -drop;
  rows_ = rows;
  cols_ = cols;
  wrap_pending_ = false;
  ++generation_;
}

void Terminal::Resize(int cols, int rows) {
  if (cols == cols_ && rows == rows_) return;
  bool fewer_rows = rows < rows_;
  vterm_set_size(vt_, rows, cols);
  if (fewer_rows) {
    // libvterm 0.1.4 keeps a scroll region that no longer fits, and its
    // next scroll passes a negative size to memmove (a crash on the first
    // line feed; found by terminal_fuzz). The region goes back to the whole
    // screen, the cursor where it was; a program redraws (and sets its
    // region again) on the SIGWINCH that follows.
    char reset[40];
    int n = snprintf(reset, sizeof reset, "\x1b[r\x1b[%d;%dH", std::clamp(cursor_.row, 0, rows - 1) + 1,
                     std::clamp(cursor_.col, 0, cols - 1) + 1);
    vterm_input_write(vt_, reset, static_cast<size_t>(n));
  }
}

char* Terminal::EncodeCells(const Cell* cells, size_t end, char* out) {
  for (size_t i = 0; i < end; ++i) {
    const Cell& cell = cells[i];
    if (cell.kind == kWideRight) continue;  // its character is in the left half
    char32_t first = cell.ch[0];
    if (first < 0x80 && cell.ch[1] == 0) {
      *out++ = first == 0 ? ' ' : static_cast<char>(first);
      continue;
    }
    for (char32_t ch : cell.ch) {
      if (ch == 0) break;
      out = WriteUtf8(ch, out);
    }
  }
  return out;
}

// Text of cells [0, end).
std::string Terminal::LineText(const Line& line, size_t end) {
  std::string buf(end * kMaxCellBytes, '\0');
  size_t n = static_cast<size_t>(EncodeCells(line.cells.data(), end, &buf[0]) - buf.data());
  return std::string(buf.data(), n);
}

namespace {

// Cells up to the last one that is not blank.
template <typename Cells>
size_t TrimmedEnd(const Cells& cells) {
  size_t end = cells.size();
  while (end > 0 && (cells[end - 1].ch[0] == 0 || cells[end - 1].ch[0] == ' ')) --end;
  return end;
}

}  // namespace

std::string Terminal::RowText(int row) const {
  if (row < 0 || row >= rows_) return std::string();
  const Line& line = ScreenLine(row);
  return LineText(line, TrimmedEnd(line.cells));
}

std::string Terminal::RowPrefix(int row, int cols) const {
  if (row < 0 || row >= rows_) return std::string();
  const Line& line = ScreenLine(row);
  return LineText(line, static_cast<size_t>(std::max(0, std::min(cols, cols_))));
}

std::vector<std::string> Terminal::ScreenLines() const {
  std::vector<std::string> lines;
  lines.reserve(static_cast<size_t>(rows_));
  for (int r = 0; r < rows_; ++r) lines.push_back(RowText(r));
  return lines;
}

bool Terminal::RowWrapped(int row) const {
  return row >= 0 && row < rows_ && ScreenLine(row).wrapped;
}

void Terminal::PushHistory(const Line& line) {
  size_t end = TrimmedEnd(line.cells);
  if (encode_buf_.size() < end * kMaxCellBytes) encode_buf_.resize(end * kMaxCellBytes);
  size_t n = static_cast<size_t>(EncodeCells(line.cells.data(), end, encode_buf_.data()) - encode_buf_.data());
  history_.push_back(HistoryLine{std::string(encode_buf_.data(), n), line.wrapped});
  ++lines_scrolled_;
}

void Terminal::TrimHistory() {
  while (history_.size() > scrollback_limit_) {
    if (pinned_ && first_retained_row() >= pin_row_) break;
    history_.pop_front();
  }
}

bool Terminal::LineAt(uint64_t abs, std::string* text, bool* wrapped) const {
  if (abs < first_retained_row()) return false;
  if (abs < lines_scrolled_) {
    const HistoryLine& h = history_[static_cast<size_t>(abs - first_retained_row())];
    *text = h.text;
    *wrapped = h.wrapped;
    return true;
  }
  uint64_t row = abs - lines_scrolled_;
  if (row >= static_cast<uint64_t>(rows_)) return false;
  *text = RowText(static_cast<int>(row));
  *wrapped = RowWrapped(static_cast<int>(row));
  return true;
}

void Terminal::PinHistory(uint64_t abs) {
  pinned_ = true;
  pin_row_ = abs;
}

void Terminal::UnpinHistory() {
  pinned_ = false;
  TrimHistory();
}

}  // namespace tuidriver

// libFuzzer target: program output through the emulator, as the daemon
// feeds it. The input is cut into reads at pseudo-random points (so escape
// sequences and UTF-8 characters split across reads), with a resize now and
// then, and every view a client can ask for is taken and checked. The same
// reads go through the `output` event path (UTF-8 sanitiser, JSON string),
// which must give one line of valid UTF-8, the same however it is cut.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "json_writer.h"
#include "terminal.h"
#include "utf8.h"

namespace {

void Check(const std::string& s) {
  if (!tuidriver::IsValidUtf8(s)) abort();
}

void CheckJsonLine(const std::string& text) {
  std::string json;
  tuidriver::AppendJsonString(text, &json);
  Check(json);
  for (char c : json) {
    if (static_cast<unsigned char>(c) < 0x20) abort();  // would break the line
  }
}

// Output cut into reads anywhere renders exactly as output read whole: the
// same screen, cursor, history, title and replies.
void CheckSplitsChangeNothing(int cols, int rows, const std::string& bytes) {
  tuidriver::Terminal whole(cols, rows, 20);
  tuidriver::Terminal split(cols, rows, 20);
  whole.Feed(bytes.data(), bytes.size());
  uint32_t rng = static_cast<uint32_t>(bytes.size()) * 40503u + 7u;
  std::string split_replies;
  for (size_t at = 0; at < bytes.size();) {
    rng = rng * 1103515245u + 12345u;
    size_t n = std::min(bytes.size() - at, static_cast<size_t>(1 + (rng >> 16) % 13));
    split.Feed(bytes.data() + at, n);
    split_replies += split.TakeReplies();
    at += n;
  }
  if (whole.ScreenLines() != split.ScreenLines() || whole.title() != split.title() ||
      whole.TakeReplies() != split_replies || whole.lines_scrolled() != split.lines_scrolled() ||
      whole.cursor().row != split.cursor().row || whole.cursor().col != split.cursor().col ||
      whole.cursor().visible != split.cursor().visible || whole.alt_screen() != split.alt_screen()) {
    abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  // The first two bytes choose the size; a small scrollback keeps the
  // history trimming in play.
  int cols = 2 + data[0] % 40;
  int rows = 2 + data[1] % 12;
  tuidriver::Terminal term(cols, rows, 20);
  const char* p = reinterpret_cast<const char*>(data) + 2;
  size_t left = size - 2;
  uint32_t rng = static_cast<uint32_t>(size) * 2654435761u;
  tuidriver::Utf8Sanitizer events;
  tuidriver::Utf8Sanitizer session_events;  // the daemon's path: Complete, then the JSON string
  std::string streamed;
  while (left > 0) {
    rng = rng * 1103515245u + 12345u;
    size_t n = 1 + (rng >> 16) % 97;
    if (n > left) n = left;
    term.Feed(p, n);
    if (!term.BlankPastExtent()) abort();
    std::string text;
    events.Append(p, n, &text);
    CheckJsonLine(text);
    std::string quoted, session_quoted;
    tuidriver::AppendJsonString(text, &quoted);
    tuidriver::AppendJsonString(session_events.Complete(p, n), &session_quoted);
    if (quoted != session_quoted) abort();
    streamed += text;
    term.TakeReplies();
    p += n;
    left -= n;
    if ((rng >> 8) % 31 == 0) {
      // Reflow renumbers rows: a row held across it maps to one still held
      // (or to one not printed yet), never before the history.
      uint64_t held = term.lines_scrolled() + static_cast<uint64_t>(term.cursor().row);
      uint64_t first = term.first_retained_row();
      term.Resize(2 + (rng >> 3) % 50, 2 + (rng >> 11) % 15);
      if (held >= first && term.RowAfterResize(held) < first) abort();
      if (!term.BlankPastExtent()) abort();
    }
    if ((rng >> 12) % 7 == 0) term.PinHistory(term.lines_scrolled());
    if ((rng >> 14) % 11 == 0) term.UnpinHistory();
  }
  std::string tail;
  events.Flush(&tail);
  streamed += tail;
  std::string whole(reinterpret_cast<const char*>(data) + 2, size - 2);
  tuidriver::Utf8Sanitizer once;
  std::string reference;
  once.Append(whole.data(), whole.size(), &reference);
  once.Flush(&reference);
  if (streamed != reference) abort();  // cut reads change nothing
  tuidriver::Cursor c = term.cursor();
  if (c.row < 0 || c.row >= term.rows() || c.col < 0 || c.col >= term.cols()) abort();
  CheckSplitsChangeNothing(cols, rows, whole);
  for (const std::string& line : term.ScreenLines()) Check(line);
  for (int r = 0; r < term.rows(); ++r) {
    Check(term.RowPrefix(r, term.cols()));
    int end = 0;  // styled runs are in order, inside the row, never empty
    for (const tuidriver::StyleRun& run : term.RowStyles(r)) {
      if (run.col < end || run.len < 1 || run.col + run.len > term.cols()) abort();
      end = run.col + run.len;
    }
  }
  for (uint64_t row = term.first_retained_row(); row < term.lines_scrolled() + term.rows(); ++row) {
    std::string text;
    bool wrapped;
    if (!term.LineAt(row, &text, &wrapped)) abort();
    Check(text);
  }
  Check(term.title());
  return 0;
}

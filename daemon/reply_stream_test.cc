#include "reply_stream.h"

#include <gtest/gtest.h>

#include <random>

#include "engine_config.h"
#include "reply_extractor.h"
#include "screen_matcher.h"

namespace tuidriver {
namespace {

TEST(ReplyStream, DeltasExtendWhatWasSent) {
  ReplyStream s;
  s.Offer("one\n", false);
  EXPECT_EQ("one", s.TakeDelta());
  s.Offer("one\ntwo", false);
  EXPECT_EQ("\ntwo", s.TakeDelta());
  s.Offer("one\nTWO", false);  // rewritten: held back
  EXPECT_EQ("", s.TakeDelta());
  s.Offer("one\ntwo three", true);
  EXPECT_EQ(" three", s.TakeDelta());
  EXPECT_FALSE(s.Revised("one\ntwo three"));
  EXPECT_TRUE(s.Revised("one\nTWO three"));
}

EngineConfig ClaudeLike(bool unwrap) {
  EngineConfig c;
  c.prompt.pattern = "^❯[ \\x{a0}]$";
  c.reply.start = "^● ";
  c.reply.continuation_indent = "  ";
  c.reply.chrome = {"^✻ ", "^\\S \\S+… \\("};
  c.reply.end = "^─{20,}";
  c.reply.unwrap = unwrap;
  return c;
}

// Greedy word wrap of one paragraph at `width` columns (ASCII words).
std::vector<std::string> Wrap(const std::string& para, int width) {
  std::vector<std::string> rows(1);
  size_t pos = 0;
  while (pos < para.size()) {
    size_t sp = para.find(' ', pos);
    std::string word = para.substr(pos, sp == std::string::npos ? std::string::npos : sp - pos);
    pos = sp == std::string::npos ? para.size() : sp + 1;
    std::string& row = rows.back();
    if (row.empty()) {
      row = word;
    } else if (static_cast<int>(row.size() + 1 + word.size()) <= width) {
      row += " " + word;
    } else {
      rows.push_back(word);
    }
  }
  return rows;
}

// The screen of a Claude-like TUI while `text` (paragraphs split by "\n\n")
// has been drawn: the program word-wraps at `width` (unwrap engines), or
// the terminal wraps at `width` (rows marked wrapped).
// `drawing`: the row being drawn ends in a typing cursor, which the program
// rewrites as the row grows (as a TUI may with half-rendered markdown).
std::vector<Row> Screen(const std::string& text, int width, bool terminal_wraps,
                        bool drawing = false) {
  std::vector<Row> rows = {{"❯ stream please", false}, {"", false}};
  std::string marker = "● ";
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find("\n\n", start);
    std::string para = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (terminal_wraps) {
      std::string line = marker + para;
      for (size_t i = 0; i < line.size(); i += static_cast<size_t>(width)) {
        rows.push_back({line.substr(i, static_cast<size_t>(width)), i + width < line.size()});
      }
    } else {
      for (const std::string& r : Wrap(para, width)) {
        rows.push_back({marker + r, false});
        marker = "  ";
      }
    }
    marker = "● ";
    if (end == std::string::npos) {
      if (drawing && !rows.back().wrapped) rows.back().text += " ▌";
      break;
    }
    rows.push_back({"", false});
    start = end + 2;
  }
  rows.push_back({"", false});
  rows.push_back({"✻ Working… (esc to interrupt)", false});
  rows.push_back({"──────────────────────────────", false});
  return rows;
}

std::string RandomText(std::mt19937* rng) {
  static const char* kWords[] = {"alpha", "be", "gamma", "delta", "epsilon", "a", "terminal",
                                 "screen", "reply", "wraps", "across", "rows", "x", "supercalifragilistic"};
  std::uniform_int_distribution<int> n_words(1, 120), pick(0, 13), para(0, 25);
  std::string text;
  int n = n_words(*rng);
  for (int i = 0; i < n; ++i) {
    if (i) text += para(*rng) == 0 ? "\n\n" : " ";
    text += kWords[pick(*rng)];
  }
  return text;
}

// Random replies grow in random pieces (half words too) on screens of
// random widths; some runs rewrite already drawn text or change the width
// mid-stream. Whatever happens, the deltas add up to the final text, or
// the reply is marked revised. Without rewrites, nothing is revised and
// every complete row streams before the turn ends.
void RunProperty(bool terminal_wraps) {
  EngineConfig c = ClaudeLike(!terminal_wraps);
  ScreenMatcher m(c);
  std::mt19937 rng(terminal_wraps ? 1234 : 4321);
  for (int run = 0; run < 400; ++run) {
    std::string text = RandomText(&rng);
    int width = std::uniform_int_distribution<int>(24, 90)(rng);
    bool disturb = run % 3 == 0;
    ReplyStream s;
    std::string sent;
    int deltas = 0;
    size_t shown = 0;
    std::string drawn = text;
    while (shown < drawn.size()) {
      shown = std::min(drawn.size(), shown + std::uniform_int_distribution<size_t>(1, 9)(rng));
      if (disturb && std::uniform_int_distribution<int>(0, 30)(rng) == 0) {
        if (rng() % 2) width = std::uniform_int_distribution<int>(24, 90)(rng);
        else drawn[std::uniform_int_distribution<size_t>(0, shown - 1)(rng)] = 'Q';
      }
      std::vector<Row> rows = Screen(drawn.substr(0, shown), width, terminal_wraps, run % 2 == 1);
      s.Offer(ExtractMarkedReply(rows, "stream please", m, c.reply, width + (terminal_wraps ? 0 : 2), true), false);
      std::string d = s.TakeDelta();
      if (!d.empty()) ++deltas;
      sent += d;
    }
    std::vector<Row> rows = Screen(drawn, width, terminal_wraps);
    std::string final_text = ExtractMarkedReply(rows, "stream please", m, c.reply,
                                                width + (terminal_wraps ? 0 : 2), false);
    std::string before_end = sent;
    s.Offer(final_text, true);
    sent += s.TakeDelta();
    ASSERT_EQ(sent, s.streamed());
    ASSERT_TRUE(sent == final_text || s.Revised(final_text)) << "run " << run;
    if (!disturb) {
      ASSERT_EQ(text, final_text) << "run " << run;
      ASSERT_FALSE(s.Revised(final_text)) << "run " << run << "\nsent: " << sent;
      // Every row but the last went out before the turn ended.
      std::string complete_rows = ExtractMarkedReply(rows, "stream please", m, c.reply,
                                                     width + (terminal_wraps ? 0 : 2), true);
      ASSERT_EQ(complete_rows, before_end) << "run " << run;
      // ...which is at least the text without its last row.
      std::string last_para = text.substr(text.rfind("\n\n") == std::string::npos ? 0 : text.rfind("\n\n") + 2);
      // (Screen cuts terminal-wrapped rows by bytes; "● " is four.)
      size_t last_row = terminal_wraps ? (last_para.size() + 4) % static_cast<size_t>(width)
                                       : Wrap(last_para, width).back().size();
      if (last_row == 0) last_row = static_cast<size_t>(width);
      std::string at_least = text.substr(0, text.size() - std::min(text.size(), last_row));
      at_least.resize(at_least.find_last_not_of(" \n") == std::string::npos ? 0 : at_least.find_last_not_of(" \n") + 1);
      ASSERT_EQ(at_least, before_end.substr(0, at_least.size())) << "run " << run;
      size_t reply_rows = rows.size() - 5;  // echo, blank, and three rows of chrome
      if (reply_rows >= 4) {
        ASSERT_GE(deltas, 2) << "run " << run;
      }
    }
  }
}

TEST(ReplyStreamProperty, WordWrappedParagraphs) { RunProperty(false); }
TEST(ReplyStreamProperty, TerminalWrappedParagraphs) { RunProperty(true); }

}  // namespace
}  // namespace tuidriver

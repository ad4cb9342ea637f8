#include "reply_extractor.h"

#include <gtest/gtest.h>

#include "engine_config.h"
#include "screen_matcher.h"

namespace tuidriver {
namespace {

std::vector<Row> Rows(const std::vector<std::string>& texts) {
  std::vector<Row> rows;
  for (const std::string& t : texts) rows.push_back(Row{t, false});
  return rows;
}

EngineConfig ClaudeLike() {
  EngineConfig c;
  c.prompt.pattern = "^❯[ \\x{a0}]$";
  c.reply.start = "^● ";
  c.reply.continuation_indent = "  ";
  c.reply.chrome = {"^✻ ", "^\\S \\S+… \\(", "^\\s{40,}\\S"};
  c.reply.end = "^─{20,}";
  c.reply.unwrap = true;
  return c;
}

// Rows captured from Claude Code after a second turn, up to its prompt.
const std::vector<std::string> kClaudeScreen = {
    " ▐▛███▛█   Claude Code v2.1.330",
    "❯ What is 6*7?",
    "● Forty-two.",
    "",
    "✻ Cogitated for 0s · done 2:43 PM",
    "❯ Second question",
    "",
    "● Line one.",
    "  Line two has bold and code.",
    "",
    "    print(\"hi\")",
    "  The end.",
    "",
    "✻ Churned for 4s · done 2:43 PM",
    "                                                                   ctrl+y to paste deleted text",
    "────────────────────────────────────────────────────────────",
};

TEST(ReplyExtractor, MarkedReplyAfterTheLastEcho) {
  EngineConfig c = ClaudeLike();
  ScreenMatcher m(c);
  EXPECT_EQ("Line one.\nLine two has bold and code.\n\n  print(\"hi\")\nThe end.",
            ExtractMarkedReply(Rows(kClaudeScreen), "Second question", m, c.reply, 120));
  EXPECT_EQ("Forty-two.",
            ExtractMarkedReply(Rows({kClaudeScreen.begin(), kClaudeScreen.begin() + 5}),
                               "What is 6*7?", m, c.reply, 120));
}

// Copilot 1.0.102 right-aligns the time on the echo's row.
TEST(ReplyExtractor, EchoWithTheTimeRightAligned) {
  EngineConfig c;
  c.prompt.pattern = "^❯ $";
  c.reply.start = "^ ● ";
  c.reply.continuation_indent = "   ";
  c.reply.chrome = {"^ [~/]\\S*"};
  c.reply.end = "^─{20,}";
  ScreenMatcher m(c);
  std::vector<std::string> screen = {
      " ● Tip: /app",
      " ❯ say hello                                                             21:42",
      "",
      " ● Hello there.",
      "",
      " ❯ run it now                                                            21:43",
      "",
      " ● All done.",
      "   Second line.",
      "",
      " /tmp/project",
      "────────────────────────────────────────────────────────────",
  };
  EXPECT_EQ("All done.\nSecond line.", ExtractMarkedReply(Rows(screen), "run it now", m, c.reply, 80));
  EXPECT_EQ("Hello there.", ExtractMarkedReply(Rows({screen.begin(), screen.begin() + 5}), "say hello", m,
                                               c.reply, 80));
  // With a scrollbar in the last column, stripped (reply.strip).
  c.reply.strip = "\\s*[┃█]$";
  ScreenMatcher scrolled(c);
  std::vector<std::string> with_bar;
  for (const std::string& row : screen) with_bar.push_back(row.substr(0, 1) == "─" ? row : row + "   █");
  EXPECT_EQ("All done.\nSecond line.", ExtractMarkedReply(Rows(with_bar), "run it now", scrolled, c.reply, 80));
  // Text after the prompt that is more than a short field is no echo.
  EXPECT_EQ("", ExtractMarkedReply(Rows({" ❯ say hello    and more words", " ● Hi."}), "say hello", m,
                                   c.reply, 80));
}

TEST(ReplyExtractor, NoEchoMeansNoReplyYet) {
  EngineConfig c = ClaudeLike();
  ScreenMatcher m(c);
  EXPECT_EQ("", ExtractMarkedReply(Rows(kClaudeScreen), "Third question", m, c.reply, 120));
}

// The prompt's text inside the reply ("hi" in "Third", a quoted question) is
// not its echo.
TEST(ReplyExtractor, PromptTextInsideTheReplyIsNotTheEcho) {
  EngineConfig c = ClaudeLike();
  ScreenMatcher m(c);
  EXPECT_EQ("First line.\nThird line.",
            ExtractMarkedReply(Rows({"❯ hi", "● First line.", "  Third line."}), "hi", m, c.reply, 120));
  EXPECT_EQ("You asked: what is 6*7?\nForty-two.",
            ExtractMarkedReply(Rows({"❯ what is 6*7?", "● You asked: what is 6*7?", "  Forty-two."}),
                               "what is 6*7?", m, c.reply, 120));
  // Codex's marker, and an echo with no marker at all still found.
  EXPECT_EQ("ok", ExtractMarkedReply(Rows({"› hi there", "● ok"}), "hi there", m, c.reply, 120));
  // A list item that contains the prompt is not its echo (the reply was cut
  // there, and came back empty).
  EXPECT_EQ("Plan\nUse bold.\n- first item\n- second item",
            ExtractMarkedReply(Rows({"❯ second", "● Plan", "  Use bold.", "  - first item", "  - second item"}),
                               "second", m, c.reply, 120));
  // Nor is a list item that quotes the prompt exactly.
  EXPECT_EQ("It was:\n- turn 0",
            ExtractMarkedReply(Rows({"❯ turn 0", "● It was:", "  - turn 0"}), "turn 0", m, c.reply, 120));
  EXPECT_EQ("ok", ExtractMarkedReply(Rows({"hi there", "● ok"}), "hi there", m, c.reply, 120));
  // A reply that starts with the prompt's text is not its echo.
  EXPECT_EQ("hi to you", ExtractMarkedReply(Rows({"❯ hi", "● hi to you"}), "hi", m, c.reply, 120));
  // No echo of this prompt yet: an earlier prompt's row that contains the
  // text ("third line" of a multi-line prompt) does not count.
  EXPECT_EQ("", ExtractMarkedReply(Rows({"❯ first line", "  third line", "● Got it."}), "hi", m,
                                   c.reply, 120));
}

EngineConfig OpencodeLike() {
  EngineConfig c;
  c.prompt.pattern = "^\\s*┃  $";
  c.reply.start = "^     ";
  c.reply.continuation_indent = "     ";
  c.reply.end = "^\\s+▣  ";
  c.reply.chrome = {"^\\s*┃"};
  c.reply.unwrap = true;
  return c;
}

// opencode ends each reply with its own footer row (▣), not with the input
// box. While a turn's footer is not drawn yet, the last footer on the screen
// is the earlier turn's, above this turn's echo: it does not end this reply
// (CI caught opencode's second reply read as "" on a loaded machine).
TEST(ReplyExtractor, AnEarlierTurnsEndRowDoesNotEndThisReply) {
  EngineConfig c = OpencodeLike();
  ScreenMatcher m(c);
  std::vector<std::string> screen = {
      "  ┃",
      "  ┃  one",
      "  ┃",
      "",
      "     first",
      "",
      "     ▣  Build · Fake Model · 38.4s",
      "",
      "  ┃",
      "  ┃  two",
      "  ┃",
      "",
      "     second",
      "",
  };
  EXPECT_EQ("second", ExtractMarkedReply(Rows(screen), "two", m, c.reply, 100));
  // The same prompt twice: this turn's reply, never the earlier one.
  std::vector<std::string> again = screen;
  again[1] = "  ┃  two";
  EXPECT_EQ("second", ExtractMarkedReply(Rows(again), "two", m, c.reply, 100));
  // Its echo only, nothing drawn below it yet: no reply yet, not the earlier one.
  EXPECT_EQ("", ExtractMarkedReply(Rows({again.begin(), again.begin() + 11}), "two", m, c.reply, 100));
  // Once its footer is drawn, the reply ends there.
  screen.push_back("     ▣  Build · Fake Model · 2.5s");
  screen.push_back("  ┃  Build · Fake Model");
  EXPECT_EQ("second", ExtractMarkedReply(Rows(screen), "two", m, c.reply, 100));
}

TEST(ReplyExtractor, SpinnerWhileStreamingIsChrome) {
  EngineConfig c = ClaudeLike();
  ScreenMatcher m(c);
  EXPECT_EQ("alpha beta",
            ExtractMarkedReply(Rows({"❯ go", "● alpha beta", "", "✶ Meandering… (1s · ↓ 17 tokens)"}),
                               "go", m, c.reply, 120));
}

// pi marks nothing but an indent: its spinner row, indented as its text is,
// is chrome all the same, so a streamed reply never carries it.
TEST(ReplyExtractor, ChromeWinsOverAReplyStart) {
  EngineConfig c;
  c.prompt.pattern = "^$";
  c.reply.start = "^ ";
  c.reply.end = "^─{20,}$";
  c.reply.chrome = {"^ \\S Working\\.\\.\\.$"};
  ScreenMatcher m(c);
  EXPECT_EQ("alpha beta\n\ngamma",
            ExtractMarkedReply(Rows({"", " go", "", "", " alpha beta", "", " gamma", "", " ⠇ Working...", "",
                                     "──────────────────────"}),
                               "go", m, c.reply, 120));
}

// Codex reports a command it ran as a block of its own, its output in a
// tree below: that is not the reply, whatever comes before or after it.
TEST(ReplyExtractor, ToolReportsAreLeftOut) {
  EngineConfig c;
  c.prompt.pattern = "^› $";
  c.reply.start = "^• ";
  c.reply.continuation_indent = "  ";
  c.reply.chrome = {"^\\s*Worked for ", "^\\s*└ "};
  c.reply.tool_output = "^  [└│] ";
  ScreenMatcher m(c);
  EXPECT_EQ("All done: two lines.",
            ExtractMarkedReply(Rows({"› run it", "", "• Explored", "  └ List ls", "    + Show details", "",
                                     "• All done: two lines.", "", "  Worked for <1s"}),
                               "run it", m, c.reply, 120));
  EXPECT_EQ("Looking first.\n\nFound it:\nx",
            ExtractMarkedReply(Rows({"› find", "• Looking first.", "", "• Ran grep -r x very long command",
                                     "  │ that wrapped", "  └ x", "", "• Found it:", "  x"}),
                               "find", m, c.reply, 120));
  // A reply whose second row happens to look like a tree is still the reply
  // when no tool_output is set.
  c.reply.tool_output.clear();
  ScreenMatcher plain(c);
  EXPECT_EQ("Explored\n  + Show details\n\nDone.",
            ExtractMarkedReply(Rows({"› run it", "• Explored", "  └ List ls", "    + Show details", "", "• Done."}),
                               "run it", plain, c.reply, 120));
}

// Codex shows a tip in its tree style below a reply ("  └ Tip: ..."): the
// shipped engine's tool_output does not take that reply for a tool's report.
TEST(ReplyExtractor, CodexTipBelowAReplyIsNotAToolReport) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(LoadEngineFile(TUIDRIVER_SOURCE_DIR "/engines/codex.json", &c, &err)) << err;
  ScreenMatcher m(c);
  EXPECT_EQ("Warm-up reply 2.",
            ExtractMarkedReply(Rows({"› warm-up 2", "", "", "• Warm-up reply 2.",
                                     "  └ Tip: Press f3 to search this conversation.", "",
                                     "  Worked for <1s • 01:23"}),
                               "warm-up 2", m, c.reply, 120));
  EXPECT_EQ("Done.", ExtractMarkedReply(Rows({"› go", "• Ran ls", "  └ Tipster.txt", "", "• Done."}),
                                        "go", m, c.reply, 120));
}

// Copilot 1.0.102 draws a tip below the prompt's echo when the prompt was
// typed while it was loading: no reply yet, then the reply after the tip.
TEST(ReplyExtractor, CopilotTipBelowTheEchoIsNoReply) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(LoadEngineFile(TUIDRIVER_SOURCE_DIR "/engines/copilot.json", &c, &err)) << err;
  ScreenMatcher m(c);
  std::vector<std::string> screen = {" ❯ say 'early'                                  00:26", " ● Tip: ctrl+x → o",
                                     "   └ open most recent link", " /tmp/project"};
  EXPECT_EQ("", ExtractMarkedReply(Rows(screen), "say 'early'", m, c.reply, 120));
  screen.insert(screen.begin() + 3, " ● said early");
  EXPECT_EQ("said early", ExtractMarkedReply(Rows(screen), "say 'early'", m, c.reply, 120));
}

// Cline wraps a tool's long command in its own indent, so the report's
// first row (`   ⎿ `) is not right below the block's head: the head, the
// rows it wrapped onto and the report are all left out; rows after a reply's
// head that lead to no report stay the reply.
TEST(ReplyExtractor, AToolBlockWhoseHeadWrapsIsLeftOut) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(LoadEngineFile(TUIDRIVER_SOURCE_DIR "/engines/cline.json", &c, &err)) << err;
  ScreenMatcher m(c);
  EXPECT_EQ("Done.", ExtractMarkedReply(Rows({"❯ run the tool", "",
                                              " * run_commands(echo tool said hi > /tmp/p/made.txt; cat /tmp/t-e2e-",
                                              "   cline-14y/project/made.txt)", "   ⎿ tool said hi", "", " * Done.",
                                              "", "────────────────────────────"}),
                                        "run the tool", m, c.reply, 120));
  EXPECT_EQ("Looking first,\nwith a second row.\n\nDone.",
            ExtractMarkedReply(Rows({"❯ look", " * Looking first,", "   with a second row.", "",
                                     " * run_commands(ls)", "   ⎿ a.txt", "", " * Done."}),
                               "look", m, c.reply, 120));
}

// Qwen numbers a code block's rows and, once the conversation is taller
// than the screen, draws a scrollbar in the last column: the shipped
// engine's reply.strip drops both and keeps the code's own indent.
TEST(ReplyExtractor, QwenLineNumbersAndScrollbarAreStripped) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(LoadEngineFile(TUIDRIVER_SOURCE_DIR "/engines/qwen.json", &c, &err)) << err;
  ScreenMatcher m(c);
  EXPECT_EQ("Here is the function:\n\ndef add(a, b):\n    return a + b\n\nIt adds 2 numbers.",
            ExtractMarkedReply(Rows({"  > Show code", "", "  ◆ Here is the function:              █", "",
                                     "     1 def add(a, b):                     │",
                                     "     2     return a + b                   │", "",
                                     "    It adds 2 numbers.", "", "──────────────────────────────"}),
                               "Show code", m, c.reply, 120));
}

// Qwen draws its notices in the indent of its own messages, below the
// reply (a warning when it cannot write its transcript, wrapped by Qwen in
// the reply's indent): left out, up to the next reply.start row.
TEST(ReplyExtractor, QwenNoticeBelowAReplyIsLeftOut) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(LoadEngineFile(TUIDRIVER_SOURCE_DIR "/engines/qwen.json", &c, &err)) << err;
  ScreenMatcher m(c);
  EXPECT_EQ("second",
            ExtractMarkedReply(Rows({"  > two", "  \u25c6\ufe0e second",
                                     "  \u25b3\ufe0e Session recording stopped after a write failure. Check",
                                     "    disk space and permissions.", "──────────────────────────────"}),
                               "two", m, c.reply, 120));
  EXPECT_EQ("Looking.\nDone.",
            ExtractMarkedReply(Rows({"  > go", "  \u25c6 Looking.", "  \u25cf\ufe0e Extensions changed on disk.",
                                     "    Run /reload-plugins.", "  \u25c6 Done.", "──────────────────────────────"}),
                               "go", m, c.reply, 120));
}

// Issue 22, item 1: Codex redraws its view in place and pins the prompt's
// echo above the end of a reply taller than the screen; the reply's tail is
// placed after the rows seen before, where they share rows.
TEST(ReplyExtractor, TheTailOfATallReplyJoinsTheRowsSeenBefore) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(LoadEngineFile(TUIDRIVER_SOURCE_DIR "/engines/codex.json", &c, &err)) << err;
  ScreenMatcher m(c);
  bool headless = true;
  std::vector<std::string> seen = MarkedReplyRows(
      Rows({"› tall", "• Ran echo hi", "  └ hi", "", "• row 0", "", "  row 1", "", "  row 2"}), "tall", m,
      c.reply, false, &headless);
  EXPECT_FALSE(headless);
  EXPECT_EQ((std::vector<std::string>{"row 0", "", "row 1", "", "row 2"}), seen);
  std::vector<std::string> tail =
      MarkedReplyRows(Rows({"› tall", "  row 2", "", "  row 3", "", "  Worked for 1s"}), "tall", m, c.reply, false,
                      &headless);
  EXPECT_TRUE(headless);
  EXPECT_EQ("", ExtractMarkedReply(Rows({"› tall", "  row 2", "", "  row 3"}), "tall", m, c.reply, 120));
  ASSERT_TRUE(MergeReplyRows(&seen, tail));
  EXPECT_EQ("row 0\n\nrow 1\n\nrow 2\n\nrow 3", JoinReplyRows(seen, c.reply, 120));
  // Rows that were never on screen: the tail cannot be placed.
  EXPECT_FALSE(MergeReplyRows(&seen, {"row 9", "", "row 10"}));
  EXPECT_FALSE(MergeReplyRows(&seen, {"", "row 11"}));  // a blank row in common is no anchor
  EXPECT_EQ(7u, seen.size());
  // A reply.start row after the headless rows: the reply starts there.
  MarkedReplyRows(Rows({"› tall", "  more of the prompt", "• Answer."}), "tall", m, c.reply, false, &headless);
  EXPECT_FALSE(headless);
}

TEST(ReplyExtractor, UnwrapJoinsOnlyWhatTheProgramWrapped) {
  // Width 20: "aaaa bbbb cccc dddd" + " eeee" would not fit, so the break
  // was the wrapper's; "short" + " next" would fit, so that break is real.
  std::vector<std::string> rows = {"aaaa bbbb cccc dddd", "eeee", "short", "next line"};
  EXPECT_EQ((std::vector<std::string>{"aaaa bbbb cccc dddd eeee", "short", "next line"}),
            UnwrapWordWrapped(rows, 20));
  EXPECT_EQ((std::vector<std::string>{"a", "", "b"}), UnwrapWordWrapped({"a", "", "b"}, 20));
}

// Qwen Code keeps the space at a break at the next row's start (seen:
// "terminal  and" in a fresh-machine run); a kept space is not doubled.
TEST(ReplyExtractor, UnwrapKeepsOneSpaceWhereTheWrapperKeptIt) {
  EXPECT_EQ((std::vector<std::string>{"alpha beta gamma delta and staying"}),
            UnwrapWordWrapped({"alpha beta gamma delta", " and staying"}, 24));
  EXPECT_EQ((std::vector<std::string>{"alpha beta gamma delta and staying"}),
            UnwrapWordWrapped({"alpha beta gamma delta ", "and staying"}, 24));
}

TEST(ReplyExtractor, UnwrapJoinsAWordBrokenInsideWithoutASpace) {
  const std::string y20(20, 'y'), u30(30, 'u'), u20(20, 'u');
  // Width 50. A word longer than a row (a URL, a code line) is cut on full
  // rows, where it has no space, whether it starts a row or not.
  EXPECT_EQ((std::vector<std::string>{y20 + y20 + y20 + y20 + y20 + y20}),
            UnwrapWordWrapped({y20 + y20 + "yyyyyyyyyy", y20 + y20 + "yyyyyyyyyy", y20}, 50));
  EXPECT_EQ((std::vector<std::string>{"see https://" + u30 + u30 + " now"}),
            UnwrapWordWrapped({"see https://" + u30 + "uuuuuuuu", u20 + "uu now"}, 50));
  // A full row that ends with a whole word: that word and the next fit on a
  // row together, so the break was at a space.
  EXPECT_EQ((std::vector<std::string>{u20 + " " + y20 + " abcdefgh " + y20}),
            UnwrapWordWrapped({u20 + " " + y20 + " abcdefgh", y20}, 50));
  // Rows short of the edge never lose their space.
  EXPECT_EQ((std::vector<std::string>{"aaaa " + u30 + " " + y20, "d"}),
            UnwrapWordWrapped({"aaaa " + u30, y20, "d"}, 50));
  // Narrow rows: two long words of prose can fill more than a row; keep the space.
  EXPECT_EQ((std::vector<std::string>{"aaaa supercalifragilistic terminal"}),
            UnwrapWordWrapped({"aaaa supercalifragilistic", "terminal"}, 25));
}

TEST(ReplyExtractor, JoinRowsFollowsTerminalWraps) {
  std::vector<Row> rows = {{"xxxxx", true}, {"yy", false}, {"z", false}};
  EXPECT_EQ("xxxxxyy\nz", JoinRows(rows));
}

TEST(ReplyExtractor, EchoRowsCountsWideCharacters) {
  EXPECT_EQ(1, EchoRows(4, "6*7", 80));
  EXPECT_EQ(2, EchoRows(4, std::string(80, 'x'), 80));
  EXPECT_EQ(2, EchoRows(0, "\xE4\xB8\xAD" + std::string(79, 'x'), 80));  // 中 is 2 columns
  // Emoji outside the CJK ranges are wide too, as the terminal counts them:
  // print("✅"*14) at 40 columns wraps (the echo leaked into the reply).
  std::string check = "\xE2\x9C\x85";  // ✅
  std::string rocket = "\xF0\x9F\x9A\x80";  // 🚀
  std::string line = "print(\"";
  for (int i = 0; i < 14; ++i) line += check;
  line += "\")";
  EXPECT_EQ(2, EchoRows(4, line, 40));
  EXPECT_EQ(1, EchoRows(0, rocket + rocket, 4));
  EXPECT_EQ(2, EchoRows(0, rocket + rocket + rocket, 4));
}

}  // namespace
}  // namespace tuidriver

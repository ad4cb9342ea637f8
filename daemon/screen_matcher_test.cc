#include "screen_matcher.h"

#include <gtest/gtest.h>

#include "engine_config.h"
#include "terminal.h"

namespace tuidriver {
namespace {

void Feed(Terminal* t, const std::string& s) { t->Feed(s.data(), s.size()); }

// Gemini-like: the prompt stays on screen while it works, and the window
// title says whether it works.
EngineConfig TitleEngine() {
  EngineConfig c;
  c.prompt = {"^ >   Type your message", MatchScope::kScreen};
  c.busy_title = "Working";
  return c;
}

TEST(ScreenMatcher, WindowTitleTellsBusy) {
  EngineConfig c = TitleEngine();
  ScreenMatcher m(c);
  Terminal t(40, 5, 100);
  Feed(&t, "\r\n >   Type your message");
  EXPECT_TRUE(m.PromptVisible(t));
  EXPECT_TRUE(m.Ready(t));  // no title yet: not busy

  Feed(&t, "\x1b]0;\xe2\x9c\xa6  Working\xe2\x80\xa6 (project)\x07");
  EXPECT_TRUE(m.Busy(t));
  EXPECT_FALSE(m.Ready(t));

  Feed(&t, "\x1b]2;\xe2\x97\x87  Ready (project)\x1b\\");
  EXPECT_FALSE(m.Busy(t));
  EXPECT_TRUE(m.Ready(t));
}

TEST(ScreenMatcher, NoBusyTitleIgnoresTheTitle) {
  EngineConfig c = TitleEngine();
  c.busy_title.clear();
  ScreenMatcher m(c);
  Terminal t(40, 5, 100);
  Feed(&t, "\x1b]0;Working\x07\r\n >   Type your message");
  EXPECT_FALSE(m.Busy(t));
  EXPECT_TRUE(m.Ready(t));
}

// A screen busy pattern and the title are alternatives: either one is busy.
TEST(ScreenMatcher, BusyPatternOrTitle) {
  EngineConfig c = TitleEngine();
  c.busy = {{"esc to cancel", MatchScope::kScreen}};
  ScreenMatcher m(c);
  Terminal t(40, 5, 100);
  Feed(&t, "\x1b]0;Ready\x07 Thinking... (esc to cancel, 1s)\r\n >   Type your message");
  EXPECT_TRUE(m.Busy(t));
  Feed(&t, "\x1b[1;1H\x1b[2K");
  EXPECT_FALSE(m.Busy(t));
}

// `started`: the prompt counts for the first ready only once the program
// has drawn what shows it finished starting.
TEST(ScreenMatcher, StartedPatterns) {
  EngineConfig c = TitleEngine();
  ScreenMatcher none(c);
  Terminal t(40, 5, 100);
  Feed(&t, "\r\n >   Type your message");
  StartedLatch latch;
  EXPECT_TRUE(none.UpdateStarted(t, &latch));  // no patterns: started

  c.started = {{"Gemini CLI v\\d", MatchScope::kScreen}, {"Tips for", MatchScope::kScreen}};
  ScreenMatcher m(c);
  EXPECT_TRUE(m.Ready(t));
  EXPECT_FALSE(m.UpdateStarted(t, &latch));
  Feed(&t, "\x1b[1;1HTips for getting started");
  EXPECT_TRUE(m.UpdateStarted(t, &latch));
  EXPECT_EQ(1, latch.match.index);
  EXPECT_EQ(0, latch.match.row);
}

// Issue 22, item 2: a `started` pattern stays met once seen, even when it
// scrolled off before anyone looked (one chunk of a resumed history), and
// explain says what holds a starting session.
TEST(ScreenMatcher, StartedPatternsLatchAndAreSeenInTheHistory) {
  EngineConfig c = TitleEngine();
  c.started = {{"^Tips for", MatchScope::kScreen}};
  ScreenMatcher m(c);
  Terminal t(40, 5, 100);
  StartedLatch latch;
  Feed(&t, "banner\r\n >   Type your message");
  EXPECT_FALSE(m.UpdateStarted(t, &latch));
  std::string json = m.ExplainJson(m.Explain(t, "exec"), latch, true);
  EXPECT_NE(std::string::npos, json.find("\"verdict\":\"starting\"")) << json;
  EXPECT_NE(std::string::npos, json.find("none of the engine's `started` patterns has been seen yet "
                                         "(started[0] ^Tips for); prompt matches the screen")) << json;
  EXPECT_NE(std::string::npos, json.find("\"started\":{\"seen\":false,\"patterns\":[\"^Tips for\"]}")) << json;

  Feed(&t, "\x1b[2J\x1b[HTips for getting started\r\n");
  for (int i = 0; i < 20; ++i) Feed(&t, "history row\r\n");  // the banner scrolls off unseen
  Feed(&t, " >   Type your message");
  EXPECT_TRUE(m.UpdateStarted(t, &latch));
  EXPECT_EQ(-1, latch.match.row);
  EXPECT_EQ("Tips for getting started", latch.match.text);
  Feed(&t, "\x1b[2J");
  EXPECT_TRUE(m.UpdateStarted(t, &latch));  // latched
  json = m.ExplainJson(m.Explain(t, "exec"), latch, false);
  EXPECT_NE(std::string::npos, json.find("\"started\":{\"seen\":true,\"rule\":{\"rule\":\"started\",\"index\":0,"
                                         "\"pattern\":\"^Tips for\",\"row\":null,\"text\":\"Tips for getting started\"}"))
      << json;
}

// status.explain: the deciding rule first, with the row or title it
// matched; the other matching rules after it; nothing when none matched.
TEST(ScreenMatcher, ExplainNamesTheDecidingRule) {
  EngineConfig c = TitleEngine();
  c.busy = {{"esc to cancel", MatchScope::kScreen}, {"Thinking", MatchScope::kScreen}};
  c.dialogs = {{"trust", "Trust this folder", {"Enter"}, {"agent"}}};
  c.needs_input = {{"Allow once\\?", MatchScope::kScreen}};
  ScreenMatcher m(c);
  Terminal t(40, 5, 100);
  EXPECT_TRUE(m.Explain(t, "exec").empty());
  EXPECT_NE(std::string::npos, ScreenMatcher::ExplainJson({}).find("\"rule\":null"));

  Feed(&t, "\r\n >   Type your message");
  std::vector<RuleMatch> e = m.Explain(t, "exec");
  ASSERT_EQ(1u, e.size());
  EXPECT_EQ("prompt", e[0].rule);
  EXPECT_EQ("ready", e[0].verdict);
  EXPECT_EQ(1, e[0].row);
  EXPECT_EQ(" >   Type your message", e[0].text);

  Feed(&t, "\x1b[1;1H Thinking (esc to cancel)");
  e = m.Explain(t, "exec");
  ASSERT_EQ(3u, e.size());
  EXPECT_EQ("busy", e[0].rule);
  EXPECT_EQ(0, e[0].index);
  EXPECT_EQ(" Thinking (esc to cancel)", e[0].text);
  EXPECT_EQ(1, e[1].index);
  EXPECT_EQ("prompt", e[2].rule);
  EXPECT_EQ(" >   Type your message", e[2].text);  // its row's, not the cursor's
  std::string json = ScreenMatcher::ExplainJson(e);
  EXPECT_NE(std::string::npos, json.find("\"verdict\":\"busy\"")) << json;
  EXPECT_NE(std::string::npos, json.find("busy[0] matched row 0:  Thinking (esc to cancel)")) << json;

  Feed(&t, "\x1b[1;1H\x1b[2K\x1b]0;Working\x07");
  e = m.Explain(t, "exec");
  ASSERT_EQ(2u, e.size());
  EXPECT_EQ("busy_title", e[0].rule);
  EXPECT_EQ("Working", e[0].text);
  EXPECT_EQ(-1, e[0].row);

  // A dialog counts only in the modes its rule names; a question comes next.
  Feed(&t, "\x1b[3;1HTrust this folder? Allow once?");
  EXPECT_EQ("needs_input", m.Explain(t, "exec")[0].rule);
  e = m.Explain(t, "agent");
  EXPECT_EQ("dialog", e[0].rule);
  EXPECT_EQ("trust", e[0].name);
  EXPECT_EQ(2, e[0].row);
}

// Qwen names the command on a row above the question ("? Shell touch
// /p/a.txt" above "Allow execution of: 'touch'?"): with question_start the
// question begins there, the nearest such row above the one that matched.
TEST(ScreenMatcher, TheQuestionBeginsAtItsStartRow) {
  EngineConfig c;
  c.needs_input = {{"Allow execution of", MatchScope::kScreen}};
  Terminal t(60, 8, 100);
  Feed(&t, "  ? Shell touch /p/old.txt\r\n  ? Shell touch /p/a.txt\r\n\r\n   Allow execution of: 'touch'?\r\n"
           "   > 1. Yes");
  std::string question;
  ASSERT_TRUE(ScreenMatcher(c).NeedsInput(t, &question));
  EXPECT_EQ("   Allow execution of: 'touch'?\n   > 1. Yes", question);
  c.needs_input_options.question_start = "^  \\? Shell ";
  ASSERT_TRUE(ScreenMatcher(c).NeedsInput(t, &question));
  EXPECT_EQ("  ? Shell touch /p/a.txt\n\n   Allow execution of: 'touch'?\n   > 1. Yes", question);
}

// opencode draws its permission box before the command reached it (the
// box's command row blank); the tool call's row above still says so. Kilo
// (its fork) ends that row in "..." rather than "…". The rows as drawn.
TEST(ScreenMatcher, OpencodeShowsAQuestionStillToBeDrawn) {
  for (const char* engine : {"opencode", "kilo"}) {
    EngineConfig c;
    std::string err;
    ASSERT_TRUE(LoadEngineFile(std::string(TUIDRIVER_SOURCE_DIR "/engines/") + engine + ".json", &c, &err)) << err;
    ScreenMatcher m(c);
    bool kilo = std::string(engine) == "kilo";
    Terminal t(100, 6, 100);
    Feed(&t, std::string("     ~ Writing command") + (kilo ? "..." : "…") +
                 "\r\n     ▣  Build · Fake Model\r\n  ┃  △ Permission required\r\n  ┃    # Shell command\r\n  ┃");
    std::string question;
    EXPECT_TRUE(m.NeedsInput(t, &question)) << engine;
    EXPECT_TRUE(m.QuestionIncomplete(t)) << engine;
    Feed(&t, "\x1b[H     $ touch /p/a.txt\x1b[K\x1b[5;1H  ┃  $ touch /p/a.txt");
    EXPECT_FALSE(m.QuestionIncomplete(t)) << engine;
  }
}

// Copilot 1.0.102 shows its input box some 9 s before it has loaded, and
// answers a prompt typed then only once loaded: it is not ready before.
TEST(ScreenMatcher, CopilotIsBusyWhileItLoads) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(LoadEngineFile(TUIDRIVER_SOURCE_DIR "/engines/copilot.json", &c, &err)) << err;
  ScreenMatcher m(c);
  Terminal t(100, 5, 100);
  Feed(&t, "\x1b[2;1H" + std::string(100, '-') + "\x1b[4;1H ● Loading: 2 skills — still waiting on ide   fake-model"
           "\x1b[3;1H❯ ");
  EXPECT_TRUE(m.PromptVisible(t));
  EXPECT_FALSE(m.Ready(t));
  Feed(&t, "\x1b[4;1H\x1b[2K ← open sidebar · Interactive · / commands · ? help   fake-model\x1b[3;3H");
  EXPECT_TRUE(m.Ready(t));
}

// Cline's input box is ready only while empty: the cursor right after its
// `❯ `, before the placeholder. A prompt left in the box (an Enter the
// paste took, under load) is no prompt, so the ask presses Enter again
// (submit.resubmit_ms) instead of waiting out its timeout.
TEST(ScreenMatcher, ClineWithTextInItsBoxShowsNoPrompt) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(LoadEngineFile(TUIDRIVER_SOURCE_DIR "/engines/cline.json", &c, &err)) << err;
  ScreenMatcher m(c);
  Terminal t(60, 5, 100);
  Feed(&t, "\x1b[2;1H" + std::string(40, '-') + "\x1b[3;1H❯ Ask anything...\x1b[4;1H" + std::string(40, '-') +
           "\x1b[3;3H");
  EXPECT_TRUE(m.PromptVisible(t));
  EXPECT_TRUE(m.Ready(t));
  Feed(&t, "\x1b[Ksay 'tdx-0-1'");
  EXPECT_FALSE(m.PromptVisible(t));
  EXPECT_FALSE(m.Ready(t));
  std::string typed;
  EXPECT_TRUE(m.UnfinishedInput(t, &typed));
  EXPECT_EQ("❯ say 'tdx-0-1'", typed);
}

TEST(ScreenMatcher, ExplainBusyOsc) {
  EngineConfig c;
  c.prompt = {"^› $", MatchScope::kCursorLine};
  c.busy_osc = 7501;
  c.busy_osc_pattern = "working";
  c.busy_until_osc = true;
  ScreenMatcher m(c);
  Terminal t(40, 5, 100);
  Feed(&t, "› ");
  std::vector<RuleMatch> e = m.Explain(t, "exec");
  ASSERT_EQ(2u, e.size());
  EXPECT_EQ("busy_osc", e[0].rule);
  EXPECT_NE(std::string::npos, e[0].pattern.find("no OSC 7501 yet"));
  Feed(&t, "\x1b]7501;working\x07");
  e = m.Explain(t, "exec");
  EXPECT_EQ("working", e[0].text);
  Feed(&t, "\x1b]7501;idle\x07");
  e = m.Explain(t, "exec");
  ASSERT_EQ(1u, e.size());
  EXPECT_EQ("prompt", e[0].rule);
  EXPECT_EQ("› ", e[0].text);
}


// A REPL whose prompts carry an invisible mark (prompt_osc): python's.
EngineConfig MarkedEngine() {
  EngineConfig c;
  c.prompt = {"^>>> $", MatchScope::kCursorLine};
  c.continuation_prompt = {"^\\.\\.\\. $", MatchScope::kCursorLine};
  c.prompt_osc = 7704;
  c.prompt_mark = "ab12cd";
  return c;
}

const char kMark[] = "\x1b]7704;ab12cd\x07";

TEST(ScreenMatcher, AMarkedPromptShowsAsTheProgramDrawsIt) {
  EngineConfig c = MarkedEngine();
  ScreenMatcher m(c);
  Terminal t(40, 5, 100);
  Feed(&t, std::string(kMark) + ">>> ");
  EXPECT_EQ(">>>", t.RowText(0));  // the person sees the REPL's own prompt, no token
  EXPECT_TRUE(m.PromptVisible(t));
  Feed(&t, "6*7\r\n42\r\n");
  EXPECT_FALSE(m.PromptVisible(t));
  // Output that merely prints the prompt's text is not the prompt.
  Feed(&t, ">>> ");
  EXPECT_FALSE(m.PromptVisible(t));
  // Nor is the mark of another session (a nested REPL, a replayed log).
  Feed(&t, "\r\n\x1b]7704;ffffff\x07>>> ");
  EXPECT_FALSE(m.PromptVisible(t));
  Feed(&t, "\r\n" + std::string(kMark) + ">>> ");
  EXPECT_TRUE(m.PromptVisible(t));
}

// Output with no final newline shares the prompt's row: the text before
// the mark is the output's.
TEST(ScreenMatcher, OutputBeforeAMarkedPromptIsTheReplys) {
  EngineConfig c = MarkedEngine();
  ScreenMatcher m(c);
  Terminal t(40, 5, 100);
  Feed(&t, "hello>>> " + std::string(kMark) + ">>> ");
  EXPECT_TRUE(m.PromptVisible(t));
  EXPECT_EQ("hello>>> ", m.TextBeforePrompt(t));
  Feed(&t, "\r\n" + std::string(kMark) + "... ");
  EXPECT_TRUE(m.ContinuationVisible(t));
  EXPECT_FALSE(m.PromptVisible(t));
}

// Erased, the mark is gone: a program that clears the screen and prints
// the prompt's text where the prompt was does not fake it.
TEST(ScreenMatcher, AnErasedMarkIsForgotten) {
  EngineConfig c = MarkedEngine();
  ScreenMatcher m(c);
  Terminal t(40, 5, 100);
  Feed(&t, std::string(kMark) + ">>> ");
  ASSERT_TRUE(m.PromptVisible(t));
  Feed(&t, "\x1b[H\x1b[2J>>> ");
  EXPECT_FALSE(m.PromptVisible(t));
  Feed(&t, "\r\x1b[K" + std::string(kMark) + ">>> ");  // redrawn with its mark
  EXPECT_TRUE(m.PromptVisible(t));
  Feed(&t, "\r\x1b[K>>> ");
  EXPECT_FALSE(m.PromptVisible(t));
}

// The mark follows its row when the screen scrolls and when a new width
// reflows the lines.
TEST(ScreenMatcher, TheMarkFollowsScrollingAndReflow) {
  EngineConfig c = MarkedEngine();
  ScreenMatcher m(c);
  Terminal t(24, 3, 100);
  Feed(&t, "1\r\n2\r\n3\r\n0123456789abcdef" + std::string(kMark) + ">>> ");
  ASSERT_TRUE(m.PromptVisible(t));  // the mark on the wrapped row, column 16
  t.Resize(30, 3);
  EXPECT_EQ("0123456789abcdef>>>", t.RowText(t.cursor().row));
  EXPECT_TRUE(m.PromptVisible(t));
  t.Resize(12, 4);
  EXPECT_EQ("cdef>>>", t.RowText(t.cursor().row));
  EXPECT_TRUE(m.PromptVisible(t));
  EXPECT_EQ("cdef", m.TextBeforePrompt(t));
}

TEST(ScreenMatcher, UnfinishedInputAfterAMarkedPrompt) {
  EngineConfig c = MarkedEngine();
  ScreenMatcher m(c);
  Terminal t(20, 5, 100);
  std::string text;
  Feed(&t, std::string(kMark) + ">>> ");
  EXPECT_FALSE(m.UnfinishedInput(t, &text));  // an empty prompt
  Feed(&t, "abc");
  ASSERT_TRUE(m.UnfinishedInput(t, &text));
  EXPECT_EQ(">>> abc", text);
  Feed(&t, "defghijklmnopqrstu");  // wraps onto the next row
  ASSERT_TRUE(m.UnfinishedInput(t, &text));
  EXPECT_EQ(">>> abcdefghijklmnopqrstu", text);
  Feed(&t, "\r\n" + std::string(kMark) + "... ");
  ASSERT_TRUE(m.UnfinishedInput(t, &text));  // a block begun
  EXPECT_EQ("... ", text);
  // Output on a row of its own that looks like a prompt and more is no input.
  Feed(&t, "\r\n>>> abc");
  EXPECT_FALSE(m.UnfinishedInput(t, &text));
}

// Without prompt_osc the prompt is matched on the whole cursor line, as ever.
TEST(ScreenMatcher, UnfinishedInputWithoutAMark) {
  EngineConfig c;
  c.prompt = {"td-x\\$ $", MatchScope::kCursorLine};
  ScreenMatcher m(c);
  Terminal t(20, 5, 100);
  std::string text;
  Feed(&t, "td-x$ ");
  EXPECT_TRUE(m.PromptVisible(t));
  EXPECT_FALSE(m.UnfinishedInput(t, &text));
  Feed(&t, "ec");
  ASSERT_TRUE(m.UnfinishedInput(t, &text));
  EXPECT_EQ("td-x$ ec", text);
}

}  // namespace
}  // namespace tuidriver

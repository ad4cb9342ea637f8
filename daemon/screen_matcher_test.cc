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
  EXPECT_TRUE(none.Started(t));  // no patterns: started

  c.started = {{"Gemini CLI v\\d", MatchScope::kScreen}, {"Tips for", MatchScope::kScreen}};
  ScreenMatcher m(c);
  EXPECT_TRUE(m.Ready(t));
  EXPECT_FALSE(m.Started(t));
  Feed(&t, "\x1b[1;1HTips for getting started");
  EXPECT_TRUE(m.Started(t));
}

}  // namespace
}  // namespace tuidriver

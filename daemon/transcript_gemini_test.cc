#include "transcript_gemini.h"

#include <gtest/gtest.h>

#include "transcript_test_util.h"

namespace tuidriver {
namespace {

// Recorded from the genuine Gemini CLI 0.61.0 against the fake API (the
// first `$set` of the session context and the tool's drawn output left
// out): a turn with a shell call (its record updated by id), then a turn
// answering in markdown.
std::string GeminiSample() { return RecordedTranscript("gemini-0.61.0.jsonl"); }

TEST(GeminiTranscript, MergedByIdAndEndedByAnAnswer) {
  std::string sample = GeminiSample();
  ASSERT_FALSE(sample.empty());
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseGeminiTurn(Lines(sample, 0, 10), &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("Done.", turn.markdown);
  ASSERT_EQ(1u, turn.tools.size());
  EXPECT_EQ("run_shell_command", turn.tools[0].name);
  EXPECT_EQ(R"({"command":"echo tool said hi"})", turn.tools[0].input_json);
  EXPECT_NE(std::string::npos, turn.tools[0].output.find("tool said hi"));
  EXPECT_TRUE(turn.tools[0].ok);
  EXPECT_EQ(24, turn.input_tokens);  // the updated record counts once
  EXPECT_EQ("gemini-3.8-flash", turn.model);
  // Up to the tool call only: not finished.
  ASSERT_TRUE(ParseGeminiTurn(Lines(sample, 0, 6), &turn, &err)) << err;
  EXPECT_FALSE(turn.finished);
  ASSERT_TRUE(ParseGeminiTurn(sample, &turn, &err)) << err;
  EXPECT_EQ("## Plan\nUse **bold**.", turn.markdown);
  EXPECT_TRUE(turn.finished);
  EXPECT_FALSE(ParseGeminiTurn(R"({"id":"x","content":"typeless"})" "\n", &turn, &err));
  EXPECT_NE(std::string::npos, err.find("type")) << err;
}

TEST(GeminiTranscript, HistoryIsEveryTurnWithItsPrompt) {
  std::vector<Turn> turns = HistoryOf(ParseGeminiTurns, GeminiSample());
  ASSERT_EQ(2u, turns.size());
  EXPECT_EQ("run it", turns[0].prompt);
  EXPECT_EQ("Done.", turns[0].markdown);
  ASSERT_EQ(1u, turns[0].tools.size());
  EXPECT_EQ("run_shell_command", turns[0].tools[0].name);
  EXPECT_TRUE(turns[0].tools[0].ok);
  EXPECT_EQ("second", turns[1].prompt);
  EXPECT_EQ("## Plan\nUse **bold**.", turns[1].markdown);
  EXPECT_TRUE(turns[1].tools.empty());
}

}  // namespace
}  // namespace tuidriver

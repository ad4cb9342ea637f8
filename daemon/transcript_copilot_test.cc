#include "transcript_copilot.h"

#include <gtest/gtest.h>

#include "transcript_test_util.h"

namespace tuidriver {
namespace {

// Recorded from the genuine Copilot CLI 1.0.102 (BYOK, a loopback fake of
// Chat Completions; the system prompt left out): a turn answered in text,
// then a turn with a bash call (permission asked and given) and the answer.
std::string Sample() { return RecordedTranscript("copilot-1.0.102.jsonl"); }

TEST(CopilotTranscript, ATurnWithAShellCall) {
  std::string sample = Sample();
  ASSERT_FALSE(sample.empty());
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseCopilotTurn(Lines(sample, 8, 22), &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("All **done**. ", turn.markdown);
  ASSERT_EQ(1u, turn.tools.size());
  EXPECT_EQ("bash", turn.tools[0].name);
  EXPECT_EQ(R"({"command":"printf tool-ran","description":"Print"})", turn.tools[0].input_json);
  EXPECT_EQ("tool-ran\n<shellId: 0 completed with exit code 0>", turn.tools[0].output);
  EXPECT_TRUE(turn.tools[0].ok);
  EXPECT_EQ("fake-model", turn.model);
  EXPECT_EQ(24, turn.input_tokens);  // two model calls
  EXPECT_EQ(40, turn.output_tokens);
}

TEST(CopilotTranscript, TheTurnIsTheOneAfterTheLastPrompt) {
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseCopilotTurn(Lines(Sample(), 0, 8), &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("Hello **there** from the fake. ", turn.markdown);
  EXPECT_TRUE(turn.tools.empty());
}

TEST(CopilotTranscript, AToolCallsEndIsNotTheTurnsEnd) {
  std::string sample = Sample();
  Turn turn;
  std::string err;
  // Up to the turn_end after the tool ran: the model has not answered yet.
  ASSERT_TRUE(ParseCopilotTurn(Lines(sample, 8, 17), &turn, &err)) << err;
  EXPECT_TRUE(turn.prompt_seen);
  EXPECT_FALSE(turn.finished);
  EXPECT_EQ("", turn.markdown);
  // The answer written, its turn_end not yet.
  ASSERT_TRUE(ParseCopilotTurn(Lines(sample, 8, 20), &turn, &err)) << err;
  EXPECT_FALSE(turn.finished);
  // A line cut by a write in progress is waited for, not an error.
  std::string cut = Lines(sample, 8, 21);
  cut.resize(cut.size() - 10);
  EXPECT_TRUE(ParseCopilotTurn(cut, &turn, &err)) << err;
  EXPECT_FALSE(turn.finished);
}

TEST(CopilotTranscript, AKnownEventInAnUnknownShapeFails) {
  Turn turn;
  std::string err;
  std::string bad = Lines(Sample(), 2, 3) +
                    R"({"type":"assistant.message","data":{"content":["not","text"],"toolRequests":[]}})" "\n";
  EXPECT_FALSE(ParseCopilotTurn(bad, &turn, &err));
  EXPECT_NE(std::string::npos, err.find("assistant.message")) << err;
  EXPECT_NE(std::string::npos, err.find("line 2")) << err;
  EXPECT_FALSE(ParseCopilotTurn(R"({"type":"user.message"})" "\n", &turn, &err));
  EXPECT_NE(std::string::npos, err.find("data")) << err;
}

TEST(CopilotTranscript, HistoryIsEveryTurnWithItsPrompt) {
  std::vector<Turn> turns = HistoryOf(ParseCopilotTurns, Sample());
  ASSERT_EQ(2u, turns.size());
  EXPECT_EQ("say hello", turns[0].prompt);
  EXPECT_EQ("Hello **there** from the fake. ", turns[0].markdown);
  EXPECT_TRUE(turns[0].tools.empty());
  EXPECT_EQ("run it", turns[1].prompt);
  EXPECT_EQ("All **done**. ", turns[1].markdown);
  ASSERT_EQ(1u, turns[1].tools.size());
  EXPECT_EQ("bash", turns[1].tools[0].name);
}

}  // namespace
}  // namespace tuidriver

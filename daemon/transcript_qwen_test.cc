#include "transcript_qwen.h"

#include <gtest/gtest.h>

#include "transcript_test_util.h"

namespace tuidriver {
namespace {

// Recorded from the genuine Qwen Code 0.24.4 against the fake Chat
// Completions API: a turn with a shell call Qwen ran without asking (echo)
// and "Done.", then a turn answering in markdown. Telemetry and snapshot
// records sit between them, as Qwen writes them.
std::string Sample() { return RecordedTranscript("qwen-0.24.4.jsonl"); }

TEST(QwenTranscript, ATurnWithAToolCall) {
  std::string sample = Sample();
  ASSERT_FALSE(sample.empty());
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseQwenTurn(Lines(sample, 0, 9), &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("Done.", turn.markdown);
  ASSERT_EQ(1u, turn.tools.size());
  EXPECT_EQ("run_shell_command", turn.tools[0].name);
  EXPECT_EQ(R"({"command":"echo tool said hi"})", turn.tools[0].input_json);
  EXPECT_EQ(0u, turn.tools[0].output.find("Command: echo tool said hi\n"));
  EXPECT_NE(std::string::npos, turn.tools[0].output.find("Output: tool said hi\n"));
  EXPECT_TRUE(turn.tools[0].ok);
  EXPECT_EQ("fake-model", turn.model);
  EXPECT_EQ(24, turn.input_tokens);  // two model calls, 12 each
  EXPECT_EQ(40, turn.output_tokens);
}

TEST(QwenTranscript, TheLastTurnIsTheOneAfterTheLastPrompt) {
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseQwenTurn(Sample(), &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("## Plan\nUse **bold** and `code`.\n\n- first item\n- second item", turn.markdown);
  EXPECT_TRUE(turn.tools.empty());
  EXPECT_EQ(12, turn.input_tokens);
}

TEST(QwenTranscript, ATurnWaitingForItsToolIsNotDone) {
  for (size_t end : {1, 5, 7, 8}) {  // the prompt; the call; its result; telemetry
    Turn turn;
    std::string err;
    ASSERT_TRUE(ParseQwenTurn(Lines(Sample(), 0, end), &turn, &err)) << err;
    EXPECT_TRUE(turn.prompt_seen);
    EXPECT_FALSE(turn.finished) << end;
    EXPECT_EQ("", turn.markdown);
  }
}

TEST(QwenTranscript, ARecordInAnUnknownShapeFails) {
  Turn turn;
  std::string err;
  EXPECT_FALSE(ParseQwenTurn("{\"type\":\"user\",\"message\":{\"role\":\"user\"}}\n", &turn, &err));
  EXPECT_EQ("a record of type user without message.parts (line 1 of the turn)", err);
  std::string prompt = Lines(Sample(), 0, 1);
  EXPECT_FALSE(ParseQwenTurn(prompt + "{\"type\":\"assistant\",\"message\":{\"content\":\"x\"}}\n", &turn, &err));
  EXPECT_EQ("a record of type assistant without message.parts (line 2 of the turn)", err);
  EXPECT_FALSE(ParseQwenTurn(prompt + "not json\n{}\n", &turn, &err));
  EXPECT_EQ("line 2 of the turn is not JSON", err);
}

TEST(QwenTranscript, AHalfWrittenLastLineIsNotYetAnError) {
  std::string lines = Lines(Sample(), 0, 9);
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseQwenTurn(lines.substr(0, lines.size() - 30), &turn, &err)) << err;
  EXPECT_FALSE(turn.finished);
}

TEST(QwenTranscript, HistoryIsEveryTurnWithItsPrompt) {
  std::vector<Turn> turns = HistoryOf(ParseQwenTurns, Sample());
  ASSERT_EQ(2u, turns.size());
  EXPECT_EQ("run it", turns[0].prompt);
  EXPECT_EQ("Done.", turns[0].markdown);
  ASSERT_EQ(1u, turns[0].tools.size());
  EXPECT_EQ("run_shell_command", turns[0].tools[0].name);
  EXPECT_EQ("make a plan", turns[1].prompt);
  EXPECT_EQ("## Plan\nUse **bold** and `code`.\n\n- first item\n- second item", turns[1].markdown);
  EXPECT_TRUE(turns[1].tools.empty());
}

}  // namespace
}  // namespace tuidriver

#include "transcript_claude.h"

#include <gtest/gtest.h>

#include "transcript_test_util.h"

namespace tuidriver {
namespace {

// Each release's sample (tests/transcripts/claude-<release>.jsonl), recorded
// from the genuine Claude Code against the fake API with the largest records,
// request bodies and attachments, left out: a turn with a Bash tool call,
// then a turn answering in markdown. Every test below reads every sample, so
// a release that writes these turns differently fails here (issue 45).
std::vector<RecordedSample> Samples() { return RecordedSamples("claude", "jsonl"); }

constexpr char kToolCall[] = R"("stop_reason":"tool_use")";  // the model's tool call
constexpr char kAnswer[] = R"("stop_reason":"end_turn")";    // its answer, which ends the turn
constexpr char kTurnEnd[] = R"("subtype":"turn_duration")";  // the CLI's record of the turn's end
constexpr char kPlan[] = "## Plan\nUse **bold** and `code`.\n\n- first item\n- second item";

TEST(ClaudeTranscript, ATurnWithAToolCall) {
  for (const RecordedSample& sample : Samples()) {
    SCOPED_TRACE(sample.name);
    Turn turn;
    std::string err;
    ASSERT_TRUE(ParseClaudeTurn(Lines(sample.text, 0, LineOf(sample.text, kTurnEnd) + 1), &turn, &err)) << err;
    EXPECT_TRUE(turn.finished);
    EXPECT_EQ("Done.", turn.markdown);
    ASSERT_EQ(1u, turn.tools.size());
    EXPECT_EQ("Bash", turn.tools[0].name);
    EXPECT_EQ(R"({"command":"echo tool said hi","description":"say hi"})", turn.tools[0].input_json);
    EXPECT_EQ("tool said hi", turn.tools[0].output);
    EXPECT_TRUE(turn.tools[0].ok);
    EXPECT_EQ("claude-opus-5-5", turn.model);
    EXPECT_EQ(24, turn.input_tokens);  // two model calls, 12 each
    EXPECT_EQ(40, turn.output_tokens);
  }
}

TEST(ClaudeTranscript, TheLastTurnIsTheOneAfterTheLastPrompt) {
  for (const RecordedSample& sample : Samples()) {
    SCOPED_TRACE(sample.name);
    Turn turn;
    std::string err;
    ASSERT_TRUE(ParseClaudeTurn(sample.text, &turn, &err)) << err;
    EXPECT_TRUE(turn.finished);
    EXPECT_EQ(kPlan, turn.markdown);
    EXPECT_TRUE(turn.tools.empty());
    EXPECT_EQ("claude-opus-5-5", turn.model);
    EXPECT_EQ(12, turn.input_tokens);
    EXPECT_EQ(20, turn.output_tokens);
  }
}

TEST(ClaudeTranscript, AnUnfinishedTurnIsNotDone) {
  for (const RecordedSample& sample : Samples()) {
    SCOPED_TRACE(sample.name);
    Turn turn;
    std::string err;
    ASSERT_TRUE(ParseClaudeTurn(Lines(sample.text, 0, LineOf(sample.text, kToolCall) + 1), &turn, &err)) << err;
    EXPECT_TRUE(turn.prompt_seen);
    EXPECT_FALSE(turn.finished);
    // A line cut by a write in progress (the answer's) is waited for, not an error.
    std::string cut = Lines(sample.text, 0, LineOf(sample.text, kAnswer) + 1);
    cut.resize(cut.size() - 10);
    EXPECT_TRUE(ParseClaudeTurn(cut, &turn, &err)) << err;
    EXPECT_FALSE(turn.finished);
  }
}

TEST(ClaudeTranscript, AnAnswerThatEndsTheTurnIsDoneBeforeTheTurnDurationRecord) {
  for (const RecordedSample& sample : Samples()) {
    SCOPED_TRACE(sample.name);
    Turn turn;
    std::string err;
    // Up to the answer with stop_reason end_turn, without the turn_duration after it.
    ASSERT_LT(LineOf(sample.text, kAnswer), LineOf(sample.text, kTurnEnd));
    ASSERT_TRUE(ParseClaudeTurn(Lines(sample.text, 0, LineOf(sample.text, kAnswer) + 1), &turn, &err)) << err;
    EXPECT_TRUE(turn.finished);
    EXPECT_EQ("Done.", turn.markdown);
    // A tool call's message (stop_reason tool_use) is not the end.
    ASSERT_TRUE(ParseClaudeTurn(Lines(sample.text, 0, LineOf(sample.text, kToolCall) + 1), &turn, &err)) << err;
    EXPECT_FALSE(turn.finished);
  }
  // Nor is a text block still being streamed (no stop_reason yet).
  Turn turn;
  std::string err;
  std::string prompt = R"({"type":"user","message":{"role":"user","content":"hi"}})" "\n";
  ASSERT_TRUE(ParseClaudeTurn(prompt + R"({"type":"assistant","message":{"id":"m1","stop_reason":null,)"
                                       R"("content":[{"type":"text","text":"par"}]}})" "\n",
                              &turn, &err)) << err;
  EXPECT_FALSE(turn.finished);
  EXPECT_EQ("par", turn.markdown);
}

TEST(ClaudeTranscript, UnknownRecordTypesAreSkippedUnknownShapesFailLoudly) {
  std::string prompt = R"({"type":"user","message":{"role":"user","content":"hi"}})" "\n";
  std::string answer = R"({"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"hello"}]}})" "\n";
  std::string end = R"({"type":"system","subtype":"turn_duration"})" "\n";
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseClaudeTurn(prompt + R"({"type":"brand-new-record","x":[1]})" "\n" + answer + end, &turn, &err));
  EXPECT_EQ("hello", turn.markdown);
  EXPECT_TRUE(turn.finished);
  // An assistant record whose message has changed shape: never a crash, never a guess.
  EXPECT_FALSE(ParseClaudeTurn(prompt + R"({"type":"assistant","message":{"id":"m1","content":"hello"}})" "\n" + end,
                               &turn, &err));
  EXPECT_NE(std::string::npos, err.find("message.content")) << err;
  EXPECT_FALSE(ParseClaudeTurn(prompt + "not json\n" + answer, &turn, &err));
  EXPECT_NE(std::string::npos, err.find("not JSON")) << err;
}

TEST(ClaudeTranscript, HistoryIsEveryTurnWithItsPrompt) {
  for (const RecordedSample& sample : Samples()) {
    SCOPED_TRACE(sample.name);
    std::vector<Turn> turns = HistoryOf(ParseClaudeTurns, sample.text);
    ASSERT_EQ(2u, turns.size());
    EXPECT_EQ("run it", turns[0].prompt);
    EXPECT_EQ("Done.", turns[0].markdown);
    ASSERT_EQ(1u, turns[0].tools.size());
    EXPECT_EQ("Bash", turns[0].tools[0].name);
    EXPECT_EQ("tool said hi", turns[0].tools[0].output);
    EXPECT_TRUE(turns[0].finished);
    EXPECT_EQ("second", turns[1].prompt);
    EXPECT_EQ(kPlan, turns[1].markdown);
    EXPECT_TRUE(turns[1].tools.empty());
  }
  // A prompt in text blocks, and a tool that failed; records before any prompt open no turn.
  std::string jsonl =
      R"({"type":"assistant","message":{"id":"m0","content":[{"type":"text","text":"stray"}]}})" "\n"
      R"({"type":"user","message":{"role":"user","content":[{"type":"text","text":"list"}]}})" "\n"
      R"({"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}})" "\n"
      R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"no such dir","is_error":true}]}})" "\n"
      R"({"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"It failed."}]}})" "\n";
  std::vector<Turn> turns = HistoryOf(ParseClaudeTurns, jsonl);
  ASSERT_EQ(1u, turns.size());
  EXPECT_EQ("list", turns[0].prompt);
  EXPECT_EQ("It failed.", turns[0].markdown);
  ASSERT_EQ(1u, turns[0].tools.size());
  EXPECT_FALSE(turns[0].tools[0].ok);
  EXPECT_EQ("no such dir", turns[0].tools[0].output);
  std::string err;
  EXPECT_FALSE(ParseClaudeTurns(jsonl + R"({"type":"user","message":{"role":"user","content":7}})" "\n", &turns, &err));
  EXPECT_NE(std::string::npos, err.find("neither text nor blocks")) << err;
}

}  // namespace
}  // namespace tuidriver

#include "transcript_cline.h"

#include <gtest/gtest.h>

#include "transcript_test_util.h"

namespace tuidriver {
namespace {

// Recorded from the genuine Cline 3.0.65 (an openai-compatible provider on
// a loopback fake; the system prompt left out): a turn answered in text,
// then a turn with a run_commands call (approved) and the answer.
std::string Sample() { return RecordedTranscript("cline-3.0.65.messages.json"); }

TEST(ClineTranscript, TheDocumentsSessionAndPrompts) {
  std::string id, err;
  size_t prompts = 0;
  ASSERT_TRUE(ReadClineDocument(Sample(), &id, &prompts, &err)) << err;
  EXPECT_EQ("1795643058141_xfify", id);
  EXPECT_EQ(2u, prompts);  // the tool result is no prompt
  EXPECT_FALSE(ReadClineDocument(R"({"sessionId":"x","messages":[)", &id, &prompts, &err));
}

TEST(ClineTranscript, ATurnWithARunCommandsCall) {
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseClineTurn(Sample(), 1, &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("All **done**. ", turn.markdown);
  ASSERT_EQ(1u, turn.tools.size());
  EXPECT_EQ("run_commands", turn.tools[0].name);
  EXPECT_EQ(R"({"commands":["printf tool-ran"]})", turn.tools[0].input_json);
  EXPECT_EQ("tool-ran", turn.tools[0].output);  // the results of the commands, one a line
  EXPECT_TRUE(turn.tools[0].ok);
  EXPECT_EQ("fake-model", turn.model);
  EXPECT_EQ(24, turn.input_tokens);
  EXPECT_EQ(40, turn.output_tokens);
}

TEST(ClineTranscript, TheTurnIsTheOneAfterThePromptsBeforeIt) {
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseClineTurn(Sample(), 0, &turn, &err)) << err;
  EXPECT_TRUE(turn.prompt_seen);  // the last prompt's turn, once both are written
  EXPECT_EQ("All **done**. ", turn.markdown);
  // No prompt after the two already there: not written yet.
  ASSERT_TRUE(ParseClineTurn(Sample(), 2, &turn, &err)) << err;
  EXPECT_FALSE(turn.prompt_seen);
  EXPECT_FALSE(turn.finished);
}

TEST(ClineTranscript, ATurnWaitingForItsToolIsNotFinished) {
  std::string sample = Sample();
  // Cut the document after the tool call (a copy with the last two messages gone).
  size_t result = sample.find(R"("id": "msg_st1uz3F0")");
  ASSERT_NE(std::string::npos, result);
  size_t open = sample.rfind('{', result);
  size_t comma = sample.rfind(',', open);
  std::string pending = sample.substr(0, comma) + "\n  ],\n  \"system_prompt\": \"\"\n}";
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseClineTurn(pending, 1, &turn, &err)) << err;
  EXPECT_TRUE(turn.prompt_seen);
  EXPECT_FALSE(turn.finished);
  ASSERT_EQ(1u, turn.tools.size());
  EXPECT_EQ("", turn.tools[0].output);
  // A document cut by a write in progress is waited for, not an error.
  EXPECT_TRUE(ParseClineTurn(sample.substr(0, sample.size() / 2), 1, &turn, &err)) << err;
  EXPECT_FALSE(turn.finished);
}

TEST(ClineTranscript, AMessageInAnUnknownShapeFails) {
  Turn turn;
  std::string err;
  EXPECT_FALSE(ParseClineTurn(R"({"messages":[{"role":"user","content":"text"}]})", 0, &turn, &err));
  EXPECT_NE(std::string::npos, err.find("content array")) << err;
  EXPECT_FALSE(ParseClineTurn(R"({"sessionId":"x"})", 0, &turn, &err));
  EXPECT_NE(std::string::npos, err.find("messages")) << err;
}

}  // namespace
}  // namespace tuidriver

#include "transcript_cline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "transcript.h"

#include "transcript_test_util.h"

namespace tuidriver {
namespace {

// Recorded from the genuine Cline 3.0.65 (an openai-compatible provider on
// a loopback fake; the system prompt left out): a turn answered in text,
// then a turn with a run_commands call (approved) and the answer.
std::string Sample() { return RecordedTranscript("cline-3.0.65.messages.json"); }

TEST(ClineTranscript, TheDocumentsSessionAndPrompts) {
  std::string id, err;
  std::vector<std::string> prompts;
  ASSERT_TRUE(ReadClineDocument(Sample(), &id, &prompts, &err)) << err;
  EXPECT_EQ("1795643058141_xfify", id);
  // As typed, out of Cline's <user_input> wrapper; the tool result is no prompt.
  EXPECT_EQ((std::vector<std::string>{"say hello", "run it"}), prompts);
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

// Two Cline sessions started together in one folder: each reads the
// messages file that records its own prompt, whichever was written first.
using ClineTranscriptFiles = TranscriptDirTest;

TEST_F(ClineTranscriptFiles, SessionsInOneFolderEachReadTheirOwnFile) {
  auto write = [this](const std::string& id, const std::string& prompt, const std::string& answer) {
    WriteFile(id + ".json", R"({"session_id":")" + id + R"(","cwd":"/p"})");
    WriteFile(id + ".messages.json",
              R"({"sessionId":")" + id + R"(","messages":[{"role":"user","content":[{"type":"text","text":)" +
                  R"("<user_input mode=\"act\">)" + prompt + R"(</user_input>"}]},)" +
                  R"({"role":"assistant","content":[{"type":"text","text":")" + answer + R"("}]}]})");
  };
  const std::string glob = Path("*.messages.json");
  TranscriptReader a("cline", glob, "/p", ""), b("cline", glob, "/p", "");
  a.StartTurn("say 'A'");
  b.StartTurn("say 'B'");
  write("1_b", "say 'B'", "B's answer");
  write("2_a", "say 'A'", "A's answer");
  Turn turn;
  std::string err;
  ASSERT_EQ(TranscriptResult::kDone, a.ReadTurn(&turn, &err)) << err;
  EXPECT_EQ("A's answer", turn.markdown);
  EXPECT_EQ("2_a", a.session_id());
  ASSERT_EQ(TranscriptResult::kDone, b.ReadTurn(&turn, &err)) << err;
  EXPECT_EQ("B's answer", turn.markdown);
  EXPECT_EQ("1_b", b.session_id());
  // The same prompt in two files: reported, never guessed.
  TranscriptReader c("cline", glob, "/p", "");
  c.StartTurn("say 'C'");
  write("3_c", "say 'C'", "one");
  write("4_c", "say 'C'", "two");
  EXPECT_EQ(TranscriptResult::kFailed, c.ReadTurn(&turn, &err));
  EXPECT_NE(std::string::npos, err.find("cannot be told")) << err;
}

}  // namespace
}  // namespace tuidriver

#include "transcript_codex.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "transcript.h"
#include "transcript_test_util.h"

namespace tuidriver {
namespace {

// Recorded from the genuine Codex 0.169.0 against the fake API (request
// bodies and attachments left out, session_meta and turn_context cut to the
// fields read): a turn whose shell call the fake names "shell" (Codex answers
// "unsupported call"), then a turn answering "OK".
std::string CodexSample() { return RecordedTranscript("codex-0.169.0.jsonl"); }

TEST(CodexTranscript, ATurnWithAToolCall) {
  std::string sample = CodexSample();
  ASSERT_FALSE(sample.empty());
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseCodexTurn(Lines(sample, 0, 16), &turn, &err)) << err;  // up to the first task_complete
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("## Plan\nUse **bold**.", turn.markdown);
  ASSERT_EQ(1u, turn.tools.size());
  EXPECT_EQ("shell", turn.tools[0].name);
  EXPECT_EQ(R"({"command":["bash","-lc","echo tool said hi"]})", turn.tools[0].input_json);
  EXPECT_EQ("unsupported call: shell", turn.tools[0].output);
  EXPECT_EQ("gpt-5", turn.model);
  EXPECT_EQ(24, turn.input_tokens);
  EXPECT_EQ(40, turn.output_tokens);
}

TEST(CodexTranscript, TheLastTurnAndUnknownShapes) {
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseCodexTurn(CodexSample(), &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("OK", turn.markdown);
  EXPECT_TRUE(turn.tools.empty());
  ASSERT_TRUE(ParseCodexTurn(Lines(CodexSample(), 0, 14), &turn, &err)) << err;
  EXPECT_FALSE(turn.finished);  // no task_complete yet
  std::string start = R"({"type":"event_msg","payload":{"type":"task_started"}})" "\n";
  EXPECT_FALSE(ParseCodexTurn(start + R"({"type":"response_item","payload":"text"})" "\n", &turn, &err));
  EXPECT_NE(std::string::npos, err.find("payload")) << err;
  EXPECT_FALSE(ParseCodexTurn(
      start + R"({"type":"response_item","payload":{"type":"message","role":"assistant","content":"hi"}})" "\n",
      &turn, &err));
  EXPECT_NE(std::string::npos, err.find("content")) << err;
}

TEST(CodexTranscript, HistoryIsEveryTurnWithItsPrompt) {
  std::vector<Turn> turns = HistoryOf(ParseCodexTurns, CodexSample());
  ASSERT_EQ(2u, turns.size());
  EXPECT_EQ("run it", turns[0].prompt);  // not the <environment_context> the CLI adds before it
  EXPECT_EQ("## Plan\nUse **bold**.", turns[0].markdown);
  ASSERT_EQ(1u, turns[0].tools.size());
  EXPECT_EQ("shell", turns[0].tools[0].name);
  EXPECT_EQ("unsupported call: shell", turns[0].tools[0].output);
  EXPECT_EQ("second", turns[1].prompt);
  EXPECT_EQ("OK", turns[1].markdown);
  EXPECT_TRUE(turns[1].tools.empty());
}

// Codex names its file at its first prompt. A session spawned right after
// another in the same cwd (a pool, a script's next run) must not take the
// file the other wrote a moment before for its own.
TEST(CodexTranscript, ANewSessionIsNotTheOneWrittenJustBeforeItsSpawn) {
  char dir[] = "/tmp/tuidriver-codex-XXXXXX";
  ASSERT_NE(nullptr, mkdtemp(dir));
  auto meta = [](const std::string& id) {
    return R"({"timestamp":"t","type":"session_meta","payload":{"id":")" + id + R"(","cwd":"/p"}})" "\n";
  };
  const std::string old = std::string(dir) + "/rollout-a.jsonl", mine = std::string(dir) + "/rollout-b.jsonl";
  std::ofstream(old) << meta("old");  // the previous session's, written this second
  TranscriptReader reader("codex", std::string(dir) + "/rollout-*.jsonl", "/p", "");
  std::ofstream(mine) << meta("mine");  // ours appears after the spawn
  reader.StartTurn();
  EXPECT_EQ("mine", reader.session_id());
  unlink(old.c_str());
  unlink(mine.c_str());
  rmdir(dir);
}

}  // namespace
}  // namespace tuidriver

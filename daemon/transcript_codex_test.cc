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
// A turn's start as Codex records it: the task, then the user's message.
constexpr char kPrompt[] =
    R"({"timestamp":"t","type":"event_msg","payload":{"type":"task_started"}})" "\n"
    R"({"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user",)"
    R"("content":[{"type":"input_text","text":"hello"}]}})" "\n";

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
  std::ofstream(mine, std::ios::app) << kPrompt;
  Turn turn;
  std::string err;
  reader.ReadTurn(&turn, &err);
  EXPECT_EQ("mine", reader.session_id());
  unlink(old.c_str());
  unlink(mine.c_str());
  rmdir(dir);
}

// A pool's replacement is spawned while the session taken from the pool
// has not written its file yet; that one writes it (its turn) before the
// replacement's first ask. The replacement's file is the one its own turn
// writes, whether Codex starts it then or at start-up.
TEST(CodexTranscript, ASessionSpawnedBesideAnotherReadsTheFileItsTurnWrote) {
  char dir[] = "/tmp/tuidriver-codex-XXXXXX";
  ASSERT_NE(nullptr, mkdtemp(dir));
  auto meta = [](const std::string& id) {
    return R"({"timestamp":"t","type":"session_meta","payload":{"id":")" + id + R"(","cwd":"/p"}})" "\n";
  };
  const std::string glob = std::string(dir) + "/rollout-*.jsonl";
  const std::string taken = std::string(dir) + "/rollout-a.jsonl", mine = std::string(dir) + "/rollout-b.jsonl";
  for (bool mine_at_start_up : {false, true}) {
    TranscriptReader reader("codex", glob, "/p", "");
    std::ofstream(taken) << meta("taken") << kPrompt;  // the other session's turn, after this spawn
    if (mine_at_start_up) std::ofstream(mine) << meta("mine");
    // Before any ask, two new files: which is ours is not known yet.
    std::vector<Turn> history;
    std::string err;
    EXPECT_FALSE(reader.ReadHistory(&history, &err));
    reader.StartTurn();
    if (!mine_at_start_up) std::ofstream(mine) << meta("mine");
    std::ofstream(mine, std::ios::app) << kPrompt;
    Turn turn;
    reader.ReadTurn(&turn, &err);
    EXPECT_EQ("mine", reader.session_id()) << mine_at_start_up;
    EXPECT_EQ("hello", turn.prompt) << err;
    unlink(taken.c_str());
    unlink(mine.c_str());
  }
  rmdir(dir);
}

}  // namespace
}  // namespace tuidriver

#include "transcript_codex.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "transcript.h"
#include "transcript_test_util.h"

namespace tuidriver {
namespace {

// Each release's sample (tests/transcripts/codex-<release>.jsonl), recorded
// from the genuine Codex against the fake API (request bodies and
// attachments left out, session_meta and turn_context cut to the fields
// read): a turn whose shell call the fake names "shell" (Codex answers
// "unsupported call"), then a turn answering "OK". Every test below reads
// every sample, so a release that writes these turns differently fails here
// (issue 45).
std::vector<RecordedSample> Samples() { return RecordedSamples("codex", "jsonl"); }

constexpr char kTurnEnd[] = R"("type":"task_complete")";  // the CLI's record of the turn's end

TEST(CodexTranscript, ATurnWithAToolCall) {
  for (const RecordedSample& sample : Samples()) {
    SCOPED_TRACE(sample.name);
    Turn turn;
    std::string err;
    ASSERT_TRUE(ParseCodexTurn(Lines(sample.text, 0, LineOf(sample.text, kTurnEnd) + 1), &turn, &err)) << err;
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
}

TEST(CodexTranscript, TheLastTurnAndUnknownShapes) {
  for (const RecordedSample& sample : Samples()) {
    SCOPED_TRACE(sample.name);
    Turn turn;
    std::string err;
    ASSERT_TRUE(ParseCodexTurn(sample.text, &turn, &err)) << err;
    EXPECT_TRUE(turn.finished);
    EXPECT_EQ("OK", turn.markdown);
    EXPECT_TRUE(turn.tools.empty());
    EXPECT_EQ("gpt-5", turn.model);
    EXPECT_EQ(12, turn.input_tokens);
    EXPECT_EQ(20, turn.output_tokens);
    ASSERT_TRUE(ParseCodexTurn(Lines(sample.text, 0, LineOf(sample.text, kTurnEnd)), &turn, &err)) << err;
    EXPECT_FALSE(turn.finished);  // no task_complete yet
    EXPECT_EQ("## Plan\nUse **bold**.", turn.markdown);
  }
  Turn turn;
  std::string err;
  std::string start = R"({"type":"event_msg","payload":{"type":"task_started"}})" "\n";
  EXPECT_FALSE(ParseCodexTurn(start + R"({"type":"response_item","payload":"text"})" "\n", &turn, &err));
  EXPECT_NE(std::string::npos, err.find("payload")) << err;
  EXPECT_FALSE(ParseCodexTurn(
      start + R"({"type":"response_item","payload":{"type":"message","role":"assistant","content":"hi"}})" "\n",
      &turn, &err));
  EXPECT_NE(std::string::npos, err.find("content")) << err;
}

// A release that renames the output's call_id, or makes the output an
// object, would leave the call without its output: an error instead.
TEST(CodexTranscript, AToolOutputItCannotPlaceIsAnError) {
  for (const RecordedSample& sample : Samples()) {
    SCOPED_TRACE(sample.name);
    size_t at = sample.text.find(R"("type":"function_call_output")");
    ASSERT_NE(std::string::npos, at);
    size_t id = sample.text.find(R"("call_id":")", at);
    ASSERT_NE(std::string::npos, id);
    std::string renamed = sample.text;
    renamed.replace(id, 9, R"("callId")");
    Turn turn;
    std::string err;
    EXPECT_FALSE(ParseCodexTurn(renamed, &turn, &err));
    EXPECT_NE(std::string::npos, err.find("no call in the transcript")) << err;
    size_t output = sample.text.find(R"("output":")", at);
    ASSERT_NE(std::string::npos, output);
    std::string object = sample.text;
    object.replace(output, 10, R"("output":{"content":")");
    object.insert(object.find('"', output + 21) + 1, "}");  // after the string's closing quote
    EXPECT_FALSE(ParseCodexTurn(object, &turn, &err));
    EXPECT_NE(std::string::npos, err.find("not a string")) << err;
  }
}

TEST(CodexTranscript, AnOutputAfterTheNextTurnBeganGoesToItsCall) {
  for (const RecordedSample& sample : Samples()) {
    SCOPED_TRACE(sample.name);
    std::string text = sample.text;
    size_t begin = text.rfind('\n', text.find(R"("type":"function_call_output")")) + 1;
    size_t end = text.find('\n', begin) + 1;
    std::string output = text.substr(begin, end - begin);
    text.erase(begin, end - begin);
    size_t second = text.find(R"("type":"task_started")", text.find(R"("type":"task_started")") + 1);
    ASSERT_NE(std::string::npos, second);
    text.insert(text.find('\n', second) + 1, output);
    std::vector<Turn> turns;
    std::string err;
    ASSERT_TRUE(ParseCodexTurns(text, &turns, &err)) << err;
    ASSERT_EQ(2u, turns.size());
    ASSERT_EQ(1u, turns[0].tools.size());
    EXPECT_EQ("unsupported call: shell", turns[0].tools[0].output);
    EXPECT_TRUE(turns[1].tools.empty());
  }
}

TEST(CodexTranscript, HistoryIsEveryTurnWithItsPrompt) {
  for (const RecordedSample& sample : Samples()) {
    SCOPED_TRACE(sample.name);
    std::vector<Turn> turns = HistoryOf(ParseCodexTurns, sample.text);
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
}

// Codex names its file at its first prompt. A session spawned right after
// another in the same cwd (a pool, a script's next run) must not take the
// file the other wrote a moment before for its own.
// A turn's start as Codex records it: the task, then the user's message.
constexpr char kPrompt[] =
    R"({"timestamp":"t","type":"event_msg","payload":{"type":"task_started"}})" "\n"
    R"({"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user",)"
    R"("content":[{"type":"input_text","text":"hello"}]}})" "\n";

// A session's first record, naming its id.
std::string CodexMeta(const std::string& id) {
  return R"({"timestamp":"t","type":"session_meta","payload":{"id":")" + id + R"(","cwd":"/p"}})" "\n";
}

using CodexTranscriptFiles = TranscriptDirTest;

TEST_F(CodexTranscriptFiles, ANewSessionIsNotTheOneWrittenJustBeforeItsSpawn) {
  WriteFile("rollout-a.jsonl", CodexMeta("old"));  // the previous session's, written this second
  TranscriptReader reader("codex", Path("rollout-*.jsonl"), "/p", "");
  WriteFile("rollout-b.jsonl", CodexMeta("mine"));  // ours appears after the spawn
  reader.StartTurn("hello");
  AppendFile("rollout-b.jsonl", kPrompt);
  Turn turn;
  std::string err;
  reader.ReadTurn(&turn, &err);
  EXPECT_EQ("mine", reader.session_id());
}

// A pool's replacement is spawned while the session taken from the pool
// has not written its file yet; that one writes it (its turn) before the
// replacement's first ask. The replacement's file is the one its own turn
// writes, whether Codex starts it then or at start-up.
TEST_F(CodexTranscriptFiles, ASessionSpawnedBesideAnotherReadsTheFileItsTurnWrote) {
  const std::string taken = "rollout-a.jsonl", mine = "rollout-b.jsonl";
  for (bool mine_at_start_up : {false, true}) {
    TranscriptReader reader("codex", Path("rollout-*.jsonl"), "/p", "");
    WriteFile(taken, CodexMeta("taken") + kPrompt);  // the other session's turn, after this spawn
    if (mine_at_start_up) WriteFile(mine, CodexMeta("mine"));
    // Before any ask, two new files: which is ours is not known yet.
    std::vector<Turn> history;
    std::string err;
    EXPECT_FALSE(reader.ReadHistory(&history, &err));
    reader.StartTurn("hello");
    if (!mine_at_start_up) WriteFile(mine, CodexMeta("mine"));
    AppendFile(mine, kPrompt);
    Turn turn;
    reader.ReadTurn(&turn, &err);
    EXPECT_EQ("mine", reader.session_id()) << mine_at_start_up;
    EXPECT_EQ("hello", turn.prompt) << err;
    unlink(Path(taken).c_str());
    unlink(Path(mine).c_str());
  }
}

// Sessions started together in one folder (a pool, one agent per task):
// each writes its file in any order, and each file's turn is its own prompt.
class TwoCodexSessions : public TranscriptDirTest {
 protected:
  std::string Glob() const { return Path("rollout-*.jsonl"); }
  // A session's file: its meta, and a turn of `prompt` answered `answer`
  // (none: the answer not written yet).
  void Write(const std::string& name, const std::string& id, const std::string& prompt, const std::string& answer) {
    AppendFile("rollout-" + name + ".jsonl",
               R"({"type":"session_meta","payload":{"id":")" + id + R"(","cwd":"/p"}})" "\n"
               R"({"type":"event_msg","payload":{"type":"task_started"}})" "\n"
               R"({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":")" +
                   prompt + R"("}]}})" "\n");
    if (!answer.empty()) Answer(name, answer);
  }
  void Answer(const std::string& name, const std::string& answer) {
    AppendFile("rollout-" + name + ".jsonl",
               R"({"type":"response_item","payload":{"type":"message","role":"assistant","id":"m","content":[{"type":"output_text","text":")" +
                   answer + R"("}]}})" "\n"
               R"({"type":"event_msg","payload":{"type":"task_complete"}})" "\n");
  }
};

// Whichever file was created first, each session reads the one that
// records its own prompt.
TEST_F(TwoCodexSessions, EachReadsTheFileThatRecordsItsPrompt) {
  TranscriptReader a("codex", Glob(), "/p", ""), b("codex", Glob(), "/p", "");
  a.StartTurn("say 'A'");
  b.StartTurn("say 'B'");
  Write("1", "id-b", "say 'B'", "B's answer");  // b's file is the older one
  Write("2", "id-a", "say 'A'", "A's answer");
  Turn turn;
  std::string err;
  ASSERT_EQ(TranscriptResult::kDone, a.ReadTurn(&turn, &err)) << err;
  EXPECT_EQ("A's answer", turn.markdown);
  EXPECT_EQ("id-a", a.session_id());
  ASSERT_EQ(TranscriptResult::kDone, b.ReadTurn(&turn, &err)) << err;
  EXPECT_EQ("B's answer", turn.markdown);
  EXPECT_EQ("id-b", b.session_id());
}

// Another session's file alone (its prompt recorded, this one's not yet)
// is not this session's: the read waits.
TEST_F(TwoCodexSessions, AnotherSessionsFileAloneIsNotTaken) {
  TranscriptReader a("codex", Glob(), "/p", "");
  a.StartTurn("say 'A'");
  Write("1", "id-b", "say 'B'", "B's answer");
  Turn turn;
  std::string err;
  EXPECT_EQ(TranscriptResult::kNotYet, a.ReadTurn(&turn, &err));
  EXPECT_NE(std::string::npos, err.find("prompt")) << err;
  EXPECT_EQ("", a.session_id());
  Write("2", "id-a", "  say   'A'\\n", "A's answer");  // white space recorded its own way
  ASSERT_EQ(TranscriptResult::kDone, a.ReadTurn(&turn, &err)) << err;
  EXPECT_EQ("A's answer", turn.markdown);
}

// The same prompt in two new files: which is this session's cannot be
// told, and the reply says so rather than take either.
TEST_F(TwoCodexSessions, TheSamePromptInTwoFilesIsReportedNotGuessed) {
  TranscriptReader a("codex", Glob(), "/p", "");
  a.StartTurn("say 'X'");
  Write("1", "id-1", "say 'X'", "");
  Turn turn;
  std::string err;
  EXPECT_EQ(TranscriptResult::kNotYet, a.ReadTurn(&turn, &err)) << err;  // found, tentatively; not answered yet
  EXPECT_EQ("id-1", a.session_id());
  Write("2", "id-2", "say 'X'", "the other's answer");
  EXPECT_EQ(TranscriptResult::kFailed, a.ReadTurn(&turn, &err));
  EXPECT_NE(std::string::npos, err.find("cannot be told")) << err;
  EXPECT_NE(std::string::npos, err.find("rollout-1.jsonl")) << err;
  EXPECT_NE(std::string::npos, err.find("rollout-2.jsonl")) << err;
  Answer("1", "mine");
  EXPECT_EQ(TranscriptResult::kFailed, a.ReadTurn(&turn, &err)) << err;
}

// Once its turn is read whole the id is the session's: a later file with
// the same prompt (another session's next ask) changes nothing.
TEST_F(TwoCodexSessions, AnIdReadWholeIsKept) {
  TranscriptReader a("codex", Glob(), "/p", "");
  a.StartTurn("say 'X'");
  Write("1", "id-1", "say 'X'", "mine");
  Turn turn;
  std::string err;
  ASSERT_EQ(TranscriptResult::kDone, a.ReadTurn(&turn, &err)) << err;
  Write("2", "id-2", "say 'X'", "the other's answer");
  a.StartTurn("say 'Y'");
  Write("1", "id-1", "say 'Y'", "mine again");  // appended to its own file
  ASSERT_EQ(TranscriptResult::kDone, a.ReadTurn(&turn, &err)) << err;
  EXPECT_EQ("mine again", turn.markdown);
  EXPECT_EQ("id-1", a.session_id());
}

}  // namespace
}  // namespace tuidriver

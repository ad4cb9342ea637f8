#include "transcript_gemini.h"

#include <gtest/gtest.h>

#include "transcript_format.h"
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


// Recorded from Gemini CLI 0.61.0 resumed (--resume) in a later minute than
// the session began: it writes a new file for the id (a header and its
// session context, no prompt) and goes on in the old one, where it first
// writes its message list again ($set, left out) and then appends the
// resumed turns.
TEST(GeminiTranscript, AResumedFileReadsAsGeminiReadsIt) {
  std::vector<Turn> turns;
  std::string err;
  ASSERT_TRUE(ParseGeminiTurns(RecordedTranscript("gemini-0.61.0-resumed.jsonl"), &turns, &err)) << err;
  turns = PromptedTurns(turns);
  ASSERT_EQ(2u, turns.size());
  EXPECT_EQ("remember the word kiwi", turns[0].prompt);
  EXPECT_EQ("remembered", turns[0].markdown);
  EXPECT_EQ("which word?", turns[1].prompt);
  EXPECT_EQ("kiwi", turns[1].markdown);
  ASSERT_TRUE(ParseGeminiTurns(RecordedTranscript("gemini-0.61.0-resume-stub.jsonl"), &turns, &err)) << err;
  EXPECT_TRUE(PromptedTurns(turns).empty());  // its session context is no prompt
}

// A $set of the message list is Gemini's history again in the model's shape
// (new ids, calls as parts, no results): the records before it are read.
TEST(GeminiTranscript, SetMessagesIsLeftOutAndRewindDropsTheTail) {
  const std::string before = R"({"id":"1","type":"user","content":[{"text":"a"}]})" "\n"
                             R"({"id":"2","type":"gemini","content":"x","toolCalls":[{"name":"t","status":"success"}]})" "\n"
                             R"({"id":"3","type":"gemini","content":"y"})" "\n";
  const std::string set = R"({"$set":{"messages":[{"id":"9","type":"user","content":[{"text":"a"}]},)"
                          R"({"id":"8","type":"gemini","content":[{"functionCall":{"name":"t"}}]}]}})" "\n";
  std::vector<Turn> turns;
  std::string err;
  ASSERT_TRUE(ParseGeminiTurns(before + set, &turns, &err)) << err;
  turns = PromptedTurns(turns);
  ASSERT_EQ(1u, turns.size());
  EXPECT_EQ("a", turns[0].prompt);
  EXPECT_EQ("y", turns[0].markdown);
  EXPECT_EQ(1u, turns[0].tools.size());
  EXPECT_TRUE(turns[0].finished);
  ASSERT_TRUE(ParseGeminiTurns(before + R"({"$rewindTo":"3"})" "\n", &turns, &err)) << err;
  turns = PromptedTurns(turns);
  ASSERT_EQ(1u, turns.size());
  EXPECT_EQ("x", turns[0].markdown);
  ASSERT_TRUE(ParseGeminiTurns(before + R"({"$rewindTo":"gone"})" "\n", &turns, &err)) << err;
  EXPECT_TRUE(PromptedTurns(turns).empty());
}

// Of two files naming the resumed id, the one holding its conversation is
// read, even when the other sorts first and was changed no later.
using GeminiTranscriptFiles = TranscriptDirTest;

TEST_F(GeminiTranscriptFiles, AResumedSessionIsReadFromTheFileHoldingItsPrompts) {
  WriteFile("session-a.jsonl", RecordedTranscript("gemini-0.61.0-resume-stub.jsonl"));
  WriteFile("session-b.jsonl", RecordedTranscript("gemini-0.61.0-resumed.jsonl"));
  TranscriptSession session{Path("session-*.jsonl"), "/p", "031b54e6-51ba-4b77-ae47-68403c692de5", 0, {}, false, {}};
  auto format = NewTranscriptFormat("gemini");
  ASSERT_TRUE(format->Locate(&session));
  format->StartTurn(session);
  AppendFile("session-b.jsonl", R"({"id":"q","type":"user","content":[{"text":"next"}]})" "\n"
                                R"({"id":"r","type":"gemini","content":"done"})" "\n");
  Turn turn;
  std::string err;
  EXPECT_EQ(TranscriptResult::kDone, format->ReadTurn(session, &turn, &err)) << err;
  EXPECT_EQ("done", turn.markdown);
}

// Another Gemini starting in the project deleted this session's file while
// it held only its header; the session wrote its messages to a file of the
// same name, without one. The name still says whose it is (and not another
// session's with a different id).
TEST_F(GeminiTranscriptFiles, AFileWithoutItsHeaderIsFoundByItsName) {
  WriteFile("session-2026-11-26T15-32-154c20d8.jsonl",
            R"({"id":"q","type":"user","content":[{"text":"one"}]})" "\n"
            R"({"id":"r","type":"gemini","content":"the taken session"})" "\n");
  for (const char* id : {"0ab1c2d3-8c9b-401e-8e73-fafa385c48a5", "154c20d8-8c9b-401e-8e73-fafa385c48a5"}) {
    TranscriptSession session{Path("session-*.jsonl"), "/p", id, 0, {}, false, {}};
    auto format = NewTranscriptFormat("gemini");
    bool found = format->Locate(&session);
    EXPECT_EQ(id[0] == '1', found) << id;
    if (!found) continue;
    Turn turn;
    std::string err;
    EXPECT_EQ(TranscriptResult::kDone, format->ReadTurn(session, &turn, &err)) << err;
    EXPECT_EQ("the taken session", turn.markdown);
  }
}

}  // namespace
}  // namespace tuidriver

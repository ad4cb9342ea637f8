#include "transcript.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace tuidriver {
namespace {

// Recorded from the genuine Claude Code 2.1.330 against the fake API (the
// largest records, request bodies and attachments, left out): a turn with a
// Bash tool call, then a turn answering in markdown.
std::string Sample() {
  std::ifstream in(TUIDRIVER_SOURCE_DIR "/tests/transcripts/claude-2.1.330.jsonl");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Lines(const std::string& text, size_t from, size_t to) {
  std::istringstream in(text);
  std::string line, out;
  for (size_t i = 0; std::getline(in, line); ++i) {
    if (i >= from && i < to) out += line + "\n";
  }
  return out;
}

TEST(ClaudeTranscript, ATurnWithAToolCall) {
  std::string sample = Sample();
  ASSERT_FALSE(sample.empty());
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseClaudeTurn(Lines(sample, 0, 19), &turn, &err)) << err;  // up to the first turn_duration
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

TEST(ClaudeTranscript, TheLastTurnIsTheOneAfterTheLastPrompt) {
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParseClaudeTurn(Sample(), &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("## Plan\nUse **bold** and `code`.\n\n- first item\n- second item", turn.markdown);
  EXPECT_TRUE(turn.tools.empty());
}

TEST(ClaudeTranscript, AnUnfinishedTurnIsNotDone) {
  Turn turn;
  std::string err;
  std::string sample = Sample();
  ASSERT_TRUE(ParseClaudeTurn(Lines(sample, 0, 15), &turn, &err)) << err;
  EXPECT_TRUE(turn.prompt_seen);
  EXPECT_FALSE(turn.finished);
  // A line cut by a write in progress is waited for, not an error.
  std::string cut = Lines(sample, 0, 17);
  cut.resize(cut.size() - 10);
  EXPECT_TRUE(ParseClaudeTurn(cut, &turn, &err)) << err;
  EXPECT_FALSE(turn.finished);
}

TEST(ClaudeTranscript, AnAnswerThatEndsTheTurnIsDoneBeforeTheTurnDurationRecord) {
  std::string sample = Sample();
  Turn turn;
  std::string err;
  // Up to the answer with stop_reason end_turn, without the turn_duration after it.
  ASSERT_TRUE(ParseClaudeTurn(Lines(sample, 0, 18), &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("Done.", turn.markdown);
  // A tool call's message (stop_reason tool_use) is not the end.
  ASSERT_TRUE(ParseClaudeTurn(Lines(sample, 0, 15), &turn, &err)) << err;
  EXPECT_FALSE(turn.finished);
  // Nor is a text block still being streamed (no stop_reason yet).
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

// Recorded from the genuine Codex 0.169.0 against the fake API (request
// bodies and attachments left out, session_meta and turn_context cut to the
// fields read): a turn whose shell call the fake names "shell" (Codex answers
// "unsupported call"), then a turn answering "OK".
std::string CodexSample() {
  std::ifstream in(TUIDRIVER_SOURCE_DIR "/tests/transcripts/codex-0.169.0.jsonl");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

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

// Recorded from the genuine Gemini CLI 0.61.0 against the fake API (the
// first `$set` of the session context and the tool's drawn output left
// out): a turn with a shell call (its record updated by id), then a turn
// answering in markdown.
std::string GeminiSample() {
  std::ifstream in(TUIDRIVER_SOURCE_DIR "/tests/transcripts/gemini-0.61.0.jsonl");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

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

TEST(ClaudeTranscript, TurnJsonHasTheWireNames) {
  Turn turn;
  turn.tools.push_back({"t1", "Bash", R"({"command":"ls"})", "a.txt", false});
  turn.input_tokens = 3;
  turn.output_tokens = 4;
  EXPECT_EQ(R"({"session_id":"s","tools":[{"name":"Bash","input":{"command":"ls"},"output":"a.txt","ok":false}],)"
            R"("usage":{"input_tokens":3,"output_tokens":4},"model":null})",
            TurnJson(turn, "s").Finish());
}

TEST(TranscriptPath, AsClaudeCodeNamesIt) {
  EXPECT_EQ("/root/.claude/projects/-tmp-a-b-c/id.jsonl",
            TranscriptPath("{home}/.claude/projects/{cwd_slug}/{session_id}.jsonl", "/root", "/tmp/a_b.c", "id"));
  std::string id = NewSessionId();
  EXPECT_EQ(36u, id.size());
  EXPECT_EQ('4', id[14]);
  EXPECT_NE(id, NewSessionId());
}

}  // namespace
}  // namespace tuidriver

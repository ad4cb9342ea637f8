#include "transcript.h"

#include <gtest/gtest.h>

#include "transcript_format.h"

namespace tuidriver {
namespace {

TEST(Transcript, TurnJsonHasTheWireNames) {
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

TEST(TranscriptFormats, EveryNameInTheTableMakesItsFormat) {
  for (const std::string& name : TranscriptFormatNames()) EXPECT_NE(nullptr, NewTranscriptFormat(name)) << name;
  EXPECT_EQ(nullptr, NewTranscriptFormat("nonesuch"));
  EXPECT_EQ(nullptr, NewTranscriptFormat(""));
  EXPECT_FALSE(TranscriptReader("", "", "", "").enabled());
  EXPECT_TRUE(TranscriptReader("claude", "/x", "/", "id").enabled());
}

}  // namespace
}  // namespace tuidriver

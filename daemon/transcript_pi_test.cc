#include "transcript_pi.h"

#include <gtest/gtest.h>

#include "transcript_test_util.h"

namespace tuidriver {
namespace {

// Recorded from the genuine pi 0.73.1 against the fake Chat Completions API:
// the header, a turn with two bash calls (the second exits 3) and "Done.",
// then a turn answering in markdown.
std::string Sample() { return RecordedTranscript("pi-0.73.1.jsonl"); }

TEST(PiTranscript, ATurnWithToolCalls) {
  std::string sample = Sample();
  ASSERT_FALSE(sample.empty());
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParsePiTurn(Lines(sample, 0, 9), &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("Done.", turn.markdown);
  ASSERT_EQ(2u, turn.tools.size());
  EXPECT_EQ("bash", turn.tools[0].name);
  EXPECT_EQ(R"({"command":"echo tool said hi"})", turn.tools[0].input_json);
  EXPECT_EQ("tool said hi\n", turn.tools[0].output);
  EXPECT_TRUE(turn.tools[0].ok);
  EXPECT_EQ("failing\n\n\nCommand exited with code 3", turn.tools[1].output);
  EXPECT_FALSE(turn.tools[1].ok);
  EXPECT_EQ("fake-model", turn.model);
  EXPECT_EQ(36, turn.input_tokens);  // three model calls, 12 each
  EXPECT_EQ(60, turn.output_tokens);
}

TEST(PiTranscript, TheLastTurnIsTheOneAfterTheLastPrompt) {
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParsePiTurn(Sample(), &turn, &err)) << err;
  EXPECT_TRUE(turn.finished);
  EXPECT_EQ("## Plan\nUse **bold** and `code`.\n\n- first item\n- second item", turn.markdown);
  EXPECT_TRUE(turn.tools.empty());
  EXPECT_EQ(12, turn.input_tokens);
}

TEST(PiTranscript, ATurnWaitingForItsToolIsNotDone) {
  for (size_t end : {4, 5, 6}) {  // the prompt; the tool call; its result
    Turn turn;
    std::string err;
    ASSERT_TRUE(ParsePiTurn(Lines(Sample(), 0, end), &turn, &err)) << err;
    EXPECT_TRUE(turn.prompt_seen);
    EXPECT_FALSE(turn.finished) << end;
    EXPECT_EQ("", turn.markdown);
  }
}

TEST(PiTranscript, AHalfWrittenLastLineIsNotYetAnError) {
  std::string lines = Lines(Sample(), 3, 9);
  std::string half = lines.substr(0, lines.size() - 40);
  Turn turn;
  std::string err;
  ASSERT_TRUE(ParsePiTurn(half, &turn, &err)) << err;
  EXPECT_FALSE(turn.finished);
}

TEST(PiTranscript, ARecordInAnUnknownShapeFails) {
  Turn turn;
  std::string err;
  EXPECT_FALSE(ParsePiTurn("{\"type\":\"message\",\"message\":\"hi\"}\n", &turn, &err));
  EXPECT_EQ("a message record without a message object (line 1 of the turn)", err);
  std::string prompt = Lines(Sample(), 3, 4);
  EXPECT_FALSE(ParsePiTurn(prompt + "{\"type\":\"message\",\"message\":{\"role\":\"assistant\",\"content\":\"x\"}}\n",
                           &turn, &err));
  EXPECT_EQ("an assistant message without a content array (line 2 of the turn)", err);
  EXPECT_FALSE(ParsePiTurn(prompt + "not json\n{}\n", &turn, &err));
  EXPECT_EQ("line 2 of the turn is not JSON", err);
}

TEST(PiTranscript, TheHeaderNamesTheSession) {
  simdjson::dom::parser parser;
  simdjson::dom::element first;
  std::string id, cwd;
  ASSERT_FALSE(parser.parse(Lines(Sample(), 0, 1)).get(first));
  ASSERT_TRUE(IdentifyPi(first, &id, &cwd));
  EXPECT_EQ("01a214af-98e8-7262-a7c1-fdd5b0865a01", id);
  EXPECT_EQ("/tmp/clisb-pi/proj", cwd);
  ASSERT_FALSE(parser.parse(Lines(Sample(), 1, 2)).get(first));  // a model_change
  EXPECT_FALSE(IdentifyPi(first, &id, &cwd));
}

TEST(PiTranscript, HistoryIsEveryTurnWithItsPrompt) {
  std::vector<Turn> turns = HistoryOf(ParsePiTurns, Sample());
  ASSERT_EQ(2u, turns.size());
  EXPECT_EQ("run two commands", turns[0].prompt);
  EXPECT_EQ("Done.", turns[0].markdown);
  ASSERT_EQ(2u, turns[0].tools.size());
  EXPECT_TRUE(turns[0].tools[0].ok);
  EXPECT_FALSE(turns[0].tools[1].ok);  // exited 3
  EXPECT_EQ("make a plan", turns[1].prompt);
  EXPECT_EQ("## Plan\nUse **bold** and `code`.\n\n- first item\n- second item", turns[1].markdown);
  EXPECT_TRUE(turns[1].tools.empty());
}

}  // namespace
}  // namespace tuidriver

#include "turn_input.h"
#include "messages.h"

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

InputQuestion ParseInputQuestion(const std::string& text, const InputOptionsConfig& config) {
  return InputQuestionParser(config).Parse(text);
}

InputOptionsConfig ClaudeOptions() {
  InputOptionsConfig c;
  c.option = "^\\s*(?:❯\\s*)?(\\d+)\\.\\s+(.*\\S)";
  c.selected = "^\\s*❯";
  return c;
}

// The question text Claude Code's permission dialog gives (from the
// needs_input row down).
const char* kClaudeQuestion =
    " Do you want to proceed?\n"
    " ❯ 1. Yes\n"
    "   2. Yes, and always allow access to /tmp/p from this project\n"
    "   3. Yes, and switch to auto mode · auto mode handles these prompts for you\n"
    "   4. No\n"
    " Esc to cancel · Tab to amend";

TEST(TurnInput, ParsesNumberedChoices) {
  InputQuestion q = ParseInputQuestion(kClaudeQuestion, ClaudeOptions());
  EXPECT_EQ("Do you want to proceed?", q.question);
  ASSERT_EQ(4u, q.options.size());
  EXPECT_EQ(1, q.options[0].index);
  EXPECT_EQ("Yes", q.options[0].label);
  EXPECT_EQ("Yes, and always allow access to /tmp/p from this project", q.options[1].label);
  EXPECT_EQ(4, q.options[3].index);
  EXPECT_EQ("No", q.options[3].label);
  EXPECT_EQ(0, q.selected);
}

TEST(TurnInput, HighlightAndNumberingDecide) {
  // The highlight on the third choice; a numbered list in the question is
  // not a choice (it does not start at 1 after the question's own "1.").
  InputQuestion q = ParseInputQuestion(
      "Pick one:\n  1. first\n❯ 2. second\n  3. third\n  7. a footnote", ClaudeOptions());
  ASSERT_EQ(3u, q.options.size());
  EXPECT_EQ(1, q.selected);
  EXPECT_EQ("Pick one:", q.question);
}

TEST(TurnInput, NoOptionsConfiguredIsAFreeTextQuestion) {
  InputQuestion q = ParseInputQuestion(kClaudeQuestion, InputOptionsConfig());
  EXPECT_TRUE(q.options.empty());
  // The whole question, rows trimmed.
  EXPECT_EQ(0u, q.question.find("Do you want to proceed?\n❯ 1. Yes\n2. Yes, and always")) << q.question;
  EXPECT_EQ(q.question.size() - 12, q.question.rfind("Tab to amend")) << q.question;
  std::vector<std::string> keys;
  std::string err;
  EXPECT_FALSE(AnswerKeys(q, InputOptionsConfig(), 1, &keys, &err));
  EXPECT_NE(std::string::npos, err.find("text")) << err;
  ASSERT_TRUE(AnswerKeys(q, InputOptionsConfig(), 0, &keys, &err));
  EXPECT_EQ(std::vector<std::string>({"Enter"}), keys);
}

TEST(TurnInput, KeysMoveFromTheHighlight) {
  InputOptionsConfig c = ClaudeOptions();
  InputQuestion q = ParseInputQuestion(kClaudeQuestion, c);
  std::vector<std::string> keys;
  std::string err;
  ASSERT_TRUE(AnswerKeys(q, c, 1, &keys, &err));
  EXPECT_EQ(std::vector<std::string>({"Enter"}), keys);
  ASSERT_TRUE(AnswerKeys(q, c, 4, &keys, &err));
  EXPECT_EQ(std::vector<std::string>({"Down", "Down", "Down", "Enter"}), keys);
  q.selected = 2;
  ASSERT_TRUE(AnswerKeys(q, c, 1, &keys, &err));
  EXPECT_EQ(std::vector<std::string>({"Up", "Up", "Enter"}), keys);
  EXPECT_FALSE(AnswerKeys(q, c, 5, &keys, &err));
  EXPECT_EQ("no choice 5 (the question has 4)", err);
  c.select = "digits";
  ASSERT_TRUE(AnswerKeys(q, c, 3, &keys, &err));
  EXPECT_EQ(std::vector<std::string>({"3"}), keys);
}

InputOptionsConfig RowOfChoices(std::vector<std::string> labels) {
  InputOptionsConfig c;
  c.choices = std::move(labels);
  c.next = {"Right"};
  c.previous = {"Left"};
  return c;
}

// opencode's permission box (from its needs_input row down, as drawn): the
// choices in one row, unnumbered, chosen with Right and Enter.
const char* kOpencodeQuestion =
    "┃  △ Permission required\n"
    "┃    # Shell command\n"
    "┃\n"
    "┃  $ touch /p/a.txt\n"
    "┃\n"
    "┃   Allow once   Allow always   Reject                 ctrl+f fullscreen  ⇆ select  enter confirm";

TEST(TurnInput, NamedChoicesInOneRow) {
  InputOptionsConfig c = RowOfChoices({"Reject", "Allow once", "Allow always"});  // any order
  InputQuestion q = ParseInputQuestion(kOpencodeQuestion, c);
  EXPECT_EQ("┃  △ Permission required\n┃    # Shell command\n┃\n┃  $ touch /p/a.txt\n┃", q.question);
  ASSERT_EQ(3u, q.options.size());
  EXPECT_EQ("Allow once", q.options[0].label);
  EXPECT_EQ("Allow always", q.options[1].label);
  EXPECT_EQ(3, q.options[2].index);
  EXPECT_EQ("Reject", q.options[2].label);
  std::vector<std::string> keys;
  std::string err;
  ASSERT_TRUE(AnswerKeys(q, c, 1, &keys, &err)) << err;
  EXPECT_EQ(std::vector<std::string>({"Enter"}), keys);
  ASSERT_TRUE(AnswerKeys(q, c, 3, &keys, &err)) << err;
  EXPECT_EQ(std::vector<std::string>({"Right", "Right", "Enter"}), keys);
  EXPECT_FALSE(AnswerKeys(q, c, 4, &keys, &err));
}

// A label is a cell of its own: "Allow" is not found inside "Allow once",
// and a choice the program leaves out is not counted, so the keys fit
// what is shown (Kilo's "Allow" and "Reject" alone).
TEST(TurnInput, NamedChoicesCountOnlyAsShown) {
  InputOptionsConfig c = RowOfChoices({"Allow once", "Allow always", "Allow", "Reject"});
  InputQuestion q = ParseInputQuestion(kOpencodeQuestion, c);
  ASSERT_EQ(3u, q.options.size());
  EXPECT_EQ("Allow once", q.options[0].label);
  q = ParseInputQuestion("┃  △ Permission required\n┃   Allow   Reject", c);
  ASSERT_EQ(2u, q.options.size());
  EXPECT_EQ("Allow", q.options[0].label);
  std::vector<std::string> keys;
  std::string err;
  ASSERT_TRUE(AnswerKeys(q, c, 2, &keys, &err)) << err;
  EXPECT_EQ(std::vector<std::string>({"Right", "Enter"}), keys);
  // None drawn yet: a question without choices.
  EXPECT_TRUE(ParseInputQuestion("┃  △ Permission required\n┃    # Shell command", c).options.empty());
}

// Cline's choices share a row below the question; each has a key of its own
// too ([y], [n]), but arrows and Enter take any of them.
TEST(TurnInput, NamedChoicesBelowTheQuestion) {
  InputOptionsConfig c = RowOfChoices({"[y] Approve", "[n] Deny"});
  InputQuestion q = ParseInputQuestion("Approve tool call?\nrun_commands\n$ touch /p/a.txt\n [y] Approve   [n] Deny", c);
  EXPECT_EQ("Approve tool call?\nrun_commands\n$ touch /p/a.txt", q.question);
  ASSERT_EQ(2u, q.options.size());
  EXPECT_EQ("[n] Deny", q.options[1].label);
}

TEST(TurnInput, EventShape) {
  InputQuestion q = ParseInputQuestion(kClaudeQuestion, ClaudeOptions());
  RequestId id;
  id.kind = RequestId::Kind::kString;
  id.json = "\"a\"";
  std::string json = NeedsInputEvent(id, q);
  EXPECT_EQ(0u, json.find(R"({"id":"a","type":"needs_input","question":"Do you want to proceed?","options":[{"index":1,"label":"Yes"},)"))
      << json;
  EXPECT_NE(std::string::npos, json.find(R"({"index":4,"label":"No"}]})")) << json;
}

}  // namespace
}  // namespace tuidriver

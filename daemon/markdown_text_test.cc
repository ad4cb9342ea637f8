#include "markdown_text.h"

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

TEST(MarkdownText, MarksGoWordsAndLinesStay) {
  EXPECT_EQ("Plan\nUse bold and code.", MarkdownText("## Plan\nUse **bold** and `code`."));
  EXPECT_EQ("See docs and a pic.", MarkdownText("See [docs](https://example.com) and ![a pic](x.png)."));
  EXPECT_EQ("keep snake_case and 2*3", MarkdownText("keep snake_case and 2*3"));
  EXPECT_EQ("* item\n- other\nquoted", MarkdownText("* item\n- other\n> quoted"));
  EXPECT_EQ("row 0\n\nrow 1", MarkdownText("row 0\n\nrow 1"));
}

TEST(MarkdownText, CodeIsKeptAndTablesAreCells) {
  EXPECT_EQ("Code:\ndef f(x):\n    return x * 2\nend",
            MarkdownText("Code:\n```python\ndef f(x):\n    return x * 2\n```\nend"));
  EXPECT_EQ("a    b\n1    2", MarkdownText("| a | b |\n|---|---|\n| 1 | 2 |"));
}

TEST(MarkdownText, ShowsAllWordsOfTellsAnIncompleteReply) {
  const std::string md = "Here is the function:\n\n```python\ndef add(a, b):\n    return a + b\n```\n\nIt adds two numbers.";
  EXPECT_TRUE(ShowsAllWordsOf("Here is the function:\n\ndef add(a, b):\n    return a + b\n\nIt adds two numbers.", md));
  // Cut off, or a code block's rows still blank.
  EXPECT_FALSE(ShowsAllWordsOf("Here is the function:\n\ndef add(a, b):\n    return a + b\n\nIt adds two nu", md));
  EXPECT_FALSE(ShowsAllWordsOf("Here is the function:\n\n\n\nIt adds two numbers.", md));
  EXPECT_FALSE(ShowsAllWordsOf("", md));
  // Every word, but the closing "." not painted yet (Copilot, seen in a loaded container).
  EXPECT_FALSE(ShowsAllWordsOf("First line.\nThird line says hi", "First line.\nThird line says hi."));
  EXPECT_FALSE(ShowsAllWordsOf("Really?", "Really?!"));
  EXPECT_TRUE(ShowsAllWordsOf("First line.\nThird line says hi.\n", "First line.\n\nThird line says **hi.**"));
  // The TUI's own words between them, decoration, and a link's target do not matter.
  EXPECT_TRUE(ShowsAllWordsOf("● Here is the function:\n  python\n  def add(a, b): return a + b\nIt adds two numbers.", md));
  EXPECT_TRUE(ShowsAllWordsOf("See docs (https://example.com/a_b).", "See [docs](https://example.com/a_b)."));
  EXPECT_TRUE(ShowsAllWordsOf("Café crème", "Café **crème**"));
  EXPECT_TRUE(ShowsAllWordsOf("", "```\n```"));
  // Out of order is not the same answer.
  EXPECT_FALSE(ShowsAllWordsOf("two one", "one two"));
}

// pi draws its report of a command (the command, its output, the time) in
// the reply's area, above the answer, marked only by its layout.
TEST(MarkdownText, FromAnswerStartLeavesOutWhatCameBeforeTheAnswer) {
  const std::string pi = "$ echo tool said hi\n\ntool said hi\n\nTook 0.1s\n\n\nAll done.";
  EXPECT_EQ("All done.", FromAnswerStart(pi, "All **done**."));
  // The answer's first word earlier too: the last showing of every word counts.
  EXPECT_EQ("All done, all of it.\nNext.",
            FromAnswerStart("$ echo All\nAll\nAll done, all of it.\nNext.", "All done, all of it.\n\nNext."));
  // Lines are kept whole, the TUI's own words inside the answer too.
  EXPECT_EQ("1. First\n2. Second", FromAnswerStart("Ran ls\n1. First\n2. Second", "1. First\n2. Second"));
  // Nothing before the answer, a text that lacks a word, or no words: unchanged.
  EXPECT_EQ("All done.", FromAnswerStart("All done.", "All done."));
  EXPECT_EQ("$ ls\nAll", FromAnswerStart("$ ls\nAll", "All done."));
  EXPECT_EQ("$ ls\nx", FromAnswerStart("$ ls\nx", "```\n```"));
}

}  // namespace
}  // namespace tuidriver

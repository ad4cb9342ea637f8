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

TEST(MarkdownText, ShowsLastWordOfTellsACutOffReply) {
  const std::string md = "Here is the function:\n\n```python\ndef add(a, b):\n    return a + b\n```\n\nIt adds two numbers.";
  EXPECT_TRUE(ShowsLastWordOf("Here is the function:\n\ndef add(a, b):\n    return a + b\n\nIt adds two numbers.", md));
  EXPECT_FALSE(ShowsLastWordOf("Here is the function:\n\ndef add(a, b):\n    return a + b\n\nIt adds two nu", md));
  EXPECT_FALSE(ShowsLastWordOf("", md));
  // Decoration around it and a link's target shown by the TUI do not matter.
  EXPECT_TRUE(ShowsLastWordOf("See docs (https://example.com).", "See [docs](https://example.com)."));
  EXPECT_TRUE(ShowsLastWordOf("Café crème", "Café **crème**"));
  EXPECT_TRUE(ShowsLastWordOf("", "```\n```"));
}

}  // namespace
}  // namespace tuidriver

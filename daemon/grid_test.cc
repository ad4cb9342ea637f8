#include "grid.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tuidriver {
namespace {

// Writes ASCII `text` at the start of screen row `row`, as a program's
// printing would: the cells, what the row used and its extent.
void Put(Grid* g, int row, const std::string& text, bool wrapped = false) {
  GridLine& line = g->Row(row);
  for (size_t i = 0; i < text.size(); ++i) line.cells[i].ch = static_cast<unsigned char>(text[i]);
  line.used = std::max(line.used, static_cast<int>(text.size()));
  line.Touch(static_cast<int>(text.size()));
  line.wrapped = wrapped;
}

std::string History(const Grid& g, uint64_t abs, bool tabs = false) {
  std::string text;
  bool wrapped;
  return g.LineAt(abs, &text, &wrapped, tabs) ? text : "<none>";
}

TEST(Grid, ScrollingUpSendsRowsToTheHistory) {
  Grid g(10, 3, 100);
  Put(&g, 0, "one");
  Put(&g, 1, "two");
  Put(&g, 2, "three");
  g.ScrollRows(0, 3, 2, true, 0);
  EXPECT_EQ(2u, g.lines_scrolled());
  EXPECT_EQ(2u, g.history_size());
  EXPECT_EQ("one", History(g, 0));
  EXPECT_EQ("two", History(g, 1));
  EXPECT_EQ("three", g.RowText(0));
  EXPECT_EQ("", g.RowText(1));
  EXPECT_EQ("three", History(g, 2));  // absolute row 2 is screen row 0 now
  EXPECT_EQ("<none>", History(g, 5));
  EXPECT_TRUE(g.BlankPastExtent());
}

TEST(Grid, ScrollingDownOrInsideARegionKeepsNoHistory) {
  Grid g(4, 3, 100);
  Put(&g, 0, "a");
  Put(&g, 1, "b");
  Put(&g, 2, "c");
  g.ScrollRows(1, 3, -1, false, kPaletteColour | 4);  // down: the new row 1 gets the background
  EXPECT_EQ(0u, g.history_size());
  EXPECT_EQ("a", g.RowText(0));
  EXPECT_EQ("", g.RowText(1));
  EXPECT_EQ("b", g.RowText(2));
  std::vector<StyleRun> runs = g.RowStyles(1);
  ASSERT_EQ(1u, runs.size());
  EXPECT_EQ(0, runs[0].col);
  EXPECT_EQ(4, runs[0].len);
  EXPECT_EQ(kPaletteColour | 4, runs[0].bg);
  g.ScrollRows(0, 3, 1, false, 0);  // up, but not into the history
  EXPECT_EQ(0u, g.lines_scrolled());
  EXPECT_TRUE(g.BlankPastExtent());
}

TEST(Grid, HistoryIsBoundedUnlessPinned) {
  Grid g(10, 1, 2);
  for (int i = 0; i < 4; ++i) {
    Put(&g, 0, "l" + std::to_string(i));
    g.ScrollRows(0, 1, 1, true, 0);
  }
  EXPECT_EQ(2u, g.history_size());
  EXPECT_EQ(2u, g.first_retained_row());
  g.PinHistory(2);
  for (int i = 4; i < 7; ++i) {
    Put(&g, 0, "l" + std::to_string(i));
    g.ScrollRows(0, 1, 1, true, 0);
  }
  EXPECT_EQ(5u, g.history_size());  // nothing from row 2 on goes while pinned
  EXPECT_EQ("l2", History(g, 2));
  g.UnpinHistory();
  EXPECT_EQ(2u, g.history_size());
  EXPECT_EQ("l5", History(g, 5));
}

TEST(Grid, BlankingStopsAtTheExtentAndABackgroundRaisesIt) {
  Grid g(8, 1, 0);
  Put(&g, 0, "abcdef");
  GridLine& line = g.Row(0);
  line.BlankCells(3, 8);
  EXPECT_EQ(3, line.extent);  // the row is blank from column 3 on
  EXPECT_EQ("abc", g.RowText(0));
  line.BlankCells(5, 7, kPaletteColour | 1);
  EXPECT_EQ(7, line.extent);
  EXPECT_TRUE(g.BlankPastExtent());
  line.cells[7].ch = 'x';  // written without raising the extent: the check sees it
  EXPECT_FALSE(g.BlankPastExtent());
}

TEST(Grid, WritingOverAWideCharactersRightHalfBlanksBothHalves) {
  Grid g(6, 1, 0);
  GridLine& line = g.Row(0);
  line.cells[1].ch = 0x6587;
  line.cells[1].kind = kWideLeft;
  line.cells[2].kind = kWideRight;
  line.Touch(3);
  line.SplitWideAt(2);
  EXPECT_EQ(kNarrow, line.cells[1].kind);
  EXPECT_EQ(0u, line.cells[1].ch);
  EXPECT_EQ(kNarrow, line.cells[2].kind);
  line.cells[1].kind = kWideLeft;
  line.cells[2].kind = kWideRight;
  line.Touch(3);
  line.ClearPaddingAfter(2);  // a character that ends at column 2 leaves no stray half
  EXPECT_EQ(kNarrow, line.cells[2].kind);
}

TEST(Grid, CompactingMarksKeepsThoseOfLiveCells) {
  Grid g(4, 1, 0);
  GridLine& line = g.Row(0);
  line.marks = {U"\u0301", U"\u0302", U"\u0303"};
  line.cells[0].ch = 'a';
  line.cells[0].marks = 3;
  line.cells[1].ch = 'b';
  line.cells[1].marks = 1;
  line.Touch(2);
  line.CompactMarks();
  ASSERT_EQ(2u, line.marks.size());
  EXPECT_EQ("a\u0303b\u0301", g.RowText(0));
}

// A row of every kind of cell goes into the history as text and comes back
// the same: wide characters, marks, a TAB's cells.
TEST(Grid, HistoryKeepsWideCharactersMarksAndTabs) {
  Grid g(12, 1, 10);
  GridLine& line = g.Row(0);
  line.cells[0].ch = 'a';
  line.cells[0].marks = 1;
  line.marks = {U"\u0301"};
  line.cells[1].kind = kTab;  // a TAB from column 1 to the stop at 8
  for (int c = 2; c < 8; ++c) line.cells[static_cast<size_t>(c)].kind = kTabSkip;
  line.cells[8].ch = 0x6587;
  line.cells[8].kind = kWideLeft;
  line.cells[9].kind = kWideRight;
  line.cells[10].ch = 'z';
  line.used = line.extent = 11;
  std::string screen_tabs;
  ASSERT_TRUE(g.LineBefore(0, 12, &screen_tabs));
  g.ScrollRows(0, 1, 1, true, 0);
  EXPECT_EQ("a\u0301\t\u6587z", History(g, 0, true));
  EXPECT_EQ("a\u0301       \u6587z", History(g, 0, false));
  std::string before;
  ASSERT_TRUE(g.LineBefore(0, 10, &before));  // left of the 'z', the TAB given back
  EXPECT_EQ("a\u0301\t\u6587", before);
  EXPECT_EQ(screen_tabs, "a\u0301\t\u6587z");
}

TEST(Grid, TheAlternateScreenHasRowsOfItsOwn) {
  Grid g(5, 2, 10);
  Put(&g, 0, "main");
  g.UseAlt(true);
  EXPECT_TRUE(g.alt());
  EXPECT_EQ("", g.RowText(0));
  Put(&g, 0, "alt");
  g.ScrollRows(0, 2, 1, false, 0);
  g.UseAlt(false);
  EXPECT_EQ("main", g.RowText(0));
  EXPECT_EQ(0u, g.history_size());
}

TEST(Grid, ReflowJoinsAWrappedLineAndMovesTheCursorAndPlaces) {
  Grid g(5, 3, 100);
  Put(&g, 0, "01234", true);
  Put(&g, 1, "567");
  Put(&g, 2, "end");
  GridCursor cursor{1, 2, false};  // on the '7'
  GridPlace on_six{1, 1, false, true};
  GridPlace on_alt{1, 1, true, true};
  std::vector<GridPlace*> places = {&on_six, &on_alt};
  g.Resize(10, 3, &cursor, nullptr, true, places);
  EXPECT_EQ("01234567", g.RowText(0));
  EXPECT_EQ("end", g.RowText(1));
  EXPECT_EQ(0, cursor.row);
  EXPECT_EQ(7, cursor.col);
  EXPECT_EQ(0u, on_six.row);
  EXPECT_EQ(6, on_six.col);
  EXPECT_EQ(1u, on_alt.row);  // the alternate screen's places stay
  EXPECT_EQ(0u, g.RowAfterResize(1));
  EXPECT_EQ(1u, g.RowAfterResize(2));
}

TEST(Grid, ReflowNarrowerSendsRowsToTheHistoryAndDropsPlacesItLoses) {
  Grid g(6, 2, 1);
  Put(&g, 0, "abcdef", true);
  Put(&g, 1, "gh");
  GridCursor cursor{1, 2, false};
  GridPlace on_a{0, 0, false, true};
  g.Resize(2, 2, &cursor, nullptr, true, {&on_a});
  // Four rows of two: "ab" and "cd" leave the screen, the history keeps one.
  EXPECT_EQ(1u, g.history_size());
  EXPECT_EQ("cd", History(g, 1));
  EXPECT_EQ("ef", g.RowText(0));
  EXPECT_EQ("gh", g.RowText(1));
  EXPECT_EQ(1, cursor.row);
  EXPECT_EQ(1, cursor.col);
  EXPECT_TRUE(cursor.wrap_next);  // past the last column, "gh" being full
  EXPECT_EQ(3u, g.RowAfterResize(1));
  EXPECT_TRUE(on_a.held);
  EXPECT_EQ(0u, on_a.row);
  // A place on a row the history no longer holds is gone at the next reflow.
  g.Resize(3, 2, &cursor, nullptr, true, {&on_a});
  EXPECT_FALSE(on_a.held);
}

TEST(Grid, ShorterAlternateScreenDropsRowsBelowItsCursorFirst) {
  Grid g(4, 4, 10);
  g.UseAlt(true);
  for (int r = 0; r < 4; ++r) Put(&g, r, std::string(1, static_cast<char>('a' + r)));
  GridCursor main{0, 0, false};
  int alt_row = 2;
  g.Resize(4, 2, &main, &alt_row, true, {});
  EXPECT_EQ("b", g.RowText(0));  // "d" went first, then "a" from the top
  EXPECT_EQ("c", g.RowText(1));
  EXPECT_EQ(1, alt_row);
}

}  // namespace
}  // namespace tuidriver

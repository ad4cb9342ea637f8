#include "screen_write.h"

#include <gtest/gtest.h>

#include <string>

namespace tuidriver {
namespace {

// The screen's operations on their own, with no escape sequence: what
// Terminal maps each sequence to (terminal_test.cc tests the mapping).

// Writes ASCII `text` as a program's printing would, a run at a time.
void Write(Screen* s, const std::string& text) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char* end = p + text.size();
  while (p < end) p = s->WriteRun(p, end);
}

std::string Row(const Screen& s, int row) { return s.grid().RowText(row); }

TEST(Screen, ARunFillingTheRowLeavesAWrapPending) {
  Screen s(5, 3, 10);
  Write(&s, "abcde");
  EXPECT_EQ("abcde", Row(s, 0));
  EXPECT_EQ(4, s.cursor().col);
  EXPECT_TRUE(s.wrap_pending());
  Write(&s, "f");  // the wrap happens only now
  EXPECT_TRUE(s.grid().RowWrapped(0));
  EXPECT_EQ("f", Row(s, 1));
  EXPECT_EQ(1, s.cursor().row);
  EXPECT_EQ(1, s.cursor().col);
  EXPECT_FALSE(s.wrap_pending());
}

TEST(Screen, WithoutAutowrapTheLastColumnIsOverwritten) {
  Screen s(5, 3, 10);
  s.SetAutowrap(false);
  Write(&s, "abcdefg");
  EXPECT_EQ("abcdg", Row(s, 0));
  EXPECT_EQ("", Row(s, 1));
  EXPECT_FALSE(s.wrap_pending());
}

TEST(Screen, ARunStopsAtAByteThatIsNoWholeCharacter) {
  Screen s(10, 2, 10);
  const std::string text = "ab\xe4\xb8";  // a character cut short
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char* stop = s.WriteRun(p, p + text.size());
  EXPECT_EQ(p + 2, stop);
  EXPECT_EQ(stop, s.WriteRun(stop, p + text.size()));  // nothing taken there
  EXPECT_EQ("ab", Row(s, 0));
}

// DECRC puts the cursor back on the last column but not the pending wrap
// (tmux 3.3): the next character overwrites that column.
TEST(Screen, RestoringACursorSavedWithAWrapPendingOverwritesTheLastColumn) {
  Screen s(5, 3, 10);
  Write(&s, "abcde");
  s.SaveCursor();
  s.MoveTo(2, 0);
  Write(&s, "zz");
  s.RestoreCursor();
  EXPECT_EQ(0, s.cursor().row);
  EXPECT_EQ(4, s.cursor().col);
  EXPECT_FALSE(s.wrap_pending());
  Write(&s, "X");
  EXPECT_EQ("abcdX", Row(s, 0));
  EXPECT_EQ("", Row(s, 1));
  EXPECT_TRUE(s.wrap_pending());
}

TEST(Screen, SavedCursorsArePerScreenAndKeepThePen) {
  Screen s(10, 4, 10);
  s.MoveTo(1, 3);
  s.pen().fg = kPaletteColour | 1;
  s.SaveCursor();
  s.SwitchScreen(true);
  s.MoveTo(3, 7);
  s.pen() = GridCell();
  s.SaveCursor();
  s.MoveTo(0, 0);
  s.RestoreCursor();  // the alternate screen's
  EXPECT_EQ(3, s.cursor().row);
  EXPECT_EQ(7, s.cursor().col);
  EXPECT_EQ(0u, s.pen().fg);
  s.SwitchScreen(false);
  s.RestoreCursor();  // the main screen's
  EXPECT_EQ(1, s.cursor().row);
  EXPECT_EQ(3, s.cursor().col);
  EXPECT_EQ(kPaletteColour | 1, s.pen().fg);
}

// With a wrap pending the cursor is past the last column (tmux): EL 0
// erases nothing, EL 1 the whole row, and the wrap stays pending.
TEST(Screen, EraseInLineWithAWrapPending) {
  Screen s(5, 3, 10);
  Write(&s, "abcde");
  s.EraseInLine(0);
  EXPECT_EQ("abcde", Row(s, 0));
  EXPECT_TRUE(s.wrap_pending());
  s.EraseInLine(1);
  EXPECT_EQ("", Row(s, 0));
  EXPECT_TRUE(s.wrap_pending());
  Write(&s, "f");
  EXPECT_EQ("f", Row(s, 1));
}

TEST(Screen, EraseInLineWithoutAWrapPending) {
  Screen s(6, 2, 10);
  Write(&s, "abcdef");
  s.MoveTo(0, 2);
  s.EraseInLine(0);
  EXPECT_EQ("ab", Row(s, 0));
  Write(&s, "cdef");
  s.MoveTo(0, 2);
  s.EraseInLine(1);
  EXPECT_EQ("   def", Row(s, 0));
  s.EraseInLine(2);
  EXPECT_EQ("", Row(s, 0));
  EXPECT_FALSE(s.wrap_pending());
}

TEST(Screen, ErasedCellsTakeThePensBackground) {
  Screen s(4, 2, 10);
  s.pen().bg = kPaletteColour | 4;
  s.EraseInLine(2);
  std::vector<StyleRun> runs = s.grid().RowStyles(0);
  ASSERT_EQ(1u, runs.size());
  EXPECT_EQ(4, runs[0].len);
  EXPECT_EQ(kPaletteColour | 4, runs[0].bg);
}

TEST(Screen, LineFeedScrollsOnlyTheRegion) {
  Screen s(4, 4, 10);
  for (int r = 0; r < 4; ++r) {
    s.MoveTo(r, 0);
    Write(&s, std::string(1, static_cast<char>('a' + r)));
  }
  s.SetRegion(1, 3);  // rows 1 and 2
  EXPECT_EQ(0, s.cursor().row);  // homed
  s.MoveTo(2, 0);
  s.LineFeed();
  EXPECT_EQ(2, s.cursor().row);
  EXPECT_EQ("a", Row(s, 0));
  EXPECT_EQ("c", Row(s, 1));
  EXPECT_EQ("", Row(s, 2));
  EXPECT_EQ("d", Row(s, 3));
  EXPECT_EQ(0u, s.grid().lines_scrolled());  // a region not at the top keeps no history
  s.MoveTo(1, 0);
  s.ReverseIndex();  // at the region's top: the region scrolls down
  EXPECT_EQ("a", Row(s, 0));
  EXPECT_EQ("", Row(s, 1));
  EXPECT_EQ("c", Row(s, 2));
  EXPECT_EQ("d", Row(s, 3));
}

TEST(Screen, ARegionOfOneRowIsRefused) {
  Screen s(4, 4, 10);
  s.SetRegion(1, 3);
  s.SetRegion(2, 3);
  EXPECT_EQ(1, s.region_top());
  EXPECT_EQ(3, s.region_bottom());
  s.SetRegion(0, 99);  // the bottom is cut to the screen
  EXPECT_EQ(0, s.region_top());
  EXPECT_EQ(4, s.region_bottom());
}

TEST(Screen, CursorMovesStopAtTheRegionFromInside) {
  Screen s(4, 6, 10);
  s.SetRegion(1, 4);
  s.MoveTo(2, 1);
  s.CursorUp(5);
  EXPECT_EQ(1, s.cursor().row);
  s.CursorDown(9);
  EXPECT_EQ(3, s.cursor().row);
  s.MoveTo(4, 1);  // below the region: only the screen stops it
  s.CursorDown(9);
  EXPECT_EQ(5, s.cursor().row);
  s.SetOriginMode(true);  // rows count from the region's top, and stay in it
  s.CursorTo(1, 2);
  EXPECT_EQ(2, s.cursor().row);
  s.CursorTo(9, 0);
  EXPECT_EQ(3, s.cursor().row);
}

TEST(Screen, InsertAndDeleteLinesInsideTheRegion) {
  Screen s(4, 4, 10);
  for (int r = 0; r < 4; ++r) {
    s.MoveTo(r, 0);
    Write(&s, std::string(1, static_cast<char>('a' + r)));
  }
  s.SetRegion(0, 3);
  s.MoveTo(1, 2);
  s.InsertLines(1);
  EXPECT_EQ("a", Row(s, 0));
  EXPECT_EQ("", Row(s, 1));
  EXPECT_EQ("b", Row(s, 2));
  EXPECT_EQ("d", Row(s, 3));  // below the region: untouched ('c' went)
  EXPECT_EQ(0, s.cursor().col);
  s.DeleteLines(2);
  EXPECT_EQ("a", Row(s, 0));
  EXPECT_EQ("", Row(s, 1));
  EXPECT_EQ("", Row(s, 2));
  EXPECT_EQ("d", Row(s, 3));
  s.MoveTo(3, 1);  // outside the region: nothing
  s.InsertLines(1);
  EXPECT_EQ("d", Row(s, 3));
  EXPECT_EQ(1, s.cursor().col);
}

TEST(Screen, ScrollUpAtTheTopFeedsTheHistory) {
  Screen s(4, 3, 10);
  Write(&s, "one");
  s.ScrollUp(1);
  EXPECT_EQ(1u, s.grid().lines_scrolled());
  EXPECT_EQ("", Row(s, 0));
  s.ScrollDown(1);
  EXPECT_EQ(1u, s.grid().history_size());  // down keeps no history
}

TEST(Screen, InsertAndDeleteCells) {
  Screen s(6, 2, 10);
  Write(&s, "abcdef");
  s.MoveTo(0, 1);
  s.InsertCells(2);
  EXPECT_EQ("a  bcd", Row(s, 0));
  s.DeleteCells(3);
  EXPECT_EQ("acd", Row(s, 0));
  s.EraseCells(1);
  EXPECT_EQ("a d", Row(s, 0));
}

TEST(Screen, TabsStopEveryEightColumnsUntilCleared) {
  Screen s(20, 2, 10);
  s.Tab();
  EXPECT_EQ(8, s.cursor().col);
  s.ClearTabStop();
  s.CarriageReturn();
  s.Tab();
  EXPECT_EQ(16, s.cursor().col);
  s.TabForward(3);  // no stop left: the last column
  EXPECT_EQ(19, s.cursor().col);
  s.TabBack(1);
  EXPECT_EQ(16, s.cursor().col);
}

TEST(Screen, APlaceFollowsItsTextAndIsForgottenWhenErased) {
  Screen s(5, 2, 10);
  Write(&s, "ab");
  s.KeepPlace(7);
  EXPECT_TRUE(s.place(7).held);
  EXPECT_EQ(0u, s.place(7).row);
  EXPECT_EQ(2, s.place(7).col);
  s.LineFeed();
  s.LineFeed();  // row 0 scrolls into the history; the place keeps its absolute row
  EXPECT_EQ(1u, s.grid().lines_scrolled());
  EXPECT_TRUE(s.place(7).held);
  EXPECT_EQ(0u, s.place(7).row);
  s.CarriageReturn();
  Write(&s, "abcde");  // with a wrap pending the place is the next row's start
  s.KeepPlace(8);
  EXPECT_EQ(3u, s.place(8).row);
  EXPECT_EQ(0, s.place(8).col);
  s.MoveTo(0, 1);
  s.KeepPlace(9);
  s.EraseInDisplay(0);  // from the cursor on: 9 goes, 7 (in the history) stays
  EXPECT_FALSE(s.place(9).held);
  EXPECT_TRUE(s.place(7).held);
  EXPECT_FALSE(s.place(99).held);  // never kept
}

TEST(Screen, LeavingTheAlternateScreenForgetsItsPlaces) {
  Screen s(5, 2, 10);
  s.KeepPlace(1);
  s.SwitchScreen(true);
  s.KeepPlace(2);
  EXPECT_TRUE(s.place(2).alt);
  s.SwitchScreen(false);
  EXPECT_TRUE(s.place(1).held);
  EXPECT_FALSE(s.place(2).held);
}

TEST(Screen, ResetKeepsTheHistoryOnly) {
  Screen s(4, 2, 10);
  Write(&s, "ab");
  s.LineFeed();
  s.LineFeed();
  s.SetRegion(0, 2);
  s.SetOriginMode(true);
  s.set_insert_mode(true);
  s.SwitchScreen(true);
  s.Reset();
  EXPECT_FALSE(s.alt());
  EXPECT_FALSE(s.origin_mode());
  EXPECT_FALSE(s.insert_mode());
  EXPECT_EQ(0, s.cursor().row);
  EXPECT_EQ(1u, s.grid().history_size());
  EXPECT_EQ("", Row(s, 0));
}

}  // namespace
}  // namespace tuidriver

#include "keys.h"

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

std::string Bytes(const std::string& name, KeyModes modes = KeyModes()) {
  return KeysToBytes({name}, modes);
}

TEST(Keys, NamedKeys) {
  EXPECT_EQ("\r", Bytes("Enter"));
  EXPECT_EQ("\x1b", Bytes("Escape"));
  EXPECT_EQ("\t", Bytes("Tab"));
  EXPECT_EQ("\x7f", Bytes("BSpace"));
  EXPECT_EQ("\x1b[Z", Bytes("S-Tab"));
  EXPECT_EQ("\x1b[Z", Bytes("BTab"));
  EXPECT_EQ("\x1b[5~", Bytes("PageUp"));
  EXPECT_EQ("\x1b[6~", Bytes("NPage"));
  EXPECT_EQ("\x1b[3~", Bytes("DC"));
  EXPECT_EQ("\x1bOP", Bytes("F1"));
  EXPECT_EQ("\x1b[15~", Bytes("F5"));
  EXPECT_EQ("\x1b[24~", Bytes("F12"));
  EXPECT_EQ("\r", Bytes("enter"));  // names ignore case
}

TEST(Keys, CursorKeysFollowApplicationMode) {
  EXPECT_EQ("\x1b[A", Bytes("Up"));
  KeyModes app;
  app.app_cursor_keys = true;
  EXPECT_EQ("\x1bOA", Bytes("Up", app));
  EXPECT_EQ("\x1bOD", Bytes("Left", app));
  EXPECT_EQ("\x1bOH", Bytes("Home", app));
  // With a modifier the CSI form is used in both modes.
  EXPECT_EQ("\x1b[1;5C", Bytes("C-Right", app));
  EXPECT_EQ("\x1b[1;2A", Bytes("S-Up"));
  EXPECT_EQ("\x1b[5;3~", Bytes("M-PageUp"));
}

TEST(Keys, KeypadFollowsKeypadMode) {
  EXPECT_EQ("5", Bytes("KP5"));
  KeyModes app;
  app.app_keypad = true;
  EXPECT_EQ("\x1bOu", Bytes("KP5", app));
  EXPECT_EQ("\x1bOM", Bytes("KPEnter", app));
}

TEST(Keys, ControlAndMeta) {
  EXPECT_EQ("\x03", Bytes("C-c"));
  EXPECT_EQ("\x03", Bytes("C-C"));
  EXPECT_EQ("\x04", Bytes("C-d"));
  EXPECT_EQ(std::string(1, '\0'), Bytes("C-Space"));
  EXPECT_EQ("\x1b", Bytes("C-["));
  EXPECT_EQ("\x1bx", Bytes("M-x"));
  EXPECT_EQ("\x1b\x01", Bytes("C-M-a"));
  EXPECT_EQ("\x1b\r", Bytes("M-Enter"));
  EXPECT_EQ("A", Bytes("S-a"));
}

TEST(Keys, NonKeysAreTypedAsText) {
  EXPECT_EQ("hello", Bytes("hello"));
  EXPECT_EQ("/exit", Bytes("/exit"));
  EXPECT_EQ("C-", Bytes("C-"));
  EXPECT_EQ("\xC3\xA9", Bytes("\xC3\xA9"));
  EXPECT_EQ("ls\r", KeysToBytes({"ls", "Enter"}, KeyModes()));
}

TEST(Keys, ParseKeyName) {
  Key key;
  ASSERT_TRUE(ParseKeyName("C-M-Left", &key));
  EXPECT_EQ(KeyCode::kLeft, key.code);
  EXPECT_TRUE(key.ctrl);
  EXPECT_TRUE(key.meta);
  EXPECT_FALSE(key.shift);
  EXPECT_FALSE(ParseKeyName("Enterprise", &key));
  EXPECT_FALSE(ParseKeyName("", &key));
}

TEST(Keys, CommonAliasesAreKeys) {
  EXPECT_EQ("\x03", Bytes("ctrl-c"));
  EXPECT_EQ("\x03", Bytes("Ctrl-C"));
  EXPECT_EQ("\x03", Bytes("C-c"));
  EXPECT_EQ("\x03", Bytes("^C"));
  EXPECT_EQ("\x03", Bytes("^c"));
  EXPECT_EQ("\x1bx", Bytes("Alt-x"));
  EXPECT_EQ("\x1b[Z", Bytes("Shift-Tab"));
  EXPECT_EQ("^", Bytes("^"));
}

TEST(Keys, NearMissesAreErrorsNamingTheAcceptedForms) {
  for (const char* bad : {"Ctrl+C", "ctrl+c", "C+c", "Control-c", "cmd-k", "Enterr", "enterr", "Escap", "Dwon",
                          "PageDwn", "F13", "C-Enterr", "Ctrl-Xyzzy"}) {
    std::string err;
    EXPECT_FALSE(CheckKeyNames({"Enter", bad}, &err)) << bad;
    EXPECT_NE(std::string::npos, err.find(bad)) << err;
    EXPECT_NE(std::string::npos, err.find("C-c")) << err;
    EXPECT_NE(std::string::npos, err.find("send")) << err;
  }
  for (const char* ok : {"Enter", "ctrl-c", "^C", "hello", ":wq", "yes", "ls -la", "s-bahn", "x", "F12", "1+1", "and"}) {
    std::string err;
    EXPECT_TRUE(CheckKeyNames({ok}, &err)) << ok << ": " << err;
  }
}

}  // namespace
}  // namespace tuidriver

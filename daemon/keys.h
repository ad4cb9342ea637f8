// Key names, tmux style ("Enter", "C-c", "M-x", "S-Tab", "PageDown", "F5"),
// and the bytes a terminal sends for them. Names map to key codes through
// one table; codes map to bytes through another, which depends on the
// modes the program has set (application cursor keys, keypad).
#ifndef TUIDRIVER_KEYS_H_
#define TUIDRIVER_KEYS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tuidriver {

enum class KeyCode {
  kChar,  // a character key: Key::ch
  kEnter, kEscape, kTab, kBackTab, kBackspace, kSpace,
  kUp, kDown, kLeft, kRight, kHome, kEnd,
  kInsert, kDelete, kPageUp, kPageDown,
  kF1, kF2, kF3, kF4, kF5, kF6, kF7, kF8, kF9, kF10, kF11, kF12,
  kKp0, kKp1, kKp2, kKp3, kKp4, kKp5, kKp6, kKp7, kKp8, kKp9,
  kKpDivide, kKpMultiply, kKpMinus, kKpPlus, kKpEnter, kKpPeriod,
};

struct Key {
  KeyCode code = KeyCode::kChar;
  uint32_t ch = 0;  // kChar only: the code point
  bool ctrl = false;
  bool meta = false;
  bool shift = false;
};

// Terminal modes that change what keys send.
struct KeyModes {
  bool app_cursor_keys = false;  // DECCKM: arrows send ESC O A
  bool app_keypad = false;       // DECKPAM: keypad sends ESC O p...
};

// Parses a key name with optional C-/M-/S- prefixes (or Ctrl-/Alt-/Meta-/
// Shift-; "^c" is C-c). Names are matched without regard to case; a single
// character is a character key.
bool ParseKeyName(const std::string& name, Key* key);

// The bytes a terminal sends for `key`.
std::string KeyBytes(const Key& key, const KeyModes& modes);

// False, with *err listing the accepted forms, when an element looks like
// a key name but is none ("Ctrl+C", "Enterr", "F13"): typed as text, it
// would go in literally. Other text passes.
bool CheckKeyNames(const std::vector<std::string>& names, std::string* err);

// Concatenated bytes for a list of key names. An element that is not a key
// name is typed as the text it is.
std::string KeysToBytes(const std::vector<std::string>& names, const KeyModes& modes);

class ChildInput;
class Terminal;
// The modes the program has set on the terminal.
KeyModes TerminalKeyModes(const Terminal& term);
// Key names to bytes in the terminal's current modes, written to the child.
void WriteKeys(const std::vector<std::string>& keys, const Terminal& term, ChildInput* child);

// Text as a terminal pastes it in bracketed-paste mode (ESC [200~ ... ESC
// [201~), so the program takes it literally: a TAB inserts a TAB. An end
// marker inside the text is dropped, so the paste cannot end early.
std::string BracketedPaste(std::string text);

}  // namespace tuidriver

#endif  // TUIDRIVER_KEYS_H_

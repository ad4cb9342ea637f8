#include "keys.h"

#include <string.h>
#include <strings.h>

#include <algorithm>

#include "child.h"
#include "terminal.h"
#include "utf8.h"

namespace tuidriver {
namespace {

struct NamedKey {
  const char* name;
  KeyCode code;
};

// Name -> code. Aliases follow tmux (BSpace, BTab, DC, IC, NPage, PPage).
const NamedKey kKeyNames[] = {
    {"Enter", KeyCode::kEnter},      {"Escape", KeyCode::kEscape},
    {"Esc", KeyCode::kEscape},       {"Tab", KeyCode::kTab},
    {"BTab", KeyCode::kBackTab},     {"BSpace", KeyCode::kBackspace},
    {"Backspace", KeyCode::kBackspace}, {"Space", KeyCode::kSpace},
    {"Up", KeyCode::kUp},            {"Down", KeyCode::kDown},
    {"Left", KeyCode::kLeft},        {"Right", KeyCode::kRight},
    {"Home", KeyCode::kHome},        {"End", KeyCode::kEnd},
    {"IC", KeyCode::kInsert},        {"Insert", KeyCode::kInsert},
    {"DC", KeyCode::kDelete},        {"Delete", KeyCode::kDelete},
    {"PageUp", KeyCode::kPageUp},    {"PgUp", KeyCode::kPageUp},
    {"PPage", KeyCode::kPageUp},     {"PageDown", KeyCode::kPageDown},
    {"PgDn", KeyCode::kPageDown},    {"NPage", KeyCode::kPageDown},
    {"F1", KeyCode::kF1},   {"F2", KeyCode::kF2},   {"F3", KeyCode::kF3},
    {"F4", KeyCode::kF4},   {"F5", KeyCode::kF5},   {"F6", KeyCode::kF6},
    {"F7", KeyCode::kF7},   {"F8", KeyCode::kF8},   {"F9", KeyCode::kF9},
    {"F10", KeyCode::kF10}, {"F11", KeyCode::kF11}, {"F12", KeyCode::kF12},
    {"KP0", KeyCode::kKp0}, {"KP1", KeyCode::kKp1}, {"KP2", KeyCode::kKp2},
    {"KP3", KeyCode::kKp3}, {"KP4", KeyCode::kKp4}, {"KP5", KeyCode::kKp5},
    {"KP6", KeyCode::kKp6}, {"KP7", KeyCode::kKp7}, {"KP8", KeyCode::kKp8},
    {"KP9", KeyCode::kKp9}, {"KP/", KeyCode::kKpDivide},
    {"KP*", KeyCode::kKpMultiply}, {"KP-", KeyCode::kKpMinus},
    {"KP+", KeyCode::kKpPlus}, {"KPEnter", KeyCode::kKpEnter},
    {"KP.", KeyCode::kKpPeriod},
};

// Code -> bytes, for keys whose sequence has a fixed shape.
struct KeySequence {
  KeyCode code;
  const char* normal;  // without modifiers
  const char* app;     // in application mode (cursor keys or keypad), or null
  // With modifiers: CSI 1;m final (letter keys) or CSI n;m ~ (tilde keys).
  char final;
  int number;
};

const KeySequence kSequences[] = {
    {KeyCode::kUp, "\x1b[A", "\x1bOA", 'A', 1},
    {KeyCode::kDown, "\x1b[B", "\x1bOB", 'B', 1},
    {KeyCode::kRight, "\x1b[C", "\x1bOC", 'C', 1},
    {KeyCode::kLeft, "\x1b[D", "\x1bOD", 'D', 1},
    {KeyCode::kHome, "\x1b[H", "\x1bOH", 'H', 1},
    {KeyCode::kEnd, "\x1b[F", "\x1bOF", 'F', 1},
    {KeyCode::kInsert, "\x1b[2~", nullptr, '~', 2},
    {KeyCode::kDelete, "\x1b[3~", nullptr, '~', 3},
    {KeyCode::kPageUp, "\x1b[5~", nullptr, '~', 5},
    {KeyCode::kPageDown, "\x1b[6~", nullptr, '~', 6},
    {KeyCode::kF1, "\x1bOP", nullptr, 'P', 1},
    {KeyCode::kF2, "\x1bOQ", nullptr, 'Q', 1},
    {KeyCode::kF3, "\x1bOR", nullptr, 'R', 1},
    {KeyCode::kF4, "\x1bOS", nullptr, 'S', 1},
    {KeyCode::kF5, "\x1b[15~", nullptr, '~', 15},
    {KeyCode::kF6, "\x1b[17~", nullptr, '~', 17},
    {KeyCode::kF7, "\x1b[18~", nullptr, '~', 18},
    {KeyCode::kF8, "\x1b[19~", nullptr, '~', 19},
    {KeyCode::kF9, "\x1b[20~", nullptr, '~', 20},
    {KeyCode::kF10, "\x1b[21~", nullptr, '~', 21},
    {KeyCode::kF11, "\x1b[23~", nullptr, '~', 23},
    {KeyCode::kF12, "\x1b[24~", nullptr, '~', 24},
    {KeyCode::kKp0, "0", "\x1bOp", 0, 0},  {KeyCode::kKp1, "1", "\x1bOq", 0, 0},
    {KeyCode::kKp2, "2", "\x1bOr", 0, 0},  {KeyCode::kKp3, "3", "\x1bOs", 0, 0},
    {KeyCode::kKp4, "4", "\x1bOt", 0, 0},  {KeyCode::kKp5, "5", "\x1bOu", 0, 0},
    {KeyCode::kKp6, "6", "\x1bOv", 0, 0},  {KeyCode::kKp7, "7", "\x1bOw", 0, 0},
    {KeyCode::kKp8, "8", "\x1bOx", 0, 0},  {KeyCode::kKp9, "9", "\x1bOy", 0, 0},
    {KeyCode::kKpDivide, "/", "\x1bOo", 0, 0},
    {KeyCode::kKpMultiply, "*", "\x1bOj", 0, 0},
    {KeyCode::kKpMinus, "-", "\x1bOm", 0, 0},
    {KeyCode::kKpPlus, "+", "\x1bOk", 0, 0},
    {KeyCode::kKpEnter, "\r", "\x1bOM", 0, 0},
    {KeyCode::kKpPeriod, ".", "\x1bOn", 0, 0},
};

bool IsKeypad(KeyCode code) { return code >= KeyCode::kKp0; }

struct Modifier {
  const char* prefix;  // matched without regard to case
  bool Key::*flag;
};

// tmux's one-letter prefixes, and the spelled-out aliases people type.
const Modifier kModifiers[] = {
    {"C-", &Key::ctrl},      {"M-", &Key::meta},   {"S-", &Key::shift},
    {"Ctrl-", &Key::ctrl},   {"Alt-", &Key::meta}, {"Meta-", &Key::meta},
    {"Shift-", &Key::shift},
};

// Strips modifier prefixes (any order) into `key`; "^c" is C-c.
std::string StripModifiers(const std::string& name, Key* key) {
  size_t i = 0;
  for (bool more = true; more;) {
    more = false;
    for (const Modifier& m : kModifiers) {
      size_t n = strlen(m.prefix);
      if (name.size() > i + n && strncasecmp(name.c_str() + i, m.prefix, n) == 0) {
        key->*m.flag = true;
        i += n;
        more = true;
        break;
      }
    }
  }
  if (name.size() == i + 2 && name[i] == '^') {
    key->ctrl = true;
    i++;
  }
  return name.substr(i);
}

// A single character key (after modifiers), or false.
bool ParseCharacter(const std::string& base, Key* key) {
  size_t pos = 0;
  uint32_t cp;
  if (base.empty() || !DecodeUtf8(base, &pos, &cp) || pos != base.size()) return false;
  key->code = KeyCode::kChar;
  key->ch = cp;
  return true;
}

// Control characters for C-x: letters and @[\]^_? as a terminal sends them.
bool ControlByte(uint32_t ch, char* out) {
  if (ch >= 'a' && ch <= 'z') ch -= 'a' - 'A';
  if (ch >= '@' && ch <= '_') {
    *out = static_cast<char>(ch - '@');
    return true;
  }
  if (ch == ' ' || ch == '2') { *out = 0; return true; }
  if (ch == '?') { *out = 0x7f; return true; }
  return false;
}

std::string CharacterBytes(const Key& key) {
  std::string out;
  uint32_t ch = key.ch;
  if (key.shift && ch >= 'a' && ch <= 'z') ch -= 'a' - 'A';
  char control;
  if (key.ctrl && ControlByte(ch, &control)) out.push_back(control);
  else AppendUtf8(ch, &out);
  return out;
}

// xterm's modifier parameter: 1 + shift + 2*meta + 4*ctrl.
int ModifierParam(const Key& key) {
  return 1 + (key.shift ? 1 : 0) + (key.meta ? 2 : 0) + (key.ctrl ? 4 : 0);
}

std::string SequenceBytes(const KeySequence& seq, const Key& key, const KeyModes& modes) {
  bool app = IsKeypad(key.code) ? modes.app_keypad : modes.app_cursor_keys;
  int mods = ModifierParam(key);
  if (mods == 1 || seq.final == 0) {
    std::string base = app && seq.app ? seq.app : seq.normal;
    return key.meta && seq.final == 0 ? "\x1b" + base : base;
  }
  if (seq.final == '~') {
    return "\x1b[" + std::to_string(seq.number) + ";" + std::to_string(mods) + "~";
  }
  return "\x1b[1;" + std::to_string(mods) + seq.final;
}

}  // namespace

bool ParseKeyName(const std::string& name, Key* key) {
  *key = Key();
  std::string base = StripModifiers(name, key);
  for (const NamedKey& k : kKeyNames) {
    if (strcasecmp(base.c_str(), k.name) == 0) {
      key->code = k.code;
      return true;
    }
  }
  return ParseCharacter(base, key);
}

std::string KeyBytes(const Key& key, const KeyModes& modes) {
  switch (key.code) {
    case KeyCode::kChar: {
      std::string bytes = CharacterBytes(key);
      return key.meta ? "\x1b" + bytes : bytes;
    }
    case KeyCode::kEnter: return key.meta ? "\x1b\r" : "\r";
    case KeyCode::kEscape: return "\x1b";
    case KeyCode::kTab: return key.shift ? "\x1b[Z" : (key.meta ? "\x1b\t" : "\t");
    case KeyCode::kBackTab: return "\x1b[Z";
    case KeyCode::kBackspace: return key.meta ? "\x1b\x7f" : (key.ctrl ? "\x08" : "\x7f");
    case KeyCode::kSpace: return key.ctrl ? std::string(1, '\0') : (key.meta ? "\x1b " : " ");
    default: break;
  }
  for (const KeySequence& seq : kSequences) {
    if (seq.code == key.code) return SequenceBytes(seq, key, modes);
  }
  return std::string();
}

namespace {

// Edit distance of at most one (one change, insertion, deletion or swap of
// neighbours), ignoring case.
bool OneEditApart(const std::string& a, const std::string& b) {
  std::string x = a, y = b;
  for (std::string* s : {&x, &y}) {
    for (char& c : *s) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  }
  if (x.size() > y.size()) std::swap(x, y);
  if (y.size() - x.size() > 1) return false;
  size_t i = 0;
  while (i < x.size() && x[i] == y[i]) i++;
  if (x.size() == y.size()) {
    if (x.substr(i + 1) == y.substr(i + 1)) return true;
    return i + 1 < x.size() && x[i] == y[i + 1] && x[i + 1] == y[i] && x.substr(i + 2) == y.substr(i + 2);
  }
  return x.substr(i) == y.substr(i + 1);
}

// A word that is almost a key name: "Enterr", "Escap", "Dwon", "F13".
bool NearKeyName(const std::string& base) {
  if (base.size() < 3 || !std::all_of(base.begin(), base.end(), [](char c) { return isalnum(static_cast<unsigned char>(c)); })) {
    return false;
  }
  if ((base[0] == 'F' || base[0] == 'f') && std::all_of(base.begin() + 1, base.end(), [](char c) { return isdigit(static_cast<unsigned char>(c)); })) {
    return true;  // not F1..F12, which parsed
  }
  for (const NamedKey& k : kKeyNames) {
    size_t n = strlen(k.name);
    if (n >= 3 && base.size() > n && base.size() <= n + 2 && strncasecmp(base.c_str(), k.name, n) == 0) return true;
    if (n >= 3 && base.size() >= 4 && OneEditApart(base, k.name)) return true;
  }
  return false;
}

// A spelled-out modifier with a separator: "ctrl+", "Control-", "cmd-".
bool HasModifierWord(const std::string& name) {
  static const char* const kWords[] = {"ctrl", "control", "ctl", "alt", "meta", "shift", "opt", "option", "cmd", "super"};
  size_t sep = name.find_first_of("+-");
  if (sep == std::string::npos || sep == 0) return false;
  for (const char* w : kWords) {
    if (sep == strlen(w) && strncasecmp(name.c_str(), w, sep) == 0) return true;
  }
  return sep == 1 && name[1] == '+' && strchr("CMScms", name[0]) != nullptr;
}

}  // namespace

bool CheckKeyNames(const std::vector<std::string>& names, std::string* err) {
  for (const std::string& name : names) {
    Key key;
    if (ParseKeyName(name, &key)) continue;
    std::string base = StripModifiers(name, &key);
    if (!HasModifierWord(name) && !NearKeyName(base)) continue;
    *err = "'" + name + "' is not a key name. Accepted: Enter, Escape, Tab, BSpace, Space, Up, Down, Left, Right, "
           "Home, End, PageUp, PageDown, Insert, Delete, F1-F12, KP0-KP9, a single character; with modifiers "
           "C-, M-, S- (or Ctrl-, Alt-, Shift-) as in C-c, M-x, S-Tab, Ctrl-C, or ^C. Text goes through send";
    return false;
  }
  return true;
}

std::string KeysToBytes(const std::vector<std::string>& names, const KeyModes& modes) {
  std::string out;
  for (const std::string& name : names) {
    Key key;
    if (ParseKeyName(name, &key)) out += KeyBytes(key, modes);
    else out += name;
  }
  return out;
}

std::string BracketedPaste(std::string text) {
  static const char kEnd[] = "\x1b[201~";
  for (size_t p; (p = text.find(kEnd)) != std::string::npos;) text.erase(p, sizeof kEnd - 1);
  return "\x1b[200~" + text + kEnd;
}

KeyModes TerminalKeyModes(const Terminal& term) {
  KeyModes modes;
  modes.app_cursor_keys = term.app_cursor_keys();
  modes.app_keypad = term.app_keypad();
  return modes;
}

void WriteKeys(const std::vector<std::string>& keys, const Terminal& term, ChildInput* child) {
  child->Write(KeysToBytes(keys, TerminalKeyModes(term)));
}

}  // namespace tuidriver

// The reference screens: every file under tests/ref/ replayed through
// Terminal, with no tmux. A file holds the bytes a terminal received, the
// resizes between them, and what tmux 3.3a showed after them (lines, cursor,
// styles, history: what the vs-tmux test it comes from compares).
// tests/ref/generate.py writes them from the vs-tmux tests' cases.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "glob_files.h"
#include "json_fields.h"
#include "terminal.h"

namespace tuidriver {
namespace {

// One step of a ref file: bytes to feed, or (cols > 0) a resize.
struct RefStep {
  std::string feed;
  int cols = 0;
  int rows = 0;
};

struct RefCase {
  int cols = 0;
  int rows = 0;
  std::vector<RefStep> steps;
  // What the file expects; a part it leaves out is not compared.
  bool has_lines = false, has_cursor = false, has_visible = false, has_styles = false, has_history = false;
  std::vector<std::string> lines;
  std::vector<std::string> history;
  int cursor_row = 0;
  int cursor_col = 0;
  bool cursor_visible = true;
  std::vector<std::vector<std::string>> styles;  // per row, each run as Describe gives it
};

// SGR attributes by bit (CellAttr), as the files and the daemon name them.
const char* const kAttrNames[] = {"bold", "dim", "italic", "underline", "blink", "reverse", "invisible", "strike"};

// A styled run as one line of text, so that a difference reads plainly.
std::string DescribeColour(uint32_t colour) {
  if (colour & kRgbColour) {
    char hex[8];
    snprintf(hex, sizeof hex, "#%06x", colour & 0xffffffu);
    return hex;
  }
  return std::to_string(colour & 0xffu);
}

std::string Describe(const StyleRun& run) {
  std::string s = "col " + std::to_string(run.col) + " len " + std::to_string(run.len);
  if (run.fg) s += " fg " + DescribeColour(run.fg);
  if (run.bg) s += " bg " + DescribeColour(run.bg);
  for (int bit = 0; bit < 8; ++bit) {
    if (run.attrs & (1u << bit)) s += std::string(" ") + kAttrNames[bit];
  }
  return s;
}

// A colour as the files write it (the daemon's `styles`): a palette index,
// or "#rrggbb".
bool ReadColour(JsonFields* r, const simdjson::dom::element& v, const std::string& path, uint32_t* out) {
  int64_t index;
  std::string hex;
  if (v.is_int64()) {
    if (!r->Int(v, path, 0, 255, &index)) return false;
    *out = kPaletteColour | static_cast<uint32_t>(index);
    return true;
  }
  if (!r->String(v, path, &hex)) return false;
  if (hex.size() != 7 || hex[0] != '#') return r->Fail(path, "expected #rrggbb, got " + hex);
  *out = kRgbColour | static_cast<uint32_t>(std::stoul(hex.substr(1), nullptr, 16));
  return true;
}

bool ReadRun(JsonFields* r, const simdjson::dom::element& e, const std::string& path, StyleRun* run) {
  return r->Object(e, path, [&](const std::string& key, const simdjson::dom::element& v, const std::string& sub) {
    if (key == "col") return r->Int(v, sub, 0, 1000, &run->col);
    if (key == "len") return r->Int(v, sub, 1, 1000, &run->len);
    if (key == "fg") return ReadColour(r, v, sub, &run->fg);
    if (key == "bg") return ReadColour(r, v, sub, &run->bg);
    for (int bit = 0; bit < 8; ++bit) {
      bool on = false;
      if (key == kAttrNames[bit]) {
        if (r->Bool(v, sub, &on) && on) run->attrs |= static_cast<uint16_t>(1u << bit);
        return true;
      }
    }
    return false;
  });
}

bool ReadStyles(JsonFields* r, const simdjson::dom::element& e, const std::string& path,
                std::vector<std::vector<std::string>>* styles) {
  simdjson::dom::array rows;
  if (e.get(rows)) return r->Wrong(path, "an array of rows", e);
  for (simdjson::dom::element row : rows) {
    std::string at = JsonFields::Item(path, styles->size());
    simdjson::dom::array runs;
    if (row.get(runs)) return r->Wrong(at, "an array of runs", row);
    styles->emplace_back();
    for (simdjson::dom::element item : runs) {
      StyleRun run;
      if (!ReadRun(r, item, JsonFields::Item(at, styles->back().size()), &run)) return false;
      styles->back().push_back(Describe(run));
    }
  }
  return true;
}

bool ReadSteps(JsonFields* r, const simdjson::dom::element& e, std::vector<RefStep>* steps) {
  simdjson::dom::array items;
  if (e.get(items)) return r->Wrong("steps", "an array", e);
  for (simdjson::dom::element item : items) {
    std::string at = JsonFields::Item("steps", steps->size());
    steps->emplace_back();
    RefStep* step = &steps->back();
    bool ok = r->Object(item, at, [&](const std::string& key, const simdjson::dom::element& v, const std::string& sub) {
      if (key == "feed") return r->String(v, sub, &step->feed);
      if (key != "resize") return false;
      simdjson::dom::array a;
      simdjson::dom::element cols, rows;
      if (v.get(a) || a.size() != 2 || a.at(0).get(cols) || a.at(1).get(rows)) {
        return r->Wrong(sub, "[cols, rows]", v);
      }
      return r->Int(cols, sub, 2, 1000, &step->cols) && r->Int(rows, sub, 2, 1000, &step->rows);
    });
    if (!ok || r->failed()) return false;
  }
  return true;
}

bool ReadCursor(JsonFields* r, const simdjson::dom::element& e, RefCase* c) {
  c->has_cursor = true;
  return r->Object(e, "cursor", [&](const std::string& key, const simdjson::dom::element& v, const std::string& sub) {
    if (key == "row") return r->Int(v, sub, 0, 1000, &c->cursor_row);
    if (key == "col") return r->Int(v, sub, 0, 1000, &c->cursor_col);
    if (key != "visible") return false;
    c->has_visible = true;
    return r->Bool(v, sub, &c->cursor_visible);
  });
}

// Reads a ref file strictly: an unknown field is an error, not skipped.
bool LoadRefCase(const std::string& path, RefCase* c, std::string* err) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.load(path).get(doc)) {
    *err = "not JSON";
    return false;
  }
  JsonFields r(err);
  r.Object(doc, "", [&](const std::string& key, const simdjson::dom::element& v, const std::string& sub) {
    std::string text;
    if (key == "source" || key == "case" || key == "tmux" || key == "not_tmux") return r.String(v, sub, &text);
    if (key == "cols") return r.Int(v, sub, 2, 1000, &c->cols);
    if (key == "rows") return r.Int(v, sub, 2, 1000, &c->rows);
    if (key == "steps") return ReadSteps(&r, v, &c->steps);
    if (key == "cursor") return ReadCursor(&r, v, c);
    if (key == "lines") {
      c->has_lines = true;
      return r.Strings(v, sub, &c->lines);
    }
    if (key == "history") {
      c->has_history = true;
      return r.Strings(v, sub, &c->history);
    }
    if (key != "styles") return false;
    c->has_styles = true;
    return ReadStyles(&r, v, sub, &c->styles);
  });
  if (r.failed()) return false;
  if (c->cols == 0 || c->rows == 0 || c->steps.empty()) {
    *err = "cols, rows and steps are required";
    return false;
  }
  if (!c->has_lines && !c->has_styles) {  // it would pass whatever the terminal did
    *err = "lines or styles are required";
    return false;
  }
  return true;
}

// The main screen's history and the rows of the screen down to its last
// non-blank one, each without trailing blanks, as the daemon's `scrollback`
// request gives them (and tmux's capture-pane -S -).
std::vector<std::string> History(const Terminal& t) {
  int last_row = t.rows() - 1;
  while (last_row >= 0 && t.RowText(last_row).empty()) --last_row;
  uint64_t end = t.lines_scrolled() + static_cast<uint64_t>(last_row + 1);
  std::vector<std::string> out;
  for (uint64_t row = t.first_retained_row(); row < end; ++row) {
    std::string text;
    bool wrapped;
    if (!t.LineAt(row, &text, &wrapped, true)) continue;
    out.push_back(text.substr(0, text.find_last_not_of(' ') + 1));
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

// Feeds every step, `chunk` bytes at a time, then compares what the file expects.
void Replay(const RefCase& c, size_t chunk) {
  Terminal t(c.cols, c.rows, 10000);  // the daemon's default scrollback
  for (const RefStep& step : c.steps) {
    if (step.cols > 0) {
      t.Resize(step.cols, step.rows);
      continue;
    }
    for (size_t i = 0; i < step.feed.size(); i += chunk) {
      t.Feed(step.feed.data() + i, std::min(chunk, step.feed.size() - i));
    }
  }
  if (c.has_lines) {
    EXPECT_EQ(c.lines, t.ScreenLines()) << "screen lines";
  }
  if (c.has_cursor) {
    EXPECT_EQ(c.cursor_row, t.cursor().row) << "cursor row";
    EXPECT_EQ(c.cursor_col, t.cursor().col) << "cursor column";
  }
  if (c.has_visible) {
    EXPECT_EQ(c.cursor_visible, t.cursor().visible) << "cursor visible";
  }
  if (c.has_styles) {
    std::vector<std::vector<std::string>> got;
    for (int r = 0; r < t.rows(); ++r) {
      got.emplace_back();
      for (const StyleRun& run : t.RowStyles(r)) got.back().push_back(Describe(run));
    }
    EXPECT_EQ(c.styles, got) << "styles";
  }
  if (c.has_history) {
    EXPECT_EQ(c.history, History(t)) << "history and screen";
  }
}

std::vector<std::string> RefFiles() { return GlobFiles(TUIDRIVER_SOURCE_DIR "/tests/ref/*/*.json"); }

class TerminalRef : public testing::TestWithParam<std::string> {};

TEST_P(TerminalRef, ReplaysAsTmuxShowedIt) {
  RefCase c;
  std::string err;
  ASSERT_TRUE(LoadRefCase(GetParam(), &c, &err)) << GetParam() << ": " << err;
  {
    SCOPED_TRACE("fed a step at a time");
    Replay(c, SIZE_MAX);
  }
  // The PTY hands the bytes over in pieces of any size: a sequence or a
  // character split across them must change nothing.
  SCOPED_TRACE("fed a byte at a time");
  Replay(c, 1);
}

// "screen/wrap.json" -> "screen_wrap": a test name gtest accepts.
std::string TestName(const testing::TestParamInfo<std::string>& info) {
  std::string path = info.param.substr(std::string(TUIDRIVER_SOURCE_DIR "/tests/ref/").size());
  std::string name = path.substr(0, path.size() - 5);
  for (char& ch : name) {
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, TerminalRef, testing::ValuesIn(RefFiles()), TestName);

// A lost folder would leave nothing to replay and nothing failing.
TEST(TerminalRefFiles, AreThere) { EXPECT_GE(RefFiles().size(), 100u); }

// The error LoadRefCase gives for a file holding `json`.
std::string LoadError(const char* json) {
  std::string path = testing::TempDir() + "terminal_ref_bad.json";
  FILE* f = fopen(path.c_str(), "w");
  if (!f) return "cannot write " + path;
  fputs(json, f);
  fclose(f);
  RefCase c;
  std::string err;
  if (LoadRefCase(path, &c, &err)) err = "loaded";
  remove(path.c_str());
  return err;
}

// A misspelt field would otherwise leave its part unchecked.
TEST(TerminalRefFiles, AFileThatChecksNothingIsAnError) {
  EXPECT_EQ("field 'line': unknown field",
            LoadError(R"({"cols": 4, "rows": 2, "steps": [{"feed": "x"}], "line": ["x", ""]})"));
  EXPECT_EQ("lines or styles are required",
            LoadError(R"({"cols": 4, "rows": 2, "steps": [{"feed": "x"}], "cursor": {"row": 0, "col": 1}})"));
  EXPECT_EQ("loaded", LoadError(R"({"cols": 4, "rows": 2, "steps": [{"feed": "x"}], "lines": ["x", ""]})"));
}

}  // namespace
}  // namespace tuidriver

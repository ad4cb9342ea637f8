#include "engine_config.h"

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

bool Parse(const std::string& json, EngineConfig* c, std::string* err) {
  return ParseEngineConfig("engines/x.json", json, c, err);
}

TEST(EngineConfig, ParsesAFullEngine) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(Parse(R"({
    "$schema": "./schema.json",
    "description": "demo",
    "command": ["demo", "-i"],
    "agent_args": ["--yes"],
    "env": {"A": "1"},
    "env_strip": ["SECRET"],
    "start_alone_until": "{home}/.local/share/demo/demo.db",
    "cols": 100, "rows": 30,
    "prompt": "^> $",
    "continuation_prompt": {"pattern": "^\\.\\.\\. $", "scope": "cursor_line"},
    "started": ["Welcome"],
    "busy": ["esc to interrupt", {"pattern": "Working", "scope": "screen"}],
    "busy_osc": 7501, "busy_osc_pattern": "working", "busy_until_osc": true,
    "ready_after_da1": true, "busy_title": "Working…",
    "submit": {"mode": "paste", "enter": ["Enter"], "enter_delay_ms": 80,
               "chunk_size": 512, "chunk_delay_ms": 5, "close_blocks": false},
    "interrupt_keys": ["Escape"],
    "quit_keys": ["C-c", "C-c"],
    "reply": {"start": "^● ", "continuation_indent": "  ", "chrome": ["^✻"],
              "end": "^╭", "unwrap": true},
    "dialogs": [{"name": "trust", "pattern": "trust this folder", "keys": ["Down", "Enter"],
                 "modes": ["agent"]}],
    "needs_input": ["Do you want to proceed\\?"],
    "slash_commands": [{"name": "status", "description": "Show the status"}],
    "timeouts": {"ready_ms": 5000, "ask_ms": 9000, "quit_grace_ms": 100, "term_grace_ms": 200}
  })", &c, &err)) << err;
  EXPECT_EQ("x", c.name);
  EXPECT_EQ((std::vector<std::string>{"demo", "-i"}), c.command);
  EXPECT_EQ("1", c.env["A"]);
  EXPECT_EQ("{home}/.local/share/demo/demo.db", c.start_alone_until);
  EXPECT_EQ(100, c.cols);
  EXPECT_EQ(MatchScope::kCursorLine, c.prompt.scope);
  EXPECT_EQ(2u, c.busy.size());
  EXPECT_TRUE(c.busy_until_osc);
  EXPECT_TRUE(c.ready_after_da1);
  EXPECT_EQ(MatchScope::kScreen, c.busy[0].scope);
  EXPECT_EQ("Working…", c.busy_title);
  ASSERT_EQ(1u, c.started.size());
  EXPECT_EQ(MatchScope::kScreen, c.started[0].scope);
  EXPECT_EQ(SubmitMode::kPaste, c.submit.mode);
  EXPECT_EQ(80, c.submit.enter_delay_ms);
  EXPECT_EQ(512u, c.submit.chunk_size);
  EXPECT_EQ("^● ", c.reply.start);
  ASSERT_EQ(1u, c.dialogs.size());
  EXPECT_EQ("trust", c.dialogs[0].name);
  EXPECT_EQ(9000, c.timeouts.ask_ms);
  ASSERT_EQ(1u, c.slash_commands.size());
  EXPECT_EQ("status", c.slash_commands[0].name);
  EXPECT_EQ("Show the status", c.slash_commands[0].description);
}

// Each broken config names the file and the field.
TEST(EngineConfig, ErrorsNameTheFileAndField) {
  struct Case {
    const char* json;
    const char* field;
  } cases[] = {
      {R"({"prompt": "x"})", "'command'"},
      {R"({"command": ["a"]})", "'prompt'"},
      {R"({"command": "a", "prompt": "x"})", "'command'"},
      {R"({"command": ["a"], "prompt": "("})", "'prompt'"},
      {R"({"command": ["a"], "prompt": "x", "submit": {"mode": "fast"}})", "'submit.mode'"},
      {R"({"command": ["a"], "prompt": "x", "submit": {"bogus": 1}})", "'submit.bogus'"},
      // The verified range is [oldest, newest], in that order.
      {R"({"command": ["a"], "prompt": "x", "cli": {"verified": ["1.0.0"]}})", "'cli.verified'"},
      {R"({"command": ["a"], "prompt": "x", "cli": {"verified": ["2.0.0", "1.9.0"]}})", "'cli.verified'"},
      {R"({"command": ["a"], "prompt": "x", "cli": {"verified": ["latest", "2.0.0"]}})", "'cli.verified'"},
      {R"({"command": ["a"], "prompt": "x", "cli": {"npm": "cline"}})", "'cli.npm'"},
      {R"({"command": ["a"], "prompt": "x", "cli": {"version": "1"}})", "'cli.version'"},
      // The prompt goes in one way: as a literal, or through the pipe.
      {R"j({"command": ["a"], "prompt": "x", "submit": {"wrap": "run()"}})j", "'submit.wrap'"},
      {R"j({"command": ["a"], "prompt": "x", "submit": {"wrap": "run({json}, {pipe})"}})j", "'submit.wrap'"},
      // Only Enter is typed when the prompt went through the pipe.
      {R"j({"command": ["a"], "prompt": "x", "submit": {"enter_only": true, "wrap": "run({json})"}})j",
       "'submit.enter_only'"},
      // Nothing is typed when the helper runs the prompt from the pipe.
      {R"j({"command": ["a"], "prompt": "x", "submit": {"pipe_only": true, "wrap": "run({json})"}})j",
       "'submit.pipe_only'"},
      {R"j({"command": ["a"], "prompt": "x", "submit": {"pipe_only": true, "enter_only": true, "wrap": "run({pipe})"}})j",
       "'submit.pipe_only'"},
      {R"({"command": ["a"], "prompt": "x", "cols": 1})", "'cols'"},
      {R"({"command": ["a"], "prompt": "x", "start_alone_until": true})", "'start_alone_until'"},
      {R"({"command": ["a"], "prompt": "x", "colour": 1})", "'colour'"},
      {R"({"command": ["a"], "prompt": {"pattern": "x", "scope": "row"}})", "'prompt.scope'"},
      {R"({"command": ["a"], "prompt": "x", "dialogs": [{"pattern": "y"}]})", "'dialogs[0].keys'"},
      {R"({"command": ["a"], "prompt": "x", "reply": {"chrome": ["ok", "(("]}})", "'reply.chrome[1]'"},
      {R"({"command": ["a"], "prompt": "x", "busy_osc": 7501})", "'busy_osc_pattern'"},
      {R"({"command": ["a"], "prompt": "x", "busy_until_osc": true})", "'busy_until_osc'"},
      // The prompt's mark is on the cursor's row: the prompts are matched there.
      {R"({"command": ["a"], "prompt": {"pattern": "x", "scope": "screen"}, "prompt_osc": 7704})", "'prompt_osc'"},
      {R"({"command": ["a"], "prompt": "x", "continuation_prompt": {"pattern": "y", "scope": "screen"},
           "prompt_osc": 7704})", "'prompt_osc'"},
      {R"({"command": ["a"], "prompt": "x", "end_osc": 7705})", "'end_osc'"},
      {R"({"command": ["a"], "prompt": "x", "busy_title": "(("})", "'busy_title'"},
      {R"({"command": ["a"], "prompt": "x", "started": ["ok", "(("]})", "'started[1]'"},
      {R"({"command": ["a"], "prompt": "x", "timeouts": {"ask_ms": "5"}})", "'timeouts.ask_ms'"},
      {R"({"command": ["a"], "prompt": "x", "transcript": {"format": "pi", "path": "p", "wait_ms": -1}})",
       "'transcript.wait_ms'"},
      {R"({"command": ["a"], "prompt": "x", "transcript": {"format": "vi", "path": "p"}})",
       "'transcript.format'"},
      // Key names are checked: a typo would be typed as text.
      {R"({"command": ["a"], "prompt": "x", "interrupt_keys": ["Ctrl+C"]})", "'interrupt_keys[0]'"},
      {R"({"command": ["a"], "prompt": "x", "quit_keys": ["C-d", "Exit"]})", "'quit_keys[1]'"},
      {R"({"command": ["a"], "prompt": "x", "submit": {"enter": ["Return!"]}})", "'submit.enter[0]'"},
      {R"({"command": ["a"], "prompt": "x", "dialogs": [{"pattern": "y", "keys": ["Entr"]}]})",
       "'dialogs[0].keys[0]'"},
      {R"({"command": ["a"], "prompt": "x", "slash_commands": [{"name": "/status"}]})", "'slash_commands[0].name'"},
      {R"({"command": ["a"], "prompt": "x", "slash_commands": [{"name": "a", "help": "b"}]})",
       "'slash_commands[0].help'"},
      // Named choices: labels as shown, chosen with arrows, not beside numbered ones.
      {R"({"command": ["a"], "prompt": "x", "needs_input_options": {"choices": ["Yes", " "]}})",
       "'needs_input_options.choices[1]'"},
      {R"({"command": ["a"], "prompt": "x", "needs_input_options": {"choices": ["Yes"], "option": "(\\d) (\\S+) *"}})",
       "'needs_input_options'"},
      {R"({"command": ["a"], "prompt": "x", "needs_input_options": {"choices": ["Yes"], "select": "digits"}})",
       "'needs_input_options.select'"},
  };
  for (const Case& tc : cases) {
    EngineConfig c;
    std::string err;
    EXPECT_FALSE(Parse(tc.json, &c, &err)) << tc.json;
    EXPECT_EQ(0u, err.find("engines/x.json: ")) << err;
    EXPECT_NE(std::string::npos, err.find(tc.field)) << err;
  }
}

TEST(EngineConfig, TranscriptWaitDefaultsTo200Ms) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(Parse(R"({"command": ["a"], "prompt": "x", "transcript": {"format": "pi", "path": "p"}})", &c, &err))
      << err;
  EXPECT_EQ(3000, c.transcript.wait_ms);
  ASSERT_TRUE(Parse(R"({"command": ["a"], "prompt": "x",
                        "transcript": {"format": "qwen", "path": "p", "wait_ms": 15000}})",
                    &c, &err))
      << err;
  EXPECT_EQ(15000, c.transcript.wait_ms);
}

TEST(EngineConfig, InvalidJsonIsReported) {
  EngineConfig c;
  std::string err;
  EXPECT_FALSE(Parse("{\"command\": [", &c, &err));
  EXPECT_NE(std::string::npos, err.find("invalid JSON")) << err;
}

TEST(EngineConfig, ShippedEnginesLoad) {
  std::string dir = TUIDRIVER_SOURCE_DIR "/engines";
  std::vector<std::string> names = ListEngines(dir);
  ASSERT_GE(names.size(), 3u);
  for (const std::string& name : names) {
    EngineConfig c;
    std::string err;
    EXPECT_TRUE(LoadEngineFile(dir + "/" + name + ".json", &c, &err)) << err;
    EXPECT_EQ(name, c.name);
  }
}

// The prompt's mark carries the session's token.
TEST(EngineConfig, ThePromptMarkIsTheToken) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(Parse(R"({"command": ["a"], "prompt": "^>>> $", "prompt_osc": 7704})", &c, &err)) << err;
  EXPECT_EQ(7704, c.prompt_osc);
  ExpandPlaceholders("ab12cd", &c);
  EXPECT_EQ("ab12cd", c.prompt_mark);
}

TEST(EngineConfig, MissingFile) {
  EngineConfig c;
  std::string err;
  EXPECT_FALSE(LoadEngineFile("/nonexistent/engine.json", &c, &err));
  EXPECT_NE(std::string::npos, err.find("/nonexistent/engine.json")) << err;
}

}  // namespace
}  // namespace tuidriver

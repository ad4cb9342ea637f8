// Engine configuration: everything the daemon knows about driving one
// interactive program, loaded from engines/NAME.json. Engines are data, so
// adding a CLI never needs C++ code; see docs/engines.md for the file format.
#ifndef TUIDRIVER_ENGINE_CONFIG_H_
#define TUIDRIVER_ENGINE_CONFIG_H_

#include <map>
#include <string>
#include <vector>

namespace tuidriver {

// Where a screen pattern is matched.
enum class MatchScope {
  kCursorLine,  // the cursor's row, from column 0 up to the cursor
  kScreen,      // any row of the visible screen
};

// A regular expression (RE2 syntax) matched against rendered screen rows,
// one row at a time, without colours. An empty pattern never matches.
struct ScreenPattern {
  std::string pattern;
  MatchScope scope = MatchScope::kScreen;
};

// A question the program may ask on its own (trust this folder? use this
// key?) and the keys that answer it. Rules run only while no ask owns the
// screen, or while an ask waits for the program.
// A slash command the CLI understands, as front-ends list it (tuidriver-acp's
// available_commands_update). The daemon only validates it.
struct SlashCommand {
  std::string name;  // without the slash: "status"
  std::string description;
};

struct DialogRule {
  std::string name;
  std::string pattern;             // RE2, matched against the whole screen text
  std::vector<std::string> keys;   // key names, as in the `keys` request
  std::vector<std::string> modes;  // "exec" / "agent"; empty means every mode
};

// How the engine's questions (needs_input) list their choices, so that an
// ask with on_input "wait" can report them and answer one (see
// daemon/turn_input.h): numbered (`option`), or named (`choices`). Neither:
// the choices are not parsed.
struct InputOptionsConfig {
  // One choice per row; group 1 is its number, group 2 its label.
  std::string option;
  // Choices shown without numbers (opencode's "Allow once   Allow always
  // Reject" in one row, Cline's "[y] Approve [n] Deny"), their labels in the
  // order they are shown: the needs_input event numbers those on screen 1,
  // 2, 3…, and an answer moves to one with next/previous from the first.
  std::vector<std::string> choices;
  // The row of the highlighted choice ("❯ 1. Yes"); none: the first.
  std::string selected;
  // The row the question begins at, the nearest one above the needs_input
  // row that matched (Qwen's "? Shell COMMAND" above "Allow execution of:
  // 'touch'?"); none: the matched row.
  std::string question_start;
  // A row, anywhere on screen, that shows the question is not whole yet:
  // opencode draws its permission box before the tool call's input has
  // reached the box ("~ Writing command…" above it, the command row blank).
  // While one shows, the question counts only once it is long on screen.
  std::string incomplete;
  std::vector<std::string> next = {"Down"};      // moves the highlight on
  std::vector<std::string> previous = {"Up"};    // and back
  std::vector<std::string> confirm = {"Enter"};  // takes the highlighted one
  // "arrows": move with next/previous, then confirm; "digits": type the
  // choice's number (the dialog takes it at once).
  std::string select = "arrows";
};

enum class SubmitMode {
  kLines,  // type one line at a time, waiting for a prompt after each (REPLs)
  kPaste,  // bracketed paste of the whole prompt, then Enter (agent TUIs)
  kType,   // type the whole prompt as keystrokes, then Enter
};

struct SubmitConfig {
  SubmitMode mode = SubmitMode::kLines;
  std::vector<std::string> enter = {"Enter"};  // key names sent to submit
  int enter_delay_ms = 0;   // pause between the text and Enter
  // paste/type: the pause starts only once the program has shown the text
  // (its screen changed), so a slow program still sees the Enter well after
  // the text (Gemini turns an Enter within 40 ms of a paste into a newline).
  bool enter_after_echo = false;
  // paste/type: a turn that has not begun this long after the Enter, with
  // the input box still holding text and the screen still, gets the Enter
  // again (at most twice): the program took it as part of the paste. 0: never.
  int resubmit_ms = 0;
  size_t chunk_size = 0;    // split typed/pasted text into chunks; 0 = whole
  int chunk_delay_ms = 0;   // pause between chunks
  // kLines: when the continuation prompt is still showing after the last
  // line, send Enter once more (closes a Python block).
  bool close_blocks = false;
  // kLines: the whole prompt is submitted as this one line, `{json}` replaced
  // by the prompt as a JSON string literal (also a valid Python or JavaScript
  // string): the engine's helper runs it as one program. Or `{pipe}`: the
  // prompt goes through the prompt pipe and `{pipe}` is replaced by its
  // number there (by the literal if the program has no pipe). Empty: line by
  // line.
  std::string wrap;
  // With `{pipe}`: only Enter is typed, and the helper runs the piped prompt
  // when the REPL asks for its next line (python_repl.py's prompt). Each
  // typed character costs a REPL several system calls and an echo; the
  // wrap is typed only when the program has no pipe.
  bool enter_only = false;
  // With `{pipe}`: nothing is typed; the helper runs each prompt as it
  // arrives in the pipe (its record says `run`), or once the REPL is back
  // at its prompt (node_repl.js). A write to the terminal wakes a kernel
  // worker before the program reads it; the pipe wakes the program itself.
  bool pipe_only = false;
};

struct ReplyConfig {
  // First row of the reply (agent TUIs: "● "). When set, rows before it are
  // skipped and the matched prefix is removed. Empty: the reply starts right
  // after the echoed prompt.
  std::string start;
  // Prefix removed from every later reply row (agent TUIs indent
  // continuation rows, e.g. two spaces).
  std::string continuation_indent;
  // Rows that are program chrome, never part of a reply (spinners, footers,
  // timing lines). RE2, each matched against one row.
  std::vector<std::string> chrome;
  // Removed from every row before the reply is cut: what a TUI draws beside
  // the text (Copilot's scrollbar in the last column). Empty: nothing.
  std::string strip;
  // Rows at or below the first match of this pattern end the reply region
  // (agent TUIs: the top border of the input box). Empty: the input prompt
  // row ends the reply.
  std::string end;
  // A row right below a reply.start row that matches this marks that block
  // as a tool's report (the command it ran, its output), not part of the
  // reply: the block is left out up to the next reply.start row.
  std::string tool_output;
  // A row that begins something other than the reply (a CLI's notice drawn
  // below it, in its own indent): left out with the rows after it, up to
  // the next reply.start row. Empty: none.
  std::string other_start;
  // Join rows that the program wrapped itself (word wrap at the screen
  // edge) back into one line. Rows wrapped by the terminal are always joined.
  bool unwrap = false;
};

// Where the CLI writes each turn, byte-exact, and how this session's file
// is found (docs/engines.md, "Transcripts").
struct TranscriptConfig {
  std::string format;  // parser: "claude"; empty: no transcript
  // A path with {home}, {cwd_slug} (the absolute cwd, every character but
  // letters and digits made '-') and {session_id}.
  std::string path;
  std::vector<std::string> session_args;  // a new session's id ({session_id})
  std::vector<std::string> resume_args;   // --resume ID
  // How long a finished turn's reply waits for the CLI to write the turn:
  // Qwen Code queues its writes behind its own work, up to a second or two.
  int wait_ms = 3000;
};

// The agent CLI an engine drives, as npm ships it (cli_version.h).
struct CliRelease {
  std::vector<std::string> npm;       // the package names; platform packages add "-linux-x64" and the like
  std::vector<std::string> verified;  // empty, or the oldest and newest release verified (scripts/drift.sh)
};

struct Timeouts {
  int ready_ms = 15000;      // spawn until the input prompt shows
  // A needs_input pattern counts only once the screen has been quiet this
  // long (REPLs: a program's own question, such as input("Name? ")).
  int question_ms = 0;
  // The prompt counts as shown only after the screen was quiet this long
  // (a TUI may draw its prompt and then a dialog over it).
  int settle_ms = 0;
  // A finished turn's reply is taken only after the screen was quiet this
  // long (a TUI that paints its last rows after its done state).
  int reply_settle_ms = 0;
  int ask_ms = 60000;        // default for ask requests without "timeout"
  int quit_grace_ms = 1000;  // after the quit keys, before SIGTERM
  int term_grace_ms = 2000;  // after SIGTERM, before SIGKILL
};

struct EngineConfig {
  std::string name;         // file name without .json, e.g. "python"
  std::string file;         // path it was loaded from, for error messages
  std::string description;

  std::vector<std::string> command;     // argv; command[0] looked up on PATH
  std::vector<std::string> agent_args;  // appended in --mode agent
  std::map<std::string, std::string> env;  // set in the child
  std::vector<std::string> env_strip;      // removed from the child's env
  // A file the CLI makes on its first start in a home ({home}): until it
  // exists, sessions of this engine start one at a time (start_lock.h).
  std::string start_alone_until;
  int cols = 120;
  int rows = 40;

  ScreenPattern prompt;               // the input prompt: the program waits
  ScreenPattern continuation_prompt;  // e.g. Python's "... "
  // The program has finished starting once one of these is on screen; the
  // first ready waits for it (a TUI that draws its input box before it
  // listens). Empty: the prompt alone is enough.
  std::vector<ScreenPattern> started;
  std::vector<ScreenPattern> busy;    // any match: the program is working
  // Machine-readable state some TUIs print (Codex's OSC 7501): when this
  // OSC's latest payload matches busy_osc_pattern the program is busy.
  int busy_osc = 0;
  std::string busy_osc_pattern;
  // Busy until the program first sends busy_osc: Codex draws its input box
  // while it is still loading, and says it is idle only once it listens.
  bool busy_until_osc = false;
  // Not ready until the program has asked for the terminal's device
  // attributes (DA1): Claude probes the terminal only after drawing its
  // prompt, and input typed before the probe is lost.
  bool ready_after_da1 = false;
  // The window title (OSC 0/2) means busy while it matches this regex
  // (Gemini: "✦  Working…" while working, "◇  Ready" when idle).
  std::string busy_title;

  SubmitConfig submit;
  std::vector<std::string> interrupt_keys = {"C-c"};
  // Shows once an interrupt key armed the interrupt and the next must
  // follow (Copilot: "esc again to interrupt"). Set, the interrupt keys go
  // out one at a time, each once this shows (PacedKeys); unset, in one write.
  ScreenPattern interrupt_armed;
  std::vector<std::string> quit_keys;
  // Sent after an interrupt if the prompt does not come back empty (Claude
  // puts the interrupted prompt back into its input box): e.g. ["C-u"].
  std::vector<std::string> clear_input_keys;
  ReplyConfig reply;
  std::vector<DialogRule> dialogs;
  // A question no dialog rule answers (tool permission): the ask ends with
  // kind "needs_input" and the matched screen text.
  std::vector<ScreenPattern> needs_input;
  // A question is up when the program waits reading the terminal: the
  // output is quiet, no prompt of the engine shows, and the foreground
  // process is blocked reading the PTY (platform.h). needs_input then
  // applies only where the process cannot be observed. For programs that
  // read the terminal only when they ask (shells, python), not for TUIs
  // and REPLs that always read it (node).
  bool needs_input_from_process = false;
  // The engine's helper reports that a submission called exit (sys.exit(),
  // process.exit()) and the interpreter went on: OSC `exit_osc` with the
  // payload "SEQ;CODE", SEQ new for each report. The ask ends with kind
  // "exited" and exit_code. 0: not reported.
  int exit_osc = 0;
  // The engine's helper shows the submission as the user typed it instead
  // of its wrapper (submit.wrap), then sends OSC `echo_osc` (a new payload
  // each time) where its output begins; it sends it for every submission,
  // also when it leaves the echo as it is. 0: the echo stays.
  int echo_osc = 0;
  // The program marks where its prompt begins with OSC `prompt_osc`, whose
  // payload is the session's token (prompt_mark, `{token}` expanded): the
  // cursor-line `prompt` and `continuation_prompt` are then matched from
  // the mark to the cursor, and only on the mark's row. A person sees the
  // program's own prompt (a terminal shows nothing of an OSC it does not
  // know), and output that prints the same text is not taken for it. 0: none.
  int prompt_osc = 0;
  std::string prompt_mark = "{token}";
  // The helper sends OSC `end_osc`, with the payload of the submission's
  // echo_osc mark, where the submission's output ends, before the prompt:
  // the reply ends there, so output printed after it (late output above a
  // fresh prompt) is never the reply's, however late the daemon reads it.
  // Until it comes, the prompt is not the reply's end. 0: the prompt ends it.
  int end_osc = 0;
  InputOptionsConfig needs_input_options;
  std::vector<SlashCommand> slash_commands;
  TranscriptConfig transcript;
  CliRelease cli;
  Timeouts timeouts;
};

// Loads and validates one engine file. On failure returns false and sets
// *err to a message naming the file and the offending field, for example
// "engines/x.json: field 'submit.mode': expected one of lines, paste, type".
// Fills the placeholders an engine file may use in its command, env values,
// prompt patterns and submit.wrap: `{token}`, a random string unique to this
// session (a prompt that program output cannot fake, as pexpect's replwrap
// does), and `{engine_dir}`, the folder of the engine file (helpers shipped
// beside it).
void ExpandPlaceholders(const std::string& token, EngineConfig* config);
// A fresh random `{token}`: 6 hex digits.
std::string NewSessionToken();

bool LoadEngineFile(const std::string& path, EngineConfig* config,
                    std::string* err);

// Parses engine JSON text; `path` is used for the name and in messages.
bool ParseEngineConfig(const std::string& path, const std::string& json,
                       EngineConfig* config, std::string* err);

// Engine names (file names without .json) in `dir`, sorted; schema.json is
// not an engine.
std::vector<std::string> ListEngines(const std::string& dir);

}  // namespace tuidriver

#endif  // TUIDRIVER_ENGINE_CONFIG_H_

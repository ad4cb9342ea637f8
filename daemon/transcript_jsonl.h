// Transcripts kept as a JSON Lines file the CLI appends to (Claude Code,
// Codex, Gemini CLI): the turn is what was appended since the ask began.
// The file is the path itself, or a glob whose match names this session in
// its first record.
#ifndef TUIDRIVER_TRANSCRIPT_JSONL_H_
#define TUIDRIVER_TRANSCRIPT_JSONL_H_

#include <simdjson.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "transcript_format.h"

namespace tuidriver {

class JsonlTranscript : public TranscriptFormat {
 public:
  // Parses the records a turn appended; false with *err when one is not
  // what the format promises. A last line cut by a write in progress is
  // not an error.
  using ParseFn = bool (*)(const std::string& jsonl, Turn* turn, std::string* err);
  // A glob match's first record: the session id and the working directory
  // it names (an empty cwd: the format records none). False: not a session.
  using IdentifyFn = bool (*)(const simdjson::dom::element& first, std::string* id, std::string* cwd);

  // Splits a whole transcript into the turns its prompts open
  // (transcript_format.h's OpenTurn); null: the format has no history.
  using HistoryFn = bool (*)(const std::string& jsonl, std::vector<Turn>* turns, std::string* err);

  // Whether a glob match's file name is the session's with this id, for a
  // file whose first record does not say (null: only the record tells).
  using NamesSessionFn = bool (*)(const std::string& path, const std::string& session_id);

  JsonlTranscript(ParseFn parse, IdentifyFn identify, HistoryFn history = nullptr, NamesSessionFn named = nullptr)
      : parse_(parse), identify_(identify), history_(history), named_(named) {}
  bool Locate(TranscriptSession* session) override;
  void CountPrompts(TranscriptSession* session) override;
  void StartTurn(const TranscriptSession& session) override;
  TranscriptResult ReadTurn(const TranscriptSession& session, Turn* turn, std::string* err) override;
  bool ReadHistory(const TranscriptSession& session, std::vector<Turn>* turns, std::string* err) override;

 private:
  bool LocateByGlob(TranscriptSession* session);
  // The prompts a file records (history_'s turns), oldest first.
  bool RecordedPrompts(const std::string& path, std::vector<std::string>* prompts) const;
  ParseFn parse_;
  IdentifyFn identify_;
  HistoryFn history_;
  NamesSessionFn named_;
  std::string file_;  // found
  uint64_t offset_ = 0;
};

// Calls `record` with each JSON line of a turn (and the line's text); a
// last line cut by a write in progress ends the walk, not an error. False
// with *err when a line is not JSON, or when `record` returns false (its
// *err then gets the line number).
using JsonlRecordFn = std::function<bool(const simdjson::dom::element& record, const std::string& line)>;
bool ForEachJsonlRecord(const std::string& jsonl, const JsonlRecordFn& record, std::string* err);

}  // namespace tuidriver

#endif  // TUIDRIVER_TRANSCRIPT_JSONL_H_

#include "transcript_jsonl.h"

#include <sys/stat.h>

#include <climits>
#include <sstream>

#include "files.h"
#include "platform.h"

namespace tuidriver {

bool ForEachJsonlRecord(const std::string& jsonl, const JsonlRecordFn& record, std::string* err) {
  simdjson::dom::parser parser;
  std::istringstream in(jsonl);
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    simdjson::dom::element e;
    if (parser.parse(line).get(e)) {
      if (in.peek() == EOF && jsonl.back() != '\n') return true;  // still being written
      *err = "line " + std::to_string(number) + " of the turn is not JSON";
      return false;
    }
    if (!record(e, line)) {
      *err += " (line " + std::to_string(number) + " of the turn)";
      return false;
    }
  }
  return true;
}

bool JsonlTranscript::Locate(TranscriptSession* session) {
  if (!file_.empty() && !session->id_tentative) return true;
  if (session->path.find('*') == std::string::npos || !identify_) {
    file_ = session->path;
    return true;
  }
  // A tentative file is looked for again at each read until the turn is
  // read whole, so that a second one recording the same prompt shows.
  file_.clear();
  if (!LocateByGlob(session)) return false;
  // Found once its turn was written: the turn is what the file gained
  // since the ask began.
  auto before = session->at_turn_start.find(file_);
  offset_ = before == session->at_turn_start.end() ? 0 : static_cast<uint64_t>(before->second.first);
  return true;
}

bool JsonlTranscript::RecordedPrompts(const std::string& path, std::vector<std::string>* prompts) const {
  prompts->clear();
  std::vector<Turn> turns;
  std::string text, err;
  if (!history_ || !ReadWholeFile(path, &text) || !history_(text, &turns, &err)) return false;
  for (Turn& t : PromptedTurns(std::move(turns))) prompts->push_back(std::move(t.prompt));
  return true;
}

void JsonlTranscript::CountPrompts(TranscriptSession* session) {
  CountSessionPrompts(session, [this](const std::string& path, std::vector<std::string>* prompts) {
    return RecordedPrompts(path, prompts);
  });
}

// The glob match whose first record names this session: its id when known
// (--resume, or chosen by the daemon), else the one new file of this
// working directory that recorded this turn's prompt.
bool JsonlTranscript::LocateByGlob(TranscriptSession* session) {
  simdjson::dom::parser parser;
  auto by_first_record = [&](const std::string& path, std::string* id, std::string* cwd) {
    std::string first;
    simdjson::dom::element record;
    if (ReadFirstLine(path, &first) && !parser.parse(first).get(record) && identify_(record, id, cwd)) return true;
    if (!named_ || !session->id_known() || !named_(path, session->session_id)) return false;
    *id = session->session_id;  // named for it, without the record that says so
    cwd->clear();
    return true;
  };
  return LocateSessionFile(
      session, by_first_record,
      [this](const std::string& path, std::vector<std::string>* prompts) { return RecordedPrompts(path, prompts); },
      &file_);
}

void JsonlTranscript::StartTurn(const TranscriptSession& session) {
  struct stat st;
  offset_ = !file_.empty() && StatPath(file_, &st) ? static_cast<uint64_t>(st.st_size) : 0;
}

TranscriptResult JsonlTranscript::ReadTurn(const TranscriptSession& session, Turn* turn, std::string* err) {
  std::string text;
  if (!ReadWholeFile(file_, &text, offset_)) {
    *err = "no transcript at " + file_;
    return TranscriptResult::kNotYet;
  }
  if (!parse_(text, turn, err)) {
    *err = file_ + ": " + *err;
    return TranscriptResult::kFailed;
  }
  if (turn->finished) return TranscriptResult::kDone;
  *err = turn->prompt_seen ? file_ + ": the turn's end is not recorded"
                           : file_ + ": no prompt recorded after the ask began";
  return TranscriptResult::kNotYet;
}

bool JsonlTranscript::ReadHistory(const TranscriptSession& session, std::vector<Turn>* turns, std::string* err) {
  if (!history_) return TranscriptFormat::ReadHistory(session, turns, err);
  std::string text;
  if (!ReadWholeFile(file_, &text)) {
    *err = "no transcript at " + file_;
    return false;
  }
  std::vector<Turn> all;
  if (!history_(text, &all, err)) {
    *err = file_ + ": " + *err;
    return false;
  }
  *turns = PromptedTurns(std::move(all));
  return true;
}

}  // namespace tuidriver

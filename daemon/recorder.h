// Records a session as an asciicast v2 file (asciinema's format): a header
// line, then one event line per output chunk ("o"), resize ("r"), input a
// request sent ("i") and marker ("m": an ask's start and end, and
// "[secret]" where send_secret input went, which is never written).
//
// Every line is written as it happens, so a crash leaves a valid prefix.
// An event's time is the session's clock (clock.h), read from the time the
// core was given for its current entry point: input reaches the recorder
// through ChildInput::Write, which carries no time, so it holds a pointer
// to that time rather than taking `now` per call. Only the header's
// `timestamp` is wall-clock time (asciicast's Unix time of the start).
// Output cut inside a UTF-8 character waits for the rest, so each event is
// valid UTF-8 and no character is broken.
#ifndef TUIDRIVER_RECORDER_H_
#define TUIDRIVER_RECORDER_H_

#include <cstddef>
#include <string>

#include "clock.h"

namespace tuidriver {

class Recorder {
 public:
  // `now` is the time of the current entry point; it must outlive the recorder.
  explicit Recorder(const TimePoint* now) : now_(now) {}
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Starts recording to `path` (replaced; a recording in progress stops
  // first). False with *err if the file cannot be written.
  bool Start(const std::string& path, int cols, int rows, const std::string& term, std::string* err);
  void Stop();
  bool recording() const { return fd_ >= 0; }

  void Output(const char* data, size_t len);
  void Input(const std::string& bytes);
  void Resize(int cols, int rows);
  void Marker(const std::string& label);

 private:
  void Event(const char* code, const std::string& data);
  void WriteLine(const std::string& line);

  const TimePoint* now_;
  int fd_ = -1;
  TimePoint start_;
  std::string partial_;  // output bytes of a character not yet complete
};

}  // namespace tuidriver

#endif  // TUIDRIVER_RECORDER_H_

// Records a session as an asciicast v2 file (asciinema's format): a header
// line, then one event line per output chunk ("o"), resize ("r"), input a
// request sent ("i") and marker ("m": an ask's start and end, and
// "[secret]" where send_secret input went, which is never written).
//
// Every line is written as it happens, so a crash leaves a valid prefix.
// Output cut inside a UTF-8 character waits for the rest, so each event is
// valid UTF-8 and no character is broken.
#ifndef TUIDRIVER_RECORDER_H_
#define TUIDRIVER_RECORDER_H_

#include <chrono>
#include <cstddef>
#include <string>

namespace tuidriver {

class Recorder {
 public:
  Recorder() = default;
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

  int fd_ = -1;
  std::chrono::steady_clock::time_point start_;
  std::string partial_;  // output bytes of a character not yet complete
};

}  // namespace tuidriver

#endif  // TUIDRIVER_RECORDER_H_

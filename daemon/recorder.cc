#include "recorder.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "json_writer.h"
#include "platform.h"

namespace tuidriver {

namespace {

// How many bytes at the end of `s` start a UTF-8 character not yet complete.
size_t IncompleteTail(const std::string& s) {
  size_t n = s.size();
  for (size_t back = 1; back <= 3 && back <= n; ++back) {
    unsigned char b = static_cast<unsigned char>(s[n - back]);
    if ((b & 0xC0) == 0x80) continue;  // a continuation byte: look further back
    size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

}  // namespace

Recorder::~Recorder() { Stop(); }

bool Recorder::Start(const std::string& path, int cols, int rows, const std::string& term, std::string* err) {
  Stop();
  int fd = OpenFd(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *err = "cannot record to '" + path + "': " + strerror(errno);
    return false;
  }
  fd_ = fd;
  start_ = *now_;
  partial_.clear();
  JsonObject env;
  env.Add("TERM", term);
  JsonObject header;
  header.Add("version", 2).Add("width", cols).Add("height", rows)
      .Add("timestamp", static_cast<int64_t>(time(nullptr))).AddRaw("env", env.Finish());
  WriteLine(header.Finish());
  return true;
}

void Recorder::Stop() {
  if (fd_ < 0) return;
  if (!partial_.empty()) Event("o", partial_);  // shows as U+FFFD: nothing is lost silently
  partial_.clear();
  close(fd_);
  fd_ = -1;
}

void Recorder::Output(const char* data, size_t len) {
  if (fd_ < 0 || len == 0) return;
  partial_.append(data, len);
  size_t keep = IncompleteTail(partial_);
  if (keep == partial_.size()) return;
  std::string whole = partial_.substr(0, partial_.size() - keep);
  partial_.erase(0, partial_.size() - keep);
  Event("o", whole);
}

void Recorder::Input(const std::string& bytes) {
  if (fd_ >= 0 && !bytes.empty()) Event("i", bytes);
}

void Recorder::Resize(int cols, int rows) {
  if (fd_ >= 0) Event("r", std::to_string(cols) + "x" + std::to_string(rows));
}

void Recorder::Marker(const std::string& label) {
  if (fd_ >= 0) Event("m", label);
}

// [time, code, data]: seconds since the start, with microseconds.
void Recorder::Event(const char* code, const std::string& data) {
  double t = std::chrono::duration<double>(*now_ - start_).count();
  char stamp[32];
  snprintf(stamp, sizeof stamp, "[%.6f, ", t);
  std::string line = stamp;
  AppendJsonString(code, &line);
  line += ", ";
  AppendJsonString(data, &line);
  line += "]";
  WriteLine(line);
}

// One line, whole, or the recording stops (a full disk must not block the session).
void Recorder::WriteLine(const std::string& line) {
  std::string out = line + "\n";
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = write(fd_, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fprintf(stderr, "tuidriver: the recording stopped: %s\n", n < 0 ? strerror(errno) : "nothing written");
      close(fd_);
      fd_ = -1;
      return;
    }
    done += static_cast<size_t>(n);
  }
}

}  // namespace tuidriver

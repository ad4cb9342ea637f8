#include "start_lock.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "clock.h"
#include "platform.h"

namespace tuidriver {
namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return StatPath(path, &st);
}

}  // namespace

StartLock::~StartLock() { close(fd_); }

std::string StartLock::LockPath(const std::string& created) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (unsigned char c : created) hash = (hash ^ c) * 1099511628211ull;
  char name[80];
  snprintf(name, sizeof name, "/tuidriver-start-%d-%016llx.lock", static_cast<int>(getuid()),
           static_cast<unsigned long long>(hash));
  return TempDir() + name;
}

std::unique_ptr<StartLock> StartLock::WaitFor(const std::string& created, int timeout_ms, std::string* note) {
  if (created.empty()) return nullptr;
  // The lock is taken even when the store exists, for a first start that
  // made it may still be migrating it; shared then, so that starts in a
  // home used before never wait for each other, only for a first start.
  bool made = Exists(created);
  std::string path = LockPath(created);
  int fd = OpenFd(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    *note = "cannot open " + path + " to start alone; starting anyway";
    return nullptr;
  }
  // Before the spawn, outside the loop: it reads the session's clock itself.
  TimePoint start = Clock::now();
  bool waited = false;
  for (; !TryLockFile(fd, made); waited = true) {
    if (Clock::now() >= start + Ms(timeout_ms)) {
      close(fd);
      *note = "another start held " + path + " for " + std::to_string(timeout_ms) + " ms; starting anyway";
      return nullptr;
    }
    std::this_thread::sleep_for(Ms(20));
  }
  if (waited) {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    *note = "waited " + std::to_string(ms.count()) + " ms for another first start in this home (" + created + ")";
  }
  if (Exists(created)) {  // made, and no first start under way: start together
    close(fd);
    return nullptr;
  }
  return std::unique_ptr<StartLock>(new StartLock(fd));
}

}  // namespace tuidriver

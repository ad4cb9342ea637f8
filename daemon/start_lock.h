// One start at a time for a CLI whose first start in a home is not safe to
// run beside another (an engine's `start_alone_until`, docs/engines.md).
//
// opencode and Kilo create and migrate their SQLite store on the first start
// in a home; several first starts at once leave one blank for good
// (opencode) or failing with a query error (Kilo). While the store does not
// exist, a session takes a lock file before spawning its program and holds
// it until the program is ready; sessions started beside it wait for it and
// then start together, the store made. Starts in a home the CLI has run in
// wait only while a first start there is under way.
#ifndef TUIDRIVER_START_LOCK_H_
#define TUIDRIVER_START_LOCK_H_

#include <memory>
#include <string>

namespace tuidriver {

class StartLock {
 public:
  ~StartLock();  // releases the lock
  StartLock(const StartLock&) = delete;
  StartLock& operator=(const StartLock&) = delete;

  // Null when `created` is empty, or once the lock is free (or freed) and
  // `created` exists. Otherwise waits up to timeout_ms for the lock and
  // returns it held. A wait is told in *note (how long); on timeout (a start that
  // hangs holding the lock) returns null, says so in *note, and the
  // session starts anyway.
  static std::unique_ptr<StartLock> WaitFor(const std::string& created, int timeout_ms, std::string* note);

  // The lock file for `created`: in the temporary directory, named by the
  // user and a hash of the path, so each home has its own.
  static std::string LockPath(const std::string& created);

 private:
  explicit StartLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_START_LOCK_H_

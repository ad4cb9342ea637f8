#include "start_lock.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "platform.h"
#include "test_fakes.h"

namespace tuidriver {
namespace {

class StartLockTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    store_ = Path("store.db");
  }
  void TearDown() override {
    unlink(StartLock::LockPath(store_).c_str());  // in $TMPDIR, not in the directory
    TempDirTest::TearDown();
  }
  void MakeStore() {
    FILE* f = fopen(store_.c_str(), "w");
    ASSERT_NE(nullptr, f);
    fclose(f);
  }
  std::string store_, note_;
};

TEST_F(StartLockTest, AnEngineWithoutAStoreNeverLocks) {
  EXPECT_EQ(nullptr, StartLock::WaitFor("", 1000, &note_));
  EXPECT_EQ("", note_);
}

TEST_F(StartLockTest, TheFirstStartHoldsTheLockAndASecondWaitsForIt) {
  auto first = StartLock::WaitFor(store_, 1000, &note_);
  ASSERT_NE(nullptr, first);
  EXPECT_EQ("", note_);
  // The first never finishes: the second gives up after its timeout and says so.
  EXPECT_EQ(nullptr, StartLock::WaitFor(store_, 100, &note_));
  EXPECT_NE(std::string::npos, note_.find("starting anyway")) << note_;
}

TEST_F(StartLockTest, OnceTheFirstStartMadeTheStoreTheOthersStartTogether) {
  auto first = StartLock::WaitFor(store_, 1000, &note_);
  ASSERT_NE(nullptr, first);
  std::thread ready([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    MakeStore();
    first.reset();  // the program is ready
  });
  std::string note;
  EXPECT_EQ(nullptr, StartLock::WaitFor(store_, 10000, &note));  // started without the lock
  ready.join();
  EXPECT_EQ(0u, note.find("waited ")) << note;
  EXPECT_NE(std::string::npos, note.find(store_)) << note;
}

TEST_F(StartLockTest, AFirstStartThatFailedLeavesTheNextAloneAgain) {
  StartLock::WaitFor(store_, 1000, &note_).reset();  // gone before making the store
  EXPECT_NE(nullptr, StartLock::WaitFor(store_, 1000, &note_));
}

TEST_F(StartLockTest, StartsInAHomeUsedBeforeNeverWaitForEachOther) {
  MakeStore();
  // Another start in the same home, caught while it holds the lock to look.
  int other = open(StartLock::LockPath(store_).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_LE(0, other);
  ASSERT_TRUE(TryLockFile(other, /*shared=*/true));
  EXPECT_EQ(nullptr, StartLock::WaitFor(store_, 1000, &note_));
  EXPECT_EQ("", note_);  // no wait to tell of
  close(other);
}

TEST_F(StartLockTest, AHomeUsedBeforeWaitsOnlyWhileAFirstStartIsUnderWay) {
  MakeStore();
  EXPECT_EQ(nullptr, StartLock::WaitFor(store_, 1000, &note_));
  EXPECT_EQ("", note_);
  // The store exists from the start of its migration: a first start that
  // holds the lock is waited for all the same.
  unlink(store_.c_str());
  auto first = StartLock::WaitFor(store_, 1000, &note_);
  ASSERT_NE(nullptr, first);
  MakeStore();
  EXPECT_EQ(nullptr, StartLock::WaitFor(store_, 100, &note_));
  EXPECT_NE(std::string::npos, note_.find("starting anyway")) << note_;
}

TEST_F(StartLockTest, EachStoreHasItsOwnLock) {
  EXPECT_NE(StartLock::LockPath(dir_ + "/a/kilo.db"), StartLock::LockPath(dir_ + "/b/kilo.db"));
  auto a = StartLock::WaitFor(dir_ + "/a.db", 1000, &note_);
  ASSERT_NE(nullptr, a);
  auto b = StartLock::WaitFor(dir_ + "/b.db", 100, &note_);
  EXPECT_NE(nullptr, b) << note_;
  b.reset();
  a.reset();
  unlink(StartLock::LockPath(dir_ + "/a.db").c_str());
  unlink(StartLock::LockPath(dir_ + "/b.db").c_str());
}

}  // namespace
}  // namespace tuidriver

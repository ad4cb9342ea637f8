#include "session_core.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "test_fakes.h"

namespace tuidriver {
namespace {

SessionOptions Raw() {
  SessionOptions o;
  o.raw = true;
  o.engine.name = "raw";
  o.engine.cols = 40;
  o.engine.rows = 10;
  return o;
}

// A REPL engine: `>>> ` at the cursor, C-c to interrupt, C-d to quit.
SessionOptions Repl() {
  SessionOptions o;
  o.engine.name = "repl";
  o.engine.cols = 40;
  o.engine.rows = 10;
  o.engine.prompt = {">>> $", MatchScope::kCursorLine};
  o.engine.quit_keys = {"C-d"};
  o.engine.timeouts.ready_ms = 1000;
  return o;
}

class SessionCoreTest : public ::testing::Test {
 protected:
  void Begin(const SessionOptions& options) {
    core_ = std::make_unique<SessionCore>(options, &child_, &sink_);
    core_->Start(At(0));
  }
  TimePoint At(int ms) const { return clock_.At(ms); }
  void Line(const std::string& line, int ms) { core_->OnLine(line, At(ms)); }
  void Output(const std::string& s, int ms) { core_->OnOutput(s.data(), s.size(), At(ms)); }
  void Tick(int ms) { core_->Tick(At(ms)); }
  void Exit(int code, int ms) {
    child_.status.exited = true;
    child_.status.code = code;
    core_->OnChildExit(At(ms));
  }
  // Starts a REPL session and lets it become ready.
  void ReadyRepl() {
    Begin(Repl());
    Output(">>> ", 10);
    Tick(10);
    ASSERT_EQ(1u, sink_.Count(R"("type":"ready")"));
  }

  FakeChild child_;
  RecordingSink sink_;
  std::unique_ptr<SessionCore> core_;
  FakeClock clock_;
};

// The 100% CPU defect, caught without timing: once a timed-out ask is
// answered, the idle session asks for no wake-up at all.
TEST_F(SessionCoreTest, IdleAfterATimedOutAskHasNoWakeUp) {
  ReadyRepl();
  Line(R"({"id":1,"type":"ask","prompt":"sleep","timeout":0.5})", 20);
  Tick(20);
  EXPECT_EQ("sleep\r", child_.written);
  Output("sleep\r\n", 30);
  Tick(30);
  EXPECT_EQ(At(520), core_->NextWakeup(At(30)));
  Tick(520);
  sink_.Find(R"({"id":1,"type":"reply","ok":false,"kind":"timeout")");
  for (int ms = 520; ms < 20000; ms += 300) {
    Tick(ms);
    EXPECT_EQ(TimePoint::max(), core_->NextWakeup(At(ms))) << "at " << ms << " ms";
  }
}

TEST_F(SessionCoreTest, IdleAfterACancelledAskHasNoWakeUp) {
  ReadyRepl();
  Line(R"({"id":1,"type":"ask","prompt":"sleep"})", 20);
  Tick(20);
  Output("sleep\r\n", 30);
  Tick(30);
  Line(R"({"id":2,"type":"cancel","target":1})", 40);
  sink_.Find(R"({"id":1,"type":"reply","ok":false,"kind":"cancelled")");
  sink_.Find(R"({"id":2,"type":"reply","ok":true})");
  Tick(40);
  EXPECT_EQ(At(120), core_->NextWakeup(At(40)));  // the interrupt, 100 ms after the typing
  Tick(120);
  EXPECT_EQ("sleep\r\x03", child_.written);
  for (int ms = 120; ms < 20000; ms += 300) {
    Tick(ms);
    EXPECT_EQ(TimePoint::max(), core_->NextWakeup(At(ms))) << "at " << ms << " ms";
  }
}

// A start that times out under a dialog it answered says so: the dialog, how
// often, and that it stayed (Gemini's first-run questions on a loaded machine).
TEST_F(SessionCoreTest, NotReadyNamesTheDialogsItAnswered) {
  SessionOptions o = Repl();
  o.engine.timeouts.ready_ms = 10000;
  DialogRule theme;
  theme.name = "theme";
  theme.pattern = "Pick a theme";
  theme.keys = {"Enter"};
  o.engine.dialogs = {theme};
  Begin(o);
  Output("Pick a theme", 5);
  for (int ms = 5; ms < 10000; ms += 50) Tick(ms);
  Tick(10000);
  EXPECT_EQ("\r\r\r", child_.written);
  sink_.Find(R"x({"type":"error","kind":"not_ready","error":"repl did not show its prompt within 10000 ms )x"
             R"x((dialogs answered: theme 3 times, and still there)")x");
}

TEST_F(SessionCoreTest, NotReadyAnswersEveryPendingRequestAndClosesTheGroup) {
  Begin(Repl());
  Line(R"({"id":1,"type":"ask","prompt":"a"})", 1);
  Line(R"({"id":2,"type":"ask","prompt":"b"})", 2);
  Line(R"({"id":3,"type":"wait_idle","idle_ms":100000,"timeout":60})", 3);
  Line(R"({"id":4,"type":"expect","pattern":"never","timeout":60})", 4);
  Output("loading...", 5);
  Tick(999);
  EXPECT_TRUE(sink_.lines.empty());
  EXPECT_EQ(At(1000), core_->NextWakeup(At(999)));
  Tick(1000);
  sink_.Find(R"({"type":"error","kind":"not_ready","error":"repl did not show its prompt within 1000 ms")");
  for (const char* id : {"1", "2", "3", "4"}) {
    sink_.Find(std::string(R"({"id":)") + id + R"(,"type":"reply","ok":false,"kind":"not_ready")");
  }
  EXPECT_EQ(3, core_->exit_code());
  // Closed as `close` would, without the quit keys: SIGTERM to the group.
  EXPECT_EQ("", child_.written);
  EXPECT_TRUE(child_.Signalled(SIGTERM));
  EXPECT_FALSE(core_->done());
  child_.status.signal = SIGTERM;
  core_->OnChildExit(At(1010));
  EXPECT_TRUE(child_.killed_leftovers);
  EXPECT_TRUE(core_->done());
  EXPECT_EQ(3, core_->exit_code());
}

TEST_F(SessionCoreTest, RequestsAfterTheProgramExitedAreAnsweredAtOnce) {
  Begin(Raw());
  sink_.Find(R"({"type":"ready","engine":null,"pid":4242)");
  Output("bye\r\n", 10);
  Exit(3, 20);
  sink_.Find(R"({"type":"exit","exit_code":3,"signal":null})");
  EXPECT_FALSE(core_->done());  // stdin is open: requests are still answered
  Line(R"({"id":1,"type":"wait_idle","idle_ms":100,"timeout":1})", 30);
  sink_.Find(R"({"id":1,"type":"reply","ok":false,"kind":"exited","error":"the program exited with code 3")");
  Line(R"x({"id":2,"type":"expect","pattern":"by(e)","timeout":1})x", 31);
  sink_.Find(R"({"id":2,"type":"reply","ok":true,"match":"bye","groups":["e"]})");  // the final screen
  Line(R"({"id":3,"type":"expect","pattern":"never","timeout":1})", 32);
  sink_.Find(R"({"id":3,"type":"reply","ok":false,"kind":"exited")");
  Line(R"({"id":4,"type":"send","data":"x"})", 33);
  sink_.Find(R"({"id":4,"type":"reply","ok":false,"kind":"exited","error":"the program exited with code 3","exit_code":3,"signal":null})");
  Line(R"({"id":5,"type":"signal","signal":"INT"})", 34);
  sink_.Find(R"({"id":5,"type":"reply","ok":false,"kind":"exited")");
  Line(R"({"id":6,"type":"status"})", 35);
  std::string status = sink_.Find(R"({"id":6,"type":"reply","ok":true,"state":"exited")");
  EXPECT_NE(std::string::npos, status.find(R"("exit_code":3,"signal":null)")) << status;
  Line(R"({"id":7,"type":"screen"})", 36);
  sink_.Find(R"({"id":7,"type":"reply","ok":true,"lines":["bye")");
  EXPECT_EQ(TimePoint::max(), core_->NextWakeup(At(36)));
  Line(R"({"id":8,"type":"close"})", 37);
  sink_.Find(R"({"id":8,"type":"reply","ok":true,"text":"","exit_code":3,"signal":null})");
  EXPECT_TRUE(core_->done());
  Line(R"({"id":9,"type":"close"})", 38);  // a second close: answered too
  sink_.Find(R"({"id":9,"type":"reply","ok":true,"text":"","exit_code":3,"signal":null})");
}

TEST_F(SessionCoreTest, StdinEofWaitsForPendingRequestsThenCloses) {
  Begin(Raw());
  Line(R"({"id":1,"type":"expect","pattern":"done","timeout":5})", 1);
  core_->OnStdinEof(At(2));
  Tick(2);
  EXPECT_TRUE(child_.signals.empty());  // the program is left alone meanwhile
  EXPECT_EQ(At(5001), core_->NextWakeup(At(2)));
  Output("done\r\n", 1000);
  Tick(1000);
  sink_.Find(R"({"id":1,"type":"reply","ok":true,"match":"done")");
  // Nothing pending any more: the close EOF implies (a raw session has no
  // quit keys, so SIGTERM).
  EXPECT_TRUE(child_.Signalled(SIGTERM));
  Exit(0, 1010);
  EXPECT_TRUE(core_->done());
}

TEST_F(SessionCoreTest, StdinEofLetsAPendingRequestTimeOutFirst) {
  Begin(Raw());
  Line(R"({"id":1,"type":"wait_idle","idle_ms":10000,"timeout":2})", 1);
  core_->OnStdinEof(At(2));
  Tick(1500);
  EXPECT_TRUE(child_.signals.empty());
  Tick(2001);
  sink_.Find(R"({"id":1,"type":"reply","ok":false,"kind":"timeout")");
  EXPECT_TRUE(child_.Signalled(SIGTERM));
}

TEST_F(SessionCoreTest, WaitIdleCountsFromTheRequest) {
  Begin(Raw());
  Output("x", 0);
  Line(R"({"id":1,"type":"wait_idle","idle_ms":500,"timeout":5})", 5000);  // long quiet before
  Tick(5000);
  EXPECT_EQ(0u, sink_.Count(R"("id":1)"));
  EXPECT_EQ(At(5500), core_->NextWakeup(At(5000)));
  Tick(5500);
  sink_.Find(R"({"id":1,"type":"reply","ok":true,"idle_ms":500})");
}

TEST_F(SessionCoreTest, CloseTypesTheQuitKeysThenSignals) {
  ReadyRepl();
  Line(R"({"id":1,"type":"close"})", 20);
  EXPECT_EQ("\x04", child_.written);
  EXPECT_EQ(At(1020), core_->NextWakeup(At(20)));
  Tick(1020);
  EXPECT_TRUE(child_.Signalled(SIGTERM));
  Exit(0, 1030);
  sink_.Find(R"({"id":1,"type":"reply","ok":true,"text":"","exit_code":0,"signal":null})");
  EXPECT_TRUE(core_->done());
}

TEST_F(SessionCoreTest, ATerminatingSignalSkipsTheQuitKeys) {
  ReadyRepl();
  core_->OnTerminate(At(20));
  Tick(20);
  EXPECT_EQ("", child_.written);
  EXPECT_TRUE(child_.Signalled(SIGTERM));
  EXPECT_EQ(At(20 + Closer::kUrgentGraceMs), core_->NextWakeup(At(20)));
}

// Nobody reads our replies: the session closes (after the Tick at the
// same time, so the close's first step must not wait for a wake-up).
TEST_F(SessionCoreTest, AGoneStdoutClosesTheSession) {
  Begin(Raw());
  Tick(10);
  core_->OnStdoutGone(At(10));
  EXPECT_TRUE(child_.Signalled(SIGTERM));
  EXPECT_EQ(At(10 + 2000), core_->NextWakeup(At(10)));  // SIGKILL after term_grace_ms
  Exit(0, 20);
  EXPECT_TRUE(core_->done());
}

TEST_F(SessionCoreTest, AnIdInUseIsRefused) {
  Begin(Raw());
  Line(R"({"id":1,"type":"wait_idle","idle_ms":100,"timeout":5})", 1);
  Line(R"({"id":1,"type":"screen"})", 2);
  sink_.Find(R"({"id":1,"type":"reply","ok":false,"kind":"protocol","error":"id 1 is already in use by a pending request"})");
}

// A recording's events carry the time of the entry point they happened in
// (the recorder holds a pointer to the core's `now`), input too, which
// reaches the recorder through ChildInput::Write with no time of its own.
TEST_F(SessionCoreTest, ARecordingStampsEachEventWithTheTimeOfItsEntryPoint) {
  char path[] = "/tmp/tuidriver-core-record-XXXXXX";
  close(mkstemp(path));
  Begin(Raw());
  Line(std::string(R"({"id":1,"type":"record","path":")") + path + "\"}", 100);
  Output("hi", 1600);
  Line(R"({"id":2,"type":"send","data":"x"})", 2350);
  Line(R"({"id":3,"type":"send_secret","data":"pw"})", 2400);
  Line(R"({"id":4,"type":"resize","cols":50,"rows":12})", 3000);
  Line(R"({"id":5,"type":"record","stop":true})", 3100);
  Output("after", 3200);
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  unlink(path);
  ASSERT_EQ(5u, lines.size());
  EXPECT_EQ(R"([1.500000, "o", "hi"])", lines[1]);
  EXPECT_EQ(R"([2.250000, "i", "x"])", lines[2]);
  EXPECT_EQ(R"([2.300000, "m", "[secret]"])", lines[3]);  // the secret itself is not recorded
  EXPECT_EQ(R"([2.900000, "r", "50x12"])", lines[4]);
}

// issue 45: ready and status say which release of the CLI runs, and status
// warns when nobody verified it.
TEST_F(SessionCoreTest, ReadyAndStatusCarryTheCliVersionAndAWarningOutsideTheVerifiedRange) {
  SessionOptions o = Repl();
  o.engine.cli.verified = {"1.0.0", "1.2.0"};
  Begin(o);
  core_->SetCliVersion("1.3.0");
  EXPECT_NE(std::string::npos, core_->cli_warning().find("repl 1.3.0 is newer than")) << core_->cli_warning();
  Output(">>> ", 10);
  Tick(10);
  sink_.Find(R"({"type":"ready","engine":"repl","pid":4242,"cols":40,"rows":10,"cli_version":"1.3.0"})");
  Line(R"({"id":1,"type":"status"})", 20);
  std::string status = sink_.Find(R"({"id":1,"type":"reply","ok":true)");
  EXPECT_NE(std::string::npos, status.find(R"("cli_version":"1.3.0","warnings":["repl 1.3.0 is newer than)"))
      << status;
}

TEST_F(SessionCoreTest, AVerifiedOrUnknownVersionWarnsOfNothing) {
  SessionOptions o = Repl();
  o.engine.cli.verified = {"1.0.0", "1.2.0"};
  Begin(o);
  core_->SetCliVersion("1.1.0");
  EXPECT_EQ("", core_->cli_warning());
  Line(R"({"id":1,"type":"status"})", 5);
  EXPECT_NE(std::string::npos, sink_.Find(R"({"id":1,"type":"reply")").find(R"("cli_version":"1.1.0","warnings":[])"));
  core_->SetCliVersion("");
  Output(">>> ", 10);
  Tick(10);
  sink_.Find(R"({"type":"ready","engine":"repl","pid":4242,"cols":40,"rows":10})");
  Line(R"({"id":2,"type":"status"})", 20);
  EXPECT_NE(std::string::npos, sink_.Find(R"({"id":2,"type":"reply")").find(R"("cli_version":null,"warnings":[])"));
}

// issue 44: status says what a raw session's program does, judged as the
// line engines' questions are (program_state.h); a subscriber hears each change.
TEST_F(SessionCoreTest, StatusSaysWhatARawProgramDoesAndItsQuestion) {
  child_.reader = TerminalReader::kReading;
  Begin(Raw());
  Output(">>> ", 1);
  Line(R"({"id":1,"type":"status"})", 200);  // quiet a while: the prompt as first shown
  EXPECT_NE(std::string::npos,
            sink_.Find(R"({"id":1,)").find(R"("state":"ready","program_state":"ready","question":null,)"));
  Output("input('Name? ')\r\nName? ", 300);
  Line(R"({"id":2,"type":"status"})", 400);
  EXPECT_NE(std::string::npos,
            sink_.Find(R"({"id":2,)").find(R"("state":"ready","program_state":"needs_input","question":"Name?",)"));
  child_.reader = TerminalReader::kNotReading;
  Line(R"({"id":3,"type":"status"})", 500);
  EXPECT_NE(std::string::npos, sink_.Find(R"({"id":3,)").find(R"("program_state":"running","question":null,)"));
  Exit(0, 600);
  Line(R"({"id":4,"type":"status"})", 700);
  EXPECT_NE(std::string::npos, sink_.Find(R"({"id":4,)").find(R"("state":"exited","program_state":"exited",)"));
}

// Runs go one at a time: the next is typed once the one before is done, a
// waiting one can be cancelled, and the program's exit answers every one.
TEST_F(SessionCoreTest, RunsQueueAndTheProgramsExitAnswersEachOne) {
  child_.reader = TerminalReader::kReading;
  Begin(Raw());
  Output("$ ", 1);
  Tick(150);  // the prompt is learnt
  Line(R"({"id":1,"type":"run","line":"echo a","idle_ms":100})", 200);
  Line(R"({"id":2,"type":"run","line":"echo b","idle_ms":100})", 200);
  Line(R"({"id":3,"type":"run","line":"echo c"})", 200);
  Line(R"({"id":4,"type":"run","line":"echo d"})", 200);
  EXPECT_EQ("echo a\r", child_.Take());
  Line(R"({"id":5,"type":"cancel","target":3})", 210);
  sink_.Find(R"({"id":3,"type":"reply","ok":false,"kind":"cancelled","error":"cancelled by request 5")");
  Output("echo a\r\na\r\n$ ", 220);
  Tick(320);
  sink_.Find(R"({"id":1,"type":"reply","ok":true,"output":"a","program_state":"ready","question":null,"running":false})");
  EXPECT_EQ("echo b\r", child_.Take());  // the next, at once: the prompt is back
  Exit(0, 330);
  sink_.Find(R"({"id":2,"type":"reply","ok":true,"output":"","program_state":"exited")");
  sink_.Find(R"({"id":4,"type":"reply","ok":false,"kind":"exited")");
  EXPECT_EQ("", child_.Take());
}

TEST_F(SessionCoreTest, AProgramStateSubscriberHearsEachChangeOnce) {
  child_.reader = TerminalReader::kReading;
  Begin(Raw());
  Output("$ ", 1);
  Tick(150);  // the prompt is learnt; nobody listens: no look is scheduled
  EXPECT_EQ(TimePoint::max(), core_->NextWakeup(At(150)));
  Line(R"({"id":1,"type":"subscribe","events":["program_state"]})", 200);
  sink_.Find(R"({"id":1,"type":"reply","ok":true,"events":["program_state"]})");
  EXPECT_EQ(At(300), core_->NextWakeup(At(200)));
  Tick(300);
  sink_.Find(R"({"type":"program_state","state":"ready","question":null})");
  Line(R"({"id":2,"type":"send","data":"read -p 'Sure? ' a\r"})", 400);
  Output("read -p 'Sure? ' a\r\nSure? ", 410);
  for (int ms = 410; ms <= 2000; ms += 10) Tick(ms);
  EXPECT_EQ(1u, sink_.Count(R"({"type":"program_state","state":"needs_input","question":"Sure?"})"));
  EXPECT_EQ(2u, sink_.Count(R"("type":"program_state")"));
  Line(R"({"id":3,"type":"unsubscribe","events":["program_state"]})", 2100);
  sink_.Find(R"({"id":3,"type":"reply","ok":true,"events":[]})");
  Output("x\r\n$ ", 2200);
  for (int ms = 2200; ms <= 4000; ms += 10) Tick(ms);
  EXPECT_EQ(2u, sink_.Count(R"("type":"program_state")"));
  EXPECT_EQ(TimePoint::max(), core_->NextWakeup(At(4000)));
}

TEST_F(SessionCoreTest, AnEngineStatusSaysItsProgramStateFromItsRules) {
  ReadyRepl();
  Line(R"({"id":1,"type":"status"})", 20);
  EXPECT_NE(std::string::npos, sink_.Find(R"({"id":1,)").find(R"("state":"ready","program_state":"ready",)"));
  Line(R"({"id":2,"type":"ask","prompt":"x"})", 30);
  Tick(30);
  Line(R"({"id":3,"type":"status"})", 40);
  EXPECT_NE(std::string::npos, sink_.Find(R"({"id":3,)").find(R"("state":"busy","program_state":"running",)"));
}

}  // namespace
}  // namespace tuidriver

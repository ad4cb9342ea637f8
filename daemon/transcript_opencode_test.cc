#include "transcript_opencode.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>

#include "transcript_test_util.h"

namespace tuidriver {
namespace {

// Recorded from the genuine opencode 1.18.33 (`opencode run`) against the
// fake API, its session, message and part tables dumped, the directory made
// /work/project: a turn with a bash tool call, then a turn answering in
// markdown.
class OpencodeTranscriptTest : public TranscriptDirTest {
 protected:
  void SetUp() override {
    TranscriptDirTest::SetUp();
    if (HasFatalFailure()) return;
    session_.path = Path("opencode.db");
    session_.cwd = "/work/project";
    ASSERT_EQ(SQLITE_OK, sqlite3_open(session_.path.c_str(), &writer_));
    Exec("PRAGMA journal_mode=WAL");  // as opencode keeps it
    Exec(RecordedTranscript("opencode-1.18.33.sql"));
  }
  void TearDown() override {
    sqlite3_close(writer_);
    TranscriptDirTest::TearDown();
  }
  // As the CLI writes: through its own connection.
  void Exec(const std::string& sql) {
    char* err = nullptr;
    ASSERT_EQ(SQLITE_OK, sqlite3_exec(writer_, sql.c_str(), nullptr, nullptr, &err)) << (err ? err : "");
  }
  void AddMessage(const std::string& id, const std::string& data, const std::string& part) {
    Exec("INSERT INTO message VALUES('" + id + "','" + kSession + "',1795643900000,1795643900000,'" + data + "')");
    if (!part.empty()) {
      Exec("INSERT INTO part VALUES('prt_" + id + "','" + id + "','" + kSession +
           "',1795643900000,1795643900000,'" + part + "')");
    }
  }
  // The recorded session's last turn, as written after an ask began: its
  // rows set aside, the ask started, the rows written again.
  void WriteLastTurnAfterTheAskBegan(TranscriptFormat* f) {
    Exec("CREATE TEMP TABLE turn_m AS SELECT * FROM message WHERE session_id = '" + kSession +
         "' AND time_created > 1795643861326");
    Exec("CREATE TEMP TABLE turn_p AS SELECT * FROM part WHERE message_id IN (SELECT id FROM turn_m)");
    Exec("DELETE FROM part WHERE message_id IN (SELECT id FROM turn_m)");
    Exec("DELETE FROM message WHERE id IN (SELECT id FROM turn_m)");
    f->StartTurn(session_);
    Exec("INSERT INTO message SELECT * FROM turn_m");
    Exec("INSERT INTO part SELECT * FROM turn_p");
  }
  // A turn whose one step stopped for a tool call that failed with `error`.
  TranscriptResult ReadAFailedToolStep(const std::string& error, Turn* turn) {
    std::unique_ptr<TranscriptFormat> f = NewOpencodeTranscript();
    session_.session_id = kSession;
    EXPECT_TRUE(f->Locate(&session_));
    f->StartTurn(session_);
    AddMessage("msg_u3", R"({"role":"user"})", "");
    AddMessage("msg_a3", R"({"role":"assistant","time":{"completed":2},"finish":"tool-calls"})",
               R"({"type":"tool","tool":"bash","callID":"c1","state":{"status":"error","input":{},"error":")" +
                   error + R"("}})");
    std::string err;
    return Read(f.get(), turn, &err);
  }
  TranscriptResult Read(TranscriptFormat* f, Turn* turn, std::string* err) {
    *turn = Turn();
    return f->ReadTurn(session_, turn, err);
  }

  const std::string kSession = "ses_deb4956c2ffenCj9XN0gaVa1Gz";
  sqlite3* writer_ = nullptr;
  TranscriptSession session_;
};

TEST_F(OpencodeTranscriptTest, ANewSessionIsFoundByItsDirectoryAndTheLastTurnRead) {
  std::unique_ptr<TranscriptFormat> f = NewOpencodeTranscript();
  session_.spawned_ms = 1795643844900;
  session_.turn_prompt = "\"make a plan\"";  // as the recording typed it, quotes and all
  // Before an ask, a new session in this directory may be another's.
  EXPECT_FALSE(f->Locate(&session_));
  WriteLastTurnAfterTheAskBegan(f.get());
  session_.cwd = "/elsewhere";
  EXPECT_FALSE(f->Locate(&session_));
  session_.cwd = "/work/project";
  // The recorded session was created at 1795643844926 ms: one created a
  // moment before the spawn (the previous run in this directory) is another's.
  session_.spawned_ms = 1795643844927;
  EXPECT_FALSE(f->Locate(&session_));
  session_.spawned_ms = 1795643844900;
  ASSERT_TRUE(f->Locate(&session_));
  EXPECT_EQ(kSession, session_.session_id);
  Turn turn;
  std::string err;
  ASSERT_EQ(TranscriptResult::kDone, Read(f.get(), &turn, &err)) << err;
  EXPECT_EQ("## Plan\nUse **bold** and `code`.\n\n- first item\n- second item", turn.markdown);
  EXPECT_TRUE(turn.tools.empty());
  EXPECT_EQ("fake-model", turn.model);
  EXPECT_EQ(12, turn.input_tokens);
  EXPECT_EQ(20, turn.output_tokens);
}

// A pool's replacement is spawned while the session taken from the pool
// has not started its own yet; that one starts it (its turn) before the
// replacement's first ask: the replacement's is the session its turn wrote.
TEST_F(OpencodeTranscriptTest, ASessionSpawnedBesideAnotherReadsTheSessionItsTurnWrote) {
  std::unique_ptr<TranscriptFormat> f = NewOpencodeTranscript();
  session_.spawned_ms = 1795643844900;
  session_.turn_prompt = "\"make a plan\"";
  // The other session: started after this spawn and before this one.
  Exec("CREATE TEMP TABLE taken AS SELECT * FROM session");
  Exec("UPDATE taken SET id = 'ses_taken', slug = 'taken', time_created = 1795643844910");
  Exec("INSERT INTO session SELECT * FROM taken");
  Exec("INSERT INTO message SELECT 'taken_' || id, 'ses_taken', time_created, time_updated, data FROM message");
  WriteLastTurnAfterTheAskBegan(f.get());
  ASSERT_TRUE(f->Locate(&session_));
  EXPECT_EQ(kSession, session_.session_id);
  Turn turn;
  std::string err;
  ASSERT_EQ(TranscriptResult::kDone, Read(f.get(), &turn, &err)) << err;
  EXPECT_EQ("## Plan\nUse **bold** and `code`.\n\n- first item\n- second item", turn.markdown);
}

TEST_F(OpencodeTranscriptTest, ATurnWithAToolCall) {
  Exec("DELETE FROM message WHERE time_created > 1795643861326");  // the first turn only
  std::unique_ptr<TranscriptFormat> f = NewOpencodeTranscript();
  session_.session_id = kSession;  // --resume's
  ASSERT_TRUE(f->Locate(&session_));
  Turn turn;
  std::string err;
  ASSERT_EQ(TranscriptResult::kDone, Read(f.get(), &turn, &err)) << err;
  EXPECT_EQ("Done.", turn.markdown);
  ASSERT_EQ(1u, turn.tools.size());
  EXPECT_EQ("bash", turn.tools[0].name);
  EXPECT_EQ(R"({"command":"echo tool said hi","description":"Say hi"})", turn.tools[0].input_json);
  EXPECT_EQ("tool said hi\n", turn.tools[0].output);
  EXPECT_TRUE(turn.tools[0].ok);
  EXPECT_EQ(24, turn.input_tokens);  // two model calls, 12 each
  EXPECT_EQ(40, turn.output_tokens);
}

TEST_F(OpencodeTranscriptTest, OnlyTheRowsWrittenAfterTheTurnBeganCount) {
  std::unique_ptr<TranscriptFormat> f = NewOpencodeTranscript();
  session_.session_id = kSession;
  ASSERT_TRUE(f->Locate(&session_));
  f->StartTurn(session_);
  Turn turn;
  std::string err;
  EXPECT_EQ(TranscriptResult::kNotYet, Read(f.get(), &turn, &err));
  EXPECT_NE(std::string::npos, err.find("no prompt recorded")) << err;
  AddMessage("msg_u3", R"({"role":"user"})", R"({"type":"text","text":"again"})");
  // Still streaming: no time.completed yet.
  AddMessage("msg_a3", R"({"role":"assistant","modelID":"m2","time":{"created":1}})",
             R"({"type":"text","text":"Par"})");
  EXPECT_EQ(TranscriptResult::kNotYet, Read(f.get(), &turn, &err));
  EXPECT_NE(std::string::npos, err.find("end is not recorded")) << err;
  Exec(R"(UPDATE message SET data='{"role":"assistant","modelID":"m2","time":{"created":1,"completed":2},)"
       R"("finish":"stop"}' WHERE id='msg_a3')");
  ASSERT_EQ(TranscriptResult::kDone, Read(f.get(), &turn, &err)) << err;
  EXPECT_EQ("Par", turn.markdown);
  EXPECT_EQ("m2", turn.model);
}

TEST_F(OpencodeTranscriptTest, AStepThatStoppedForToolsIsNotTheEnd) {
  Turn turn;
  EXPECT_EQ(TranscriptResult::kNotYet, ReadAFailedToolStep("denied", &turn));
  ASSERT_EQ(1u, turn.tools.size());
  EXPECT_FALSE(turn.tools[0].ok);
  EXPECT_EQ("denied", turn.tools[0].output);
}

// The user rejected the call's permission: opencode stops there, with no
// answer of the model (the error as opencode 1.18.33 writes it).
TEST_F(OpencodeTranscriptTest, ARejectedToolCallEndsTheTurn) {
  Turn turn;
  EXPECT_EQ(TranscriptResult::kDone,
            ReadAFailedToolStep("The user rejected permission to use this specific tool call.", &turn));
  EXPECT_EQ("", turn.markdown);
  ASSERT_EQ(1u, turn.tools.size());
  EXPECT_FALSE(turn.tools[0].ok);
}

TEST_F(OpencodeTranscriptTest, UnknownShapesFailLoudly) {
  std::unique_ptr<TranscriptFormat> f = NewOpencodeTranscript();
  session_.session_id = kSession;
  ASSERT_TRUE(f->Locate(&session_));
  f->StartTurn(session_);
  AddMessage("msg_u3", R"({"role":"user"})", "");
  AddMessage("msg_a3", R"({"role":"assistant"})", R"({"type":"tool","tool":"bash","state":"done"})");
  Turn turn;
  std::string err;
  EXPECT_EQ(TranscriptResult::kFailed, Read(f.get(), &turn, &err));
  EXPECT_NE(std::string::npos, err.find("state.status")) << err;
  EXPECT_NE(std::string::npos, err.find(session_.path)) << err;
  Exec("DELETE FROM part WHERE id='prt_msg_a3'");
  AddMessage("msg_s3", R"({"role":"narrator"})", "");
  EXPECT_EQ(TranscriptResult::kFailed, Read(f.get(), &turn, &err));
  EXPECT_NE(std::string::npos, err.find("narrator")) << err;
  Exec("UPDATE message SET data='not json' WHERE id='msg_s3'");
  EXPECT_EQ(TranscriptResult::kFailed, Read(f.get(), &turn, &err));
  EXPECT_NE(std::string::npos, err.find("not a JSON object")) << err;
}

TEST_F(OpencodeTranscriptTest, AFileThatIsNoDatabaseIsReported) {
  std::unique_ptr<TranscriptFormat> f = NewOpencodeTranscript();
  session_.session_id = kSession;
  ASSERT_TRUE(f->Locate(&session_));
  sqlite3_close(writer_);
  writer_ = nullptr;
  FILE* out = fopen(session_.path.c_str(), "w");
  ASSERT_NE(nullptr, out);
  fputs("this is not a database, and it is long enough to be read as a header of one\n", out);
  fclose(out);
  unlink((session_.path + "-wal").c_str());
  unlink((session_.path + "-shm").c_str());
  Turn turn;
  std::string err;
  EXPECT_EQ(TranscriptResult::kFailed, Read(f.get(), &turn, &err));
  EXPECT_NE(std::string::npos, err.find(session_.path)) << err;
  // Gone altogether: not written yet, never created by the reader.
  unlink(session_.path.c_str());
  EXPECT_EQ(TranscriptResult::kNotYet, Read(f.get(), &turn, &err));
  EXPECT_NE(0, access(session_.path.c_str(), F_OK));
}

// The reader never keeps the CLI from writing: a write transaction can
// start while the reader is between reads, and reads go on while the CLI
// holds one.
TEST_F(OpencodeTranscriptTest, ReadingNeverLocksTheWriterOut) {
  std::unique_ptr<TranscriptFormat> f = NewOpencodeTranscript();
  session_.session_id = kSession;
  ASSERT_TRUE(f->Locate(&session_));
  Exec("BEGIN IMMEDIATE");
  Exec(R"(INSERT INTO message VALUES('msg_x','x',1,1,'{"role":"user"}'))");
  Turn turn;
  std::string err;
  EXPECT_EQ(TranscriptResult::kDone, Read(f.get(), &turn, &err)) << err;
  Exec("COMMIT");
  Exec("BEGIN EXCLUSIVE");
  Exec("COMMIT");
}

// Sessions started together in one directory: each is the one whose user
// message since the ask began holds its own prompt, whichever started
// first; the same prompt in two is reported, never guessed.
TEST_F(OpencodeTranscriptTest, SessionsInOneDirectoryEachReadTheirOwn) {
  session_.spawned_ms = 1795643844900;
  std::unique_ptr<TranscriptFormat> a = NewOpencodeTranscript(), b = NewOpencodeTranscript();
  TranscriptSession sa = session_, sb = session_;
  sa.turn_prompt = "say 'A'";
  sb.turn_prompt = "say 'B'";
  a->StartTurn(sa);
  b->StartTurn(sb);
  auto add = [this](const std::string& session, const std::string& prompt, const std::string& answer) {
    Exec("CREATE TEMP TABLE s AS SELECT * FROM session WHERE id = '" + kSession + "'");
    Exec("UPDATE s SET id = '" + session + "', time_created = 1795643844910");
    Exec("INSERT INTO session SELECT * FROM s");
    Exec("DROP TABLE s");
    Exec("INSERT INTO message VALUES('u_" + session + "','" + session + R"(',1,1,'{"role":"user"}'))");
    Exec("INSERT INTO part VALUES('pu_" + session + "','u_" + session + "','" + session +
         R"(',1,1,'{"type":"text","text":")" + prompt + R"("}'))");
    Exec("INSERT INTO message VALUES('a_" + session + "','" + session +
         R"(',1,1,'{"role":"assistant","time":{"completed":2},"finish":"stop"}'))");
    Exec("INSERT INTO part VALUES('pa_" + session + "','a_" + session + "','" + session +
         R"(',1,1,'{"type":"text","text":")" + answer + R"("}'))");
  };
  add("ses_b", "say ''B''", "B says");  // '' is a quote in SQL
  add("ses_a", "say ''A''", "A says");
  Turn turn;
  std::string err;
  ASSERT_TRUE(a->Locate(&sa));
  EXPECT_EQ("ses_a", sa.session_id);
  ASSERT_EQ(TranscriptResult::kDone, a->ReadTurn(sa, &turn, &err)) << err;
  EXPECT_EQ("A says", turn.markdown);
  ASSERT_TRUE(b->Locate(&sb));
  EXPECT_EQ("ses_b", sb.session_id);
  ASSERT_EQ(TranscriptResult::kDone, b->ReadTurn(sb, &turn, &err)) << err;
  EXPECT_EQ("B says", turn.markdown);

  std::unique_ptr<TranscriptFormat> c = NewOpencodeTranscript();
  TranscriptSession sc = session_;
  sc.turn_prompt = "say 'C'";
  c->StartTurn(sc);
  add("ses_c1", "say ''C''", "one");
  add("ses_c2", "say ''C''", "two");
  EXPECT_FALSE(c->Locate(&sc));
  EXPECT_NE(std::string::npos, sc.ambiguous.find("cannot be told")) << sc.ambiguous;
  EXPECT_NE(std::string::npos, sc.ambiguous.find("ses_c2")) << sc.ambiguous;
}

}  // namespace
}  // namespace tuidriver

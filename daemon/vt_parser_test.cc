#include "vt_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace tuidriver {
namespace {

// Writes down what the parser found, one token per event.
class Recorder : public VtParser::Handler {
 public:
  std::string log;

  void Print(const unsigned char* text, size_t len) override {
    log += "[" + std::string(reinterpret_cast<const char*>(text), len) + "]";
  }
  void Execute(unsigned char control) override { log += "<" + std::to_string(control) + ">"; }
  void Escape(char intermediate, char final) override {
    log += "{ESC";
    if (intermediate) log += intermediate;
    log += final;
    log += "}";
  }
  void Csi(const CsiSequence& csi) override {
    log += "{CSI";
    if (csi.leader) log += csi.leader;
    for (int i = 0; i < csi.count; ++i) {
      log += (i ? "," : " ") + (csi.params[i] == CsiSequence::kMissing ? "-" : std::to_string(csi.params[i]));
    }
    if (csi.intermediate) log += csi.intermediate;
    log += csi.final;
    log += "}";
  }
  void Osc(const std::string& payload) override { log += "{OSC " + payload + "}"; }
  void Dcs(const std::string& payload) override { log += "{DCS " + payload + "}"; }
};

std::string Parse(const std::string& bytes) {
  Recorder r;
  VtParser p(&r);
  p.Feed(bytes.data(), bytes.size());
  return r.log;
}

// The same bytes fed one at a time (text runs then come a byte at a time).
std::string ParseBytewise(const std::string& bytes) {
  Recorder r;
  VtParser p(&r);
  for (char c : bytes) p.Feed(&c, 1);
  return r.log;
}

TEST(VtParser, TextRunsAndControls) {
  EXPECT_EQ("[ab]<13><10>[c\xC3\xA9]", Parse("ab\r\nc\xC3\xA9"));
  EXPECT_EQ("[a][b]", Parse("a\x7f" "b"));  // DEL is nothing
}

TEST(VtParser, CsiParameters) {
  EXPECT_EQ("{CSI -H}", Parse("\x1b[H"));
  EXPECT_EQ("{CSI 12,-,3m}", Parse("\x1b[12;;3m"));
  EXPECT_EQ("{CSI? 1049h}", Parse("\x1b[?1049h"));
  EXPECT_EQ("{CSI? 2026$p}", Parse("\x1b[?2026$p"));
  EXPECT_EQ("{CSI 38,2,1,2,3m}", Parse("\x1b[38:2:1:2:3m"));  // ':' separates too
  EXPECT_EQ("{CSI 99999b}", Parse("\x1b[123456789b"));        // values are bounded
}

TEST(VtParser, MoreThanSixteenParametersAreDropped) {
  std::string seq = "\x1b[";
  for (int i = 1; i <= 40; ++i) seq += std::to_string(i) + ";";
  seq += "m";
  EXPECT_EQ("{CSI 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16m}", Parse(seq));
}

TEST(VtParser, ControlsInsideSequencesActWithoutEndingThem) {
  EXPECT_EQ("<13>{CSI 2C}", Parse("\x1b[2\rC"));
  EXPECT_EQ("<13>{CSI -C}", Parse("\x1b\r[C"));
  EXPECT_EQ("[x]", Parse("\x1b[2\x18x"));      // CAN cancels
  EXPECT_EQ("{CSI -A}", Parse("\x1b[2\x1b[A"));  // ESC starts anew
  EXPECT_EQ("[x]", Parse("\x1b[1?2hx"));        // a marker after parameters: ignored
}

TEST(VtParser, EscapeSequences) {
  EXPECT_EQ("{ESC7}{ESC(0}{ESC#8}", Parse("\x1b" "7\x1b(0\x1b#8"));
  EXPECT_EQ("{CSI -m}", Parse("\x1b [m"));   // an intermediate before '['
  EXPECT_EQ("{ESC8}", Parse("\x1b\xff" "8"));  // bytes from 0x80 are skipped
}

TEST(VtParser, Strings) {
  EXPECT_EQ("{OSC 0;t\xC3\xAFtle}[x]", Parse("\x1b]0;t\xC3\xAFtle\x07x"));
  EXPECT_EQ("{OSC 2;a}", Parse("\x1b]2;a\x1b\\"));
  EXPECT_EQ("<0>{OSC 2;a}", Parse(std::string("\x1b]2;a\x1b\0\\", 8)));  // controls before '\'
  EXPECT_EQ("{DCS $qm}", Parse("\x1bP$\nqm\x1b\\"));   // controls are not part of it
  EXPECT_EQ("{ESC7}", Parse("\x1b]2;lost\x1b" "7"));     // abandoned by another sequence
  EXPECT_EQ("[ok]", Parse("\x1b_apc\x1b\\ok"));         // APC: skipped
  EXPECT_EQ("[ok]", Parse("\x1b]2;x\x18ok"));           // CAN abandons
  EXPECT_EQ("[ok]", Parse("\x1bP" + std::string(5000, 'q') + "\x1b\\ok"));  // too long: dropped
  std::string long_title = "\x1b]2;" + std::string(100000, 't') + "\x07";
  EXPECT_EQ("{OSC 2;" + std::string(VtParser::kMaxOsc - 2, 't') + "}", Parse(long_title));
}

TEST(VtParser, SplitAnywhereParsesTheSame) {
  const std::string out = "a\x1b[?25;1h\x1b]0;ti\x1b\\b\x1bP$qr\x07\x1b(0q\r\n\x1b[38:5:1m";
  std::string whole = Parse(out);
  for (size_t cut = 0; cut <= out.size(); ++cut) {
    Recorder r;
    VtParser p(&r);
    p.Feed(out.data(), cut);
    p.Feed(out.data() + cut, out.size() - cut);
    // Text runs may be cut in two; everything else must be the same.
    std::string joined = r.log;
    for (size_t at; (at = joined.find("][")) != std::string::npos;) joined.erase(at, 2);
    EXPECT_EQ(whole, joined) << "cut at " << cut;
  }
  std::string bytewise = ParseBytewise(out);
  for (size_t at; (at = bytewise.find("][")) != std::string::npos;) bytewise.erase(at, 2);
  EXPECT_EQ(whole, bytewise);
}


// Text runs are scanned eight bytes at a time: a control or DEL at any place
// of a long run ends it there; bytes from 0x80 are text.
TEST(VtParser, LongTextRunsEndAtEveryControl) {
  for (size_t at = 0; at < 20; ++at) {
    for (const char* stop : {"\n", "\x7f", "\x1b[m", "\x01"}) {
      std::string out = std::string(20, 'a') + "\xC3\xA9";
      out.replace(at, 1, stop);
      std::string bytewise = ParseBytewise(out), whole = Parse(out);  // runs joined: DEL splits one
      for (std::string* log : {&bytewise, &whole}) {
        for (size_t i; (i = log->find("][")) != std::string::npos;) log->erase(i, 2);
      }
      EXPECT_EQ(bytewise, whole) << at << " " << static_cast<int>(stop[0]);
    }
  }
  EXPECT_EQ("[aaaaaaaaaaa]<10>[bbbbbbbb\xC3\xA9]", Parse("aaaaaaaaaaa\nbbbbbbbb\xC3\xA9"));
}

// Parameter bytes in every place: after an intermediate (the CSI is
// ignored), past the sixteenth parameter, around ':' and at the value bound.
TEST(VtParser, ParameterBytesEverywhere) {
  EXPECT_EQ("[x]", Parse("\x1b[1 2mx"));
  EXPECT_EQ("{CSI 1 q}", Parse("\x1b[1 q"));
  EXPECT_EQ("{CSI -,5,-m}", Parse("\x1b[;5;m"));
  EXPECT_EQ("{CSI 4,3,99999,7m}", Parse("\x1b[4:3;999999;7m"));
  std::string seq = "\x1b[";
  for (int i = 1; i <= 15; ++i) seq += "0;";
  seq += "16;17;18m";
  EXPECT_EQ("{CSI 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,16m}", Parse(seq));
  EXPECT_EQ(Parse(seq), ParseBytewise(seq));
}

}  // namespace
}  // namespace tuidriver

#include "cli_version.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "test_fakes.h"

namespace tuidriver {
namespace {

// A folder of npm-installed packages: node_modules/<name>/package.json and
// the files named, as npm lays them out.
class NpmTree : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    root_ = dir_;
  }

  // Makes every folder of `path` (relative to the root) and the file.
  std::string Write(const std::string& path, const std::string& content) {
    std::string full = root_ + "/" + path;
    for (size_t slash = full.find('/', 1); slash != std::string::npos; slash = full.find('/', slash + 1)) {
      mkdir(full.substr(0, slash).c_str(), 0755);
    }
    std::ofstream(full) << content;
    return full;
  }
  std::string Package(const std::string& name, const std::string& version) {
    return R"({"name":")" + name + R"(","version":")" + version + R"(","bin":{"x":"cli.js"}})";
  }

  std::string root_;
};

TEST_F(NpmTree, TheCliPackageAboveAScriptInItsBinFolder) {
  Write("node_modules/@openai/codex/package.json", Package("@openai/codex", "0.171.0"));
  std::string js = Write("node_modules/@openai/codex/bin/codex.js", "");
  EXPECT_EQ(NpmPackageVersion(js, {"@openai/codex"}), "0.171.0");
}

TEST_F(NpmTree, APlatformPackageOfTheCliThroughASymlinkOnPath) {
  Write("node_modules/@github/copilot-linux-x64/package.json", Package("@github/copilot-linux-x64", "1.0.102"));
  std::string exe = Write("node_modules/@github/copilot-linux-x64/copilot", "");
  Write("bin/.keep", "");
  std::string link = root_ + "/bin/copilot";
  ASSERT_EQ(0, symlink(exe.c_str(), link.c_str()));
  EXPECT_EQ(NpmPackageVersion(link, {"@github/copilot"}), "1.0.102");
}

TEST_F(NpmTree, ABinFolderBesideNodeModulesAsNpmMakesOnWindows) {
  Write("npm/node_modules/@anthropic-ai/claude-code/package.json", Package("@anthropic-ai/claude-code", "2.1.332"));
  std::string cmd = Write("npm/claude.cmd", "@node ...");
  EXPECT_EQ(NpmPackageVersion(cmd, {"@anthropic-ai/claude-code"}), "2.1.332");
}

TEST_F(NpmTree, AnotherPackageOrNoneGivesNoVersion) {
  // A project's own package.json above a CLI that npm did not install.
  Write("package.json", Package("my-project", "1.2.3"));
  std::string exe = Write("tools/bin/claude", "");
  EXPECT_EQ(NpmPackageVersion(exe, {"@anthropic-ai/claude-code"}), "");
  // "cline" must not take "clinefoo", only "cline-<platform>".
  Write("n/clinefoo/package.json", Package("clinefoo", "9.9.9"));
  EXPECT_EQ(NpmPackageVersion(Write("n/clinefoo/bin/cline", ""), {"cline"}), "");
  EXPECT_EQ(NpmPackageVersion(Write("n/x/bin/y", ""), {}), "");
  EXPECT_EQ(NpmPackageVersion("", {"cline"}), "");
}

TEST_F(NpmTree, ABrokenPackageJsonIsPassedOver) {
  Write("node_modules/cline/package.json", Package("cline", "3.0.65"));
  Write("node_modules/cline/bin/package.json", "{not json");
  EXPECT_EQ(NpmPackageVersion(Write("node_modules/cline/bin/cline", ""), {"cline"}), "3.0.65");
}

TEST(CompareVersions, NumericallyAndAPrereleaseBeforeItsRelease) {
  EXPECT_LT(CompareVersions("1.9.3", "1.10.0"), 0);
  EXPECT_GT(CompareVersions("2.1.332", "2.1.330"), 0);
  EXPECT_EQ(CompareVersions("0.61.0", "0.61.0"), 0);
  EXPECT_EQ(CompareVersions("1.0", "1.0.0"), 0);
  EXPECT_LT(CompareVersions("2.0.0-beta.1", "2.0.0"), 0);
  EXPECT_LT(CompareVersions("2.0.0-alpha", "2.0.0-beta"), 0);
}

TEST(UnverifiedVersionWarning, OnlyOutsideTheVerifiedRange) {
  std::vector<std::string> verified = {"2.1.329", "2.1.332"};
  EXPECT_EQ(UnverifiedVersionWarning("claude", "2.1.330", verified), "");
  EXPECT_EQ(UnverifiedVersionWarning("claude", "2.1.332", verified), "");
  EXPECT_EQ(UnverifiedVersionWarning("claude", "", verified), "");      // not known
  EXPECT_EQ(UnverifiedVersionWarning("claude", "9.9.9", {}), "");        // no range
  std::string newer = UnverifiedVersionWarning("claude", "2.1.340", verified);
  EXPECT_NE(newer.find("claude 2.1.340 is newer than"), std::string::npos) << newer;
  EXPECT_NE(newer.find("(2.1.329 to 2.1.332)"), std::string::npos) << newer;
  EXPECT_NE(UnverifiedVersionWarning("claude", "2.0.1", verified).find("is older than"), std::string::npos);
}

}  // namespace
}  // namespace tuidriver

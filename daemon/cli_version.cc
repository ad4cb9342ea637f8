#include "cli_version.h"

#include <simdjson.h>
#include <stdlib.h>

#include <sstream>

#include "files.h"
#include "platform.h"
#include "transcript_format.h"

namespace tuidriver {
namespace {

constexpr int kFoldersUp = 4;

std::string Parent(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  if (slash == std::string::npos || slash == 0) return std::string();
  return path.substr(0, slash);
}

bool NamesPackage(const std::string& name, const std::vector<std::string>& packages) {
  for (const std::string& p : packages) {
    if (name == p) return true;
    if (name.size() > p.size() + 1 && name.compare(0, p.size(), p) == 0 && name[p.size()] == '-') return true;
  }
  return false;
}

// The name and version of the package.json in `dir`; false without one.
bool ReadPackage(const std::string& dir, std::string* name, std::string* version) {
  std::string text;
  if (!ReadWholeFile(dir + "/package.json", &text)) return false;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(simdjson::padded_string(text)).get(doc) || !doc.is_object()) return false;
  *name = JsonStr(doc, "name");
  *version = JsonStr(doc, "version");
  return true;
}

// "1.10.0-beta.2" -> {1, 10, 0} and "beta.2".
std::vector<long> NumericParts(const std::string& v, std::string* pre) {
  size_t dash = v.find('-');
  *pre = dash == std::string::npos ? std::string() : v.substr(dash + 1);
  std::vector<long> parts;
  std::stringstream core(v.substr(0, dash));
  std::string part;
  while (std::getline(core, part, '.')) parts.push_back(strtol(part.c_str(), nullptr, 10));
  return parts;
}

}  // namespace

std::string NpmPackageVersion(const std::string& executable, const std::vector<std::string>& packages) {
  if (executable.empty() || packages.empty()) return std::string();
  // npm's bin folder on Windows holds claude.cmd beside node_modules.
  for (const std::string& p : packages) {
    std::string name, version;
    std::string dir = Parent(executable) + "/node_modules/" + p;
    if (ReadPackage(dir, &name, &version) && name == p && !version.empty()) return version;
  }
  std::string resolved = RealPath(executable);
  std::string dir = Parent(resolved.empty() ? executable : resolved);
  for (int i = 0; i <= kFoldersUp && !dir.empty(); ++i, dir = Parent(dir)) {
    std::string name, version;
    if (ReadPackage(dir, &name, &version) && NamesPackage(name, packages) && !version.empty()) return version;
  }
  return std::string();
}

int CompareVersions(const std::string& a, const std::string& b) {
  std::string pre_a, pre_b;
  std::vector<long> pa = NumericParts(a, &pre_a), pb = NumericParts(b, &pre_b);
  for (size_t i = 0; i < pa.size() || i < pb.size(); ++i) {
    long x = i < pa.size() ? pa[i] : 0, y = i < pb.size() ? pb[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  if (pre_a.empty() != pre_b.empty()) return pre_a.empty() ? 1 : -1;
  return pre_a.compare(pre_b) < 0 ? -1 : pre_a == pre_b ? 0 : 1;
}

std::string UnverifiedVersionWarning(const std::string& engine, const std::string& version,
                                     const std::vector<std::string>& verified) {
  if (version.empty() || verified.size() != 2) return std::string();
  const std::string& oldest = verified[0];
  const std::string& newest = verified[1];
  const char* where = CompareVersions(version, oldest) < 0   ? "older than"
                      : CompareVersions(version, newest) > 0 ? "newer than"
                                                             : nullptr;
  if (!where) return std::string();
  return engine + " " + version + " is " + where + " the versions this tuidriver was verified with (" + oldest +
         " to " + newest + "): if its screens or transcripts changed, asks may fail or time out "
         "(docs/engines.md, \"Which CLI versions are verified\")";
}

}  // namespace tuidriver

#include "error_kind.h"

namespace tuidriver {

namespace {

struct ErrorKindSpec {
  ErrorKind kind;
  const char* name;
};

constexpr ErrorKindSpec kErrorKinds[] = {
    {ErrorKind::kUsage, "usage"},
    {ErrorKind::kEngine, "engine"},
    {ErrorKind::kSpawn, "spawn"},
    {ErrorKind::kNotReady, "not_ready"},
    {ErrorKind::kProtocol, "protocol"},
    {ErrorKind::kUnknownType, "unknown_type"},
    {ErrorKind::kBadRequest, "bad_request"},
    {ErrorKind::kTimeout, "timeout"},
    {ErrorKind::kCancelled, "cancelled"},
    {ErrorKind::kExited, "exited"},
    {ErrorKind::kNeedsInput, "needs_input"},
    {ErrorKind::kUnfinishedInput, "unfinished_input"},
    {ErrorKind::kBusy, "busy"},
    {ErrorKind::kRecord, "record"},
    {ErrorKind::kHistory, "history"},
    {ErrorKind::kError, "error"},
};

}  // namespace

const char* ErrorKindName(ErrorKind kind) {
  for (const ErrorKindSpec& spec : kErrorKinds) {
    if (spec.kind == kind) return spec.name;
  }
  return "error";  // unreachable: every kind has a row (error_kind_test.cc checks)
}

std::vector<std::string> ErrorKindNames() {
  std::vector<std::string> names;
  for (const ErrorKindSpec& spec : kErrorKinds) names.push_back(spec.name);
  return names;
}

}  // namespace tuidriver

// Which release of an agent CLI a session runs, and whether the project has
// verified it (issue 45: the CLIs update weekly; a user should hear when
// theirs is one nobody here tried). The version comes from the npm package
// that installed the executable: no second start of the CLI, no wait.
#ifndef TUIDRIVER_CLI_VERSION_H_
#define TUIDRIVER_CLI_VERSION_H_

#include <string>
#include <vector>

namespace tuidriver {

// The version in the nearest package.json above `executable` (after
// symlinks, up to four folders) whose "name" is one of `packages`, or one of
// them with a platform suffix ("@github/copilot" finds
// "@github/copilot-linux-x64"); or in node_modules beside the executable
// (npm's bin folder on Windows: claude.cmd). Empty when there is none: a CLI
// installed some other way.
std::string NpmPackageVersion(const std::string& executable, const std::vector<std::string>& packages);

// Below zero when a is older than b, zero when equal, above zero when newer:
// numerically by dotted parts ("1.10.0" after "1.9.3"), a pre-release
// ("2.0.0-beta.1") before its release.
int CompareVersions(const std::string& a, const std::string& b);

// What a user should know about running `version` of the engine's CLI, when
// `verified` (oldest, newest) does not include it; empty otherwise.
std::string UnverifiedVersionWarning(const std::string& engine, const std::string& version,
                                     const std::vector<std::string>& verified);

}  // namespace tuidriver

#endif  // TUIDRIVER_CLI_VERSION_H_

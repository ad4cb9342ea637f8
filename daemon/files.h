// A whole file, or its first line, read by its UTF-8 name, through platform.h's OpenStream (so a
// name outside Windows' ANSI code page opens there too): the engine files,
// transcripts and package.json files the daemon reads.
#ifndef TUIDRIVER_FILES_H_
#define TUIDRIVER_FILES_H_

#include <stdint.h>

#include <string>

namespace tuidriver {

// The bytes of the file at `path` from `offset` on (none past its end);
// false when it cannot be opened or read.
bool ReadWholeFile(const std::string& path, std::string* bytes, uint64_t offset = 0);

// The file's first line without its '\n', as std::getline gives it: false
// when the file cannot be opened or is empty.
bool ReadFirstLine(const std::string& path, std::string* line);

}  // namespace tuidriver

#endif  // TUIDRIVER_FILES_H_

// libFuzzer target: key names as a `keys` request carries them. Input is
// split at NUL bytes into names; the first byte picks the terminal modes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "keys.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  tuidriver::KeyModes modes{(data[0] & 1) != 0, (data[0] & 2) != 0};
  std::vector<std::string> names(1);
  for (size_t i = 1; i < size; ++i) {
    if (data[i] == 0) names.emplace_back();
    else names.back() += static_cast<char>(data[i]);
  }
  for (const std::string& name : names) {
    tuidriver::Key key;
    if (tuidriver::ParseKeyName(name, &key)) tuidriver::KeyBytes(key, modes);
  }
  tuidriver::KeysToBytes(names, modes);
  return 0;
}

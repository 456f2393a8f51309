// Reading the daemons' TOML configuration strictly (agent/config.cpp,
// coordinator/daemon/config.cpp). toml11's find_or falls back to the default when a key
// has the wrong type, which would hide a mistake such as rate = "fast"; a wrong type is a
// configuration error and is named instead. Numbers may be written either way
// (rate = 100000000 is as good as 1e8).
#pragma once

#include "cli/closest_word.h"
#include "config/toml_screen.h"
#include "error/error.h"

#include <toml.hpp>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace baton::config {

// Reads and parses a TOML file, after screening it for what toml11 3.7 cannot take
// (config/toml_screen.h): bytes that are not UTF-8 (the TOML spec refuses them too), deep
// nesting and long binary integers.
inline toml::value parse_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error::InvalidInput("cannot be read");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (const std::size_t at = invalid_utf8_at(bytes); at != std::string::npos) {
    throw error::InvalidInput("not UTF-8 text (byte " + std::to_string(at) + ")");
  }
  if (const auto finding = screen_toml(bytes)) {
    const auto line = 1 + std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(finding->offset), '\n');
    throw error::InvalidInput(finding->what + " (line " + std::to_string(line) + ")");
  }
  std::istringstream text(bytes);
  return toml::parse(text, path.string());
}

// Refuses a key that is not one of `known` (a misspelt key would otherwise be ignored and
// its default used), naming it and the known key it was probably meant to be.
inline void check_known_keys(const toml::value& file, const std::vector<std::string>& known) {
  for (const auto& [key, value] : file.as_table()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    throw error::InvalidInput("unknown key '" + key + "'" + cli::did_you_mean(key, known));
  }
}

template <class T>
T field_or(const toml::value& file, const std::string& key, T fallback) {
  if (!file.contains(key)) return fallback;
  const toml::value& value = file.at(key);
  if constexpr (std::is_same_v<T, double>) {
    if (value.is_integer()) return static_cast<double>(value.as_integer());
    if (value.is_floating()) return value.as_floating();
    throw error::InvalidInput(key + " must be a number");
  } else {
    return toml::get<T>(value);  // a type_error naming the key's line
  }
}

// The daemons' log_level key: "info" (the default) or "debug" (systemd/logging.h).
inline std::string log_level_field(const toml::value& file) {
  const auto level = field_or<std::string>(file, "log_level", "info");
  if (level != "info" && level != "debug") {
    throw error::InvalidInput("log_level must be \"info\" or \"debug\", not \"" + level + "\"");
  }
  return level;
}

}  // namespace baton::config

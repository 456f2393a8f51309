// Reading the daemons' TOML configuration strictly (agent/config.cpp,
// coordinator/daemon/config.cpp). toml11's find_or falls back to the default when a key
// has the wrong type, which would hide a mistake such as rate = "fast"; a wrong type is a
// configuration error and is named instead. Numbers may be written either way
// (rate = 100000000 is as good as 1e8).
#pragma once

#include <toml.hpp>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace baton::config {

// The offset of the first byte that does not start or continue a well-formed UTF-8
// sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or npos.
inline std::size_t invalid_utf8_at(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto b = static_cast<unsigned char>(text[i]);
    const std::size_t n = b < 0x80                 ? 1
                          : b >= 0xC2 && b <= 0xDF ? 2
                          : b >= 0xE0 && b <= 0xEF ? 3
                          : b >= 0xF0 && b <= 0xF4 ? 4
                                                   : 0;
    if (n == 0 || text.size() - i < n) return i;
    const auto second = n > 1 ? static_cast<unsigned char>(text[i + 1]) : 0x80;
    const unsigned char low = b == 0xE0 ? 0xA0 : b == 0xF0 ? 0x90 : 0x80;
    const unsigned char high = b == 0xED ? 0x9F : b == 0xF4 ? 0x8F : 0xBF;
    if (n > 1 && (second < low || second > high)) return i;
    for (std::size_t k = 2; k < n; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return i;
    }
    i += n;
  }
  return std::string::npos;
}

// How deep arrays and inline tables may nest in a configuration (ours need 2).
inline constexpr int kMaxNesting = 64;

// The offset of the first `[` or `{` that opens more than `limit` arrays and inline tables
// at once, outside strings and comments, or npos. Table headers count too ([a] is 1, [[a]]
// is 2); a string or comment left open ends the scan (the parser then says what is wrong).
inline std::size_t nesting_deeper_than(const std::string& text, int limit) {
  int depth = 0;
  std::size_t i = 0;
  const auto skip_string = [&](char quote) {  // from the opening quote; i ends on the closing one
    const bool multi = text.compare(i, 3, std::string(3, quote)) == 0;
    i += multi ? 3 : 1;
    while (i < text.size()) {
      if (quote == '"' && text[i] == '\\') {
        i += 2;
      } else if (multi ? text.compare(i, 3, std::string(3, quote)) == 0 : text[i] == quote) {
        i += multi ? 2 : 0;
        return;
      } else if (!multi && text[i] == '\n') {
        return;
      } else {
        ++i;
      }
    }
  };
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      skip_string(c);
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string::npos;
}

// How many digits a binary integer may have: toml11 3.7 doubles a signed 64-bit place
// value after every digit, leading zeros included, and the 63rd overflows it (undefined
// behaviour, found by fuzz/agent_config_fuzz.cpp).
inline constexpr std::size_t kMaxBinaryDigits = 62;

// The offset of the first binary integer (0b…) of more than kMaxBinaryDigits digits outside
// strings and comments, or npos.
inline std::size_t long_binary_integer_at(const std::string& text) {
  const auto bare = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; };
  bool in_string = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (quote == '"' && c == '\\') ++i;
      else if (c == quote) in_string = false;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      in_string = true;
      quote = c;
    } else if (c == '0' && i + 1 < text.size() && text[i + 1] == 'b' && (i == 0 || !bare(text[i - 1]))) {
      std::size_t digits = 0, j = i + 2;
      for (; j < text.size() && (text[j] == '0' || text[j] == '1' || text[j] == '_'); ++j) digits += text[j] != '_';
      if (digits > kMaxBinaryDigits) return i;
      i = j - 1;
    }
  }
  return std::string::npos;
}

// Reads and parses a TOML file. A TOML file must be UTF-8 (the spec says so), and bytes
// that are not are refused here: toml11 3.7's own check reads past the end of its buffer
// while reporting a bad sequence in a literal string (found by fuzz/agent_config_fuzz.cpp).
// Nesting is bounded first: toml11 parses arrays recursively, and a thousand `[` in a row
// overflowed the stack (found by fuzz/coordinator_config_fuzz.cpp); so are binary integers.
inline toml::value parse_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot be read");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (const std::size_t at = invalid_utf8_at(bytes); at != std::string::npos) {
    throw std::runtime_error("not UTF-8 text (byte " + std::to_string(at) + ")");
  }
  if (const std::size_t at = nesting_deeper_than(bytes, kMaxNesting); at != std::string::npos) {
    const auto line = 1 + std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    throw std::runtime_error("arrays and inline tables nested deeper than " + std::to_string(kMaxNesting) + " (line " +
                             std::to_string(line) + ")");
  }
  if (const std::size_t at = long_binary_integer_at(bytes); at != std::string::npos) {
    const auto line = 1 + std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    throw std::runtime_error("a binary integer of more than " + std::to_string(kMaxBinaryDigits) + " digits (line " +
                             std::to_string(line) + ")");
  }
  std::istringstream text(bytes);
  return toml::parse(text, path.string());
}

template <class T>
T field_or(const toml::value& file, const std::string& key, T fallback) {
  if (!file.contains(key)) return fallback;
  const toml::value& value = file.at(key);
  if constexpr (std::is_same_v<T, double>) {
    if (value.is_integer()) return static_cast<double>(value.as_integer());
    if (value.is_floating()) return value.as_floating();
    throw std::runtime_error(key + " must be a number");
  } else {
    return toml::get<T>(value);  // a type_error naming the key's line
  }
}

// The daemons' log_level key: "info" (the default) or "debug" (systemd/logging.h).
inline std::string log_level_field(const toml::value& file) {
  const auto level = field_or<std::string>(file, "log_level", "info");
  if (level != "info" && level != "debug") {
    throw std::runtime_error("log_level must be \"info\" or \"debug\", not \"" + level + "\"");
  }
  return level;
}

}  // namespace baton::config

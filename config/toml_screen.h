// What a TOML file is screened for before toml11 parses it (config/toml_field.h,
// parse_file). toml11 3.7 misbehaves on three kinds of input that the fuzz targets found
// (docs/fuzzing.md): bytes that are not UTF-8 (it reads past its buffer while reporting
// them), arrays nested a thousand deep (it recurses and overflows the stack) and binary
// integers of 63 digits or more (signed overflow). Our configurations need none of them,
// so they are refused here with the line they are on.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>

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

// How many digits a binary integer may have: toml11 3.7 doubles a signed 64-bit place
// value after every digit, leading zeros included, and the 63rd overflows it.
inline constexpr std::size_t kMaxBinaryDigits = 62;

// What the screen refused, and where.
struct ScreenFinding {
  std::size_t offset;
  std::string what;
};

// One pass over the file outside strings and comments (basic and literal, one-line and
// multi-line strings are skipped whole), looking for the first `[` or `{` that opens more
// than kMaxNesting arrays and inline tables at once (table headers count: [a] is 1, [[a]]
// is 2) and the first binary integer (0b…) of more than kMaxBinaryDigits digits. A string
// or comment left open ends the scan: the parser then says what is wrong with it.
inline std::optional<ScreenFinding> screen_toml(const std::string& text) {
  const auto starts = [&](std::size_t at, const char* token) {
    return text.compare(at, std::strlen(token), token) == 0;
  };
  const auto bare = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; };
  int depth = 0;
  std::size_t i = 0;
  // From an opening quote; returns the offset just past the closing one (or the end).
  const auto past_string = [&](std::size_t at) {
    const char quote = text[at];
    const std::string closing =
        starts(at, quote == '"' ? "\"\"\"" : "'''") ? std::string(3, quote) : std::string(1, quote);
    for (std::size_t j = at + closing.size(); j < text.size(); ++j) {
      if (quote == '"' && text[j] == '\\') {
        ++j;
      } else if (text.compare(j, closing.size(), closing) == 0) {
        // A multi-line string may end in up to two more quotes ("""a"""" is `a"`).
        std::size_t end = j + closing.size();
        while (closing.size() == 3 && end < text.size() && end < j + 5 && text[end] == quote) ++end;
        return end;
      } else if (closing.size() == 1 && text[j] == '\n') {
        return j;
      }
    }
    return text.size();
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      i = std::min(text.find('\n', i), text.size());
    } else if (c == '"' || c == '\'') {
      i = past_string(i);
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) {
        return ScreenFinding{i, "arrays and inline tables nested deeper than " + std::to_string(kMaxNesting)};
      }
      ++i;
    } else if (c == ']' || c == '}') {
      depth = std::max(depth - 1, 0);
      ++i;
    } else if (starts(i, "0b") && (i == 0 || !bare(text[i - 1]))) {
      std::size_t digits = 0, j = i + 2;
      for (; j < text.size() && (text[j] == '0' || text[j] == '1' || text[j] == '_'); ++j) digits += text[j] != '_';
      if (digits > kMaxBinaryDigits) {
        return ScreenFinding{i, "a binary integer of more than " + std::to_string(kMaxBinaryDigits) + " digits"};
      }
      i = j;
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

}  // namespace baton::config

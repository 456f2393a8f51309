#include "http/base64.h"

#include "error/error.h"

#include <cstdint>

namespace baton::http {

namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The value of the character at `at` of `text`, or throws naming it.
std::uint32_t sextet(std::string_view text, std::size_t at) {
  const std::size_t value = kAlphabet.find(text[at]);
  if (value == std::string_view::npos) {
    const auto c = static_cast<unsigned char>(text[at]);
    const std::string shown = c >= 0x21 && c < 0x7f ? std::string("'") + text[at] + "'" : "byte " + std::to_string(c);
    throw error::InvalidInput("not base64: " + shown + " at character " + std::to_string(at + 1) +
                              " is not in the alphabet");
  }
  return static_cast<std::uint32_t>(value);
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t n = static_cast<std::uint8_t>(bytes[i]) << 16 | static_cast<std::uint8_t>(bytes[i + 1]) << 8 |
                            static_cast<std::uint8_t>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += kAlphabet[(n >> shift) & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t n = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (rest == 2) n |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += rest == 2 ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) {
    throw error::InvalidInput("not base64: " + std::to_string(text.size()) +
                              " characters, not a multiple of 4 (padding with '=' missing?)");
  }
  // '=' may end the text, once or twice, and appear nowhere else.
  const std::size_t pad = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
  const std::size_t data = text.size() - pad;
  if (const std::size_t stray = text.find('='); stray < data) {
    throw error::InvalidInput("not base64: '=' at character " + std::to_string(stray + 1) +
                              " is not padding at the end");
  }
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::uint32_t n = 0;
    for (std::size_t k = i; k < i + 4; ++k) n = n << 6 | (k < data ? sextet(text, k) : 0);
    out += static_cast<char>(n >> 16);
    if (i + 2 < data) out += static_cast<char>((n >> 8) & 0xff);
    if (i + 3 < data) out += static_cast<char>(n & 0xff);
  }
  return out;
}

}  // namespace baton::http

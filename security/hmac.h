// HMAC-SHA256 (RFC 2104) over a message given in parts, and the constant-time comparison
// every MAC check uses.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace baton::security {

inline constexpr std::size_t kMacBytes = 32;
using Mac = std::array<std::uint8_t, kMacBytes>;

// HMAC-SHA256(key, parts[0] || parts[1] || ...).
Mac hmac_sha256(std::string_view key, std::initializer_list<std::string_view> parts);

// Whether a and b are equal, in time that depends only on their lengths.
bool equal_in_constant_time(std::string_view a, std::string_view b) noexcept;

// A Mac's bytes as a string_view (valid while `mac` lives).
inline std::string_view view(const Mac& mac) noexcept {
  return {reinterpret_cast<const char*>(mac.data()), mac.size()};
}

}  // namespace baton::security

#include "coordinator/daemon/http_auth.h"

#include <optional>

namespace baton::coordinator {
namespace {

// RFC 4648 base64 (padding optional); nullopt for any other character.
std::optional<std::string> base64_decode(std::string_view text) {
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (const char c : text) {
    unsigned value = 0;
    if (c >= 'A' && c <= 'Z') value = static_cast<unsigned>(c - 'A');
    else if (c >= 'a' && c <= 'z') value = static_cast<unsigned>(c - 'a') + 26;
    else if (c >= '0' && c <= '9') value = static_cast<unsigned>(c - '0') + 52;
    else if (c == '+') value = 62;
    else if (c == '/') value = 63;
    else if (c == '=') break;
    else return std::nullopt;
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xff);
    }
  }
  return out;
}

}  // namespace

bool carries_token(std::string_view authorization, const std::string& token) {
  if (authorization == "Bearer " + token) return true;
  constexpr std::string_view basic = "Basic ";
  if (!authorization.starts_with(basic)) return false;
  const std::optional<std::string> credentials = base64_decode(authorization.substr(basic.size()));
  if (!credentials) return false;
  const auto colon = credentials->find(':');
  return colon != std::string::npos && credentials->substr(colon + 1) == token;
}

}  // namespace baton::coordinator

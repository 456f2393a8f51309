#include "coordinator/daemon/http_auth.h"

#include "coordinator/daemon/request_error.h"

#include <httplib.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <nlohmann/json.hpp>

#include <optional>

namespace baton::coordinator {
namespace {

// Standard base64 with padding (what browsers send), by OpenSSL; nullopt when malformed.
std::optional<std::string> base64_decode(std::string_view text) {
  if (text.empty() || text.size() % 4 != 0 || text.size() > 4096) return std::nullopt;
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the padding as zero bytes.
  const std::size_t padding = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
  out.resize(static_cast<std::size_t>(n) - padding);
  return out;
}

// Equality in time that does not depend on where the strings differ.
bool same(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

bool carries_token(std::string_view authorization, const std::string& token) {
  constexpr std::string_view bearer = "Bearer ", basic = "Basic ";
  if (authorization.starts_with(bearer)) return same(authorization.substr(bearer.size()), token);
  if (!authorization.starts_with(basic)) return false;
  const std::optional<std::string> credentials = base64_decode(authorization.substr(basic.size()));
  if (!credentials) return false;
  const auto colon = credentials->find(':');
  return colon != std::string::npos && same(std::string_view(*credentials).substr(colon + 1), token);
}

std::optional<error::Refusal> check_token(const httplib::Request& request, const std::string& token) {
  if (token.empty() || request.path == "/metrics" || carries_token(request.get_header_value("Authorization"), token))
    return std::nullopt;
  return "missing or wrong API token (Authorization: Bearer ...)";
}

void answer_unauthorized(httplib::Response& response, const error::Refusal& refused) {
  response.set_header("WWW-Authenticate", "Basic realm=\"" + std::string(kAuthRealm) + "\", charset=\"UTF-8\"");
  response.status = http_status(RequestFailure::unauthorized);
  response.set_content(nlohmann::json{{"error", refused.reason}}.dump() + "\n", "application/json");
}

}  // namespace baton::coordinator

#include "coordinator/daemon/http_auth.h"

#include "coordinator/daemon/request_error.h"
#include "error/error.h"
#include "http/base64.h"

#include <httplib.h>
#include <openssl/crypto.h>
#include <nlohmann/json.hpp>

namespace baton::coordinator {
namespace {

// Equality in time that does not depend on where the strings differ.
bool same(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

bool carries_token(std::string_view authorization, const std::string& token) {
  constexpr std::string_view bearer = "Bearer ", basic = "Basic ";
  if (authorization.starts_with(bearer)) return same(authorization.substr(bearer.size()), token);
  if (!authorization.starts_with(basic)) return false;
  // Any real header is far shorter; a longer one is not decoded at all.
  const std::string_view encoded = authorization.substr(basic.size());
  if (encoded.size() > 4096) return false;
  std::string credentials;
  try {
    credentials = http::base64_decode(encoded);
  } catch (const error::InvalidInput&) {
    return false;  // not base64: no token carried
  }
  const auto colon = credentials.find(':');
  return colon != std::string::npos && same(std::string_view(credentials).substr(colon + 1), token);
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

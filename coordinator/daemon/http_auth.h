// How an HTTP request proves it knows the API token (docs/runtime.md, docs/status-page.md):
// `Authorization: Bearer <token>` (batonctl, scripts) or HTTP Basic with the token as the
// password and any user name (browsers: they ask once, then send it with every request
// of the status page, its refreshes and links).
#pragma once

#include "error/refusal.h"

#include <optional>
#include <string>
#include <string_view>

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace baton::coordinator {

// The realm browsers show when they ask for the token.
inline constexpr std::string_view kAuthRealm = "Baton coordinator (password: the API token)";

// True when `authorization` (the header's value) carries `token`; `token` must not be empty.
bool carries_token(std::string_view authorization, const std::string& token);

// The API's check before any route: nothing when `request` may go on (no token set, the
// token carried, or /metrics, which Prometheus scrapes without it: docs/metrics.md), else
// why not.
std::optional<error::Refusal> check_token(const httplib::Request& request, const std::string& token);

// Answers a request check_token refused: 401 saying why, with the header that makes
// browsers ask for the token.
void answer_unauthorized(httplib::Response& response, const error::Refusal& refused);

}  // namespace baton::coordinator

// The coordinator's API address as batonctl is given it (--coordinator, BATON_COORDINATOR):
// checked before any request, so a malformed URL is a usage error, not "unreachable".
#pragma once

#include <cstdint>
#include <string>

namespace baton::batonctl {

struct CoordinatorUrl {
  std::string host;  // a name or an address; IPv6 without its brackets
  std::uint16_t port = 80;
  std::string text;  // as given, without trailing slashes: "http://127.0.0.1:7070"
};

// Accepts http://HOST[:PORT] (also [IPv6] and HOST[:PORT] without the scheme); throws
// json::InputError naming the URL and what is wrong with it.
CoordinatorUrl parse_coordinator_url(const std::string& url);

// Why a connection to `url` failed, found by trying again: the resolver's answer for a name
// that does not resolve, else the connect's (e.g. "Connection refused", "timed out after 5 s").
std::string connection_failure(const CoordinatorUrl& url);

}  // namespace baton::batonctl

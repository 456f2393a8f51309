#include "coordinator/daemon/standby_routes.h"

#include "error/error.h"

#include <nlohmann/json.hpp>

#include <regex>

namespace baton::coordinator {

bool standby_answers(std::string_view method, std::string_view path) {
  if (method != "GET" && method != "HEAD") return false;
  static const std::regex journal_reads(R"(/metrics|/|/jobs/[^/]+|/v1/jobs(/[^/]+)?|/v1/calibrations(/[^/]+)?)");
  return std::regex_match(path.begin(), path.end(), journal_reads);
}

std::string leader_location(std::string_view leader, std::string_view target, std::string_view self) {
  const nlohmann::json value = nlohmann::json::parse(leader, nullptr, /*allow_exceptions=*/false);
  if (!value.is_object() || !value.contains("api") || !value.at("api").is_string() ||
      value.at("api").get_ref<const std::string&>().empty()) {
    throw error::InvalidInput("the leader key's value names no API address: " + std::string(leader));
  }
  const std::string& api = value.at("api").get_ref<const std::string&>();
  const std::string id = value.contains("id") && value.at("id").is_string() ? value.at("id").get<std::string>() : "?";
  if (id == self) {
    throw error::InvalidInput("the leader key still names this coordinator (" + id +
                              "), from a run of it whose lease has not lapsed yet; it lapses within the TTL");
  }
  for (const char* wildcard : {"0.0.0.0:", "[::]:", ":"}) {
    if (api.starts_with(wildcard)) {
      throw error::InvalidInput("the leader (" + id + ") serves its API at " + api +
                                ", an address no client can be sent to: set its api_address to one its clients "
                                "reach (docs/ha.md)");
    }
  }
  return "http://" + api + std::string(target);
}

}  // namespace baton::coordinator

#include "coordinator/daemon/spec_fields.h"

#include <algorithm>
#include <limits>

namespace baton::coordinator {

using json::InputError;
using json::Json;

std::vector<std::string> node_list(const Json& object, std::string_view parent, std::string_view name,
                                   std::size_t min) {
  const std::string path = json::member_path(parent, name);
  const Json& list = json::require_array(json::require_member(object, parent, name), path, min, kMaxNodes);
  std::vector<std::string> nodes;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = json::element_path(path, i);
    if (!list[i].is_string() || list[i].get<std::string>().empty())
      throw InputError(at + ": must be a non-empty node id");
    const std::string node = list[i].get<std::string>();
    const auto seen = std::ranges::find(nodes, node);
    if (seen != nodes.end()) {
      throw InputError(at + ": " + node + " is listed twice (" +
                       json::element_path(path, static_cast<std::size_t>(seen - nodes.begin())) + ")");
    }
    nodes.push_back(node);
  }
  return nodes;
}

std::string text(const Json& object, std::string_view parent, std::string_view name) {
  const Json& value = json::require_member(object, parent, name);
  if (!value.is_string() || value.get<std::string>().empty()) {
    throw InputError(json::member_path(parent, name) + ": must be a non-empty string");
  }
  return value.get<std::string>();
}

std::uint64_t whole(const Json& object, std::string_view parent, std::string_view name, std::int64_t min) {
  return static_cast<std::uint64_t>(json::require_integer(json::require_member(object, parent, name),
                                                          json::member_path(parent, name), min,
                                                          std::numeric_limits<std::int64_t>::max()));
}

std::string node_at(const Json& value, const std::string& path, const std::vector<std::string>& nodes) {
  if (!value.is_string() || value.get<std::string>().empty()) throw InputError(path + ": must be a non-empty node id");
  const std::string node = value.get<std::string>();
  if (std::ranges::find(nodes, node) == nodes.end()) throw InputError(path + ": " + node + " is not one of nodes");
  return node;
}

std::string node_of(const Json& object, std::string_view parent, std::string_view name,
                    const std::vector<std::string>& nodes) {
  return node_at(json::require_member(object, parent, name), json::member_path(parent, name), nodes);
}

collectives::Algorithm collective_algorithm(const Json& job, jobs::JobKind kind, const std::string& what) {
  const std::vector<collectives::Algorithm> choices = collectives::algorithms(kind);
  if (!job.contains("algorithm")) return choices.front();
  const std::string given = text(job, "", "algorithm");
  if (const auto parsed = collectives::parse_algorithm(kind, given)) return *parsed;
  std::string listed;
  for (const collectives::Algorithm c : choices)
    listed += (listed.empty() ? "" : ", ") + std::string(collectives::name(c));
  throw InputError("algorithm: unknown algorithm \"" + given + "\" for " + what + " (" + listed + ")");
}

}  // namespace baton::coordinator

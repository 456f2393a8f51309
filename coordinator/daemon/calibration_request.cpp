#include "coordinator/daemon/calibration_request.h"

#include "coordinator/json/input.h"

#include <set>

namespace baton::coordinator {
namespace {

using json::InputError;
using json::Json;

constexpr std::size_t kMaxNodes = 4096;
// The object, its two lists of at most kMaxNodes each, and flow_seconds: a document with
// more values is refused as it is parsed, before it takes more memory.
constexpr std::size_t kMaxValues = 1 + 2 * (1 + kMaxNodes) + 1;

std::vector<std::string> group(const Json& request, std::string_view name) {
  const Json& list = json::require_array(json::require_member(request, "", name), name, 1, kMaxNodes);
  std::vector<std::string> nodes;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string() || list[i].get<std::string>().empty())
      throw InputError(json::element_path(name, i) + ": must be a non-empty node id");
    if (list[i].get<std::string>().size() > kMaxNodeIdBytes) {
      throw InputError(json::element_path(name, i) + ": a node id of " +
                       std::to_string(list[i].get<std::string>().size()) + " bytes, longer than " +
                       std::to_string(kMaxNodeIdBytes));
    }
    nodes.push_back(list[i].get<std::string>());
  }
  return nodes;
}

}  // namespace

CalibrationRequest parse_calibration_request(const std::string& document) {
  if (document.size() > kMaxCalibrationBytes) {
    throw InputError("input: " + std::to_string(document.size()) + " bytes, more than a calibration request's " +
                     std::to_string(kMaxCalibrationBytes >> 20) + " MiB");
  }
  const Json request = json::parse_document(document, kMaxValues);
  json::require_object(request, "", {"senders", "receivers", "flow_seconds"});
  CalibrationRequest out;
  out.senders = group(request, "senders");
  out.receivers = group(request, "receivers");
  std::set<std::string> seen;
  for (const auto* list : {&out.senders, &out.receivers}) {
    for (const std::string& node : *list) {
      if (!seen.insert(node).second)
        throw InputError("node " + node + " is listed twice: a probe flow goes from a sender to another node");
    }
  }
  if (request.contains("flow_seconds"))
    out.probe.flow_seconds = json::require_number(request["flow_seconds"], "flow_seconds", 0.05, 10);
  return out;
}

}  // namespace baton::coordinator

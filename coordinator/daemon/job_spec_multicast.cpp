// The multicast and buffered-multicast jobs of docs/collectives.md:
//   {"kind": "multicast", "nodes": [...], "algorithm",
//    "multicasts": [{"source", "file", "offset", "length", "destinations": [...], "dst_file"}]}
//   {"kind": "buffered-multicast", "nodes": [...], "buffers", "algorithm", "messages": [same]}
#include "coordinator/daemon/job_spec.h"
#include "coordinator/daemon/spec_fields.h"
#include "coordinator/schedule/multicast/algorithms.h"

#include <algorithm>
#include <map>
#include <utility>

namespace baton::coordinator {
namespace {

using json::InputError;
using json::Json;

// A message's bytes are times in the planners (doubles): exact up to 2^53.
constexpr std::int64_t kMaxMessageBytes = std::int64_t{1} << 53;
constexpr std::int64_t kMaxBuffers = 1'000'000;

collectives::Message message(const Json& value, const std::string& path, const std::vector<std::string>& nodes,
                             std::size_t& deliveries) {
  json::require_object(value, path, {"source", "file", "offset", "length", "destinations", "dst_file"});
  collectives::Message m;
  m.source = node_of(value, path, "source", nodes);
  m.file = text(value, path, "file");
  if (value.contains("offset")) m.offset = whole(value, path, "offset", 0);
  if (value.contains("length")) {
    m.length = static_cast<std::uint64_t>(
        json::require_integer(value.at("length"), json::member_path(path, "length"), 1, kMaxMessageBytes));
  }
  m.dst_file = text(value, path, "dst_file");
  const std::string list_path = json::member_path(path, "destinations");
  const Json& list = json::require_array(json::require_member(value, path, "destinations"), list_path, 1, kMaxNodes);
  deliveries += list.size();
  if (deliveries > schedule::multicast::kMaxPlanDeliveries) {
    throw InputError(list_path + ": the messages name more than " +
                     std::to_string(schedule::multicast::kMaxPlanDeliveries) + " destinations in all (the limit)");
  }
  for (std::size_t d = 0; d < list.size(); ++d) {
    const std::string at = json::element_path(list_path, d);
    const std::string node = node_at(list[d], at, nodes);
    if (node == m.source) throw InputError(at + ": " + node + " is the message's own source");
    const auto seen = std::ranges::find(m.destinations, node);
    if (seen != m.destinations.end()) {
      throw InputError(at + ": " + node + " is listed twice (" +
                       json::element_path(list_path, static_cast<std::size_t>(seen - m.destinations.begin())) + ")");
    }
    m.destinations.push_back(node);
  }
  return m;
}

// No node writes one file twice (two messages into one dst_file) or writes a file it reads
// as a source: the bytes it sends could be overwritten before they leave.
void check_files(const std::vector<collectives::Message>& messages, const char* list) {
  std::map<std::pair<std::string, std::string>, std::string> written, read;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    read.emplace(std::pair{messages[i].source, messages[i].file}, std::string(list) + "[" + std::to_string(i) + "]");
  }
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const std::string field = std::string(list) + "[" + std::to_string(i) + "].dst_file";
    for (const std::string& d : messages[i].destinations) {
      const std::pair key{d, messages[i].dst_file};
      if (const auto r = read.find(key); r != read.end()) {
        throw InputError(field + ": " + d + " reads " + key.second + " as the source of " + r->second);
      }
      const auto [w, fresh] = written.emplace(key, std::string(list) + "[" + std::to_string(i) + "]");
      if (!fresh) throw InputError(field + ": " + d + " already receives " + w->second + " into " + key.second);
    }
  }
}

}  // namespace

collectives::CollectiveJob parse_multicast_job(const Json& job, jobs::JobKind kind) {
  const bool buffered = kind == jobs::JobKind::buffered_multicast;
  const char* list = buffered ? "messages" : "multicasts";
  if (buffered) json::require_object(job, "", {"kind", "nodes", "buffers", "algorithm", "messages", "priority"});
  else json::require_object(job, "", {"kind", "nodes", "algorithm", "multicasts", "priority"});
  collectives::CollectiveJob out;
  out.kind = kind;
  out.nodes = node_list(job, "", "nodes", 2);
  if (!buffered && out.nodes.size() > schedule::multicast::kMaxPlanNodes) {
    throw InputError("nodes: holds " + std::to_string(out.nodes.size()) + " nodes, more than the multicast planners' " +
                     std::to_string(schedule::multicast::kMaxPlanNodes));
  }
  if (buffered) {
    out.buffers = static_cast<std::size_t>(
        json::require_integer(json::require_member(job, "", "buffers"), "buffers", 1, kMaxBuffers));
  }
  out.algorithm = collective_algorithm(job, kind, buffered ? "a buffered-multicast" : "a multicast");
  const Json& messages =
      json::require_array(json::require_member(job, "", list), list, 1, schedule::multicast::kMaxPlanMulticasts);
  std::size_t deliveries = 0;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    out.messages.push_back(message(messages[i], json::element_path(list, i), out.nodes, deliveries));
  }
  check_files(out.messages, list);
  return out;
}

Json multicast_job_json(const collectives::CollectiveJob& job) {
  const bool buffered = job.kind == jobs::JobKind::buffered_multicast;
  Json out{{"kind", jobs::name(job.kind)}, {"nodes", job.nodes}};
  if (buffered) out["buffers"] = job.buffers;
  out["algorithm"] = collectives::name(job.algorithm);
  Json messages = Json::array();
  for (const collectives::Message& m : job.messages) {
    Json entry{{"source", m.source}, {"file", m.file}, {"offset", m.offset}};
    if (m.length) entry["length"] = *m.length;
    entry["destinations"] = m.destinations;
    entry["dst_file"] = m.dst_file;
    messages.push_back(std::move(entry));
  }
  out[buffered ? "messages" : "multicasts"] = std::move(messages);
  return out;
}

}  // namespace baton::coordinator

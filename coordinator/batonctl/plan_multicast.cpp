// `batonctl plan multicast`: multiple multicast schedules on heterogeneous nodes
// (the multiple-multicast paper) in docs/formats.md's shapes.
#include "coordinator/batonctl/plan_problems.h"
#include "coordinator/schedule/multicast/checked.h"
#include "coordinator/schedule/multicast/problem.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace baton::batonctl {
namespace {

namespace mc = baton::schedule::multicast;

// The planners' limits (schedule/multicast/algorithms.h).
constexpr auto kMaxMulticastNodes = static_cast<std::int64_t>(mc::kMaxPlanNodes);
constexpr std::size_t kMaxMulticasts = mc::kMaxPlanMulticasts;
constexpr std::size_t kMaxDeliveries = mc::kMaxPlanDeliveries;
constexpr std::int64_t kMaxMulticastBytes = std::int64_t{1} << 53;  // exact in a double
constexpr double kMaxFixed = 3600;                                  // seconds
constexpr double kMaxPerByte = 1;                                   // seconds per byte

std::string node_out_of_range(std::int64_t node, std::size_t nodes) {
  return ": node " + std::to_string(node) + " is out of range (nodes: " + std::to_string(nodes) + ")";
}

mc::NodeCosts read_node(const Json& value, const std::string& path) {
  require_object(value, path, {"send_fixed", "send_per_byte", "recv_fixed", "recv_per_byte"});
  const auto field = [&](const char* name, double max) {
    return require_number(require_member(value, path, name), member_path(path, name), 0, max);
  };
  return {.send_fixed = field("send_fixed", kMaxFixed),
          .send_per_byte = field("send_per_byte", kMaxPerByte),
          .recv_fixed = field("recv_fixed", kMaxFixed),
          .recv_per_byte = field("recv_per_byte", kMaxPerByte)};
}

// A number (the same X for every pair) or an n × n matrix; the diagonal is never used.
std::vector<std::vector<double>> read_links(const Json& value, std::size_t n) {
  const std::string path = "link_per_byte";
  if (value.is_number()) return mc::uniform_links(n, require_number(value, path, 0, kMaxPerByte));
  if (!value.is_array() || value.size() != n) {
    throw InputError(path + ": must be a number or a " + std::to_string(n) + " x " + std::to_string(n) +
                     " matrix (one row per node)" +
                     (value.is_array() ? ", not " + std::to_string(value.size()) + " rows" : ""));
  }
  std::vector<std::vector<double>> links(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    const std::string row_path = element_path(path, i);
    const Json& row = value[i];
    if (!row.is_array() || row.size() != n) {
      throw InputError(row_path + ": must be an array of " + std::to_string(n) + " numbers (one per node)");
    }
    for (std::size_t j = 0; j < n; ++j) {
      links[i][j] = require_number(row[j], element_path(row_path, j), 0, kMaxPerByte);
    }
  }
  return links;
}

mc::Multicast read_multicast(const Json& value, const std::string& path, std::size_t n, std::size_t& deliveries) {
  require_object(value, path, {"source", "bytes", "destinations"});
  const std::string source_path = member_path(path, "source");
  const std::int64_t source =
      require_integer(require_member(value, path, "source"), source_path, 0, kMaxMulticastNodes);
  if (static_cast<std::size_t>(source) >= n) throw InputError(source_path + node_out_of_range(source, n));
  mc::Multicast m{.source = static_cast<mc::NodeId>(source),
                  .bytes = static_cast<std::uint64_t>(require_integer(
                      require_member(value, path, "bytes"), member_path(path, "bytes"), 0, kMaxMulticastBytes)),
                  .destinations = {}};
  const std::string list_path = member_path(path, "destinations");
  // More than n - 1 entries must repeat a node, name the source or leave the range: the
  // element checks below say which.
  const Json& list = require_array(require_member(value, path, "destinations"), list_path, 0,
                                   static_cast<std::size_t>(kMaxMulticastNodes));
  deliveries += list.size();
  if (deliveries > kMaxDeliveries) {
    throw InputError(list_path + ": the multicasts name more than " + std::to_string(kMaxDeliveries) +
                     " destinations in all (the limit)");
  }
  std::vector<std::size_t> position(n, list.size());
  for (std::size_t d = 0; d < list.size(); ++d) {
    const std::string at = element_path(list_path, d);
    const std::int64_t node = require_integer(list[d], at, 0, kMaxMulticastNodes);
    if (static_cast<std::size_t>(node) >= n) throw InputError(at + node_out_of_range(node, n));
    if (node == source) {
      throw InputError(at + ": node " + std::to_string(node) + " is the multicast's own source");
    }
    std::size_t& seen = position[static_cast<std::size_t>(node)];
    if (seen != list.size()) {
      throw InputError(at + ": node " + std::to_string(node) + " repeats " + element_path(list_path, seen));
    }
    seen = d;
    m.destinations.push_back(static_cast<mc::NodeId>(node));
  }
  return m;
}

mc::Problem read_multicast_problem(const Json& input) {
  require_object(input, "", {"nodes", "link_per_byte", "multicasts"});
  mc::Problem problem;
  const Json& nodes =
      require_array(require_member(input, "", "nodes"), "nodes", 1, static_cast<std::size_t>(kMaxMulticastNodes));
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    problem.nodes.push_back(read_node(nodes[i], element_path("nodes", i)));
  }
  const std::size_t n = problem.nodes.size();
  problem.link_per_byte = read_links(require_member(input, "", "link_per_byte"), n);
  const Json& multicasts = require_array(require_member(input, "", "multicasts"), "multicasts", 0, kMaxMulticasts);
  std::size_t deliveries = 0;
  for (std::size_t k = 0; k < multicasts.size(); ++k) {
    problem.multicasts.push_back(read_multicast(multicasts[k], element_path("multicasts", k), n, deliveries));
  }
  return problem;
}

Json tasks_json(const std::vector<mc::TaskList>& tasks) {
  Json nodes = Json::array();
  for (const mc::TaskList& list : tasks) {
    Json node = Json::array();
    for (const mc::Task& t : list) {
      node.push_back({{"op", t.op == mc::Op::send ? "send" : "recv"},
                      {"peer", t.peer},
                      {"multicast", t.multicast},
                      {"start", t.start},
                      {"end", t.end}});
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

Json plan_multicast(const Json& input, const std::string& algorithm_name, std::uint64_t seed) {
  const mc::Problem problem = read_multicast_problem(input);
  const auto algorithm = mc::parse_algorithm(algorithm_name);
  if (!algorithm) throw InputError("--algo: unknown algorithm '" + algorithm_name + "'");
  const mc::CheckedMulticast plan = mc::checked_multicast(problem, {.algorithm = *algorithm, .seed = seed});
  return Json{{"problem", "multicast"},
              {"algorithm", algorithm_name},
              {"completion_time", plan.completion_time},
              {"lower_bound", plan.lower_bound},
              {"tasks", tasks_json(plan.tasks)}};
}

}  // namespace

PlanProblem multicast_plan_problem() {
  return {.name = "multicast",
          .summary = "Multiple multicast on heterogeneous nodes (FEF, ECF, WR, EAF, RR, RRS, preemptive forms)",
          .details = R"help(Input: {"nodes": [{"send_fixed": s, "send_per_byte": s, "recv_fixed": s,
"recv_per_byte": s}, ...], "link_per_byte": X, "multicasts": [{"source": i,
"bytes": m, "destinations": [j, ...]}, ...]}. Times in seconds. link_per_byte is one
number (every pair) or the n x n matrix X(i, j) (the diagonal is unused). Nodes are
0..n-1; destinations are distinct and never the source; a node may source several
multicasts.
Model: sending m bytes occupies the sender for S = send_fixed + send_per_byte*m
(non-blocking: it may then send again); the message reaches j's buffer X(i, j)*m later;
receiving occupies j for R = recv_fixed + recv_per_byte*m, starting no earlier than the
arrival (blocking). Only the source and the destinations of a multicast may relay it,
and only after their receive of it has ended.
Algorithms: fef, ecf, wr, eaf, rr, rrs and the preemptive ecfp, wrp (default), eafp,
rrp, rrsp, which put sends into the idle time before a receive whose message has not
arrived yet. rrs and rrsp choose receivers at random: --seed N makes them reproducible.
Limits: at most 256 nodes, 4096 multicasts, 8192 destinations in all, 2^53 bytes per
message, 3600 s fixed costs, 1 s per byte. ecf and ecfp are O(N^5) on all-to-all and
take several seconds at the limits; the others less than one.
Output: {"problem", "algorithm", "completion_time", "lower_bound", "tasks"}:
tasks[i] is node i's list, executed in order, of {"op": "send"|"recv", "peer",
"multicast", "start", "end"}; a receive starts when the node is free and the message
has arrived. lower_bound is the paper's earliest-reach-first bound (Section 3.2).
Example:
  echo '{"nodes": [{"send_fixed": 8e-5, "send_per_byte": 1e-9, "recv_fixed": 9e-5,
  "recv_per_byte": 2e-9}, {"send_fixed": 1e-4, "send_per_byte": 1e-9,
  "recv_fixed": 1e-4, "recv_per_byte": 1e-9}], "link_per_byte": 8e-9,
  "multicasts": [{"source": 0, "bytes": 1024, "destinations": [1]}]}' |
  batonctl plan multicast - --algo ecfp)help",
          .algorithms = mc::algorithm_names(),
          .default_algorithm = mc::name(mc::kDefaultAlgorithm),
          .takes_seed = true,
          .plan = plan_multicast};
}

}  // namespace baton::batonctl

#include "coupling/handoff_job.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

namespace baton::coupling {

namespace {

// Each node's declared rate, or none unless every node has one.
std::optional<std::vector<double>> own_rates(const std::vector<std::string>& nodes,
                                             const std::map<std::string, double>& declared) {
  std::vector<double> out;
  for (const std::string& node : nodes) {
    const auto found = declared.find(node);
    if (found == declared.end()) return std::nullopt;
    out.push_back(found->second);
  }
  return out;
}

}  // namespace

std::string handoff_job(const std::string& name, const Layout& from, const Layout& to, const HandoffPlatform& platform,
                        const std::map<std::string, double>& declared, bool keep_plan) {
  using Json = nlohmann::json;
  // As runs of transfers (a column block's rows are one): the coordinator expands them to
  // the same transfers, but parses and journals a few hundred bytes per run instead of
  // one object per row (docs/embedding.md, "What a handoff costs").
  Json runs = Json::array();
  for (const PieceRun& r : piece_runs(redistribution(from, to), from, to)) {
    runs.push_back({{"src_node", from.nodes[r.first.src]},
                    {"src_file", name},
                    {"src_offset", r.first.src_offset},
                    {"src_stride", r.src_stride},
                    {"length", r.first.length},
                    {"dst_node", to.nodes[r.first.dst]},
                    {"dst_file", name},
                    {"dst_offset", r.first.dst_offset},
                    {"dst_stride", r.dst_stride},
                    {"count", r.count}});
  }
  const std::optional<std::vector<double>> sends = own_rates(from.nodes, declared);
  const std::optional<std::vector<double>> receives = own_rates(to.nodes, declared);
  const bool own = sends && receives;
  // No shared bottleneck unless one is given: the backbone carries what either group can,
  // and min(P, Q) flows of the fastest pair (so that k is min(P, Q), as on one rate).
  const double links = static_cast<double>(std::min(from.nodes.size(), to.nodes.size()));
  const double unshared = own ? std::max(std::min(std::accumulate(sends->begin(), sends->end(), 0.0),
                                                  std::accumulate(receives->begin(), receives->end(), 0.0)),
                                         std::min(std::ranges::max(*sends), std::ranges::max(*receives)) * links)
                              : platform.rate * links;
  Json job_platform = {{"sender_rate", platform.rate},
                       {"receiver_rate", platform.rate},
                       {"backbone_rate", platform.backbone_rate > 0 ? platform.backbone_rate : unshared},
                       {"step_startup", platform.step_startup}};
  if (own) {
    job_platform["sender_rates"] = *sends;
    job_platform["receiver_rates"] = *receives;
  }
  Json job = {{"senders", from.nodes},
              {"receivers", to.nodes},
              {"platform", std::move(job_platform)},
              {"transfer_runs", std::move(runs)}};
  if (!platform.algorithm.empty()) job["algorithm"] = platform.algorithm;
  if (keep_plan) job["keep_plan"] = true;
  return job.dump();
}

}  // namespace baton::coupling

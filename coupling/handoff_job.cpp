#include "coupling/handoff_job.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace baton::coupling {

std::string handoff_job(const std::string& name, const Layout& from, const Layout& to,
                        const HandoffPlatform& platform) {
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
  const double links = static_cast<double>(std::min(from.nodes.size(), to.nodes.size()));
  Json job = {{"senders", from.nodes},
              {"receivers", to.nodes},
              {"platform",
               {{"sender_rate", platform.rate},
                {"receiver_rate", platform.rate},
                {"backbone_rate", platform.backbone_rate > 0 ? platform.backbone_rate : platform.rate * links},
                {"step_startup", platform.step_startup}}},
              {"transfer_runs", std::move(runs)}};
  if (!platform.algorithm.empty()) job["algorithm"] = platform.algorithm;
  return job.dump();
}

}  // namespace baton::coupling

#include "coupling/handoff_job.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace baton::coupling {

std::string handoff_job(const std::string& name, const Layout& from, const Layout& to,
                        const HandoffPlatform& platform) {
  using Json = nlohmann::json;
  Json transfers = Json::array();
  for (const Piece& p : redistribution(from, to)) {
    transfers.push_back({{"src_node", from.nodes[p.src]},
                         {"src_file", name},
                         {"src_offset", p.src_offset},
                         {"length", p.length},
                         {"dst_node", to.nodes[p.dst]},
                         {"dst_file", name},
                         {"dst_offset", p.dst_offset}});
  }
  const double links = static_cast<double>(std::min(from.nodes.size(), to.nodes.size()));
  Json job = {{"senders", from.nodes},
              {"receivers", to.nodes},
              {"platform",
               {{"sender_rate", platform.rate},
                {"receiver_rate", platform.rate},
                {"backbone_rate", platform.backbone_rate > 0 ? platform.backbone_rate : platform.rate * links},
                {"step_startup", platform.step_startup}}},
              {"transfers", std::move(transfers)}};
  if (!platform.algorithm.empty()) job["algorithm"] = platform.algorithm;
  return job.dump();
}

}  // namespace baton::coupling

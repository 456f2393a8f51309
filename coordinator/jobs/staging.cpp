#include "coordinator/jobs/staging.h"

#include <stdexcept>

namespace baton::jobs {

std::set<NodeFile> staged_destinations(const std::vector<TransferSpec>& transfers,
                                       const std::map<std::string, std::string>& storage_of) {
  const auto storage = [&](const std::string& node) {
    const auto found = storage_of.find(node);
    // A node whose storage is unknown shares it with no other node.
    return found == storage_of.end() || found->second.empty() ? "node:" + node : found->second;
  };
  std::set<std::pair<std::string, std::string>> read;  // (storage, file)
  for (const TransferSpec& t : transfers) read.insert({storage(t.src_node), t.src_file});

  std::set<NodeFile> staged;
  std::map<std::pair<std::string, std::string>, std::string> writer;  // (storage, file) -> the node staging it
  for (const TransferSpec& t : transfers) {
    const std::pair<std::string, std::string> where{storage(t.dst_node), t.dst_file};
    if (!read.contains(where)) continue;
    if (where.first.starts_with("memory:")) {
      throw std::invalid_argument("node " + t.dst_node + " reads and writes its memory region '" + t.dst_file +
                                  "' in one job, which cannot be staged: register a separate output region");
    }
    const auto [it, first] = writer.emplace(where, t.dst_node);
    if (!first && it->second != t.dst_node) {
      throw std::invalid_argument("nodes " + it->second + " and " + t.dst_node + " share a data root and both write " +
                                  t.dst_file + ", which the job also reads: it cannot be staged safely");
    }
    staged.insert({t.dst_node, t.dst_file});
  }
  return staged;
}

std::string staging_name(const std::string& file, const std::string& tag) {
  const auto slash = file.rfind('/');
  const std::string directory = slash == std::string::npos ? "" : file.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? file : file.substr(slash + 1);
  return directory + "." + name + ".baton-" + tag;
}

void stage_plans(std::map<std::string, protocol::Plan>& plans, const std::set<NodeFile>& staged,
                 const std::string& tag) {
  for (const auto& [node, file] : staged) {
    const auto found = plans.find(node);
    if (found == plans.end()) continue;
    protocol::Plan& plan = found->second;
    const std::string staging = staging_name(file, tag);
    protocol::StagedFile& entry = *plan.add_staged();
    entry.set_file(file);
    entry.set_staging(staging);
    for (protocol::Step& step : *plan.mutable_steps()) {
      for (protocol::Flow& flow : *step.mutable_flows()) {
        if (flow.send()) continue;
        for (protocol::Chunk& chunk : *flow.mutable_chunks()) {
          if (chunk.dst_file() == file) chunk.set_dst_file(staging);
        }
      }
    }
  }
}

}  // namespace baton::jobs

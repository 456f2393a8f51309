#include "coordinator/jobs/in_place_staging.h"

#include "error/error.h"

#include <algorithm>

namespace baton::jobs {

namespace {

// The key of each (node, name) the transfers use, computed once per pair: a job may hold
// millions of transfers over a handful of files.
class Keys {
 public:
  explicit Keys(const FileIdentities& files) : files_(files) {}
  const std::string& operator()(const std::string& node, const std::string& name) {
    auto found = keys_.find({node, name});
    if (found == keys_.end()) found = keys_.emplace(NodeFile{node, name}, files_.key(node, name)).first;
    return found->second;
  }

 private:
  const FileIdentities& files_;
  std::map<NodeFile, std::string> keys_;
};

std::string one_file(const NodeFile& a, const NodeFile& b) {
  if (a.first == b.first) return "node " + a.first + "'s " + a.second + " and " + b.second + " are one file";
  if (a.second == b.second)
    return "nodes " + a.first + " and " + b.first + " share a data root and both write " + a.second;
  return a.first + "'s " + a.second + " and " + b.first + "'s " + b.second + " are one file (a shared data root)";
}

// Two transfers that write the same bytes of one file through different (node, name)
// pairs: check_transfers sees only one pair at a time.
void check_aliased_writes(const std::vector<TransferSpec>& transfers, Keys& keys) {
  std::map<std::string, std::set<NodeFile>> names;  // key -> the pairs writing it
  for (const TransferSpec& t : transfers) names[keys(t.dst_node, t.dst_file)].insert({t.dst_node, t.dst_file});
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::size_t>>> written;  // aliased key -> (offset, i)
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const std::string& key = keys(transfers[i].dst_node, transfers[i].dst_file);
    if (names[key].size() > 1) written[key].emplace_back(transfers[i].dst_offset, i);
  }
  for (auto& [key, ranges] : written) {
    std::sort(ranges.begin(), ranges.end());
    std::size_t reach = 0;  // the transfer whose range ends last so far
    for (std::size_t r = 1; r < ranges.size(); ++r) {
      const TransferSpec& prev = transfers[ranges[reach].second];
      const TransferSpec& t = transfers[ranges[r].second];
      if (prev.dst_offset + prev.length > t.dst_offset) {
        throw error::InvalidInput("transfers[" + std::to_string(ranges[r].second) + "]: writes over transfers[" +
                                  std::to_string(ranges[reach].second) +
                                  "]: " + one_file({prev.dst_node, prev.dst_file}, {t.dst_node, t.dst_file}));
      }
      if (t.dst_offset + t.length > prev.dst_offset + prev.length) reach = r;
    }
  }
}

}  // namespace

std::set<NodeFile> staged_destinations(const std::vector<TransferSpec>& transfers, const FileIdentities& files) {
  Keys keys(files);
  check_aliased_writes(transfers, keys);
  std::set<std::string> read;
  for (const TransferSpec& t : transfers) read.insert(keys(t.src_node, t.src_file));

  std::set<NodeFile> staged;
  std::map<std::string, NodeFile> writer;  // key -> the (node, name) staging it
  for (const TransferSpec& t : transfers) {
    const std::string& key = keys(t.dst_node, t.dst_file);
    if (!read.contains(key)) continue;
    if (files.in_memory(t.dst_node)) {
      throw error::InvalidInput("node " + t.dst_node + " reads and writes its memory region '" + t.dst_file +
                                "' in one job, which cannot be staged: register a separate output region");
    }
    const NodeFile dst{t.dst_node, t.dst_file};
    const auto [it, first] = writer.emplace(key, dst);
    if (!first && it->second != dst) {
      throw error::InvalidInput(one_file(it->second, dst) + ", which the job also reads: it cannot be staged safely" +
                                (it->second.first == dst.first ? " (name it one way)" : ""));
    }
    staged.insert(dst);
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

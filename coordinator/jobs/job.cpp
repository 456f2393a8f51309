#include "coordinator/jobs/job.h"

#include "coordinator/jobs/node_index.h"
#include "error/error.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace baton::jobs {

void check_transfers(const Clusters& clusters, const std::vector<TransferSpec>& transfers) {
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  // Destination ranges per (node, file), to find overlaps.
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<std::uint64_t, std::size_t>>> written;
  const NodeIndex senders(clusters.senders), receivers(clusters.receivers);
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const TransferSpec& t = transfers[i];
    const auto where = [i] { return "transfers[" + std::to_string(i) + "]"; };  // built only to say what is wrong
    if (t.length == 0) throw error::InvalidInput(where() + ": length must be > 0");
    if (t.src_offset > kMax - t.length || t.dst_offset > kMax - t.length) {
      throw error::InvalidInput(where() + ": offset + length overflows");
    }
    if (!senders.find(t.src_node)) {
      throw error::InvalidInput(where() + ": unknown source node '" + t.src_node + "'");
    }
    if (!receivers.find(t.dst_node)) {
      throw error::InvalidInput(where() + ": unknown destination node '" + t.dst_node + "'");
    }
    if (t.src_file.empty() || t.dst_file.empty()) throw error::InvalidInput(where() + ": empty file name");
    written[{t.dst_node, t.dst_file}].emplace_back(t.dst_offset, i);
  }
  for (auto& [file, ranges] : written) {
    std::sort(ranges.begin(), ranges.end());
    for (std::size_t r = 1; r < ranges.size(); ++r) {
      const TransferSpec& prev = transfers[ranges[r - 1].second];
      if (prev.dst_offset + prev.length > ranges[r].first) {
        throw error::InvalidInput("transfers[" + std::to_string(ranges[r].second) + "]: writes over transfers[" +
                                  std::to_string(ranges[r - 1].second) + "] in " + file.first + ":" + file.second);
      }
    }
  }
}

}  // namespace baton::jobs

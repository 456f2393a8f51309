#include "coordinator/jobs/node_index.h"

namespace baton::jobs {

NodeIndex::NodeIndex(const std::vector<std::string>& nodes) {
  index_.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) index_.emplace(nodes[i], i);
}

std::optional<std::size_t> NodeIndex::find(const std::string& node) const {
  const auto found = index_.find(node);
  if (found == index_.end()) return std::nullopt;
  return found->second;
}

}  // namespace baton::jobs

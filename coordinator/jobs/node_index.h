// Each node's index in a job's list of nodes, found in constant time: a job of T
// transfers looks up 2T nodes, and a linear search per lookup made checking and compiling
// a 1 024-node job O(T N) string compares on the coordinator.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace baton::jobs {

class NodeIndex {
 public:
  // A node listed twice keeps its first index, as a search from the front finds it.
  explicit NodeIndex(const std::vector<std::string>& nodes);

  // The node's index in the list, or nothing when it is not in it.
  std::optional<std::size_t> find(const std::string& node) const;

 private:
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace baton::jobs

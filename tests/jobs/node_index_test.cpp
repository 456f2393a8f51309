// NodeIndex answers what a search of the list from its front answers.
#include "coordinator/jobs/node_index.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace {

// The index a search from the front finds, the answer NodeIndex must give.
std::optional<std::size_t> searched(const std::vector<std::string>& nodes, const std::string& node) {
  const auto found = std::find(nodes.begin(), nodes.end(), node);
  if (found == nodes.end()) return std::nullopt;
  return static_cast<std::size_t>(found - nodes.begin());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(node_index)

BOOST_AUTO_TEST_CASE(each_node_its_first_index_and_others_none) {
  const std::vector<std::string> nodes = {"s0", "s1", "", "s10", "s1", "S0"};
  const baton::jobs::NodeIndex index(nodes);
  for (const std::string node : {"s0", "s1", "", "s10", "S0", "s2", "s", "s00"}) {
    BOOST_TEST((index.find(node) == searched(nodes, node)), "node '" << node << "'");
  }
  BOOST_TEST((index.find("s1") == std::optional<std::size_t>(1)));  // listed twice: the first
  BOOST_TEST(!baton::jobs::NodeIndex({}).find("s0"));
}

BOOST_AUTO_TEST_SUITE_END()

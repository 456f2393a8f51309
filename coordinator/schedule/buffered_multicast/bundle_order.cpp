#include "coordinator/schedule/buffered_multicast/bundle_order.h"

namespace baton::schedule::buffered_multicast {

std::vector<std::size_t> bundle_order(const Problem& problem) {
  std::vector<std::size_t> bundles_so_far(problem.processors, 0);
  std::vector<std::size_t> bundle(problem.messages.size(), 0);
  for (std::size_t m = 0; m < problem.messages.size(); ++m) {
    bundle[m] = ++bundles_so_far.at(problem.messages[m].source);
  }
  return bundle;
}

}  // namespace baton::schedule::buffered_multicast

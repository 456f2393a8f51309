#include "coordinator/schedule/kpbs/fluid.h"

#include "coordinator/schedule/kpbs/bandwidth_bound.h"
#include "error/error.h"

#include <algorithm>
#include <vector>

namespace baton::schedule::kpbs {
namespace {

struct Group {
  Matrix bytes;
  std::vector<std::size_t> sends, receives;  // flows per node
  Step step;
};

}  // namespace

Schedule fluid(const Matrix& bytes, const NodeRates& rates, std::size_t connection_limit) {
  if (connection_limit == 0) throw error::InvalidInput("fluid: the connection limit must be >= 1");
  std::vector<Transfer> pairs;
  for (std::size_t i = 0; i < bytes.senders(); ++i) {
    for (std::size_t j = 0; j < bytes.receivers(); ++j) {
      if (bytes.at(i, j) > 0) pairs.push_back({i, j, bytes.at(i, j)});
    }
  }
  std::ranges::stable_sort(pairs, std::ranges::greater{}, &Transfer::amount);
  std::vector<Group> groups;
  for (const Transfer& pair : pairs) {
    auto room = std::ranges::find_if(groups, [&](const Group& g) {
      return g.sends[pair.src] < connection_limit && g.receives[pair.dst] < connection_limit;
    });
    if (room == groups.end()) {
      room = groups.insert(groups.end(), Group{Matrix(bytes.senders(), bytes.receivers()),
                                               std::vector<std::size_t>(bytes.senders(), 0),
                                               std::vector<std::size_t>(bytes.receivers(), 0),
                                               {}});
    }
    room->bytes.at(pair.src, pair.dst) = pair.amount;
    ++room->sends[pair.src];
    ++room->receives[pair.dst];
    room->step.transfers.push_back(pair);
  }
  Schedule out;
  for (Group& g : groups) {
    g.step.duration = bandwidth_bound(g.bytes, rates);
    out.steps.push_back(std::move(g.step));
  }
  return out;
}

}  // namespace baton::schedule::kpbs

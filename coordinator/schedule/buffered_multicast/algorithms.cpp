#include "coordinator/schedule/buffered_multicast/algorithms.h"

#include "coordinator/schedule/buffered_multicast/coloring.h"
#include "coordinator/schedule/buffered_multicast/ordered_coloring.h"
#include "error/error.h"

namespace baton::schedule::buffered_multicast {

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> all{
      {"coloring", [](const Problem& p) { return coloring(p); }},
      {"ordered-coloring", [](const Problem& p) { return ordered_coloring(p); }},
  };
  return all;
}

const Algorithm& algorithm(const std::string& name) {
  for (const Algorithm& a : algorithms()) {
    if (a.name == name) return a;
  }
  throw error::InvalidInput("unknown buffered multicast algorithm: " + name);
}

}  // namespace baton::schedule::buffered_multicast

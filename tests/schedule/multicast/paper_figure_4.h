// The instance of the multiple-multicast paper's Figure 4 (docs/papers.md): four nodes,
// three multicasts of 1000 bytes, no link cost.
#pragma once

#include "coordinator/schedule/multicast/problem.h"

namespace baton::schedule::multicast::testing {

inline Problem figure_4_problem() {
  Problem p;
  p.nodes = {{1, 0, 3, 0}, {1, 0, 3, 0}, {2, 0, 6, 0}, {2, 0, 6, 0}};
  p.link_per_byte = uniform_links(4, 0);
  p.multicasts = {{0, 1000, {1, 2}}, {1, 1000, {2, 3}}, {2, 1000, {0, 1, 3}}};
  return p;
}

}  // namespace baton::schedule::multicast::testing

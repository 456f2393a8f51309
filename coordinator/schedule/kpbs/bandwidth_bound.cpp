#include "coordinator/schedule/kpbs/bandwidth_bound.h"

#include <algorithm>
#include <vector>

namespace baton::schedule::kpbs {

double bandwidth_bound(const Matrix& bytes, const NodeRates& rates) {
  std::vector<double> out(bytes.senders(), 0), in(bytes.receivers(), 0);
  double total = 0;
  for (std::size_t i = 0; i < bytes.senders(); ++i) {
    for (std::size_t j = 0; j < bytes.receivers(); ++j) {
      out[i] += bytes.at(i, j);
      in[j] += bytes.at(i, j);
      total += bytes.at(i, j);
    }
  }
  double bound = total / rates.backbone;
  for (std::size_t i = 0; i < out.size(); ++i) bound = std::max(bound, out[i] / rates.send.at(i));
  for (std::size_t j = 0; j < in.size(); ++j) bound = std::max(bound, in[j] / rates.receive.at(j));
  return bound;
}

}  // namespace baton::schedule::kpbs

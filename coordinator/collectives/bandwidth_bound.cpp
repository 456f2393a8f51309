#include "coordinator/collectives/bandwidth_bound.h"

#include <algorithm>
#include <map>

namespace baton::collectives {

double bandwidth_bound(const CollectiveJob& job, const CollectiveModel& model) {
  if (job.kind == jobs::JobKind::reduce || job.kind == jobs::JobKind::allreduce) {
    const auto m = static_cast<double>(job.data.bytes());
    double slowest = 0, sum = 0;
    for (const std::string& node : job.nodes) {
      const double r = model.nodes.at(node).rate;
      slowest = slowest == 0 ? r : std::min(slowest, r);
      sum += r;
    }
    const double one = m / slowest;
    if (job.kind == jobs::JobKind::reduce) return one;
    return std::max(one, 2.0 * static_cast<double>(job.nodes.size() - 1) * m / sum);
  }
  std::map<std::string, double> in, out;
  for (const Message& message : job.messages) {
    const auto bytes = static_cast<double>(message.length.value_or(0));
    out[message.source] += bytes;
    for (const std::string& d : message.destinations) in[d] += bytes;
  }
  double bound = 0;
  for (const std::string& node : job.nodes) {
    const double r = model.nodes.at(node).rate;
    bound = std::max({bound, in[node] / r, out[node] / r});
  }
  return bound;
}

}  // namespace baton::collectives

#include "coordinator/schedule/kpbs/validator.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace baton::schedule::kpbs {
namespace {

class Report {
 public:
  explicit Report(Validation& v) : v_(v) {}
  template <class... Parts>
  void error(const Parts&... parts) {
    if (v_.errors.size() >= 20) return;
    std::ostringstream out;
    (out << ... << parts);
    v_.errors.push_back(out.str());
  }

 private:
  Validation& v_;
};

bool close(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tolerance * std::max({1.0, std::fabs(a), std::fabs(b)});
}

}  // namespace

Validation validate(const Matrix& amounts, int k, double beta, const Schedule& schedule,
                    const ValidationOptions& options) {
  Validation v;
  Report report(v);
  const std::size_t n1 = amounts.senders(), n2 = amounts.receivers();
  Matrix moved(n1, n2);
  for (std::size_t s = 0; s < schedule.steps.size(); ++s) {
    const Step& step = schedule.steps[s];
    if (step.transfers.empty()) report.error("step ", s, ": no transfer");
    if (options.kpbs_rules && step.transfers.size() > static_cast<std::size_t>(k)) {
      report.error("step ", s, ": ", step.transfers.size(), " transfers, more than k = ", k);
    }
    std::set<std::size_t> senders, receivers;
    double longest = 0;
    for (const Transfer& t : step.transfers) {
      if (t.src >= n1 || t.dst >= n2) {
        report.error("step ", s, ": transfer ", t.src, "->", t.dst, " outside the matrix");
        continue;
      }
      if (!(amounts.at(t.src, t.dst) > 0)) {
        report.error("step ", s, ": transfer ", t.src, "->", t.dst, " has nothing to send");
      }
      if (!std::isfinite(t.amount) || !(t.amount > 0)) {
        report.error("step ", s, ": transfer ", t.src, "->", t.dst, " amount ", t.amount);
        continue;
      }
      if (options.kpbs_rules && !senders.insert(t.src).second) {
        report.error("step ", s, ": sender ", t.src, " in two transfers (1-port)");
      }
      if (options.kpbs_rules && !receivers.insert(t.dst).second) {
        report.error("step ", s, ": receiver ", t.dst, " in two transfers (1-port)");
      }
      moved.at(t.src, t.dst) += t.amount;
      longest = std::max(longest, t.amount);
    }
    const double duration = longest / options.rate;
    if (!close(step.duration, duration, options.tolerance)) {
      report.error("step ", s, ": duration ", step.duration, ", longest transfer takes ", duration);
    }
    v.cost += beta + duration;
  }
  for (std::size_t i = 0; i < n1; ++i) {
    for (std::size_t j = 0; j < n2; ++j) {
      if (!close(moved.at(i, j), amounts.at(i, j), options.tolerance)) {
        report.error("pair ", i, "->", j, ": moved ", moved.at(i, j), " of ", amounts.at(i, j));
      }
    }
  }
  return v;
}

}  // namespace baton::schedule::kpbs

#include "coordinator/schedule/kpbs/validator.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <vector>

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

// A shared (fluid) step: each node's flows within the limit, and its time long enough for
// every node's and the backbone's bytes at their rates.
void check_shared_step(std::size_t s, const Step& step, const ValidationOptions& options, Report& report) {
  const NodeRates& rates = *options.node_rates;
  std::vector<double> out(rates.send.size(), 0), in(rates.receive.size(), 0);
  std::vector<std::size_t> sends(rates.send.size(), 0), receives(rates.receive.size(), 0);
  double total = 0;
  for (const Transfer& t : step.transfers) {
    if (t.src >= out.size() || t.dst >= in.size()) continue;
    out[t.src] += t.amount;
    in[t.dst] += t.amount;
    total += t.amount;
    if (++sends[t.src] == options.connection_limit + 1) {
      report.error("step ", s, ": sender ", t.src, " has more than ", options.connection_limit, " flows");
    }
    if (++receives[t.dst] == options.connection_limit + 1) {
      report.error("step ", s, ": receiver ", t.dst, " has more than ", options.connection_limit, " flows");
    }
  }
  const auto at_least = [&](double seconds, const char* who, std::size_t node) {
    if (step.duration < seconds * (1 - options.tolerance)) {
      report.error("step ", s, ": duration ", step.duration, " puts ", who, " ", node, " above its rate (needs ",
                   seconds, ")");
    }
  };
  for (std::size_t i = 0; i < out.size(); ++i) at_least(out[i] / rates.send[i], "sender", i);
  for (std::size_t j = 0; j < in.size(); ++j) at_least(in[j] / rates.receive[j], "receiver", j);
  at_least(total / rates.backbone, "the backbone of step", s);
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
      const double rate = options.node_rates ? pair_rate(*options.node_rates, t.src, t.dst) : options.rate;
      longest = std::max(longest, t.amount / rate);
    }
    if (options.shared && !options.node_rates) {
      report.error("step ", s, ": shared links need each node's rate");
    } else if (options.shared) {
      check_shared_step(s, step, options, report);
      v.cost += beta + step.duration;
      continue;
    }
    const double duration = longest;
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

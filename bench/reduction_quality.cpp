// SNF and the binomial tree against the optimum, on random clusters with two and three
// speed classes (issue 5; the SNF paper, Theorems 2 and 4, Fig. 8).
//
//   reduction_quality [--quick] > reduction_quality.csv      (or bench/reduction.sh)
//
// Two classes: times {1, r} for r = 1.25 ... 3; per cluster a share of slow nodes drawn
// from [0.05, 0.95], then each node slow with that probability; n up to 256, powers of two
// and one more (SNF behaves differently on them); the optimum is the two-class DP.
// Three classes: times {1, a, b} with a, b drawn from [1, 4), each node's class uniform,
// n up to 17; the optimum is the guided branch and bound, capped in time per cluster
// (clusters it does not finish are left out: `solved` counts the others).
// CSV, one row per (classes, speeds, nodes): the mean and worst makespan over the optimum
// of SNF and of the binomial tree, and the share of clusters where SNF is optimal.
#include "coordinator/schedule/reduction/binomial_tree.h"
#include "coordinator/schedule/reduction/guided_search.h"
#include "coordinator/schedule/reduction/snf.h"
#include "coordinator/schedule/reduction/two_class_dp.h"
#include "coordinator/schedule/reduction/validator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace red = baton::schedule::reduction;

namespace {

struct Options {
  bool quick = false;
};

struct Tally {
  int trials = 0;
  int solved = 0;
  int snf_optimal = 0;
  double snf_sum = 0, snf_max = 0, binomial_sum = 0, binomial_max = 0;

  void add(double snf, double binomial, double optimum) {
    ++solved;
    snf_sum += snf / optimum;
    snf_max = std::max(snf_max, snf / optimum);
    binomial_sum += binomial / optimum;
    binomial_max = std::max(binomial_max, binomial / optimum);
    snf_optimal += snf <= optimum * (1 + 1e-12) ? 1 : 0;
  }
};

double checked_makespan(const red::Problem& problem, const red::Schedule& schedule) {
  const red::Verdict verdict = red::validate_reduction(problem, schedule);
  if (verdict.broken) throw std::logic_error("invalid schedule: " + verdict.broken->reason);
  return verdict.makespan;
}

void print(int classes, const std::string& speeds, std::size_t nodes, const Tally& t) {
  const double solved = std::max(t.solved, 1);
  std::printf("%d,%s,%zu,%d,%d,%.6f,%.6f,%.6f,%.6f,%.4f\n", classes, speeds.c_str(), nodes, t.trials, t.solved,
              t.snf_sum / solved, t.snf_max, t.binomial_sum / solved, t.binomial_max, t.snf_optimal / solved);
  std::fflush(stdout);
}

red::Problem random_cluster(std::mt19937_64& rng, std::size_t n, const std::vector<double>& speeds) {
  std::uniform_int_distribution<std::size_t> pick(0, speeds.size() - 1);
  red::Problem problem{.times = {}, .destination = 0};
  for (std::size_t p = 0; p < n; ++p) problem.times.push_back(speeds[pick(rng)]);
  return problem;
}

red::Problem random_two_class_cluster(std::mt19937_64& rng, std::size_t n, double slow_time) {
  std::uniform_real_distribution<double> share(0.05, 0.95);
  std::bernoulli_distribution slow(share(rng));
  red::Problem problem{.times = {}, .destination = 0};
  for (std::size_t p = 0; p < n; ++p) problem.times.push_back(slow(rng) ? slow_time : 1.0);
  return problem;
}

void two_classes(const Options& options) {
  const std::vector<std::size_t> sizes = options.quick
                                             ? std::vector<std::size_t>{8, 9, 16, 17}
                                             : std::vector<std::size_t>{8, 9, 16, 17, 32, 33, 64, 65, 128, 129, 256};
  const int trials = options.quick ? 5 : 30;
  for (double ratio : {1.25, 1.5, 1.75, 2.0, 3.0}) {
    for (std::size_t n : sizes) {
      std::mt19937_64 rng(1000 * n + static_cast<std::uint64_t>(ratio * 100));
      Tally tally;
      for (int trial = 0; trial < trials; ++trial) {
        const red::Problem problem = random_two_class_cluster(rng, n, ratio);
        ++tally.trials;
        const red::DpResult optimum = red::two_class_dp(problem);
        tally.add(checked_makespan(problem, red::snf(problem)), checked_makespan(problem, red::binomial_tree(problem)),
                  checked_makespan(problem, optimum.schedule));
      }
      char speeds[32];
      std::snprintf(speeds, sizeof speeds, "1:%.2f", ratio);
      print(2, speeds, n, tally);
    }
  }
}

void three_classes(const Options& options) {
  const std::vector<std::size_t> sizes =
      options.quick ? std::vector<std::size_t>{8, 9, 12} : std::vector<std::size_t>{8, 9, 12, 16, 17};
  const int trials = options.quick ? 4 : 20;
  const auto cap = std::chrono::duration<double>(options.quick ? 0.5 : 3.0);
  for (std::size_t n : sizes) {
    std::mt19937_64 rng(77 + n);
    std::uniform_real_distribution<double> speed(1, 4);
    Tally tally;
    for (int trial = 0; trial < trials; ++trial) {
      const red::Problem problem = random_cluster(rng, n, {1.0, speed(rng), speed(rng)});
      ++tally.trials;
      const auto deadline = std::chrono::steady_clock::now() + cap;
      const red::SearchResult optimum = red::guided_search(
          problem, {.max_nodes = 0, .stop_requested = [&] { return std::chrono::steady_clock::now() > deadline; }});
      if (!optimum.complete) continue;
      tally.add(checked_makespan(problem, red::snf(problem)), checked_makespan(problem, red::binomial_tree(problem)),
                optimum.makespan);
    }
    print(3, "random", n, tally);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      options.quick = true;
    } else {
      std::fprintf(stderr, "usage: reduction_quality [--quick]\n");
      return 2;
    }
  }
  std::printf(
      "classes,speeds,nodes,trials,solved,snf_over_opt_mean,snf_over_opt_max,"
      "binomial_over_opt_mean,binomial_over_opt_max,snf_optimal_share\n");
  two_classes(options);
  three_classes(options);
  return 0;
}

// The kpbs paper's Section 8 simulation: random 20×20 graphs (number of edges, edges and
// weights drawn uniformly), small weights 1..20 and large weights 1..100000, β = 1,
// k = 1..20. For GGP, OGGP and both heuristics, on the same graphs: average and maximum
// evaluation ratio cost/η, steps, and planning time. Every plan is checked by the validator.
//
//   build/release/bench/kpbs_quality [--samples N] [--quick] > quality.jsonl
//   bench/kpbs_quality_chart.sh quality.jsonl docs/kpbs-quality.svg
//
// One JSON object per (weights, k, algorithm). The paper used 100,000 graphs per point;
// the default here is 1000 (--quick: 100).
#include "bench/kpbs_random.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/validator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

namespace kpbs = baton::schedule::kpbs;

namespace {

struct Tally {
  double ratio_sum = 0, ratio_max = 0, steps_sum = 0, seconds = 0;
  std::size_t steps_max = 0, invalid = 0;
};

}  // namespace

int main(int argc, char** argv) {
  int samples = 1000;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      samples = 100;
    } else if (std::strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
      samples = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: kpbs_quality [--samples N | --quick]\n");
      return 2;
    }
  }
  const kpbs::Algorithm algorithms[] = {kpbs::Algorithm::ggp, kpbs::Algorithm::oggp, kpbs::Algorithm::heuristic_weights,
                                        kpbs::Algorithm::heuristic_degrees};
  const std::pair<const char*, long> weights[] = {{"small", 20}, {"large", 100000}};
  std::size_t invalid_total = 0;
  for (const auto& [weight_name, max_weight] : weights) {
    std::mt19937_64 rng(max_weight);
    for (int k = 1; k <= 20; ++k) {
      Tally tally[4];
      double eta_steps = 0;
      for (int n = 0; n < samples; ++n) {
        const kpbs::Problem p{baton::bench::paper_random_matrix(rng, 20, 20, 1, 400, max_weight), k, 1.0};
        const kpbs::LowerBound bound = kpbs::lower_bound(p);
        eta_steps += static_cast<double>(bound.eta_s);
        for (int a = 0; a < 4; ++a) {
          const auto start = std::chrono::steady_clock::now();
          const kpbs::Schedule s = kpbs::plan(p, algorithms[a]);
          tally[a].seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, s);
          if (!v.ok()) ++tally[a].invalid;
          const double ratio = v.cost / bound.eta;
          tally[a].ratio_sum += ratio;
          tally[a].ratio_max = std::max(tally[a].ratio_max, ratio);
          tally[a].steps_sum += static_cast<double>(s.steps.size());
          tally[a].steps_max = std::max(tally[a].steps_max, s.steps.size());
        }
      }
      for (int a = 0; a < 4; ++a) {
        invalid_total += tally[a].invalid;
        std::printf(
            "{\"bench\":\"kpbs_quality\",\"weights\":\"%s\",\"k\":%d,\"algorithm\":\"%s\",\"samples\":%d,"
            "\"ratio_mean\":%.5f,\"ratio_max\":%.5f,\"steps_mean\":%.2f,\"steps_max\":%zu,"
            "\"eta_steps_mean\":%.2f,\"plan_us_mean\":%.1f,\"invalid\":%zu}\n",
            weight_name, k, std::string(kpbs::name(algorithms[a])).c_str(), samples, tally[a].ratio_sum / samples,
            tally[a].ratio_max, tally[a].steps_sum / samples, tally[a].steps_max, eta_steps / samples,
            1e6 * tally[a].seconds / samples, tally[a].invalid);
      }
      std::fflush(stdout);
    }
  }
  return invalid_total == 0 ? 0 : 1;
}

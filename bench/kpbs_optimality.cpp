// How far GGP, OGGP and OGGP+ (oggp_plus.h) are from the optimum, and OGGP+ beside GGP
// and OGGP on the kpbs paper's Section 8 setting, all measured side by side in one run.
//
//   build/release/bench/kpbs_optimality [--quick] [--samples N] [--exact-samples N]
//                                       [--time-limit SECONDS] > optimality.jsonl
//   bench/kpbs_optimality_chart.sh optimality.jsonl docs/redistribution-beyond-oggp.svg
//
// Part "exact": random n×n instances (n = 4 or 5) with m = 6..12 edges, weights 1..20,
// β = 1, k = 2..4, solved by the exact solver (kpbs_exact/exact.h) within the
// time limit (default 5 s, --quick 1 s). One JSON line per (k, m, algorithm): on the
// instances solved to optimality, the mean and max of cost/optimum; how many hit the
// limit, and for those the mean gap between the best plan and the solver's bound.
// Part "section8": 20×20 random graphs drawn as bench/kpbs_random.h does, weights 1..20
// and 1..100000, β = 1, k = 1..20 (default 100 graphs per point, --quick 20): mean and
// max cost/η, steps, planning time (CPU time of the thread), and planning time relative
// to OGGP. Then one summary
// line per weight range: OGGP+'s cut of OGGP's mean and worst excess over η. Every plan
// is checked by the validator; the exit code is 1 if any is invalid.
#include "bench/kpbs_random.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "coordinator/schedule/kpbs_exact/exact.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace kpbs = baton::schedule::kpbs;
namespace kpbs_exact = baton::schedule::kpbs_exact;

namespace {

struct Settings {
  int samples = 100;       // Section 8 graphs per (weights, k)
  int exact_samples = 20;  // small instances per (k, m)
  double time_limit = 5;   // seconds per exact solve
};

const kpbs::Algorithm kCompared[] = {kpbs::Algorithm::ggp, kpbs::Algorithm::oggp, kpbs::Algorithm::oggp_plus};
constexpr int kAlgorithms = 3;
constexpr int kOggp = 1, kPlus = 2;

std::size_t invalid_plans = 0;

// CPU time of this thread: the planners are single-threaded, and the machines the
// benchmarks run on are shared, so wall time would measure the neighbours too.
double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double checked_cost(const kpbs::Problem& p, const kpbs::Schedule& s) {
  const kpbs::Validation v = kpbs::validate(p.times, p.k, p.beta, s);
  if (!v.ok()) ++invalid_plans;
  return v.cost;
}

void exact_part(const Settings& settings) {
  std::mt19937_64 rng(2026);
  for (int k = 2; k <= 4; ++k) {
    for (std::size_t m = 6; m <= 12; m += 2) {
      double ratio_sum[kAlgorithms] = {}, ratio_max[kAlgorithms] = {};
      double opt_over_eta = 0, gap_sum = 0, solve_seconds = 0;
      int optimal = 0, limited = 0;
      for (int n = 0; n < settings.exact_samples; ++n) {
        const std::size_t side = m <= 8 ? 4 : 5;
        const kpbs::Problem p{baton::bench::paper_random_matrix(rng, side, side, m, m, 20), k, 1.0};
        const double start = cpu_seconds();
        const kpbs_exact::ExactResult exact = kpbs_exact::solve_exact(p, {.time_limit_seconds = settings.time_limit});
        solve_seconds += cpu_seconds() - start;
        checked_cost(p, exact.schedule);
        if (exact.status != kpbs_exact::ExactStatus::optimal) {
          ++limited;
          gap_sum += exact.gap();
          continue;
        }
        ++optimal;
        opt_over_eta += exact.cost / kpbs::lower_bound(p).eta;
        for (int a = 0; a < kAlgorithms; ++a) {
          const double ratio = checked_cost(p, kpbs::plan(p, kCompared[a])) / exact.cost;
          ratio_sum[a] += ratio;
          ratio_max[a] = std::max(ratio_max[a], ratio);
        }
      }
      for (int a = 0; a < kAlgorithms; ++a) {
        std::printf(
            "{\"bench\":\"kpbs_optimality\",\"part\":\"exact\",\"k\":%d,\"edges\":%zu,\"algorithm\":\"%s\","
            "\"instances\":%d,\"optimal\":%d,\"ratio_to_optimum_mean\":%.5f,\"ratio_to_optimum_max\":%.5f,"
            "\"optimum_over_eta_mean\":%.5f,\"time_limited\":%d,\"gap_when_limited_mean\":%.5f,"
            "\"solve_seconds_mean\":%.3f}\n",
            k, m, std::string(kpbs::name(kCompared[a])).c_str(), settings.exact_samples, optimal,
            optimal ? ratio_sum[a] / optimal : 0.0, ratio_max[a], optimal ? opt_over_eta / optimal : 0.0, limited,
            limited ? gap_sum / limited : 0.0, solve_seconds / settings.exact_samples);
      }
      std::fflush(stdout);
    }
  }
}

void section8_part(const Settings& settings) {
  const std::pair<const char*, long> weights[] = {{"small", 20}, {"large", 100000}};
  for (const auto& [weight_name, max_weight] : weights) {
    double cut_mean_sum = 0, cut_max_sum = 0, oggp_excess = 0, plus_excess = 0, oggp_worst = 0, plus_worst = 0;
    int points = 0;
    std::mt19937_64 rng(static_cast<std::uint64_t>(max_weight) + 8);
    for (int k = 1; k <= 20; ++k) {
      double ratio_sum[kAlgorithms] = {}, ratio_max[kAlgorithms] = {}, steps[kAlgorithms] = {},
             seconds[kAlgorithms] = {};
      for (int n = 0; n < settings.samples; ++n) {
        const kpbs::Problem p{baton::bench::paper_random_matrix(rng, 20, 20, 1, 400, max_weight), k, 1.0};
        const double eta = kpbs::lower_bound(p).eta;
        for (int a = 0; a < kAlgorithms; ++a) {
          const double start = cpu_seconds();
          const kpbs::Schedule s = kpbs::plan(p, kCompared[a]);
          seconds[a] += cpu_seconds() - start;
          const double ratio = checked_cost(p, s) / eta;
          ratio_sum[a] += ratio;
          ratio_max[a] = std::max(ratio_max[a], ratio);
          steps[a] += static_cast<double>(s.steps.size());
        }
      }
      for (int a = 0; a < kAlgorithms; ++a) {
        std::printf(
            "{\"bench\":\"kpbs_optimality\",\"part\":\"section8\",\"weights\":\"%s\",\"k\":%d,\"algorithm\":\"%s\","
            "\"samples\":%d,\"ratio_mean\":%.5f,\"ratio_max\":%.5f,\"steps_mean\":%.2f,\"plan_us_mean\":%.1f,"
            "\"time_ratio_to_oggp\":%.2f}\n",
            weight_name, k, std::string(kpbs::name(kCompared[a])).c_str(), settings.samples,
            ratio_sum[a] / settings.samples, ratio_max[a], steps[a] / settings.samples,
            1e6 * seconds[a] / settings.samples, seconds[a] / seconds[kOggp]);
      }
      std::fflush(stdout);
      const double oggp_mean = ratio_sum[kOggp] / settings.samples - 1,
                   plus_mean = ratio_sum[kPlus] / settings.samples - 1;
      if (oggp_mean > 0) {
        cut_mean_sum += 1 - plus_mean / oggp_mean;
        cut_max_sum += 1 - (ratio_max[kPlus] - 1) / (ratio_max[kOggp] - 1);
        ++points;
      }
      oggp_excess += oggp_mean;
      plus_excess += plus_mean;
      oggp_worst = std::max(oggp_worst, ratio_max[kOggp]);
      plus_worst = std::max(plus_worst, ratio_max[kPlus]);
    }
    std::printf(
        "{\"bench\":\"kpbs_optimality\",\"part\":\"summary\",\"weights\":\"%s\",\"points_with_excess\":%d,"
        "\"mean_excess_cut_per_k_mean\":%.4f,\"worst_excess_cut_per_k_mean\":%.4f,\"mean_excess_cut_overall\":%.4f,"
        "\"oggp_mean_excess_over_all_k\":%.5f,\"oggp_plus_mean_excess_over_all_k\":%.5f,"
        "\"oggp_worst\":%.5f,\"oggp_plus_worst\":%.5f}\n",
        weight_name, points, points ? cut_mean_sum / points : 0.0, points ? cut_max_sum / points : 0.0,
        oggp_excess > 0 ? 1 - plus_excess / oggp_excess : 0.0, oggp_excess / 20, plus_excess / 20, oggp_worst,
        plus_worst);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--quick") == 0) {
      settings.samples = 20;
      settings.exact_samples = 5;
      settings.time_limit = 1;
    } else if (std::strcmp(argv[i], "--samples") == 0 && has_value) {
      settings.samples = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--exact-samples") == 0 && has_value) {
      settings.exact_samples = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--time-limit") == 0 && has_value) {
      settings.time_limit = std::max(0.01, std::atof(argv[++i]));
    } else {
      std::fprintf(stderr,
                   "usage: kpbs_optimality [--quick] [--samples N] [--exact-samples N] [--time-limit SECONDS]\n");
      return 2;
    }
  }
  exact_part(settings);
  section8_part(settings);
  return invalid_plans == 0 ? 0 : 1;
}

// Planning time of GGP and OGGP against instance size, with the incremental peeling (the
// matching repaired across steps) side by side with the from-scratch variant in one run.
//
//   build/release/bench/kpbs_speed [--quick] [--scratch-limit SECONDS] > speed.jsonl
//
// Prints one JSON object per (instance, algorithm, variant) with the planning time (CPU
// and wall seconds; the speed-up is the ratio of CPU times) and peeling steps, then one line per algorithm with the exponent of time against edges
// (least-squares slope of log time over log m, incremental variant). A from-scratch run
// that passes --scratch-limit seconds (default 600) is reported as "timed_out" with the
// steps it managed; the speed-up printed then is a lower bound.
#include "bench/kpbs_random.h"
#include "coordinator/schedule/kpbs/ggp.h"
#include "coordinator/schedule/kpbs/oggp.h"
#include "coordinator/schedule/kpbs/validator.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace kpbs = baton::schedule::kpbs;

namespace {

struct Instance {
  std::string name;
  std::size_t n = 0;
  std::size_t edges = 0;  // 0: dense
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CPU time of this process: planning is single-threaded, and CPU time is far less
// disturbed than wall time by other work on a shared machine.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  double scratch_limit = 600;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--scratch-limit") == 0 && i + 1 < argc) {
      scratch_limit = std::stod(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: kpbs_speed [--quick] [--scratch-limit SECONDS]\n");
      return 2;
    }
  }
  std::vector<Instance> instances{{"dense 50x50", 50, 0}, {"dense 100x100", 100, 0}, {"dense 200x200", 200, 0}};
  if (!quick) {
    instances.push_back({"dense 400x400", 400, 0});
    instances.push_back({"sparse 1000x1000", 1000, 10000});
  }
  std::mt19937_64 rng(2026);
  struct Fit {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
  };
  Fit fits[2];
  for (const Instance& inst : instances) {
    const std::size_t m = inst.edges ? inst.edges : inst.n * inst.n;
    kpbs::Problem p{baton::bench::paper_random_matrix(rng, inst.n, inst.n, m, m, 100000), static_cast<int>(inst.n / 2),
                    1.0};
    for (int algo = 0; algo < 2; ++algo) {
      const char* algo_name = algo == 0 ? "ggp" : "oggp";
      double incremental_time = 0;
      for (bool incremental : {true, false}) {
        const auto start = std::chrono::steady_clock::now();
        const double cpu_start = cpu_seconds();
        kpbs::PeelOptions options{.incremental = incremental};
        if (!incremental) {
          options.keep_going = [&](std::size_t) { return seconds_since(start) < scratch_limit; };
        }
        kpbs::Schedule s;
        bool timed_out = false;
        std::size_t steps = 0;
        try {
          s = algo == 0 ? kpbs::ggp(p, options) : kpbs::oggp(p, options);
          steps = s.steps.size();
        } catch (const kpbs::PeelInterrupted& e) {
          timed_out = true;
          steps = e.steps_done;
        }
        const double wall = seconds_since(start);
        const double t = cpu_seconds() - cpu_start;
        bool valid = false;
        if (!timed_out) valid = kpbs::validate(p.times, p.k, p.beta, s).ok();
        if (incremental) incremental_time = t;
        if (incremental && inst.edges == 0) {  // the growth is fitted over the dense family
          Fit& f = fits[algo];
          f.sx += std::log(static_cast<double>(m));
          f.sy += std::log(t);
          f.sxx += std::log(static_cast<double>(m)) * std::log(static_cast<double>(m));
          f.sxy += std::log(static_cast<double>(m)) * std::log(t);
          ++f.n;
        }
        std::printf(
            "{\"bench\":\"kpbs_speed\",\"instance\":\"%s\",\"edges\":%zu,\"k\":%d,\"algorithm\":\"%s\","
            "\"variant\":\"%s\",\"cpu_seconds\":%.6f,\"wall_seconds\":%.6f,\"steps\":%zu,\"valid\":%s,\"timed_out\":%s%s}\n",
            inst.name.c_str(), m, p.k, algo_name, incremental ? "incremental" : "from-scratch", t, wall, steps,
            valid ? "true" : "false", timed_out ? "true" : "false",
            incremental ? ""
                        : (std::string(",\"speedup\":") + std::to_string(t / incremental_time) +
                           (timed_out ? ",\"speedup_is_lower_bound\":true" : ""))
                              .c_str());
        std::fflush(stdout);
      }
    }
  }
  for (int algo = 0; algo < 2; ++algo) {
    const Fit& f = fits[algo];
    const double slope = (f.n * f.sxy - f.sx * f.sy) / (f.n * f.sxx - f.sx * f.sx);
    std::printf(
        "{\"bench\":\"kpbs_speed_growth\",\"algorithm\":\"%s\",\"variant\":\"incremental\","
        "\"family\":\"dense\",\"time_exponent_in_edges\":%.3f}\n",
        algo == 0 ? "ggp" : "oggp", slope);
  }
  return 0;
}

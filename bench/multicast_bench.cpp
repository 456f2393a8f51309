// Multiple multicast on heterogeneous nodes: Section 7 of
// the multiple-multicast paper, every algorithm side by side in one run.
//
//   build/bench/multicast_bench [--quick] [--seed N] > multicast.jsonl
//   bench/multicast_chart.sh multicast.jsonl OUT_DIR     # SVG charts with gnuplot
//
// The platform of Section 7: per node, constant send/receive overheads uniform in
// [80, 400] µs and per-byte overheads uniform in [0.0001, 0.01] µs/byte; links of
// 1 Gbit/s ("fast"), 155 Mbit/s ("slow"), or each pair either at random ("mixed").
// Messages: small (1..1024 bytes), large (1 MiB or 1.5 MiB), or mixed (either).
// Prints one JSON object per line:
//   broadcast / all-to-all / multiple: mean completion time, mean lower bound, mean and
//     worst competitive ratio (completion / lower bound) per algorithm (Figures 6-12);
//   preemption: how often a preemptive algorithm finished later than its plain version;
//   scheduling-time: mean CPU microseconds per schedule (Tables 1 and 2);
//   exponent: least-squares slope of log(time) over log(N) for all-to-all, ours beside
//     the one of the paper's Table 1;
//   target: the paper's claims checked on this run; summary: schedules, invalid ones, time.
// Every schedule is checked by the independent validator.
#include "coordinator/schedule/multicast/algorithms.h"
#include "coordinator/schedule/multicast/lower_bound.h"
#include "coordinator/schedule/multicast/validator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <time.h>

namespace bm = baton::schedule::multicast;

namespace {

using Clock = std::chrono::steady_clock;

enum class Network { fast, slow, mixed };
enum class Lengths { small, large, mixed };

const char* network_name(Network n) { return n == Network::fast ? "fast" : n == Network::slow ? "slow" : "mixed"; }
const char* lengths_name(Lengths l) { return l == Lengths::small ? "small" : l == Lengths::large ? "large" : "mixed"; }

constexpr double kFastLink = 8.0 / 1e9;    // s/byte at 1 Gbit/s
constexpr double kSlowLink = 8.0 / 155e6;  // s/byte at 155 Mbit/s

struct Options {
  bool quick = false;
  std::uint64_t seed = 1;
};

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

bm::Problem section7_platform(std::mt19937_64& rng, std::size_t nodes, Network network) {
  bm::Problem p;
  for (std::size_t i = 0; i < nodes; ++i) {
    p.nodes.push_back({uniform(rng, 80e-6, 400e-6), uniform(rng, 1e-10, 1e-8), uniform(rng, 80e-6, 400e-6),
                       uniform(rng, 1e-10, 1e-8)});
  }
  p.link_per_byte = bm::uniform_links(nodes, 0);
  for (std::size_t i = 0; i < nodes; ++i) {
    for (std::size_t j = i + 1; j < nodes; ++j) {
      const bool fast = network == Network::fast || (network == Network::mixed && rng() % 2 == 0);
      p.link_per_byte[i][j] = p.link_per_byte[j][i] = fast ? kFastLink : kSlowLink;
    }
  }
  return p;
}

std::uint64_t message_length(std::mt19937_64& rng, Lengths lengths) {
  const bool large = lengths == Lengths::large || (lengths == Lengths::mixed && rng() % 2 == 0);
  if (large) return rng() % 2 == 0 ? 1'048'576 : 1'572'864;
  return 1 + rng() % 1024;
}

bm::Multicast broadcast_from(bm::NodeId source, std::size_t nodes, std::uint64_t bytes) {
  bm::Multicast m{source, bytes, {}};
  for (bm::NodeId d = 0; d < nodes; ++d) {
    if (d != source) m.destinations.push_back(d);
  }
  return m;
}

bm::Problem all_to_all(std::mt19937_64& rng, std::size_t nodes, Network network, Lengths lengths) {
  bm::Problem p = section7_platform(rng, nodes, network);
  for (bm::NodeId s = 0; s < nodes; ++s) {
    p.multicasts.push_back(broadcast_from(s, nodes, message_length(rng, lengths)));
  }
  return p;
}

// Section 7.3: `sources` distinct random sources, each with a random destination set
// (every other node with probability 1/2, at least one).
bm::Problem multiple_multicast(std::mt19937_64& rng, std::size_t nodes, std::size_t sources, Network network,
                               Lengths lengths) {
  bm::Problem p = section7_platform(rng, nodes, network);
  std::vector<bm::NodeId> order(nodes);
  for (bm::NodeId i = 0; i < nodes; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (std::size_t s = 0; s < sources; ++s) {
    bm::Multicast m{order[s], message_length(rng, lengths), {}};
    for (bm::NodeId d = 0; d < nodes; ++d) {
      if (d != m.source && rng() % 2 == 0) m.destinations.push_back(d);
    }
    if (m.destinations.empty()) m.destinations.push_back((m.source + 1) % nodes);
    p.multicasts.push_back(std::move(m));
  }
  return p;
}

struct Stats {
  double completion = 0;
  double bound = 0;
  double ratio = 0;
  double worst_ratio = 0;
  int runs = 0;
};

struct Totals {
  long schedules = 0;
  long invalid = 0;
  double wrp_worst_mean_ratio_64 = 0;
  double wrp_worst_ratio_64 = 0;
  std::map<std::string, std::pair<int, int>> preemptive_later;  // base -> (later, runs)
};

const std::vector<std::string>& algorithms() {
  static const std::vector<std::string> names = bm::algorithm_names();
  return names;
}

// Plans every problem with every algorithm, validates, and prints one line per algorithm.
// `target` marks the patterns of the paper's 2.5x claim (Sections 7.2 and 7.3: all-to-all
// and multiple multicast, not single broadcast).
void completion_point(const std::vector<bm::Problem>& problems, const std::string& fields, std::size_t nodes,
                      bool target, Totals& totals) {
  std::vector<Stats> stats(algorithms().size());
  for (const bm::Problem& p : problems) {
    const double bound = bm::earliest_reach_lower_bound(p);
    std::map<std::string, double> completion;
    for (std::size_t a = 0; a < algorithms().size(); ++a) {
      const bm::Schedule s = bm::plan(p, {.algorithm = *bm::parse_algorithm(algorithms()[a]), .seed = 7});
      const bm::Validation v = bm::validate(p, s.tasks);
      ++totals.schedules;
      if (!v.ok()) {
        ++totals.invalid;
        std::fprintf(stderr, "invalid %s schedule: %s\n", algorithms()[a].c_str(), v.errors.front().c_str());
      }
      const double ratio = v.completion_time / bound;
      stats[a].completion += v.completion_time;
      stats[a].bound += bound;
      stats[a].ratio += ratio;
      stats[a].worst_ratio = std::max(stats[a].worst_ratio, ratio);
      ++stats[a].runs;
      completion[algorithms()[a]] = v.completion_time;
      if (algorithms()[a] == "wrp" && nodes == 64 && target) {
        totals.wrp_worst_ratio_64 = std::max(totals.wrp_worst_ratio_64, ratio);
      }
    }
    for (const char* base : {"ecf", "wr", "eaf", "rr", "rrs"}) {
      auto& [later, runs] = totals.preemptive_later[base];
      later += completion[std::string(base) + "p"] > completion[base] ? 1 : 0;
      ++runs;
    }
  }
  for (std::size_t a = 0; a < algorithms().size(); ++a) {
    const Stats& s = stats[a];
    const double n = s.runs;
    std::printf(
        "{%s,\"algorithm\":\"%s\",\"runs\":%d,\"completion_mean_s\":%.6g,"
        "\"lower_bound_mean_s\":%.6g,\"ratio_mean\":%.4f,\"ratio_max\":%.4f}\n",
        fields.c_str(), algorithms()[a].c_str(), s.runs, s.completion / n, s.bound / n, s.ratio / n, s.worst_ratio);
    if (algorithms()[a] == "wrp" && nodes == 64 && target) {
      totals.wrp_worst_mean_ratio_64 = std::max(totals.wrp_worst_mean_ratio_64, s.ratio / n);
    }
  }
  std::fflush(stdout);
}

std::string fields(const char* experiment, std::size_t nodes, std::size_t sources, Network network, Lengths lengths) {
  char buffer[200];
  std::snprintf(buffer, sizeof buffer,
                "\"experiment\":\"%s\",\"nodes\":%zu,\"sources\":%zu,\"network\":\"%s\",\"messages\":\"%s\"",
                experiment, nodes, sources, network_name(network), lengths_name(lengths));
  return buffer;
}

// Section 7.1 / Figure 6: single broadcast from every node in turn.
void broadcast_experiment(const Options& o, std::mt19937_64& rng, Totals& totals) {
  const std::vector<std::size_t> sizes =
      o.quick ? std::vector<std::size_t>{8, 16, 32} : std::vector<std::size_t>{8, 16, 32, 64};
  const int configs = o.quick ? 2 : 5;
  for (std::size_t n : sizes) {
    std::vector<bm::Problem> problems;
    for (int c = 0; c < configs; ++c) {
      const bm::Problem platform = section7_platform(rng, n, Network::mixed);
      for (bm::NodeId s = 0; s < n; ++s) {
        bm::Problem p = platform;
        p.multicasts.push_back(broadcast_from(s, n, message_length(rng, Lengths::mixed)));
        problems.push_back(std::move(p));
      }
    }
    completion_point(problems, fields("broadcast", n, 1, Network::mixed, Lengths::mixed), n, false, totals);
  }
}

// Section 7.2 / Figures 7 and 8: all-to-all broadcast, fast and slow networks.
void all_to_all_experiment(const Options& o, std::mt19937_64& rng, Totals& totals) {
  const std::vector<std::size_t> sizes =
      o.quick ? std::vector<std::size_t>{8, 16, 32} : std::vector<std::size_t>{8, 16, 32, 64};
  const int configs = o.quick ? 2 : 6;
  for (Network network : {Network::fast, Network::slow}) {
    for (Lengths lengths : {Lengths::small, Lengths::large}) {
      for (std::size_t n : sizes) {
        std::vector<bm::Problem> problems;
        for (int c = 0; c < configs; ++c) problems.push_back(all_to_all(rng, n, network, lengths));
        completion_point(problems, fields("all-to-all", n, n, network, lengths), n, true, totals);
      }
    }
  }
}

// Section 7.3 / Figures 9-12: multiple multicast on 64 nodes.
void multiple_experiment(const Options& o, std::mt19937_64& rng, Totals& totals) {
  const std::size_t n = o.quick ? 32 : 64;
  const std::vector<std::size_t> source_counts =
      o.quick ? std::vector<std::size_t>{8, 32} : std::vector<std::size_t>{8, 16, 32, 64};
  const int configs = o.quick ? 2 : 6;
  for (Network network : {Network::fast, Network::slow}) {
    for (Lengths lengths : {Lengths::small, Lengths::large, Lengths::mixed}) {
      for (std::size_t sources : source_counts) {
        std::vector<bm::Problem> problems;
        for (int c = 0; c < configs; ++c) {
          problems.push_back(multiple_multicast(rng, n, sources, network, lengths));
        }
        completion_point(problems, fields("multiple", n, sources, network, lengths), n, true, totals);
      }
    }
  }
}

// CPU time of this thread in seconds: the machine may be shared, and wall-clock time
// would then measure the neighbours.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Mean CPU microseconds per schedule of `algorithm` over `problems`, repeating until at
// least 20 ms have been measured.
double scheduling_microseconds(const std::vector<bm::Problem>& problems, const std::string& algorithm) {
  const bm::PlanOptions options{.algorithm = *bm::parse_algorithm(algorithm), .seed = 7};
  long runs = 0;
  const double start = thread_cpu_seconds();
  double elapsed = 0;
  do {
    for (const bm::Problem& p : problems) {
      const bm::Schedule s = bm::plan(p, options);
      if (s.selection_order.size() != bm::delivery_count(p)) std::abort();
      ++runs;
    }
    elapsed = thread_cpu_seconds() - start;
  } while (elapsed < 0.02);
  return elapsed * 1e6 / static_cast<double>(runs);
}

// Least-squares slope of log(y) over log(x).
double loglog_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double mx = 0;
  double my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += std::log(x[i]);
    my += std::log(y[i]);
  }
  mx /= static_cast<double>(x.size());
  my /= static_cast<double>(x.size());
  double sxy = 0;
  double sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (std::log(x[i]) - mx) * (std::log(y[i]) - my);
    sxx += (std::log(x[i]) - mx) * (std::log(x[i]) - mx);
  }
  return sxy / sxx;
}

// The paper's Table 1 (µs, all-to-all), rows N = 16 .. 64 step 8, in algorithm_names() order.
const std::vector<double> kPaperTable1Nodes{16, 24, 32, 40, 48, 56, 64};
const std::map<std::string, std::vector<double>> kPaperTable1{
    {"fef", {5, 32, 127, 304, 602, 810, 1033}},
    {"ecf", {17, 121, 504, 1514, 3714, 8168, 15871}},
    {"wr", {1, 5, 17, 39, 58, 85, 136}},
    {"eaf", {1, 3, 9, 17, 35, 59, 97}},
    {"rr", {1, 4, 9, 22, 38, 67, 104}},
    {"rrs", {1, 5, 15, 32, 66, 89, 150}},
    {"ecfp", {47, 423, 2072, 7634, 19585, 46323, 88053}},
    {"wrp", {2, 14, 44, 117, 158, 315, 633}},
    {"eafp", {2, 11, 29, 72, 139, 250, 426}},
    {"rrp", {2, 10, 28, 68, 130, 233, 451}},
    {"rrsp", {3, 13, 42, 103, 242, 356, 716}},
};

// The paper's exponent over the same node counts as ours.
double paper_exponent(const std::string& algorithm, std::size_t from, std::size_t to) {
  std::vector<double> x;
  std::vector<double> y;
  const std::vector<double>& times = kPaperTable1.at(algorithm);
  for (std::size_t r = 0; r < kPaperTable1Nodes.size(); ++r) {
    const double n = kPaperTable1Nodes[r];
    if (n >= static_cast<double>(from) && n <= static_cast<double>(to)) {
      x.push_back(n);
      y.push_back(times[r]);
    }
  }
  return loglog_slope(x, y);
}

// Tables 1 and 2 and the exponents.
void scheduling_time_experiment(const Options& o, std::mt19937_64& rng, double& wr_exponent, double& ecf_exponent) {
  const std::vector<std::size_t> sizes =
      o.quick ? std::vector<std::size_t>{8, 16, 24, 32} : std::vector<std::size_t>{8, 16, 24, 32, 40, 48, 56, 64};
  const int instances = o.quick ? 1 : 2;
  // The fit starts at 24 nodes (16 in --quick): smaller schedules take microseconds, and
  // the paper's 16-node entries are rounded to 1 µs.
  const std::size_t from = o.quick ? 16 : 24;
  std::map<std::string, std::vector<double>> measured;
  std::vector<double> fit_nodes;
  for (std::size_t n : sizes) {
    std::vector<bm::Problem> problems;
    for (int c = 0; c < instances; ++c) problems.push_back(all_to_all(rng, n, Network::mixed, Lengths::small));
    for (const std::string& a : algorithms()) {
      const double us = scheduling_microseconds(problems, a);
      std::printf(
          "{\"experiment\":\"scheduling-time\",\"pattern\":\"all-to-all\",\"nodes\":%zu,"
          "\"sources\":%zu,\"algorithm\":\"%s\",\"microseconds\":%.4g}\n",
          n, n, a.c_str(), us);
      if (n >= from) measured[a].push_back(us);
    }
    if (n >= from) fit_nodes.push_back(static_cast<double>(n));
    std::fflush(stdout);
  }
  const std::size_t to = sizes.back();
  for (const std::string& a : algorithms()) {
    const double ours = loglog_slope(fit_nodes, measured[a]);
    const double paper = paper_exponent(a, from, to);
    std::printf(
        "{\"experiment\":\"exponent\",\"pattern\":\"all-to-all\",\"algorithm\":\"%s\","
        "\"fit_nodes\":\"%zu-%zu\",\"measured\":%.2f,\"paper_table1\":%.2f}\n",
        a.c_str(), from, to, ours, paper);
    if (a == "wr") wr_exponent = ours;
    if (a == "ecf") ecf_exponent = ours;
  }

  const std::size_t n = o.quick ? 32 : 64;
  const std::vector<std::size_t> source_counts =
      o.quick ? std::vector<std::size_t>{4, 8, 16, 32} : std::vector<std::size_t>{4, 8, 16, 24, 32, 48, 56, 64};
  for (std::size_t sources : source_counts) {
    std::vector<bm::Problem> problems;
    for (int c = 0; c < instances; ++c) {
      problems.push_back(multiple_multicast(rng, n, sources, Network::mixed, Lengths::small));
    }
    for (const std::string& a : algorithms()) {
      std::printf(
          "{\"experiment\":\"scheduling-time\",\"pattern\":\"multiple\",\"nodes\":%zu,"
          "\"sources\":%zu,\"algorithm\":\"%s\",\"microseconds\":%.4g}\n",
          n, sources, a.c_str(), scheduling_microseconds(problems, a));
    }
    std::fflush(stdout);
  }
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      o.quick = true;
    } else if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      o.seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: multicast_bench [--quick] [--seed N]\n");
      std::exit(2);
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  const auto start = Clock::now();
  std::mt19937_64 rng(options.seed);
  Totals totals;
  broadcast_experiment(options, rng, totals);
  all_to_all_experiment(options, rng, totals);
  multiple_experiment(options, rng, totals);
  for (const auto& [base, counts] : totals.preemptive_later) {
    std::printf(
        "{\"experiment\":\"preemption\",\"base\":\"%s\",\"preemptive\":\"%sp\","
        "\"preemptive_later\":%d,\"runs\":%d}\n",
        base.c_str(), base.c_str(), counts.first, counts.second);
  }
  double wr_exponent = 0;
  double ecf_exponent = 0;
  scheduling_time_experiment(options, rng, wr_exponent, ecf_exponent);
  if (!options.quick) {
    std::printf(
        "{\"experiment\":\"target\",\"claim\":\"WRP within 2.5x the lower bound at 64 nodes "
        "(all-to-all and multiple multicast)\","
        "\"worst_mean_ratio\":%.3f,\"worst_instance_ratio\":%.3f,\"holds\":%s}\n",
        totals.wrp_worst_mean_ratio_64, totals.wrp_worst_ratio_64,
        totals.wrp_worst_mean_ratio_64 <= 2.5 ? "true" : "false");
  }
  std::printf(
      "{\"experiment\":\"target\",\"claim\":\"WR scheduling time O(N^3), ECF O(N^4)\","
      "\"wr_exponent\":%.2f,\"ecf_exponent\":%.2f}\n",
      wr_exponent, ecf_exponent);
  std::printf(
      "{\"experiment\":\"summary\",\"quick\":%s,\"seed\":%llu,\"schedules\":%ld,"
      "\"invalid\":%ld,\"seconds\":%.1f}\n",
      options.quick ? "true" : "false", static_cast<unsigned long long>(options.seed), totals.schedules, totals.invalid,
      std::chrono::duration<double>(Clock::now() - start).count());
  return totals.invalid == 0 ? 0 : 1;
}

// Buffered multimessage multicasting: rounds of Coloring and Ordered-Coloring against the
// paper's bounds, and planning time up to a million messages.
//
// Run:  build/bench/buffered_multicast_bench rounds [--quick] > rounds.csv
//       build/bench/buffered_multicast_bench timing [--quick] > timing.csv
//       bench/buffered_multicast.sh build [--quick]   (both, plus the SVG charts)
//
// `rounds`: for d in {4, 6, 8, 16, 32, 64} and l in {1, 2, d/2, d}, random instances of three
// shapes (multicast: senders apart from receivers, fan-out 1..8; mixed: every processor
// sends and receives, fan-out 1..4; unicast: fan-out 1) over several seeds, and the paper's
// Example 3.2 for d ≤ 6. Every schedule is checked by the validator (the run aborts
// otherwise). Columns: a lower bound every schedule needs, the bound d·⌈d/l⌉ + l − 1,
// Theorem 3.1's bound for Coloring, the mean and largest rounds of each procedure, and the
// largest Ordered-Coloring rounds over the bound.
// `timing`: planning time (schedule built, not validated) and validation time per
// procedure for 10^4, 10^5 and 10^6 messages (d = 16, fan-out 1..7, l = 1, 4, 16), with ns
// per edge, to show linear time. Times are processor time (std::clock), the least of 3 runs
// below a million messages. Both print CSV with a header line on stdout.
#include "coordinator/schedule/buffered_multicast/algorithms.h"
#include "coordinator/schedule/buffered_multicast/examples.h"
#include "coordinator/schedule/buffered_multicast/random_instance.h"
#include "coordinator/schedule/buffered_multicast/validator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace bm = baton::schedule::buffered_multicast;

namespace {

struct Instance {
  std::string shape;
  bm::Problem problem;
};

// One instance of `shape` with degree target d and l buffers.
bm::Problem random_of_shape(const std::string& shape, std::size_t d, std::size_t l, std::uint64_t seed) {
  bm::RandomInstanceOptions o{.buffers = l, .seed = seed};
  o.degree = d;
  if (shape == "multicast") {
    // 32 senders, fan-out 1..8 (mean 4.5): receivers sized so they fill up to about d.
    o.senders = 32;
    o.senders_receive = false;
    o.max_fanout = 8;
    o.processors = o.senders + o.senders * 9 / 2;
  } else if (shape == "mixed") {
    o.processors = 128;
    o.senders = 128;
    o.full_senders = false;
    o.max_fanout = 4;
  } else {
    o.processors = 128;
    o.senders = 128;
    o.max_fanout = 1;
  }
  return bm::random_instance(o);
}

std::uint64_t rounds_of(const bm::Problem& p, bm::Algorithm algorithm) {
  const bm::Validation v = bm::validate(p, bm::plan(p, algorithm));
  if (!v.ok()) {
    std::cerr << "buffered_multicast_bench: invalid " << bm::name(algorithm) << " schedule: " << v.summary() << '\n';
    std::exit(1);
  }
  return v.rounds;
}

// The buffer counts the issue asks for, by name: 1, 2, d/2 and d (for d = 4, "2" and "d/2"
// are the same l and both rows are printed so each series is complete).
std::vector<std::pair<std::string, std::size_t>> buffer_counts(std::size_t d) {
  return {{"1", 1}, {"2", 2}, {"d/2", d / 2}, {"d", d}};
}

void print_rounds_row(const std::string& shape, std::size_t d, const std::string& l_kind, std::size_t l,
                      const std::vector<bm::Problem>& instances) {
  double coloring_sum = 0;
  double ordered_sum = 0;
  std::uint64_t coloring_max = 0;
  std::uint64_t ordered_max = 0;
  std::size_t degree_max = 0;
  std::size_t edges = 0;
  for (const bm::Problem& p : instances) {
    const std::uint64_t c = rounds_of(p, bm::Algorithm::coloring);
    const std::uint64_t o = rounds_of(p, bm::Algorithm::ordered_coloring);
    coloring_sum += static_cast<double>(c);
    ordered_sum += static_cast<double>(o);
    coloring_max = std::max(coloring_max, c);
    ordered_max = std::max(ordered_max, o);
    degree_max = std::max(degree_max, bm::degree(p));
    edges += bm::edge_count(p);
  }
  // The bounds are those of the largest degree met (instances may fall short of d).
  const std::uint64_t bound = bm::round_bound(degree_max, l);
  // Every schedule needs d rounds (a processor sends or takes d messages, one per round);
  // on Example 3.2 every schedule needs 2d − 1 (the paper's argument for l = d holds for
  // any l: some receiver gets all d of its messages at round d or later).
  const std::uint64_t lower_bound = shape == "example-3.2" ? 2 * degree_max - 1 : degree_max;
  const auto n = static_cast<double>(instances.size());
  std::printf(
      "%s,%zu,%zu,%s,%zu,%zu,%.1f,%llu,%llu,%llu,%.2f,%llu,%.2f,%llu,%.4f\n", shape.c_str(), d, degree_max,
      l_kind.c_str(), l, instances.size(), static_cast<double>(edges) / n, static_cast<unsigned long long>(lower_bound),
      static_cast<unsigned long long>(bound), static_cast<unsigned long long>(bm::coloring_round_bound(degree_max, l)),
      coloring_sum / n, static_cast<unsigned long long>(coloring_max), ordered_sum / n,
      static_cast<unsigned long long>(ordered_max), static_cast<double>(ordered_max) / static_cast<double>(bound));
}

void run_rounds(bool quick) {
  std::printf(
      "shape,d_target,d,l_kind,l,instances,mean_edges,lower_bound,bound,coloring_bound,"
      "coloring_mean,coloring_max,ordered_mean,ordered_max,ordered_max_over_bound\n");
  const std::vector<std::size_t> degrees =
      quick ? std::vector<std::size_t>{4, 6, 8, 16} : std::vector<std::size_t>{4, 6, 8, 16, 32, 64};
  const std::size_t seeds = quick ? 5 : 20;
  for (const std::size_t d : degrees) {
    for (const auto& [l_kind, l] : buffer_counts(d)) {
      for (const std::string shape : {"multicast", "mixed", "unicast"}) {
        std::vector<bm::Problem> instances;
        for (std::size_t s = 1; s <= seeds; ++s) instances.push_back(random_of_shape(shape, d, l, 1000 * d + s));
        print_rounds_row(shape, d, l_kind, l, instances);
      }
      if (d <= 6) print_rounds_row("example-3.2", d, l_kind, l, {bm::example_3_2(d, l)});
    }
  }
}

// The least processor time (not wall time: the machine may be shared) of `repeats` runs.
double cpu_seconds_of(const std::function<void()>& work, int repeats) {
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    const std::clock_t start = std::clock();
    work();
    const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    best = r == 0 ? seconds : std::min(best, seconds);
  }
  return best;
}

void run_timing(bool quick) {
  std::printf(
      "messages,processors,edges,d,l,algorithm,plan_cpu_seconds,plan_ns_per_edge,"
      "validate_cpu_seconds,rounds,bound\n");
  const std::vector<std::size_t> sizes =
      quick ? std::vector<std::size_t>{10'000, 100'000} : std::vector<std::size_t>{10'000, 100'000, 1'000'000};
  constexpr std::size_t d = 16;
  for (const std::size_t messages : sizes) {
    bm::RandomInstanceOptions o{.buffers = 1, .seed = messages};
    o.degree = d;
    o.senders = messages / d;
    o.senders_receive = false;
    o.max_fanout = 7;  // mean 4 destinations: 4·messages edges over receivers of degree ≤ 16
    o.processors = o.senders + messages * 4 / d * 11 / 10;
    for (const std::size_t l : {std::size_t{1}, std::size_t{4}, d}) {
      o.buffers = l;
      const bm::Problem p = bm::random_instance(o);
      const std::size_t edges = bm::edge_count(p);
      const int repeats = messages >= 1'000'000 ? 1 : 3;
      for (const bm::Algorithm algorithm : {bm::Algorithm::coloring, bm::Algorithm::ordered_coloring}) {
        bm::Schedule schedule;
        const double plan_seconds = cpu_seconds_of([&] { schedule = bm::plan(p, algorithm); }, repeats);
        bm::Validation v;
        const double validate_seconds = cpu_seconds_of([&] { v = bm::validate(p, schedule); }, 1);
        if (!v.ok()) {
          std::cerr << "buffered_multicast_bench: invalid schedule: " << v.summary() << '\n';
          std::exit(1);
        }
        std::printf("%zu,%zu,%zu,%zu,%zu,%s,%.4f,%.1f,%.4f,%llu,%llu\n", p.messages.size(), p.processors, edges,
                    bm::degree(p), l, std::string(bm::name(algorithm)).c_str(), plan_seconds,
                    plan_seconds * 1e9 / static_cast<double>(edges), validate_seconds,
                    static_cast<unsigned long long>(v.rounds),
                    static_cast<unsigned long long>(bm::round_bound(bm::degree(p), l)));
        std::fflush(stdout);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const bool quick = std::ranges::find(args, "--quick") != args.end();
  const bool rounds = std::ranges::find(args, "rounds") != args.end();
  const bool timing = std::ranges::find(args, "timing") != args.end();
  if (rounds == timing) {
    std::cerr << "usage: buffered_multicast_bench rounds|timing [--quick]\n";
    return 2;
  }
  if (rounds) run_rounds(quick);
  if (timing) run_timing(quick);
  return 0;
}

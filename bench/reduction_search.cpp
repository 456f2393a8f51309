// The guided and the generic branch-and-bound searches for an optimal reduction, beside
// the paper's Table 1 (the SNF paper, Section 6.2): P senders (P + 1
// nodes), each given one of three speeds at random; the three times are drawn per cluster
// from [1, 10) (the paper does not give its values).
//
//   reduction_search [--quick] [--cap SECONDS] > reduction_search.csv  (or bench/reduction.sh)
//
// CSV, one row per P (means over the clusters): N and L of the search tree; per search the
// tree nodes visited (examined, cut ones included), expanded (not cut), visited when the
// optimum was first found (to_best: the paper's "nodes scanned before finding the optimal
// one" could mean this), the ratio of visited to N, and seconds; generic_capped = clusters where the generic search hit the
// time cap (its counts are then lower bounds); the paper's N, ratios and speed-up.
// P = 10..16 with 10 clusters each, a 20 s cap per search; --quick: P = 10..12, 3 clusters.
#include "coordinator/schedule/reduction/generic_search.h"
#include "coordinator/schedule/reduction/guided_search.h"
#include "coordinator/schedule/reduction/speed_classes.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <stdexcept>
#include <string>

namespace red = baton::schedule::reduction;

namespace {

struct PaperRow {
  double tree_nodes, guided_ratio, generic_ratio, speedup;
};
// Table 1: N, the two search ratios (%) and the search-time ratio.
const std::map<std::size_t, PaperRow> kTable1{
    {10, {7852, 6.049, 71.854, 25}},     {11, {21544, 3.825, 71.157, 34}},  {12, {55243, 3.894, 71.262, 48}},
    {13, {163186, 2.277, 70.728, 54}},   {14, {440848, 2.247, 70.485, 68}}, {15, {1141417, 1.301, 70.524, 113}},
    {16, {3824647, 1.221, 70.174, 118}},
};

struct Timed {
  red::SearchResult result;
  double seconds = 0;
};

template <typename Search>
Timed timed(Search search, const red::Problem& problem, double cap_seconds) {
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(cap_seconds);
  Timed t;
  t.result = search(problem, red::SearchOptions{.max_nodes = 0, .stop_requested = [&] {
                                                  return std::chrono::steady_clock::now() > deadline;
                                                }});
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  double cap = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--cap" && i + 1 < argc) {
      cap = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: reduction_search [--quick] [--cap SECONDS]\n");
      return 2;
    }
  }
  const std::size_t last = quick ? 12 : 16;
  const int clusters = quick ? 3 : 10;
  std::printf(
      "senders,clusters,tree_nodes,tree_leaves,guided_visited,guided_expanded,"
      "guided_ratio_pct,guided_seconds,generic_visited,generic_expanded,generic_ratio_pct,"
      "generic_seconds,generic_capped,speedup,paper_tree_nodes,paper_guided_ratio_pct,"
      "paper_generic_ratio_pct,paper_speedup,guided_to_best,generic_to_best\n");
  for (std::size_t senders = 10; senders <= last; ++senders) {
    std::mt19937_64 rng(senders);
    std::uniform_real_distribution<double> speed(1, 10);
    std::uniform_int_distribution<int> pick(0, 2);
    double tree = 0, leaves = 0, gv = 0, ge = 0, gs = 0, gb = 0, nv = 0, ne = 0, ns = 0, nb = 0;
    int capped = 0;
    for (int c = 0; c < clusters; ++c) {
      const double speeds[3] = {speed(rng), speed(rng), speed(rng)};
      red::Problem problem{.times = {}, .destination = 0};
      for (std::size_t p = 0; p <= senders; ++p) problem.times.push_back(speeds[pick(rng)]);
      std::vector<std::size_t> sizes;
      for (const red::SpeedClass& k : red::speed_classes(problem)) sizes.push_back(k.nodes.size());
      const red::SearchTreeSize size = red::search_tree_size(sizes, std::uint64_t{1} << 60);
      const Timed guided = timed(red::guided_search, problem, cap);
      const Timed generic = timed(red::generic_search, problem, cap);
      if (!guided.result.complete) throw std::runtime_error("the guided search hit the cap");
      if (generic.result.complete && generic.result.makespan != guided.result.makespan) {
        throw std::logic_error("the two searches disagree on the optimum");
      }
      capped += generic.result.complete ? 0 : 1;
      tree += static_cast<double>(size.nodes);
      leaves += static_cast<double>(size.leaves);
      gv += static_cast<double>(guided.result.visited_nodes);
      ge += static_cast<double>(guided.result.expanded_nodes);
      gs += guided.seconds;
      gb += static_cast<double>(guided.result.nodes_to_best);
      nv += static_cast<double>(generic.result.visited_nodes);
      ne += static_cast<double>(generic.result.expanded_nodes);
      ns += generic.seconds;
      nb += static_cast<double>(generic.result.nodes_to_best);
    }
    const PaperRow& paper = kTable1.at(senders);
    std::printf("%zu,%d,%.0f,%.0f,%.0f,%.0f,%.3f,%.4f,%.0f,%.0f,%.3f,%.4f,%d,%.1f,%.0f,%.3f,%.3f,%.0f,%.0f,%.0f\n",
                senders, clusters, tree / clusters, leaves / clusters, gv / clusters, ge / clusters, 100 * gv / tree,
                gs / clusters, nv / clusters, ne / clusters, 100 * nv / tree, ns / clusters, capped, ns / gs,
                paper.tree_nodes, paper.guided_ratio, paper.generic_ratio, paper.speedup, gb / clusters, nb / clusters);
    std::fflush(stdout);
  }
  return 0;
}

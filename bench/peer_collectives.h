// What the two peer programs beside Baton's collectives share (bench/mpi_collectives.cpp,
// bench/gloo_collectives.cpp; docs/collectives-bench.md, "Peers"): the arrays every rank
// fills, the check of a result, the CPU clock and the JSON line each prints.
#pragma once

#include "bench/median.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace baton::bench {

// Element e of rank r's array: small whole values, so that sums of up to 200 ranks are exact
// in every dtype.
inline double peer_value(int rank, std::size_t e) { return static_cast<double>((rank * 7 + e * 13) % 17); }

// Whether `got` is `expected` up to a float's rounding of a sum of such values.
inline bool close_to(double got, double expected) {
  return std::fabs(got - expected) <= 1e-6 * std::max(1.0, std::fabs(expected));
}

// This process's CPU time so far (user + system, every thread), seconds.
inline double cpu_seconds_now() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// One run's line, as bench/collectives.sh reads it: every timed repeat's time (the slowest
// rank's), their median, the mean CPU time of all ranks together per timed repeat, and the
// times of the untimed warm-ups that ran before them in the same process (connections
// opened, buffers touched), kept only to show what they cost.
struct PeerResult {
  std::string impl, op, dtype, reduce;
  std::uint64_t bytes = 0;
  int nodes = 0, root = 0;
  bool correct = false;
  std::vector<double> seconds, warmup_seconds;
  double cpu_seconds = 0;
};

// Prints `values` as the members of a JSON array.
inline void print_seconds(const std::vector<double>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) std::printf("%s%.6f", i ? ", " : "", values[i]);
}

inline void print_peer_result(const PeerResult& r) {
  std::printf(
      "{\"impl\": \"%s\", \"op\": \"%s\", \"bytes\": %llu, \"dtype\": \"%s\", \"reduce\": \"%s\", \"nodes\": %d, "
      "\"root\": %d, \"correct\": %s, \"median_seconds\": %.6f, \"cpu_seconds\": %.6f, \"seconds\": [",
      r.impl.c_str(), r.op.c_str(), static_cast<unsigned long long>(r.bytes), r.dtype.c_str(), r.reduce.c_str(),
      r.nodes, r.root, r.correct ? "true" : "false", median(r.seconds), r.cpu_seconds);
  print_seconds(r.seconds);
  std::printf("], \"warmup_seconds\": [");
  print_seconds(r.warmup_seconds);
  std::printf("]}\n");
}

}  // namespace baton::bench

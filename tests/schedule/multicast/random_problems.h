// Random multiple multicast instances for the test sweeps (fixed seeds).
#pragma once

#include "coordinator/schedule/multicast/problem.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace baton::schedule::multicast::testing {

enum class CostKind {
  paper,    // Section 7: overheads 80-400 µs + 0.0001-0.01 µs/byte, links 155 Mbit/s or 1 Gbit/s
  integer,  // small whole numbers including 0: many exact ties, zero-length tasks
};

enum class Lengths { small, large, mixed };

struct RandomOptions {
  std::size_t nodes = 6;
  CostKind costs = CostKind::paper;
  Lengths lengths = Lengths::mixed;
};

inline double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

inline std::size_t below(std::mt19937_64& rng, std::size_t n) { return static_cast<std::size_t>(rng() % n); }

inline std::uint64_t random_length(std::mt19937_64& rng, Lengths lengths) {
  const bool large = lengths == Lengths::large || (lengths == Lengths::mixed && rng() % 2 == 0);
  if (large) return rng() % 2 == 0 ? 1'000'000 : 1'500'000;
  return 1 + rng() % 1024;
}

// Nodes and links only; multicasts are added by the pattern functions below.
inline Problem random_platform(std::mt19937_64& rng, const RandomOptions& options) {
  Problem p;
  const std::size_t n = options.nodes;
  p.link_per_byte = uniform_links(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (options.costs == CostKind::paper) {
      p.nodes.push_back({uniform(rng, 80e-6, 400e-6), uniform(rng, 1e-10, 1e-8), uniform(rng, 80e-6, 400e-6),
                         uniform(rng, 1e-10, 1e-8)});
    } else {
      const auto whole = [&] { return static_cast<double>(rng() % 4); };
      p.nodes.push_back({whole(), whole() / 1000, whole(), whole() / 1000});
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      double x = 0;
      if (options.costs == CostKind::paper) {
        x = rng() % 2 == 0 ? 8.0 / 155e6 : 8.0 / 1e9;
      } else {
        x = static_cast<double>(rng() % 3) / 1000;
      }
      p.link_per_byte[i][j] = p.link_per_byte[j][i] = x;
    }
  }
  return p;
}

// Random sources (possibly repeated) with random destination subsets (each other node
// with probability 1/2, at least one).
inline Problem random_problem(std::mt19937_64& rng, const RandomOptions& options) {
  Problem p = random_platform(rng, options);
  const std::size_t n = options.nodes;
  const std::size_t count = 1 + below(rng, 2 * n);
  for (std::size_t c = 0; c < count; ++c) {
    Multicast m{below(rng, n), 0, {}};
    m.bytes = options.costs == CostKind::integer ? rng() % 3 : random_length(rng, options.lengths);
    for (NodeId d = 0; d < n; ++d) {
      if (d != m.source && rng() % 2 == 0) m.destinations.push_back(d);
    }
    if (m.destinations.empty()) m.destinations.push_back((m.source + 1) % n);
    std::shuffle(m.destinations.begin(), m.destinations.end(), rng);
    p.multicasts.push_back(std::move(m));
  }
  return p;
}

inline Multicast broadcast_from(NodeId source, std::size_t nodes, std::uint64_t bytes) {
  Multicast m{source, bytes, {}};
  for (NodeId d = 0; d < nodes; ++d) {
    if (d != source) m.destinations.push_back(d);
  }
  return m;
}

inline Problem single_broadcast(std::mt19937_64& rng, const RandomOptions& options, NodeId source) {
  Problem p = random_platform(rng, options);
  p.multicasts.push_back(broadcast_from(source, options.nodes, random_length(rng, options.lengths)));
  return p;
}

inline Problem all_to_all(std::mt19937_64& rng, const RandomOptions& options) {
  Problem p = random_platform(rng, options);
  for (NodeId s = 0; s < options.nodes; ++s) {
    p.multicasts.push_back(broadcast_from(s, options.nodes, random_length(rng, options.lengths)));
  }
  return p;
}

}  // namespace baton::schedule::multicast::testing

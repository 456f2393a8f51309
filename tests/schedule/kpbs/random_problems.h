// Random KPBS instances of many shapes for the sweeps, from a fixed seed.
#pragma once

#include "coordinator/schedule/kpbs/problem.h"

#include <algorithm>
#include <random>
#include <string>

namespace baton::schedule::kpbs::test {

struct Shape {
  std::string name;
  int max_nodes = 6;     // per side, at least 1
  double density = 0.5;  // chance that a pair has data
  double min_weight = 1, max_weight = 20;
  bool integral = true;  // whole weights (the paper's benchmark) or real ones
  int k = 0;             // 0: random in 1..max(n1, n2) + 1
  double beta = 1;
};

// The shapes the random-instance suites draw from (random_instances_test.cpp, oggp_plus_test.cpp):
// the paper's benchmark and the corners around it.
inline const Shape kRandomShapes[] = {
    {"paper small weights", 8, 0.5, 1, 20, true},
    {"paper large weights", 8, 0.5, 1, 100000, true},
    {"sparse, empty rows", 10, 0.12, 1, 50, true},
    {"dense", 6, 1.0, 1, 10, true},
    {"k = 1", 6, 0.5, 1, 20, true, 1},
    {"k >= n", 5, 0.6, 1, 20, true, 64},
    {"below beta", 6, 0.5, 0.001, 0.99, false, 0, 1},
    {"around beta", 6, 0.6, 0.5, 3.5, false, 0, 1},
    {"tiny weights", 5, 0.5, 1e-9, 1e-6, false, 0, 1e-3},
    {"huge weights", 5, 0.5, 1e6, 4e9, true, 0, 1},
    {"beta 0.01", 5, 0.5, 0.1, 2, false, 0, 0.01},
    {"one pair", 1, 1.0, 1, 100, true},
};

inline Problem random_problem(std::mt19937_64& rng, const Shape& shape) {
  std::uniform_int_distribution<int> nodes(1, shape.max_nodes);
  const auto n1 = static_cast<std::size_t>(nodes(rng)), n2 = static_cast<std::size_t>(nodes(rng));
  std::bernoulli_distribution edge(shape.density);
  std::uniform_real_distribution<double> real(shape.min_weight, shape.max_weight);
  std::uniform_int_distribution<long> whole(static_cast<long>(shape.min_weight), static_cast<long>(shape.max_weight));
  Problem p;
  p.times = Matrix(n1, n2);
  for (std::size_t i = 0; i < n1; ++i) {
    for (std::size_t j = 0; j < n2; ++j) {
      if (edge(rng)) p.times.at(i, j) = shape.integral ? static_cast<double>(whole(rng)) : real(rng);
    }
  }
  std::uniform_int_distribution<int> k(1, static_cast<int>(std::max(n1, n2)) + 1);
  p.k = shape.k > 0 ? shape.k : k(rng);
  p.beta = shape.beta;
  return p;
}

}  // namespace baton::schedule::kpbs::test

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

#include "coordinator/schedule/kpbs/problem.h"

#include "error/error.h"

#include <cmath>
#include <string>

namespace baton::schedule::kpbs {

Matrix::Matrix(std::initializer_list<std::initializer_list<double>> rows)
    : senders_(rows.size()), receivers_(rows.size() ? rows.begin()->size() : 0) {
  cells_.reserve(senders_ * receivers_);
  for (const auto& row : rows) {
    if (row.size() != receivers_) throw error::InvalidInput("Matrix: ragged rows");
    cells_.insert(cells_.end(), row.begin(), row.end());
  }
}

void check(const Problem& problem) {
  if (problem.k < 1) throw error::InvalidInput("k must be >= 1");
  if (!(problem.beta > 0) || !std::isfinite(problem.beta)) {
    throw error::InvalidInput("beta must be finite and > 0");
  }
  for (std::size_t i = 0; i < problem.times.senders(); ++i) {
    for (std::size_t j = 0; j < problem.times.receivers(); ++j) {
      const double w = problem.times.at(i, j);
      if (!std::isfinite(w) || w < 0) {
        throw error::InvalidInput("times[" + std::to_string(i) + "][" + std::to_string(j) +
                                  "] must be finite and >= 0");
      }
    }
  }
}

}  // namespace baton::schedule::kpbs

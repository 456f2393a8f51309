// The redistribution problem (KPBS) in the papers' normalized form.
//
// A traffic matrix of communication *times* between sender i of cluster C1 and receiver j
// of cluster C2, the most flows k the backbone carries at once, and the start-up cost β
// of a step (the kpbs paper, Section 2.2). Platform units (bytes
// and rates) are converted to this form by platform.h.
#pragma once

#include <cstddef>
#include <vector>

namespace baton::schedule::kpbs {

// A dense senders × receivers matrix; 0 means "nothing to send".
class Matrix {
 public:
  Matrix() = default;
  Matrix(std::size_t senders, std::size_t receivers)
      : senders_(senders), receivers_(receivers), cells_(senders * receivers, 0.0) {}
  Matrix(std::initializer_list<std::initializer_list<double>> rows);

  std::size_t senders() const { return senders_; }
  std::size_t receivers() const { return receivers_; }
  double& at(std::size_t i, std::size_t j) { return cells_[i * receivers_ + j]; }
  double at(std::size_t i, std::size_t j) const { return cells_[i * receivers_ + j]; }

 private:
  std::size_t senders_ = 0;
  std::size_t receivers_ = 0;
  std::vector<double> cells_;
};

struct Problem {
  Matrix times;     // times[i][j]: time sender i needs to send its data to receiver j
  int k = 1;        // at most k transfers in one step
  double beta = 1;  // start-up time of every step
};

// Throws error::InvalidInput unless k >= 1, beta > 0 and every entry is finite and >= 0.
// β must be positive: GGP measures weights in units of β (Fig. 5 step 1 rounds w/β up).
void check(const Problem& problem);

}  // namespace baton::schedule::kpbs

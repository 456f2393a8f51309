// Arrays for the collectives' integration tests and an independent reference for what a
// reduction must give (docs/collectives.md). Arrays are raw bytes of one dtype ("f32" ...
// "u64"); nothing here shares code with the agents' combine kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace baton::test {

std::size_t element_size(const std::string& dtype);
bool integer_dtype(const std::string& dtype);

// `count` pseudo-random elements of `dtype` from `seed`: integers over their whole range
// (sums and products wrap, as in C++'s unsigned arithmetic), floats in [-1, 1) so that
// sums of the same numbers in another order round differently, or in [0.5, 2) for `prod`.
std::string make_array(const std::string& dtype, const std::string& op, std::size_t count, unsigned seed);

// inputs[0] ⊕ inputs[1] ⊕ … element by element, left to right, in the dtype's own
// arithmetic: what a node folding its inputs in this order must write, bit for bit.
std::string fold_in_order(const std::string& dtype, const std::string& op, const std::vector<std::string>& inputs);

// Checks a floating-point `result` of `sum`, `min` or `max` over `inputs` against the exact
// value (computed in long double) within the bound of any summation order (Higham,
// "Accuracy and Stability of Numerical Algorithms", Eq. 4.4: |ŝ − s| ≤ γ_{n−1} Σ|x_i|,
// γ_k = k·u / (1 − k·u)); min and max are exact. Returns the number of elements outside it
// and, in `first`, a description of the first one.
std::size_t count_outside_error_bound(const std::string& dtype, const std::string& op, const std::string& result,
                                      const std::vector<std::string>& inputs, std::string* first);

// Index and values of the first element where two arrays of `dtype` differ, or "" when
// they are equal (a result that is not even the right size says so).
std::string first_difference(const std::string& dtype, const std::string& got, const std::string& expected);

}  // namespace baton::test

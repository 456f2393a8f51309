// The median of a benchmark's rounds: what its side-by-side comparisons report.
#pragma once

#include <algorithm>
#include <vector>

namespace baton::bench {

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace baton::bench

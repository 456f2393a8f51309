#include "coordinator/schedule/buffered_multicast/algorithms.h"

#include "coordinator/schedule/buffered_multicast/coloring.h"
#include "coordinator/schedule/buffered_multicast/ordered_coloring.h"

#include <array>
#include <stdexcept>
#include <utility>

namespace baton::schedule::buffered_multicast {
namespace {

constexpr std::array<std::pair<Algorithm, std::string_view>, 2> kNames{{
    {Algorithm::coloring, "coloring"},
    {Algorithm::ordered_coloring, "ordered-coloring"},
}};

}  // namespace

std::string_view name(Algorithm algorithm) {
  for (const auto& [a, n] : kNames) {
    if (a == algorithm) return n;
  }
  throw std::logic_error("unknown buffered multicast algorithm");
}

std::optional<Algorithm> parse_algorithm(std::string_view text) {
  for (const auto& [a, n] : kNames) {
    if (n == text) return a;
  }
  return std::nullopt;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto& entry : kNames) names.emplace_back(entry.second);
  return names;
}

Schedule plan(const Problem& problem, Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::coloring: return coloring(problem);
    case Algorithm::ordered_coloring: return ordered_coloring(problem);
  }
  throw std::logic_error("unknown buffered multicast algorithm");
}

}  // namespace baton::schedule::buffered_multicast

#include "coordinator/schedule/buffered_multicast/algorithms.h"

#include "coordinator/schedule/buffered_multicast/coloring.h"
#include "coordinator/schedule/buffered_multicast/ordered_coloring.h"
#include "coordinator/schedule/name_table.h"
#include "error/error.h"

namespace baton::schedule::buffered_multicast {
namespace {

constexpr NameTable<Algorithm, 2> kNames{{
    {Algorithm::coloring, "coloring"},
    {Algorithm::ordered_coloring, "ordered-coloring"},
}};

}  // namespace

std::string_view name(Algorithm algorithm) {
  if (const auto found = find_name(kNames, algorithm)) return *found;
  throw error::Bug("unknown buffered multicast algorithm");
}

std::optional<Algorithm> parse_algorithm(std::string_view text) { return find_value(kNames, text); }
std::vector<std::string> algorithm_names() { return names_of(kNames); }

Schedule plan(const Problem& problem, Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::coloring: return coloring(problem);
    case Algorithm::ordered_coloring: return ordered_coloring(problem);
  }
  throw error::Bug("unknown buffered multicast algorithm");
}

}  // namespace baton::schedule::buffered_multicast

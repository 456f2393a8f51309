#include "coordinator/schedule/kpbs/algorithms.h"

#include "coordinator/schedule/kpbs/all_at_once.h"
#include "coordinator/schedule/kpbs/ggp.h"
#include "coordinator/schedule/kpbs/heuristic.h"
#include "coordinator/schedule/kpbs/oggp.h"
#include "coordinator/schedule/kpbs/oggp_plus.h"

#include "coordinator/schedule/name_table.h"

namespace baton::schedule::kpbs {
namespace {

constexpr NameTable<Algorithm, 6> kNames{{
    {Algorithm::oggp, "oggp"},
    {Algorithm::ggp, "ggp"},
    {Algorithm::heuristic_weights, "h-weight"},
    {Algorithm::heuristic_degrees, "h-degree"},
    {Algorithm::all_at_once, "all-at-once"},
    {Algorithm::oggp_plus, "oggp-plus"},
}};

}  // namespace

std::string_view name(Algorithm algorithm) { return find_name(kNames, algorithm).value_or("?"); }
std::optional<Algorithm> parse_algorithm(std::string_view text) { return find_value(kNames, text); }
std::vector<std::string> algorithm_names() { return names_of(kNames); }

bool obeys_kpbs(Algorithm algorithm) { return algorithm != Algorithm::all_at_once; }

Schedule plan(const Problem& problem, Algorithm algorithm, const PeelOptions& options) {
  switch (algorithm) {
    case Algorithm::oggp: return oggp(problem, options);
    case Algorithm::ggp: return ggp(problem, options);
    case Algorithm::heuristic_weights: return heuristic_weights(problem);
    case Algorithm::heuristic_degrees: return heuristic_degrees(problem);
    case Algorithm::all_at_once: return all_at_once(problem);
    case Algorithm::oggp_plus: return oggp_plus(problem, options);
  }
  return {};
}

}  // namespace baton::schedule::kpbs

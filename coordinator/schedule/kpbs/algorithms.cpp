#include "coordinator/schedule/kpbs/algorithms.h"

#include "coordinator/schedule/kpbs/all_at_once.h"
#include "coordinator/schedule/kpbs/ggp.h"
#include "coordinator/schedule/kpbs/heuristic.h"
#include "coordinator/schedule/kpbs/oggp.h"
#include "coordinator/schedule/kpbs/oggp_plus.h"

#include "coordinator/schedule/name_table.h"
#include "error/error.h"

#include <string>

namespace baton::schedule::kpbs {
namespace {

constexpr NameTable<Algorithm, 6> kPlanned{{
    {Algorithm::oggp, "oggp"},
    {Algorithm::ggp, "ggp"},
    {Algorithm::heuristic_weights, "h-weight"},
    {Algorithm::heuristic_degrees, "h-degree"},
    {Algorithm::all_at_once, "all-at-once"},
    {Algorithm::oggp_plus, "oggp-plus"},
}};
constexpr NameTable<Algorithm, 2> kOnNodeRates{{
    {Algorithm::fluid, "fluid"},
    {Algorithm::automatic, "auto"},
}};

}  // namespace

std::string_view name(Algorithm algorithm) {
  const auto planned = find_name(kPlanned, algorithm);
  return planned ? *planned : find_name(kOnNodeRates, algorithm).value_or("?");
}
std::optional<Algorithm> parse_algorithm(std::string_view text) { return find_value(kPlanned, text); }
std::vector<std::string> algorithm_names() { return names_of(kPlanned); }
std::optional<Algorithm> parse_job_algorithm(std::string_view text) {
  const auto planned = parse_algorithm(text);
  return planned ? planned : find_value(kOnNodeRates, text);
}
std::vector<std::string> job_algorithm_names() {
  std::vector<std::string> names = names_of(kPlanned);
  for (std::string& name : names_of(kOnNodeRates)) names.push_back(std::move(name));
  return names;
}

bool obeys_kpbs(Algorithm algorithm) { return algorithm != Algorithm::all_at_once && algorithm != Algorithm::fluid; }

Schedule plan(const Problem& problem, Algorithm algorithm, const PeelOptions& options) {
  switch (algorithm) {
    case Algorithm::oggp: return oggp(problem, options);
    case Algorithm::ggp: return ggp(problem, options);
    case Algorithm::heuristic_weights: return heuristic_weights(problem);
    case Algorithm::heuristic_degrees: return heuristic_degrees(problem);
    case Algorithm::all_at_once: return all_at_once(problem);
    case Algorithm::oggp_plus: return oggp_plus(problem, options);
    case Algorithm::fluid:
    case Algorithm::automatic:
      throw error::InvalidInput(std::string(name(algorithm)) + " plans on each node's rate: give it in a job");
  }
  return {};
}

}  // namespace baton::schedule::kpbs

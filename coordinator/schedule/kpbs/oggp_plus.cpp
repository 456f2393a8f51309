#include "coordinator/schedule/kpbs/oggp_plus.h"

#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/oggp.h"

namespace baton::schedule::kpbs {

Schedule oggp_plus(const Problem& problem, const PeelOptions& options) {
  Schedule best = oggp(problem, options);
  double best_cost = cost(best, problem.beta);
  const double eta = lower_bound(problem).eta;
  if (best_cost <= eta * (1 + kGoodEnough)) return best;
  const auto try_variant = [&](WasteGreedyOptions variant) {
    variant.give_up_at = best_cost;
    auto plan = waste_greedy(problem, variant);
    if (!plan) return false;
    const double c = cost(*plan, problem.beta);
    if (c >= best_cost) return false;
    best = std::move(*plan);
    best_cost = c;
    return true;
  };
  bool improved = false;
  for (const WasteGreedyOptions& variant : kVariants) improved = try_variant(variant) || improved;
  if (!improved) try_variant(kFallback);
  if (problem.k <= kLookAheadMaxK && best_cost > eta * (1 + kLookAheadAbove)) {
    for (int rank = 1; rank <= kLookAheadRanks; ++rank) {
      WasteGreedyOptions variant = kLookAhead;
      variant.first_step_rank = rank;
      try_variant(variant);
    }
  }
  return best;
}

}  // namespace baton::schedule::kpbs

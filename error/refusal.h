// What a check answers (docs/design.md, "One vocabulary"): std::optional<Refusal>, nothing
// when what it checked may be used, else one line saying why not. The agent sends its
// checks' refusals to the coordinator as a plan's PlanRefused reason; the coordinator's
// runtime answers "did every agent do it?" with one (a clause per node, joined by add_clause).
//
//   if (const std::optional<error::Refusal> refused = check_plan(plan, root)) send(refused->reason);
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace baton::error {

struct Refusal {
  // Implicit, so that a check answers its line as it is: `return "plan has no job id";`.
  Refusal(std::string why) : reason(std::move(why)) {}
  Refusal(const char* why) : reason(why) {}

  std::string reason;  // one line: what is wrong, naming it

  friend bool operator==(const Refusal&, const Refusal&) = default;
};

// Adds `clause` to `refusal`: the first clause makes it, the next ones join it with "; ".
inline void add_clause(std::optional<Refusal>& refusal, std::string clause) {
  if (refusal) {
    refusal->reason += "; " + clause;
  } else {
    refusal = Refusal(std::move(clause));
  }
}

// Adds another refusal's clauses, if there is one.
inline void add_clauses(std::optional<Refusal>& refusal, const std::optional<Refusal>& other) {
  if (other) add_clause(refusal, other->reason);
}

}  // namespace baton::error

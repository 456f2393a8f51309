// What went wrong with the agents of one exchange (an offer of plans, an attempt at a step,
// the end of a job): one clause per node, in the order found. The runtime's answer to "did
// every agent do it?" (docs/design.md, "One vocabulary"): ok() or the clauses, never a
// string that means success when empty.
#pragma once

#include <string>
#include <vector>

namespace baton::coordinator {

class NodeFailures {
 public:
  // `clause` names its node ("agent r1 refused the plan: ...").
  void add(std::string clause) { clauses_.push_back(std::move(clause)); }
  void add(const NodeFailures& other) { clauses_.insert(clauses_.end(), other.clauses_.begin(), other.clauses_.end()); }
  bool ok() const { return clauses_.empty(); }
  // The clauses joined with "; ".
  std::string text() const {
    std::string out;
    for (const std::string& c : clauses_) out += (out.empty() ? "" : "; ") + c;
    return out;
  }

 private:
  std::vector<std::string> clauses_;
};

}  // namespace baton::coordinator

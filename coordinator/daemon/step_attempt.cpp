#include "coordinator/daemon/step_attempt.h"

#include "coordinator/daemon/digest_match.h"

namespace baton::coordinator {

std::optional<error::Refusal> judge_attempt(const std::vector<std::string>& nodes,
                                            const std::map<std::string, protocol::StepReport>& reports,
                                            const std::function<bool(const std::string& node)>& alive, bool cut_short) {
  std::optional<error::Refusal> failure;
  const auto add = [&](std::string clause) { error::add_clause(failure, std::move(clause)); };
  bool complete = true;
  for (const std::string& node : nodes) {
    const auto report = reports.find(node);
    if (report == reports.end()) {
      complete = false;
      if (!alive(node)) add(node + " is dead");
      else if (!cut_short) add(node + " did not report");
    } else if (!report->second.ok()) {
      add(node + ": " + report->second.error());
    }
  }
  // End to end: what landed is what was sent, chunk by chunk.
  if (complete && !failure) failure = match_digests(reports);
  else if (!complete && !failure) add("the attempt ended before every node reported");
  return failure;
}

}  // namespace baton::coordinator

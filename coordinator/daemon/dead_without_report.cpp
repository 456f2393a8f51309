#include "coordinator/daemon/dead_without_report.h"

namespace baton::coordinator {

bool DeadWithoutReport::operator()() {
  const std::uint64_t deaths = agents_.deaths();
  if (none_at_ == deaths) return false;
  for (const auto& [node, plan] : plans_) {
    if (!agents_.alive(node) && !run_.reports.contains(node)) return true;
  }
  none_at_ = deaths;
  return false;
}

}  // namespace baton::coordinator

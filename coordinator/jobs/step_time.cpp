#include "coordinator/jobs/step_time.h"

#include <algorithm>

namespace baton::jobs {

double step_seconds(double step_startup, double flow_rate, double backbone_rate, const StepLoad& load) {
  return step_startup +
         std::max({load.longest_flow / flow_rate, load.busiest_node / flow_rate, load.bytes / backbone_rate});
}

}  // namespace baton::jobs

// The model's time of one step of a redistribution: the one step-time model the plans
// predict with (plan_compiler.cpp), drift compares measured steps against and failed trials
// of a wider backbone are costed on (coordinator/calibration; docs/calibration.md, "Drift").
#pragma once

namespace baton::jobs {

// What of a step its time depends on, in bytes.
struct StepLoad {
  double longest_flow = 0;
  // The most one node sends or receives. A scheduled step's is its longest flow: no node
  // has two flows in it (the 1-port rule).
  double busiest_node = 0;
  double bytes = 0;  // all its flows together
};

// β (`step_startup`), then the step's flows each at d (`flow_rate`) through the backbone
// (`backbone_rate`), sharing links fluidly: β + the longest of the longest flow at d, the
// busiest node's bytes at d and all the bytes through the backbone. A scheduled step runs at
// most k flows, each at d within the backbone, so its time is β + its longest flow / d; an
// all-at-once step's flows share the links, and fluid sharing is the model's best case for it.
double step_seconds(double step_startup, double flow_rate, double backbone_rate, const StepLoad& load);

}  // namespace baton::jobs

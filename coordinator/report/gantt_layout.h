// The Gantt chart's content (docs/status-page.md), in seconds, apart from how it is drawn
// (gantt_svg.h): one row per node, and for every step the plan (the model's start and the
// node's predicted time) against what really happened (the step's release and the node's
// own report), with the measured steps as bands behind the bars. A dataflow step (a
// collective) has a bar per send and combine instead, planned against measured.
#pragma once

#include "coordinator/report/job_report.h"

#include <cstddef>
#include <string>
#include <vector>

namespace baton::report {

struct GanttBar {
  std::size_t row = 0;
  std::size_t step = 0;
  double start = 0;  // seconds since the job started
  double seconds = 0;
  double bytes = 0;
  bool measured = false;  // else planned
  std::string task;       // a dataflow task's bar: what it does ("send → n3"); empty for a node's step
};

// A measured step: from its release to its barrier.
struct GanttBand {
  std::size_t step = 0;
  double start = 0;
  double seconds = 0;
};

struct GanttLayout {
  std::string title;              // "Job 7 · oggp · k 3 · running"
  std::string summary;            // "predicted 1.300 s · measured 1.050 s (×0.81) · ..."
  std::vector<std::string> rows;  // node names, senders first
  std::vector<GanttBar> bars;
  std::vector<GanttBand> bands;
  std::vector<double> plan_starts;  // each step's planned start
  double end = 0;                   // the latest time anything reaches
};

// Throws error::InvalidInput naming what is missing when the job has no report (not
// planned yet) or a step without per-node timing (a coordinator that predates it).
GanttLayout gantt_layout(const JobReport& job);

}  // namespace baton::report

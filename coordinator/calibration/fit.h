// The least-squares line through measured points: how calibration takes the step start-up
// β (the intercept) from steps of growing size (docs/calibration.md).
#pragma once

#include <vector>

namespace baton::calibration {

struct Point {
  double x = 0;
  double y = 0;
};

struct Line {
  double intercept = 0;
  double slope = 0;
};

// The line minimising Σ (y − intercept − slope·x)². Throws std::invalid_argument for fewer
// than two points or when every x is the same (no slope to fit).
Line least_squares(const std::vector<Point>& points);

}  // namespace baton::calibration

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

// The line minimising Σ (y − intercept − slope·x)². Throws error::InvalidInput for fewer
// than two points or when every x is the same (no slope to fit).
Line least_squares(const std::vector<Point>& points);

// The same, after leaving out the one point farthest from the line through the others when
// it is more than three times the others' median absolute residual (and `floor`) off that
// line: one step held up by a stall (a lost segment's retransmission, the machine busy
// elsewhere) tilts the line and moves the intercept by as much as it was late. Needs three
// points to leave one out.
Line least_squares_but_one(const std::vector<Point>& points, double floor);

// The middle value (the mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> values);

}  // namespace baton::calibration

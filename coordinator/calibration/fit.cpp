#include "coordinator/calibration/fit.h"

#include "error/error.h"

#include <algorithm>
#include <cmath>

namespace baton::calibration {

Line least_squares(const std::vector<Point>& points) {
  if (points.size() < 2) throw error::InvalidInput("a line needs at least two points");
  double mean_x = 0, mean_y = 0;
  for (const Point& p : points) {
    mean_x += p.x;
    mean_y += p.y;
  }
  mean_x /= static_cast<double>(points.size());
  mean_y /= static_cast<double>(points.size());
  // Centred sums: no cancellation when x is large (bytes) and its spread small.
  double sxx = 0, sxy = 0;
  for (const Point& p : points) {
    sxx += (p.x - mean_x) * (p.x - mean_x);
    sxy += (p.x - mean_x) * (p.y - mean_y);
  }
  if (!(sxx > 0)) throw error::InvalidInput("every point has the same x: no slope to fit");
  const double slope = sxy / sxx;
  return Line{mean_y - slope * mean_x, slope};
}

Line least_squares_but_one(const std::vector<Point>& points, double floor) {
  const Line all = least_squares(points);
  if (points.size() < 3) return all;
  // Each point against the line through the others (its deleted residual): the line through
  // all of them leans towards a late point at the end of the series (the largest step has
  // the most leverage) and hides it among the others' residuals.
  std::size_t worst = points.size();
  double worst_residual = 0;
  Line worst_rest;
  std::vector<Point> rest;
  for (std::size_t j = 0; j < points.size(); ++j) {
    rest = points;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(j));
    if (std::ranges::all_of(rest, [&](const Point& p) { return p.x == rest.front().x; })) continue;
    const Line line = least_squares(rest);
    const double residual = std::abs(points[j].y - line.intercept - line.slope * points[j].x);
    if (worst == points.size() || residual > worst_residual) {
      worst = j;
      worst_residual = residual;
      worst_rest = line;
    }
  }
  if (worst == points.size()) return all;
  std::vector<double> residuals;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i != worst) residuals.push_back(std::abs(points[i].y - worst_rest.intercept - worst_rest.slope * points[i].x));
  }
  return worst_residual > std::max(3 * median(residuals), floor) ? worst_rest : all;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::ranges::sort(values);
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace baton::calibration

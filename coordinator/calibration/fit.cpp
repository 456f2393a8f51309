#include "coordinator/calibration/fit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace baton::calibration {

Line least_squares(const std::vector<Point>& points) {
  if (points.size() < 2) throw std::invalid_argument("a line needs at least two points");
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
  if (!(sxx > 0)) throw std::invalid_argument("every point has the same x: no slope to fit");
  const double slope = sxy / sxx;
  return Line{mean_y - slope * mean_x, slope};
}

Line least_squares_but_one(const std::vector<Point>& points, double floor) {
  const Line all = least_squares(points);
  if (points.size() < 3) return all;
  std::vector<double> residuals;
  for (const Point& p : points) residuals.push_back(std::abs(p.y - all.intercept - all.slope * p.x));
  std::vector<double> sorted = residuals;
  std::ranges::sort(sorted);
  const double median = sorted[sorted.size() / 2];
  const auto worst = std::ranges::max_element(residuals);
  if (*worst <= std::max(3 * median, floor)) return all;
  std::vector<Point> rest = points;
  rest.erase(rest.begin() + (worst - residuals.begin()));
  return least_squares(rest);
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::ranges::sort(values);
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace baton::calibration

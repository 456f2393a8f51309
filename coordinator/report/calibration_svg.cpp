#include "coordinator/report/calibration_svg.h"

#include "coordinator/report/markup.h"
#include "error/error.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace baton::report {
namespace {

constexpr double kFigureWidth = 960, kFigureHeight = 330;
constexpr double kPanel = 400;                      // each plot's width
constexpr double kPlotTop = 70, kPlotHeight = 200;  // title and legend above
constexpr double kPlotLefts[] = {70, 550};          // each plot's left edge

// A round axis end above `value`: 1, 2 or 5 × 10^n.
double axis_end(double value) {
  if (!(value > 0)) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= value) return m * power;
  }
  return 10 * power;
}

struct Plot {
  double left, x_max, y_max;
  double x(double v) const { return left + kPanel * v / x_max; }
  double y(double v) const { return kPlotTop + kPlotHeight * (1 - v / y_max); }
};

std::string line(double x1, double y1, double x2, double y2, const std::string& style) {
  return "<line x1=\"" + fixed(x1, 1) + "\" y1=\"" + fixed(y1, 1) + "\" x2=\"" + fixed(x2, 1) + "\" y2=\"" +
         fixed(y2, 1) + "\" " + style + "/>\n";
}

std::string label(double x, double y, const std::string& content, const std::string& anchor = "middle") {
  return "<text x=\"" + fixed(x, 1) + "\" y=\"" + fixed(y, 1) + "\" text-anchor=\"" + anchor + "\">" + escape(content) +
         "</text>\n";
}

// Axes, ticks at the quarters, and the two axis titles.
std::string axes(const Plot& p, const std::string& x_title, const std::string& y_title, int x_digits, int y_digits) {
  std::string out = line(p.left, kPlotTop, p.left, kPlotTop + kPlotHeight, "stroke=\"#57606a\"") +
                    line(p.left, kPlotTop + kPlotHeight, p.left + kPanel, kPlotTop + kPlotHeight, "stroke=\"#57606a\"");
  for (int i = 0; i <= 4; ++i) {
    const double xv = p.x_max * i / 4, yv = p.y_max * i / 4;
    out += label(p.x(xv), kPlotTop + kPlotHeight + 16, fixed(xv, x_digits));
    out += label(p.left - 6, p.y(yv) + 4, fixed(yv, y_digits), "end");
    if (i > 0) out += line(p.left, p.y(yv), p.left + kPanel, p.y(yv), "stroke=\"#eaeef2\"");
  }
  out += label(p.left + kPanel / 2, kPlotTop + kPlotHeight + 36, x_title);
  out += "<text transform=\"translate(" + fixed(p.left - 48, 1) + "," + fixed(kPlotTop + kPlotHeight / 2, 1) +
         ") rotate(-90)\" text-anchor=\"middle\">" + escape(y_title) + "</text>\n";
  return out;
}

std::string dot(double x, double y, const char* color) {
  return "<circle cx=\"" + fixed(x, 1) + "\" cy=\"" + fixed(y, 1) + "\" r=\"4\" fill=\"" + color + "\"/>\n";
}

}  // namespace

std::string calibration_svg(const CalibrationReport& c) {
  if (!c.result || c.result->curve.empty()) {
    throw error::InvalidInput("calibration " + c.id + " has no result yet (state " + std::string(name(c.state)) + ")");
  }
  const calibration::Calibration& r = *c.result;
  const double mb = 1e6;
  const double d = r.d / mb, D = r.D / mb, beta = r.beta;
  const int k = r.k;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + fixed(kFigureWidth, 0) + " " +
                    fixed(kFigureHeight, 0) +
                    "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\" fill=\"#1f2328\">\n"
                    "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out += "<text x=\"20\" y=\"24\" font-size=\"15\" font-weight=\"600\">Calibration " + escape(c.id) + ": d " +
         fixed(d, 2) + " MB/s, D " + fixed(D, 2) + " MB/s, k " + std::to_string(k) + ", " + "\u03b2 " +
         fixed(beta * 1000, 1) + " ms</text>\n";
  out += "<text x=\"20\" y=\"44\" fill=\"#57606a\">" + escape(c.finished) + ", " + escape(fixed(c.seconds, 1)) +
         " s, " + std::to_string(r.curve.size()) + " curve steps" +
         (r.saturated ? "" : "; the curve never bent: D is a lower bound") + "</text>\n";

  // Left: aggregate rate against concurrent flows.
  double max_flows = 1, max_rate = D;
  for (const calibration::CurvePoint& p : r.curve) {
    max_flows = std::max(max_flows, static_cast<double>(p.flows));
    max_rate = std::max(max_rate, p.rate / mb);
  }
  const Plot rates{kPlotLefts[0], max_flows + 1, axis_end(max_rate * 1.1)};
  out += axes(rates, "concurrent flows", "aggregate rate (MB/s)", 0, 1);
  // Each flow at d up to D: where the two lines meet is D/d.
  out += line(rates.x(0), rates.y(0), rates.x(D / d), rates.y(D), "stroke=\"#8c959f\" stroke-dasharray=\"4 3\"");
  out += line(rates.x(0), rates.y(D), rates.x(rates.x_max), rates.y(D), "stroke=\"#cf222e\" stroke-dasharray=\"6 3\"");
  out += label(rates.x(rates.x_max) - 4, rates.y(D) - 6, "D", "end");
  out += line(rates.x(k), kPlotTop, rates.x(k), kPlotTop + kPlotHeight, "stroke=\"#0969da\" stroke-dasharray=\"2 3\"");
  out += label(rates.x(k) + 4, kPlotTop + 12, "k = " + std::to_string(k), "start");
  std::string path;
  for (const calibration::CurvePoint& p : r.curve) {
    const double x = rates.x(p.flows), y = rates.y(p.rate / mb);
    path += (path.empty() ? "M" : " L") + fixed(x, 1) + " " + fixed(y, 1);
    out += dot(x, y, "#4e79a7");
  }
  out += "<path d=\"" + path + "\" fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"1.5\"/>\n";

  // Right: step time against the first flow's bytes, for one flow and for k at once, and
  // the lines of slope 1/d through their start-ups.
  double max_bytes = 0, max_seconds = 0;
  for (const calibration::SizePoint& p : r.sizes) {
    max_bytes = std::max(max_bytes, static_cast<double>(p.bytes) / mb);
    max_seconds = std::max(max_seconds, p.seconds);
  }
  const Plot sizes{kPlotLefts[1], axis_end(max_bytes), axis_end(max_seconds * 1.1)};
  out += axes(sizes, "bytes of the first flow (MB)", "step time (s)", 2, 2);
  const double first_rate = r.curve[0].rate / mb;
  const double beta_one = r.beta_one_flow;
  const char* const one_color = "#e15759";
  const char* const k_color = "#59a14f";
  if (first_rate > 0) {
    out += line(sizes.x(0), sizes.y(beta_one), sizes.x(sizes.x_max), sizes.y(beta_one + sizes.x_max / first_rate),
                std::string("stroke=\"") + one_color + "\" stroke-width=\"1.2\"");
    out += line(sizes.x(0), sizes.y(beta), sizes.x(sizes.x_max), sizes.y(beta + sizes.x_max / first_rate),
                std::string("stroke=\"") + k_color + "\" stroke-width=\"1.2\"");
  }
  out += "<text x=\"" + fixed(sizes.x(0) + 6, 1) + "\" y=\"" + fixed(kPlotTop + 12, 1) + "\" fill=\"" + one_color +
         "\">one flow: \u03b2 = " + fixed(beta_one * 1000, 1) + " ms</text>\n";
  out += "<text x=\"" + fixed(sizes.x(0) + 6, 1) + "\" y=\"" + fixed(kPlotTop + 28, 1) + "\" fill=\"" + k_color +
         "\">" + std::to_string(k) + " flows: \u03b2 = " + fixed(beta * 1000, 1) + " ms</text>\n";
  for (const calibration::SizePoint& p : r.sizes) {
    out += dot(sizes.x(static_cast<double>(p.bytes) / mb), sizes.y(p.seconds), p.flows > 1 ? k_color : one_color);
  }
  return out + "</svg>\n";
}

std::string calibration_section_html(const CalibrationReport& c) {
  static const calibration::Calibration none;
  const calibration::Calibration& r = c.result ? *c.result : none;
  const std::string id = escape(c.id);
  std::string out = "<section id=\"calibration\"><h2>Calibration " + id + " <small><a href=\"/v1/calibrations/" + id +
                    "/curve.svg\">SVG</a> · <a href=\"/v1/calibrations/" + id + "\">JSON</a></small></h2>\n<dl>";
  const std::vector<std::pair<std::string, std::string>> facts{
      {"d (one flow)", bytes_text(r.d) + "/s"},
      {"D (backbone)", bytes_text(r.D) + "/s" + (c.result && !r.saturated ? " or more" : "")},
      {"\u03b2 (step start-up)", fixed(r.beta * 1000, 1) + " ms"},
      {"k", std::to_string(r.k)},
      {"measured", c.finished},
      {"took",
       fixed(c.seconds, 1) + " s, " + std::to_string(c.progress ? c.progress->steps : r.probe_steps) + " probe steps"},
      {"senders", std::to_string(c.result ? r.senders.size() : c.senders.size())},
      {"receivers", std::to_string(c.result ? r.receivers.size() : c.receivers.size())}};
  for (const auto& [name, value] : facts) out += "<dt>" + escape(name) + "</dt><dd>" + escape(value) + "</dd>";
  out += "</dl>\n";
  try {
    out += "<div class=\"chart\">" + calibration_svg(c) + "</div>\n";
  } catch (const error::InvalidInput& e) {
    out += "<p class=\"empty\">" + escape(e.what()) + ".</p>\n";
  }
  return out + "</section>\n";
}

}  // namespace baton::report

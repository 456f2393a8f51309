#include "coordinator/report/gantt_svg.h"

#include "coordinator/report/gantt_layout.h"
#include "coordinator/report/markup.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace baton::report {
namespace {

// Geometry, in SVG user units (pixels at 100 %).
constexpr double kWidth = 960;
constexpr double kLeft = 130;  // node names
constexpr double kRight = 24;
constexpr double kTop = 104;  // title, summary, legend, step labels
constexpr double kRow = 34;
constexpr double kBar = 11;
constexpr double kPlot = kWidth - kLeft - kRight;

// One color per step, cycled (Tableau 10).
constexpr const char* kColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                   "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};
constexpr std::size_t kColorCount = std::size(kColors);

// A tick spacing of 1, 2 or 5 × 10^n giving at most about 8 ticks over `span`.
double tick_spacing(double span) {
  const double raw = span / 8;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

int decimals_for(double spacing) { return spacing >= 1 ? 0 : spacing >= 0.1 ? 1 : spacing >= 0.01 ? 2 : 3; }

}  // namespace

std::string gantt_svg(const JobReport& job) {
  const GanttLayout layout = gantt_layout(job);
  double end = layout.end > 0 ? layout.end : 1;
  const double spacing = tick_spacing(end);
  end = std::ceil(end / spacing - 1e-9) * spacing;  // the axis ends on a tick
  const double scale = kPlot / end;
  const auto x_of = [&](double t) { return kLeft + t * scale; };
  const double bottom = kTop + static_cast<double>(layout.rows.size()) * kRow;
  const double height = bottom + 52;

  std::string svg;
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fixed(kWidth, 0) + "\" height=\"" + fixed(height, 0) +
         "\" viewBox=\"0 0 " + fixed(kWidth, 0) + " " + fixed(height, 0) +
         "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\" class=\"gantt\">\n";
  svg += "<title>" + escape("Job " + job.id + ": plan against measured, per node and step") + "</title>\n<defs>\n";
  for (std::size_t c = 0; c < kColorCount; ++c) {
    svg += "<pattern id=\"hatch-" + std::to_string(c) +
           "\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
           "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"" +
           std::string(kColors[c]) + "\" stroke-width=\"2.5\"/></pattern>\n";
  }
  svg += "</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";

  // Title and totals.
  svg += "<text x=\"16\" y=\"24\" font-size=\"16\" font-weight=\"bold\">" + escape(layout.title) + "</text>\n";
  svg += "<text x=\"16\" y=\"44\" fill=\"#333333\">" + escape(layout.summary) + "</text>\n";

  // Legend.
  svg +=
      "<g class=\"legend\" transform=\"translate(16,58)\">"
      "<rect x=\"0\" y=\"0\" width=\"22\" height=\"11\" fill=\"url(#hatch-0)\" stroke=\"" +
      std::string(kColors[0]) +
      "\"/><text x=\"28\" y=\"10\">planned (model: step start, β + flow / d)</text>"
      "<rect x=\"300\" y=\"0\" width=\"22\" height=\"11\" fill=\"" +
      std::string(kColors[0]) +
      "\"/><text x=\"328\" y=\"10\">measured (release + the node's own report)</text>"
      "<rect x=\"610\" y=\"-2\" width=\"22\" height=\"15\" fill=\"#eef1f6\"/>"
      "<text x=\"638\" y=\"10\">measured step (release to barrier)</text>"
      "<line x1=\"860\" y1=\"-2\" x2=\"860\" y2=\"13\" stroke=\"#888888\" stroke-dasharray=\"3,3\"/>"
      "<text x=\"866\" y=\"10\">plan</text></g>\n";

  // Measured steps as bands, planned step starts as dashed lines, step labels above.
  for (const GanttBand& b : layout.bands) {
    svg += "<rect class=\"step-band\" x=\"" + fixed(x_of(b.start), 2) + "\" y=\"" + fixed(kTop - 18, 2) +
           "\" width=\"" + fixed(b.seconds * scale, 2) + "\" height=\"" + fixed(bottom - kTop + 18, 2) + "\" fill=\"" +
           (b.step % 2 == 0 ? "#eef1f6" : "#f6f7fa") + "\"/>\n";
  }
  for (std::size_t s = 0; s < layout.plan_starts.size(); ++s) {
    const double x = x_of(layout.plan_starts[s]);
    svg += "<line class=\"plan-boundary\" x1=\"" + fixed(x, 2) + "\" y1=\"" + fixed(kTop - 4, 2) + "\" x2=\"" +
           fixed(x, 2) + "\" y2=\"" + fixed(bottom, 2) + "\" stroke=\"#888888\" stroke-dasharray=\"3,3\"/>\n";
  }
  // Labels at the measured start where the step ran, else at the planned one; a label
  // too close to the previous is left out.
  double last_label = -1e9;
  for (std::size_t s = 0; s < layout.plan_starts.size(); ++s) {
    const auto band = std::ranges::find_if(layout.bands, [&](const GanttBand& b) { return b.step == s; });
    const double x = x_of(band != layout.bands.end() ? band->start : layout.plan_starts[s]) + 2;
    if (x - last_label < 26) continue;
    last_label = x;
    svg += "<text class=\"step-label\" x=\"" + fixed(x, 2) + "\" y=\"" + fixed(kTop - 6, 2) +
           "\" font-size=\"10\" fill=\"" + kColors[s % kColorCount] + "\">s" + std::to_string(s) + "</text>\n";
  }

  // Rows: the node's name and a baseline.
  for (std::size_t r = 0; r < layout.rows.size(); ++r) {
    const double y = kTop + static_cast<double>(r) * kRow;
    svg += "<text class=\"node\" x=\"" + fixed(kLeft - 8, 2) + "\" y=\"" + fixed(y + kRow / 2 + 4, 2) +
           "\" text-anchor=\"end\">" + escape(layout.rows[r]) + "</text>\n";
    svg += "<line x1=\"" + fixed(kLeft, 2) + "\" y1=\"" + fixed(y + kRow, 2) + "\" x2=\"" + fixed(kLeft + kPlot, 2) +
           "\" y2=\"" + fixed(y + kRow, 2) + "\" stroke=\"#dddddd\"/>\n";
  }

  // Bars: planned above (hatched, outlined), measured below (filled).
  for (const GanttBar& b : layout.bars) {
    const double y = kTop + static_cast<double>(b.row) * kRow + 5 + (b.measured ? kBar + 2 : 0);
    const std::string color = kColors[b.step % kColorCount];
    const std::string fill = b.measured ? color : "url(#hatch-" + std::to_string(b.step % kColorCount) + ")";
    const std::string tip = layout.rows[b.row] + (b.task.empty() ? "" : ", " + b.task) + ", step " +
                            std::to_string(b.step) + (b.measured ? ": measured " : ": planned ") + fixed(b.seconds, 3) +
                            " s from " + fixed(b.start, 3) + " s, " + bytes_text(b.bytes);
    svg += std::string("<rect class=\"") + (b.measured ? "measured" : "planned") + "\" data-node=\"" +
           escape(layout.rows[b.row]) + "\" data-step=\"" + std::to_string(b.step) + "\" x=\"" +
           fixed(x_of(b.start), 3) + "\" y=\"" + fixed(y, 2) + "\" width=\"" + fixed(b.seconds * scale, 3) +
           "\" height=\"" + fixed(kBar, 2) + "\" fill=\"" + fill + "\" stroke=\"" + color + "\" stroke-width=\"" +
           (b.measured ? "0" : "1") + "\"><title>" + escape(tip) + "</title></rect>\n";
  }

  // The time axis, in seconds since the job started.
  svg += "<g class=\"axis\"><line x1=\"" + fixed(kLeft, 2) + "\" y1=\"" + fixed(bottom, 2) + "\" x2=\"" +
         fixed(kLeft + kPlot, 2) + "\" y2=\"" + fixed(bottom, 2) + "\" stroke=\"#333333\"/>\n";
  const int decimals = decimals_for(spacing);
  const long ticks = std::lround(end / spacing);
  for (long i = 0; i <= ticks; ++i) {
    const double t = static_cast<double>(i) * spacing;
    const double x = x_of(t);
    svg += "<line x1=\"" + fixed(x, 2) + "\" y1=\"" + fixed(bottom, 2) + "\" x2=\"" + fixed(x, 2) + "\" y2=\"" +
           fixed(bottom + 5, 2) + "\" stroke=\"#333333\"/><text x=\"" + fixed(x, 2) + "\" y=\"" +
           fixed(bottom + 18, 2) + "\" text-anchor=\"middle\">" + fixed(t, decimals) + "</text>\n";
  }
  svg += "<text x=\"" + fixed(kLeft + kPlot / 2, 2) + "\" y=\"" + fixed(bottom + 38, 2) +
         "\" text-anchor=\"middle\" fill=\"#333333\">seconds since the job started</text></g>\n";
  svg += "</svg>\n";
  return svg;
}

}  // namespace baton::report

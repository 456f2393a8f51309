#include "coordinator/report/gantt_svg.h"

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

double number(const Json& object, const char* name, double fallback) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(name);
  return it != object.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string text(const Json& object, const char* name) {
  if (!object.is_object()) return "";
  const auto it = object.find(name);
  if (it == object.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

struct Bar {
  std::size_t row = 0;
  std::size_t step = 0;
  double start = 0;
  double seconds = 0;
  double bytes = 0;
  bool measured = false;
};

// A measured step: the band behind the bars, from its release to its barrier.
struct Band {
  std::size_t step = 0;
  double start = 0;
  double seconds = 0;
};

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

std::string gantt_svg(const Json& job) {
  const std::string id = text(job, "id");
  const Json* report = job.is_object() && job.contains("report") ? &job.at("report") : nullptr;
  if (report == nullptr || !report->is_object() || !report->contains("steps") || !report->at("steps").is_array()) {
    throw std::invalid_argument("job " + id + " has no report yet (it has not been planned)");
  }

  std::vector<std::string> rows;
  const auto row_of = [&](const std::string& node) {
    const auto it = std::ranges::find(rows, node);
    if (it != rows.end()) return static_cast<std::size_t>(it - rows.begin());
    rows.push_back(node);
    return rows.size() - 1;
  };
  for (const char* cluster : {"senders", "receivers"}) {
    if (!job.contains(cluster) || !job.at(cluster).is_array()) continue;
    for (const Json& node : job.at(cluster)) {
      if (node.is_string()) row_of(node.get<std::string>());
    }
  }

  std::vector<Bar> bars;
  std::vector<Band> bands;
  std::vector<double> plan_starts;
  double planned_sum = 0;
  double end = 0;
  const Json& steps = report->at("steps");
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const Json& step = steps[s];
    const auto nodes = step.is_object() ? step.find("nodes") : step.end();
    if (!step.is_object() || nodes == step.end() || !nodes->is_object()) {
      throw std::invalid_argument("job " + id + ": step " + std::to_string(s) +
                                  " of the report has no per-node timing (\"nodes\"); the coordinator predates it");
    }
    const double planned_start = number(step, "planned_start_seconds", planned_sum);
    planned_sum = planned_start + number(step, "predicted_seconds", 0);
    plan_starts.push_back(planned_start);
    end = std::max(end, planned_sum);
    const bool ran = step.contains("started_seconds");
    const double started = number(step, "started_seconds", 0);
    if (ran) {
      bands.push_back({s, started, number(step, "measured_seconds", 0)});
      end = std::max(end, started + bands.back().seconds);
    }
    for (const auto& [node, entry] : nodes->items()) {
      const std::size_t row = row_of(node);
      bars.push_back(
          {row, s, planned_start, number(entry, "planned_seconds", 0), number(entry, "planned_bytes", 0), false});
      if (ran && entry.is_object() && entry.contains("seconds")) {
        bars.push_back({row, s, started, number(entry, "seconds", 0), number(entry, "bytes", 0), true});
      }
    }
  }
  for (const Bar& b : bars) end = std::max(end, b.start + b.seconds);
  if (!(end > 0)) end = 1;
  const double spacing = tick_spacing(end);
  end = std::ceil(end / spacing - 1e-9) * spacing;  // the axis ends on a tick
  const double scale = kPlot / end;
  const auto x_of = [&](double t) { return kLeft + t * scale; };
  const double bottom = kTop + static_cast<double>(rows.size()) * kRow;
  const double height = bottom + 52;

  std::string svg;
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fixed(kWidth, 0) + "\" height=\"" + fixed(height, 0) +
         "\" viewBox=\"0 0 " + fixed(kWidth, 0) + " " + fixed(height, 0) +
         "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\" class=\"gantt\">\n";
  svg += "<title>" + escape("Job " + id + ": plan against measured, per node and step") + "</title>\n<defs>\n";
  for (std::size_t c = 0; c < kColorCount; ++c) {
    svg += "<pattern id=\"hatch-" + std::to_string(c) +
           "\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
           "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"" +
           std::string(kColors[c]) + "\" stroke-width=\"2.5\"/></pattern>\n";
  }
  svg += "</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";

  // Title and totals.
  const double predicted = number(*report, "predicted_seconds", 0);
  const double measured = number(*report, "measured_seconds", 0);
  std::string title = "Job " + id + " · " + text(*report, "algorithm");
  if (report->contains("k")) title += " · k " + text(*report, "k");
  if (job.contains("state")) title += " · " + text(job, "state");
  std::string summary = "predicted " + fixed(predicted, 3) + " s · measured " + fixed(measured, 3) + " s";
  if (predicted > 0 && measured > 0) summary += " (×" + fixed(measured / predicted, 2) + ")";
  if (report->contains("lower_bound_seconds"))
    summary += " · lower bound " + fixed(number(*report, "lower_bound_seconds", 0), 3) + " s";
  summary += " · " + std::to_string(steps.size()) + " steps";
  svg += "<text x=\"16\" y=\"24\" font-size=\"16\" font-weight=\"bold\">" + escape(title) + "</text>\n";
  svg += "<text x=\"16\" y=\"44\" fill=\"#333333\">" + escape(summary) + "</text>\n";

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
  for (const Band& b : bands) {
    svg += "<rect class=\"step-band\" x=\"" + fixed(x_of(b.start), 2) + "\" y=\"" + fixed(kTop - 18, 2) +
           "\" width=\"" + fixed(b.seconds * scale, 2) + "\" height=\"" + fixed(bottom - kTop + 18, 2) + "\" fill=\"" +
           (b.step % 2 == 0 ? "#eef1f6" : "#f6f7fa") + "\"/>\n";
  }
  for (std::size_t s = 0; s < plan_starts.size(); ++s) {
    const double x = x_of(plan_starts[s]);
    svg += "<line class=\"plan-boundary\" x1=\"" + fixed(x, 2) + "\" y1=\"" + fixed(kTop - 4, 2) + "\" x2=\"" +
           fixed(x, 2) + "\" y2=\"" + fixed(bottom, 2) + "\" stroke=\"#888888\" stroke-dasharray=\"3,3\"/>\n";
  }
  // Labels at the measured start where the step ran, else at the planned one; a label
  // too close to the previous is left out.
  double last_label = -1e9;
  for (std::size_t s = 0; s < plan_starts.size(); ++s) {
    const auto band = std::ranges::find_if(bands, [&](const Band& b) { return b.step == s; });
    const double x = x_of(band != bands.end() ? band->start : plan_starts[s]) + 2;
    if (x - last_label < 26) continue;
    last_label = x;
    svg += "<text class=\"step-label\" x=\"" + fixed(x, 2) + "\" y=\"" + fixed(kTop - 6, 2) +
           "\" font-size=\"10\" fill=\"" + kColors[s % kColorCount] + "\">s" + std::to_string(s) + "</text>\n";
  }

  // Rows: the node's name and a baseline.
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double y = kTop + static_cast<double>(r) * kRow;
    svg += "<text class=\"node\" x=\"" + fixed(kLeft - 8, 2) + "\" y=\"" + fixed(y + kRow / 2 + 4, 2) +
           "\" text-anchor=\"end\">" + escape(rows[r]) + "</text>\n";
    svg += "<line x1=\"" + fixed(kLeft, 2) + "\" y1=\"" + fixed(y + kRow, 2) + "\" x2=\"" + fixed(kLeft + kPlot, 2) +
           "\" y2=\"" + fixed(y + kRow, 2) + "\" stroke=\"#dddddd\"/>\n";
  }

  // Bars: planned above (hatched, outlined), measured below (filled).
  for (const Bar& b : bars) {
    const double y = kTop + static_cast<double>(b.row) * kRow + 5 + (b.measured ? kBar + 2 : 0);
    const std::string color = kColors[b.step % kColorCount];
    const std::string fill = b.measured ? color : "url(#hatch-" + std::to_string(b.step % kColorCount) + ")";
    const std::string tip = rows[b.row] + ", step " + std::to_string(b.step) +
                            (b.measured ? ": measured " : ": planned ") + fixed(b.seconds, 3) + " s from " +
                            fixed(b.start, 3) + " s, " + bytes_text(b.bytes);
    svg += std::string("<rect class=\"") + (b.measured ? "measured" : "planned") + "\" data-node=\"" +
           escape(rows[b.row]) + "\" data-step=\"" + std::to_string(b.step) + "\" x=\"" + fixed(x_of(b.start), 3) +
           "\" y=\"" + fixed(y, 2) + "\" width=\"" + fixed(b.seconds * scale, 3) + "\" height=\"" + fixed(kBar, 2) +
           "\" fill=\"" + fill + "\" stroke=\"" + color + "\" stroke-width=\"" + (b.measured ? "0" : "1") +
           "\"><title>" + escape(tip) + "</title></rect>\n";
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

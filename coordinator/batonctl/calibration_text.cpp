#include "coordinator/batonctl/calibration_text.h"

#include "coordinator/batonctl/job_text.h"
#include "coordinator/report/markup.h"

namespace baton::batonctl {

using json::Json;

namespace {

std::string per_second(double bytes_per_second) { return report::bytes_text(bytes_per_second) + "/s"; }

std::string milliseconds(double seconds) { return report::fixed(seconds * 1000, 1) + " ms"; }

}  // namespace

std::string calibration_text(const Json& answer) {
  const report::CalibrationReport c = report::parse_calibration_report(answer);
  std::string out = "calibration " + c.id + ": " + std::string(report::name(c.state));
  if (c.progress) out += " (" + c.progress->phase + ", " + std::to_string(c.progress->steps) + " probe steps)";
  if (!c.error.empty()) out += ": " + c.error;
  out += '\n';
  if (!c.result) return out;
  const calibration::Calibration& r = *c.result;
  out +=
      format_table({"", "", ""}, {{"d", per_second(r.d), "one flow: the slowest node's"},
                                  {"D", per_second(r.D),
                                   r.saturated ? "the backbone: where adding a flow stopped adding"
                                               : "at least: every pair ran at full rate, the curve never bent"},
                                  {"beta", milliseconds(r.beta), "a step's start-up: the intercept of the size series"},
                                  {"k", std::to_string(r.k), "floor(D/d)"}});
  out += "measured " + c.finished + " in " + report::fixed(c.seconds, 1) + " s, " + std::to_string(r.probe_steps) +
         " probe steps, " + report::bytes_text(static_cast<double>(r.probe_bytes)) + "\n\n";
  std::vector<std::vector<std::string>> curve;
  for (const calibration::CurvePoint& p : r.curve) {
    curve.push_back({std::to_string(p.flows), report::fixed(p.seconds, 3), per_second(p.rate)});
  }
  out += format_table({"FLOWS", "SECONDS", "AGGREGATE"}, curve) + '\n';
  std::vector<std::vector<std::string>> nodes;
  for (const calibration::NodeRate& n : r.nodes) nodes.push_back({n.node, n.role, per_second(n.rate)});
  return out + format_table({"NODE", "ROLE", "RATE"}, nodes);
}

std::string calibrations_table(const Json& answer) {
  std::vector<std::vector<std::string>> rows;
  for (const report::CalibrationLine& c : report::parse_calibration_list(answer)) {
    const auto& m = c.model;
    rows.push_back({c.id, std::string(report::name(c.state)), m ? per_second(m->d) : "-", m ? per_second(m->D) : "-",
                    m ? milliseconds(m->beta) : "-", m ? std::to_string(m->k) : "-", c.finished});
  }
  return format_table({"ID", "STATE", "D", "BACKBONE", "BETA", "K", "MEASURED"}, rows);
}

std::string platform_and_replans_text(const report::PlanReport& plan) {
  const auto seconds_or_dash = [](const std::optional<double>& s) { return s ? report::fixed(*s, 2) + " s" : "-"; };
  std::string out;
  if (const auto& p = plan.platform) {
    const schedule::kpbs::Platform& f = p->figures;
    out += "platform: " + p->source + (p->calibration.empty() ? "" : " (calibration " + p->calibration + ")") + ", d " +
           per_second(f.sender_rate) + " per sender, " + per_second(f.receiver_rate) + " per receiver, D " +
           per_second(f.backbone_rate) + ", beta " + milliseconds(f.step_startup) +
           (p->replan_on_drift ? ", re-planned on drift" : "") + '\n';
  }
  for (const report::ReplanLine& r : plan.replans) {
    out += "re-planned at step " + std::to_string(r.at_step) + " (" + report::fixed(r.elapsed_seconds, 1) +
           " s in): " + r.why + "; ";
    if (r.error) {
      out += *r.error + '\n';
      continue;
    }
    out += "the " + std::string(report::name(r.cause)) + ": k " + std::to_string(r.old_model.k) + " -> " +
           (r.new_model ? std::to_string(r.new_model->k) : "-") + ", the rest predicted " +
           seconds_or_dash(r.predicted_remaining_seconds_kept) + " as planned, " +
           seconds_or_dash(r.predicted_remaining_seconds_after) + " re-planned" +
           (r.cost_seconds ? ", the failed trial cost " + seconds_or_dash(r.cost_seconds) : "") + '\n';
  }
  return out;
}

}  // namespace baton::batonctl

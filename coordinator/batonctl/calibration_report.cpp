#include "coordinator/batonctl/calibration_report.h"

#include "coordinator/batonctl/job_report.h"
#include "coordinator/report/markup.h"

namespace baton::batonctl {

using json::Json;

namespace {

const Json* member(const Json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(name);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string text(const Json& object, const char* name) {
  const Json* v = member(object, name);
  if (v == nullptr) return "-";
  if (v->is_string()) return v->get<std::string>();
  if (v->is_boolean()) return v->get<bool>() ? "yes" : "no";
  return v->dump();
}

// A number with a unit, or "-".
std::string rate(const Json& object, const char* name) {
  const Json* v = member(object, name);
  return v != nullptr && v->is_number() ? report::bytes_text(v->get<double>()) + "/s" : "-";
}

std::string fixed(const Json& object, const char* name, double scale, int digits, const char* unit) {
  const Json* v = member(object, name);
  return v != nullptr && v->is_number() ? report::fixed(v->get<double>() * scale, digits) + unit : "-";
}

const Json& list(const Json& object, const char* name) {
  static const Json empty = Json::array();
  const Json* v = member(object, name);
  return v != nullptr && v->is_array() ? *v : empty;
}

}  // namespace

std::string calibration_text(const Json& c) {
  std::string out = "calibration " + text(c, "id") + ": " + text(c, "state");
  if (text(c, "state") == "running") out += " (" + text(c, "phase") + ", " + text(c, "probe_steps") + " probe steps)";
  if (const std::string error = text(c, "error"); error != "-" && !error.empty()) out += ": " + error;
  out += '\n';
  if (member(c, "D") == nullptr) return out;
  const bool saturated = !member(c, "saturated") || text(c, "saturated") == "yes";
  out += format_table(
      {"", "", ""}, {{"d", rate(c, "d"), "one flow: the slowest node's"},
                     {"D", rate(c, "D"),
                      saturated ? "the backbone: where adding a flow stopped adding"
                                : "at least: every pair ran at full rate, the curve never bent"},
                     {"beta", fixed(c, "beta", 1000, 1, " ms"), "a step's start-up: the intercept of the size series"},
                     {"k", text(c, "k"), "floor(D/d)"}});
  out += "measured " + text(c, "finished") + " in " + fixed(c, "seconds", 1, 1, " s") + ", " + text(c, "probe_steps") +
         " probe steps, " + report::bytes_text(member(c, "probe_bytes") ? member(c, "probe_bytes")->get<double>() : 0) +
         "\n\n";
  std::vector<std::vector<std::string>> curve;
  for (const Json& p : list(c, "curve")) {
    curve.push_back({text(p, "flows"), fixed(p, "seconds", 1, 3, ""), rate(p, "rate")});
  }
  out += format_table({"FLOWS", "SECONDS", "AGGREGATE"}, curve) + '\n';
  std::vector<std::vector<std::string>> nodes;
  for (const Json& n : list(c, "nodes")) nodes.push_back({text(n, "node"), text(n, "role"), rate(n, "rate")});
  return out + format_table({"NODE", "ROLE", "RATE"}, nodes);
}

std::string calibrations_table(const Json& answer) {
  std::vector<std::vector<std::string>> rows;
  for (const Json& c : list(answer, "calibrations")) {
    rows.push_back({text(c, "id"), text(c, "state"), rate(c, "d"), rate(c, "D"), fixed(c, "beta", 1000, 1, " ms"),
                    text(c, "k"), text(c, "finished")});
  }
  return format_table({"ID", "STATE", "D", "BACKBONE", "BETA", "K", "MEASURED"}, rows);
}

std::string platform_and_replans_text(const report::PlanReport& plan) {
  const auto per_second = [](double bytes_per_second) { return report::bytes_text(bytes_per_second) + "/s"; };
  const auto seconds_or_dash = [](const std::optional<double>& s) { return s ? report::fixed(*s, 2) + " s" : "-"; };
  std::string out;
  if (const auto& p = plan.platform) {
    out += "platform: " + p->source + (p->calibration.empty() ? "" : " (calibration " + p->calibration + ")") + ", d " +
           per_second(p->sender_rate) + " per sender, " + per_second(p->receiver_rate) + " per receiver, D " +
           per_second(p->backbone_rate) + ", beta " + report::fixed(p->step_startup * 1000, 1) + " ms" +
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

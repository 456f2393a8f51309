#include "coordinator/report/status_page.h"

#include "coordinator/report/calibration_svg.h"
#include "coordinator/report/gantt_svg.h"
#include "coordinator/report/markup.h"
#include "error/error.h"

#include <vector>

namespace baton::report {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kStyle = R"(
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; font-size: 14px; color: #1f2328;
       margin: 0; background: #f6f8fa; }
header { background: #24292f; color: #ffffff; padding: 10px 24px; display: flex; align-items: baseline; gap: 24px; }
header h1 { font-size: 18px; margin: 0; }
header h1 a { color: #ffffff; text-decoration: none; }
header .status { color: #d0d7de; }
main { padding: 8px 24px 24px; }
section { background: #ffffff; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 16px 12px; margin-top: 16px; }
h2 { font-size: 16px; margin: 6px 0 10px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 10px 4px 0; border-bottom: 1px solid #eaeef2; white-space: nowrap; }
th { font-size: 12px; color: #57606a; font-weight: 600; }
td.num, th.num { text-align: right; }
tr.selected { background: #ddf4ff; }
a { color: #0969da; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; color: #ffffff; }
.state-done, .alive-yes { background: #1a7f37; }
.state-running, .state-planning { background: #0969da; }
.state-queued { background: #6e7781; }
.state-failed, .alive-no { background: #cf222e; }
.state-cancelled { background: #9a6700; }
.bar { display: inline-block; width: 120px; height: 10px; background: #eaeef2; border-radius: 5px; vertical-align: middle; }
.bar span { display: block; height: 10px; background: #2da44e; border-radius: 5px; }
dl { display: grid; grid-template-columns: max-content auto max-content auto max-content auto; gap: 4px 14px; margin: 0 0 12px; }
dt { color: #57606a; }
dd { margin: 0; }
.chart { margin: 8px 0 12px; }
.chart svg { width: 100%; height: auto; max-width: 1400px; }
.error { color: #cf222e; }
.empty { color: #57606a; }
footer { color: #57606a; font-size: 12px; padding: 0 24px 16px; }
)";

std::string text(const Json& object, const char* name) {
  if (!object.is_object()) return "";
  const auto it = object.find(name);
  if (it == object.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_boolean()) return it->get<bool>() ? "yes" : "no";
  if (it->is_array()) {
    std::string joined;
    for (const Json& v : *it)
      joined += (joined.empty() ? "" : ", ") + (v.is_string() ? v.get<std::string>() : v.dump());
    return joined;
  }
  return it->dump();
}

double number(const Json& object, const char* name) {
  if (!object.is_object()) return 0;
  const auto it = object.find(name);
  return it != object.end() && it->is_number() ? it->get<double>() : 0;
}

// What a job has moved: its finished steps' bytes and the running step's so far (the
// agents' progress reports), so a long step's progress moves while it runs.
double bytes_moved(const Json& job) { return number(job, "bytes_done") + number(job, "step_bytes_done"); }

bool has(const Json& object, const char* name) { return object.is_object() && object.contains(name); }

const Json& list(const Json& answer, const char* name) {
  static const Json empty = Json::array();
  return has(answer, name) && answer.at(name).is_array() ? answer.at(name) : empty;
}

// A cell of a table: escaped text, optionally right-aligned.
std::string cell(const std::string& content, bool numeric = false) {
  return std::string(numeric ? "<td class=\"num\">" : "<td>") + escape(content) + "</td>";
}

std::string header_row(const std::vector<std::pair<std::string, bool>>& columns) {
  std::string out = "<tr>";
  for (const auto& [name, numeric] : columns) out += (numeric ? "<th class=\"num\">" : "<th>") + name + "</th>";
  return out + "</tr>\n";
}

// Only a fixed set of class names: a state that is none of them gets no colour.
std::string state_badge(const std::string& state) {
  static const char* const known[] = {"done", "running", "planning", "queued", "failed", "cancelled"};
  std::string cls = "badge";
  for (const char* k : known) {
    if (state == k) cls += std::string(" state-") + k;
  }
  return "<span class=\"" + cls + "\">" + escape(state) + "</span>";
}

std::string seconds(double value) { return fixed(value, 3) + " s"; }

std::string agents_section(const Json& answer) {
  const Json& agents = list(answer, "agents");
  std::size_t alive = 0;
  for (const Json& a : agents) alive += has(a, "alive") && a.at("alive") == true ? 1 : 0;
  std::string out = "<section id=\"agents\"><h2>Agents: " + std::to_string(alive) + " alive of " +
                    std::to_string(agents.size()) + "</h2>\n";
  if (agents.empty()) return out + "<p class=\"empty\">No agent has registered.</p></section>\n";
  out += "<table>\n" + header_row({{"Node", false},
                                   {"Alive", false},
                                   {"Addresses", false},
                                   {"Transports", false},
                                   {"Rate", true},
                                   {"Heartbeat age", true},
                                   {"Job", false}});
  for (const Json& a : agents) {
    const bool up = has(a, "alive") && a.at("alive") == true;
    out += "<tr class=\"agent\">" + cell(text(a, "node")) + "<td><span class=\"badge alive-" + (up ? "yes" : "no") +
           "\">" + (up ? "alive" : "dead") + "</span></td>" + cell(text(a, "addresses")) + cell(text(a, "transports")) +
           cell(bytes_text(number(a, "rate")) + "/s", true) + cell(seconds(number(a, "last_heartbeat_age")), true) +
           cell(text(a, "job")) + "</tr>\n";
  }
  return out + "</table></section>\n";
}

std::string jobs_section(const Json& answer, const std::string& selected, std::size_t max_jobs) {
  const Json& jobs = list(answer, "jobs");
  std::string out = "<section id=\"jobs\"><h2>Jobs</h2>\n";
  if (jobs.empty())
    return out + "<p class=\"empty\">No job yet: submit one with <code>batonctl submit</code>.</p></section>\n";
  out += "<table>\n" + header_row({{"Job", false},
                                   {"State", false},
                                   {"Algorithm", false},
                                   {"Step", true},
                                   {"Progress", false},
                                   {"Bytes", true},
                                   {"Submitted", false}});
  std::size_t shown = 0;
  for (auto it = jobs.rbegin(); it != jobs.rend() && shown < max_jobs; ++it, ++shown) {  // newest first
    const Json& j = *it;
    const std::string id = text(j, "id");
    const double bytes = number(j, "bytes"), done = bytes_moved(j);
    const double steps = number(j, "steps");
    const double step = std::min(number(j, "step") + 1, steps);
    const double percent = bytes > 0 ? 100 * done / bytes : 0;
    out += std::string("<tr class=\"job") + (id == selected ? " selected" : "") + "\"><td><a href=\"/jobs/" +
           escape(id) + "\">" + escape(id) + "</a></td><td>" + state_badge(text(j, "state")) + "</td>" +
           cell(text(j, "algorithm")) + cell(steps > 0 ? fixed(step, 0) + "/" + fixed(steps, 0) : "-", true) +
           "<td><span class=\"bar\"><span style=\"width:" + fixed(std::min(percent, 100.0), 1) + "%\"></span></span> " +
           fixed(percent, 0) + " %</td>" + cell(bytes_text(done) + " / " + bytes_text(bytes), true) +
           cell(text(j, "submitted")) + "</tr>\n";
  }
  out += "</table>\n";
  if (jobs.size() > shown) {
    out += "<p class=\"empty\">The newest " + std::to_string(shown) + " of " + std::to_string(jobs.size()) +
           " jobs; <code>batonctl jobs</code> lists them all.</p>\n";
  }
  return out + "</section>\n";
}

std::string optional_seconds(const std::optional<double>& value) { return value ? seconds(*value) : "-"; }

std::string job_section(const JobReport& job) {
  std::string out = "<section id=\"job\"><h2>Job " + escape(job.id) + " " + state_badge(job.state) +
                    " <small><a href=\"/v1/jobs/" + escape(job.id) + "/gantt.svg\">SVG</a> · <a href=\"/v1/jobs/" +
                    escape(job.id) + "\">JSON</a></small></h2>\n";
  const auto joined = [](const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
    return text;
  };
  std::vector<std::pair<std::string, std::string>> facts{
      {"algorithm", job.kind == "redistribution"
                        ? job.algorithm + (job.report ? ", k " + std::to_string(job.report->k) : "")
                        : job.kind + ", " + job.algorithm},
      {"senders", joined(job.senders)},
      {"receivers", joined(job.receivers)},
      {"submitted", job.submitted},
      {"bytes", bytes_text(static_cast<double>(job.bytes_done + job.step_bytes_done)) + " of " +
                    bytes_text(static_cast<double>(job.bytes))},
      {"elapsed", seconds(job.elapsed_seconds)}};
  if (!job.node_shares.empty()) facts.emplace_back("share of its nodes", node_shares_text(job.node_shares));
  if (job.report) {
    const double predicted = job.report->predicted_seconds, measured = job.report->measured_seconds;
    facts.emplace_back("predicted", seconds(predicted));
    facts.emplace_back("measured / predicted", predicted > 0 && measured > 0 ? fixed(measured / predicted, 2) : "-");
    if (job.report->model_seconds && job.report->kind != "redistribution") {
      facts.emplace_back("model", seconds(*job.report->model_seconds));
    }
    if (job.report->lower_bound_seconds) facts.emplace_back("lower bound", seconds(*job.report->lower_bound_seconds));
    // What the links allow a job (docs/collectives.md, "The bandwidth bound"; a
    // redistribution's T*, docs/redistribution.md).
    if (const std::optional<double> bound = job.report->bandwidth_bound_seconds; bound && *bound > 0) {
      facts.emplace_back("links allow", seconds(*bound));
      facts.emplace_back("measured / bound", measured > 0 ? fixed(measured / *bound, 2) : "-");
    }
    if (!job.report->candidates.empty()) {
      std::string others;
      for (const AlgorithmCandidate& c : job.report->candidates) {
        others += (others.empty() ? "" : ", ") + c.algorithm + " " + seconds(c.predicted_seconds);
      }
      facts.emplace_back("auto chose", job.report->algorithm + " of " + others);
    }
  }
  out += "<dl>";
  for (const auto& [name, value] : facts) out += "<dt>" + escape(name) + "</dt><dd>" + escape(value) + "</dd>";
  out += "</dl>\n";
  if (!job.error.empty()) out += "<p class=\"error\">" + escape(job.error) + "</p>\n";
  try {
    out += "<div class=\"chart\">" + gantt_svg(job) + "</div>\n";
  } catch (const error::InvalidInput& e) {
    return out + "<p class=\"empty\">No chart: " + escape(e.what()) + ".</p></section>\n";
  }
  out += "<table>\n" + header_row({{"Step", true},
                                   {"Flows", true},
                                   {"Bytes", true},
                                   {"Planned start", true},
                                   {"Predicted", true},
                                   {"Started", true},
                                   {"Measured", true},
                                   {"Attempts", true}});
  for (const StepLine& s : job.report->steps) {
    out += "<tr class=\"step\">" + cell(std::to_string(s.index), true) + cell(std::to_string(s.flows), true) +
           cell(bytes_text(static_cast<double>(s.bytes)), true) + cell(seconds(s.planned_start_seconds), true) +
           cell(seconds(s.predicted_seconds), true) + cell(optional_seconds(s.started_seconds), true) +
           cell(optional_seconds(s.measured_seconds), true) +
           cell(s.attempts ? std::to_string(*s.attempts) : "-", true) + "</tr>\n";
  }
  return out + "</table></section>\n";
}

}  // namespace

std::string status_page_html(const StatusPage& page) {
  const std::string selected = page.job ? page.job->id : "";
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  if (page.refresh_seconds > 0) {
    out += "<meta http-equiv=\"refresh\" content=\"" + std::to_string(page.refresh_seconds) + "\">\n";
  }
  out += "<title>Baton coordinator" + (selected.empty() ? "" : " · job " + escape(selected)) + "</title>\n<style>" +
         kStyle +
         "</style></head>\n<body>\n<header><h1><a href=\"/\">Baton coordinator</a></h1><span class=\"status\">" +
         escape(page.coordinator) + "</span></header>\n<main>\n";
  out += agents_section(page.agents);
  out += jobs_section(page.jobs, selected, page.max_jobs);
  if (!page.error.empty()) out += "<section id=\"job\"><p class=\"error\">" + escape(page.error) + "</p></section>\n";
  else if (page.job) out += job_section(*page.job);
  if (page.calibration) out += calibration_section_html(*page.calibration);
  out += "</main>\n<footer>Read-only view of the coordinator's API";
  if (page.refresh_seconds > 0) out += "; refreshes every " + std::to_string(page.refresh_seconds) + " s";
  out += ". Command line: <code>batonctl</code>.</footer>\n</body></html>\n";
  return out;
}

}  // namespace baton::report

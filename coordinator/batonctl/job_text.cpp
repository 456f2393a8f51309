#include "coordinator/batonctl/job_text.h"

#include "coordinator/batonctl/calibration_text.h"
#include "coordinator/report/markup.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace baton::batonctl {

using json::Json;

namespace {

// Any JSON scalar as a cell; strings without quotes, arrays joined with ",".
std::string cell(const Json* value) {
  if (value == nullptr || value->is_null()) return "-";
  if (value->is_string()) return value->get<std::string>();
  if (value->is_boolean()) return value->get<bool>() ? "yes" : "no";
  if (value->is_number_float()) return report::fixed(value->get<double>(), 3);
  if (value->is_array()) {
    std::string out;
    for (const Json& v : *value) {  // appended: "," + cell(&v) warns -Wrestrict in GCC 12 at -O3 (bug 105329)
      if (!out.empty()) out += ',';
      out += cell(&v);
    }
    return out.empty() ? "-" : out;
  }
  return value->dump();
}

const Json* member(const Json& object, const std::string& name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

bool number(const Json* value, double* out) {
  if (value == nullptr || !value->is_number()) return false;
  *out = value->get<double>();
  return true;
}

std::string bytes_cell(const Json* value) {
  return value != nullptr && value->is_number() ? report::bytes_text(value->get<double>()) : cell(value);
}

std::string seconds_cell(const Json* value) {
  double s = 0;
  return number(value, &s) ? format_seconds(s) : cell(value);
}

// What a job of the list has moved: "bytes_done" (its finished steps') plus
// "step_bytes_done" (the running step's so far); false when it has neither.
bool bytes_moved(const Json& job, double* out) {
  double finished = 0, in_step = 0;
  const bool have_finished = number(member(job, "bytes_done"), &finished);
  const bool have_in_step = number(member(job, "step_bytes_done"), &in_step);
  *out = finished + in_step;
  return have_finished || have_in_step;
}

std::string bytes_text(std::uint64_t bytes) { return report::bytes_text(static_cast<double>(bytes)); }

template <typename T>
std::string or_dash(const std::optional<T>& value, std::string (*show)(T)) {
  return value ? show(*value) : "-";
}

std::string count_text(std::uint64_t n) { return std::to_string(n); }

// The runs an agent is in: "7 (50 %), 9 (50 %)" from its "jobs" (a job's share where it
// has one), or its "job" from a coordinator that lists one.
std::string jobs_cell(const Json& agent) {
  const Json* jobs = member(agent, "jobs");
  if (jobs == nullptr || !jobs->is_array()) return cell(member(agent, "job"));
  std::string out;
  for (const Json& job : *jobs) {
    if (!out.empty()) out += ", ";
    out += cell(member(job, "id"));
    double share = 0;
    if (number(member(job, "share"), &share)) out += " (" + report::percent_text(share) + ")";
  }
  return out.empty() ? "-" : out;
}

std::vector<std::vector<std::string>> rows_of(const Json& answer, const std::string& list,
                                              const std::vector<std::string>& fields) {
  std::vector<std::vector<std::string>> rows;
  const Json* items = member(answer, list);
  if (items == nullptr || !items->is_array()) return rows;
  for (const Json& item : *items) {
    std::vector<std::string> row;
    for (const std::string& f : fields) {
      const Json* v = member(item, f);
      double done = 0;
      if (f == "bytes_done") row.push_back(bytes_moved(item, &done) ? report::bytes_text(done) : "-");
      else if (f == "jobs") row.push_back(jobs_cell(item));
      else row.push_back(f == "bytes" || f == "rate" ? bytes_cell(v) : cell(v));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

std::string report_notes(const report::PlanReport& report) {
  std::string out;
  if (report.algorithm == "all-at-once") {
    out +=
        "note: all-at-once is the unscheduled baseline and runs unpaced: its flows are not held to the\n"
        "  declared rates, so its times are not comparable with a scheduled plan's (each flow paced at d),\n"
        "  and the lower bound holds only for plans that keep k flows and one flow per node at a time.\n";
  }
  if (report.lower_bound_seconds && report.measured_seconds < *report.lower_bound_seconds) {
    out +=
        "note: measured is below the lower bound, which is the model's: every step costs its start-up\n"
        "  beta (step_startup), which a fast or loopback network does not have, and each flow's pacer\n"
        "  starts with a 10 ms burst at full speed.\n";
  }
  return out;
}

std::string format_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string& text = c < cells.size() ? cells[c] : std::string();
      out += text;
      if (c + 1 < width.size()) out += std::string(width[c] - text.size() + 2, ' ');
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + '\n';
  };
  std::string out = line(header);
  for (const auto& row : rows) out += line(row);
  return out;
}

std::string format_seconds(double seconds) { return report::fixed(seconds, 3); }

std::string jobs_table(const Json& answer) {
  return format_table(
      {"ID", "STATE", "ALGORITHM", "STEPS", "STEP", "BYTES", "DONE", "SUBMITTED"},
      rows_of(answer, "jobs", {"id", "state", "algorithm", "steps", "step", "bytes", "bytes_done", "submitted"}));
}

std::string agents_table(const Json& answer) {
  std::string out = format_table(
      {"NODE", "ALIVE", "ADDRESSES", "TRANSPORTS", "RATE/S", "HEARTBEAT AGE", "JOBS (SHARE)"},
      rows_of(answer, "agents", {"node", "alive", "addresses", "transports", "rate", "last_heartbeat_age", "jobs"}));
  // The interval grows with the cluster (docs/runtime.md, "Control sessions"); an older
  // coordinator does not say it.
  if (const Json* every = member(answer, "heartbeat_seconds"); every != nullptr && every->is_number())
    out += "heartbeat interval: " + seconds_cell(every) + " s (an agent silent for 3 is dead)\n";
  // Peers that tried to register and failed authentication: an agent with the wrong
  // cluster secret retries forever, and this is where an operator sees it.
  if (const Json* refused = member(answer, "refused"); refused != nullptr && refused->is_array()) {
    for (const Json& peer : *refused) {
      const std::string node = cell(member(peer, "node"));
      out += "refused: " + cell(member(peer, "address")) +
             (node.empty() || node == "-" ? std::string() : " claiming to be node " + node) + ": " +
             cell(member(peer, "reason")) + " (attempts: " + cell(member(peer, "attempts")) + ", the last " +
             seconds_cell(member(peer, "last_attempt_age")) + " s ago)\n";
    }
  }
  return out;
}

std::string job_status_text(const report::JobReport& job) {
  std::vector<std::vector<std::string>> rows{{"id:", job.id},
                                             {"state:", job.state},
                                             {"algorithm:", job.algorithm},
                                             {"submitted:", job.submitted},
                                             {"error:", job.error},
                                             {"progress:", progress_line(job, -1)}};
  if (!job.node_shares.empty()) rows.push_back({"node shares:", report::node_shares_text(job.node_shares)});
  if (job.exchanges) {  // a kept plan's (docs/embedding.md, "Persistent handoffs")
    std::string line =
        std::to_string(job.exchanges->done) + " done, " + std::to_string(job.exchanges->failed) + " failed";
    if (job.exchanges->last_seconds) line += ", the last in " + report::fixed(*job.exchanges->last_seconds, 3) + " s";
    if (!job.exchanges->last_error.empty()) line += "; last failure: " + job.exchanges->last_error;
    rows.push_back({"exchanges:", line});
  }
  std::string out = format_table({"", ""}, rows);
  out.erase(0, out.find('\n') + 1);  // the empty header line
  if (job.report) out += '\n' + report_text(*job.report);
  return out;
}

std::string progress_line(const report::JobReport& job, double bytes_per_second) {
  std::ostringstream out;
  out << job.state;
  if (job.steps > 0) out << "  step " << std::min(job.step + 1, job.steps) << "/" << job.steps;
  const std::uint64_t done = job.bytes_done + job.step_bytes_done;  // the running step's so far too
  out << "  " << bytes_text(done) << " / " << bytes_text(job.bytes);
  if (bytes_per_second >= 0) {
    out << "  " << report::bytes_text(bytes_per_second) << "/s";
    if (bytes_per_second > 0) {
      const double left = job.bytes > done ? static_cast<double>(job.bytes - done) : 0;
      out << "  ETA " << report::fixed(left / bytes_per_second, 0) << " s";
    }
  }
  return out.str();
}

std::string report_text(const report::PlanReport& report) {
  std::vector<std::vector<std::string>> rows;
  for (const report::StepLine& s : report.steps) {
    rows.push_back({count_text(s.index), count_text(s.flows), bytes_text(s.bytes), format_seconds(s.predicted_seconds),
                    or_dash(s.measured_seconds, format_seconds),
                    s.attempts ? std::to_string(*s.attempts) : std::string("-")});
  }
  const bool redistribution = report.kind == "redistribution";
  std::string out = redistribution ? "algorithm: " + report.algorithm + "  k: " + std::to_string(report.k) + '\n'
                                   : "kind: " + report.kind + "  algorithm: " + report.algorithm + '\n';
  out += platform_and_replans_text(report);
  out += format_table({"STEP", "FLOWS", "BYTES", "PREDICTED S", "MEASURED S", "ATTEMPTS"}, rows);
  const double measured = report.measured_seconds, predicted = report.predicted_seconds;
  out += "total: measured " + format_seconds(measured) + " s, predicted " + format_seconds(predicted) + " s, ";
  if (!redistribution) out += "model " + or_dash(report.model_seconds, format_seconds) + " s, ";
  out += "lower bound " + or_dash(report.lower_bound_seconds, format_seconds) + " s, measured/predicted " +
         (predicted > 0 ? report::fixed(measured / predicted, 2) : "-") + '\n';
  if (report.bandwidth_bound_seconds && *report.bandwidth_bound_seconds > 0) {
    const double bound = *report.bandwidth_bound_seconds;
    out += "links allow: " + format_seconds(bound) + " s, measured/bound " + report::fixed(measured / bound, 2) +
           ", predicted/bound " + report::fixed(predicted / bound, 2) + '\n';
  }
  if (!report.candidates.empty()) {
    out += "auto chose " + report.algorithm + " of:";
    for (const report::AlgorithmCandidate& c : report.candidates)
      out += " " + c.algorithm + " " + format_seconds(c.predicted_seconds) + " s;";
    out.back() = '\n';
  }
  return out + report_notes(report);
}

std::string nodes_table(const report::PlanReport& report) {
  std::vector<std::vector<std::string>> rows;
  for (const report::StepLine& s : report.steps) {
    if (!s.nodes) continue;
    for (const report::NodeLine& n : *s.nodes) {
      rows.push_back({count_text(s.index), n.node, format_seconds(s.planned_start_seconds),
                      format_seconds(n.planned_seconds), bytes_text(n.planned_bytes),
                      or_dash(s.started_seconds, format_seconds), or_dash(n.seconds, format_seconds),
                      or_dash(n.bytes, bytes_text)});
    }
  }
  if (rows.empty()) return "";
  return format_table({"STEP", "NODE", "PLANNED START", "PLANNED S", "PLANNED BYTES", "STARTED", "MEASURED S", "BYTES"},
                      rows);
}

std::string tasks_table(const report::PlanReport& report) {
  std::vector<std::vector<std::string>> rows;
  for (const report::StepLine& s : report.steps) {
    for (const report::TaskLine& t : s.tasks) {
      std::string with = t.peer;
      for (const std::string& f : t.folds) with += (with.empty() ? "" : "+") + f;
      rows.push_back({t.node, std::to_string(t.id), t.kind, with.empty() ? "-" : with, bytes_text(t.bytes),
                      format_seconds(t.planned_start_seconds), format_seconds(t.planned_end_seconds),
                      or_dash(t.started_seconds, format_seconds), or_dash(t.ended_seconds, format_seconds)});
    }
  }
  if (rows.empty()) return "";
  return format_table(
      {"NODE", "TASK", "KIND", "PEER/FOLDS", "BYTES", "PLANNED START", "PLANNED END", "STARTED", "ENDED"}, rows);
}

}  // namespace baton::batonctl

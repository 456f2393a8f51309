#include "coordinator/batonctl/job_report.h"

#include "coordinator/batonctl/calibration_report.h"
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
  double b = 0;
  return number(value, &b) ? report::bytes_text(b) : cell(value);
}

std::string seconds_cell(const Json* value) {
  double s = 0;
  return number(value, &s) ? format_seconds(s) : cell(value);
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
      if (f == "bytes_done") row.push_back(bytes_done(item, &done) ? report::bytes_text(done) : "-");
      else row.push_back(f == "bytes" || f == "rate" ? bytes_cell(v) : cell(v));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

std::string report_notes(const Json& report) {
  std::string out;
  if (cell(member(report, "algorithm")) == "all-at-once") {
    out +=
        "note: all-at-once is the unscheduled baseline and runs unpaced: its flows are not held to the\n"
        "  declared rates, so its times are not comparable with a scheduled plan's (each flow paced at d),\n"
        "  and the lower bound holds only for plans that keep k flows and one flow per node at a time.\n";
  }
  double measured = 0, bound = 0;
  if (number(member(report, "measured_seconds"), &measured) && number(member(report, "lower_bound_seconds"), &bound) &&
      measured < bound) {
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

bool bytes_done(const Json& job, double* out) {
  double finished = 0, in_step = 0;
  const bool have_finished = number(job_field(job, "bytes_done"), &finished);
  const bool have_in_step = number(job_field(job, "step_bytes_done"), &in_step);
  *out = finished + in_step;
  return have_finished || have_in_step;
}

std::string format_seconds(double seconds) { return report::fixed(seconds, 3); }

const Json* job_field(const Json& job, const std::string& name) {
  if (const Json* v = member(job, name)) return v;
  if (const Json* progress = member(job, "progress")) return member(*progress, name);
  return nullptr;
}

std::string jobs_table(const Json& answer) {
  return format_table(
      {"ID", "STATE", "ALGORITHM", "STEPS", "STEP", "BYTES", "DONE", "SUBMITTED"},
      rows_of(answer, "jobs", {"id", "state", "algorithm", "steps", "step", "bytes", "bytes_done", "submitted"}));
}

std::string agents_table(const Json& answer) {
  std::string out = format_table(
      {"NODE", "ALIVE", "ADDRESSES", "TRANSPORTS", "RATE/S", "HEARTBEAT AGE", "JOB"},
      rows_of(answer, "agents", {"node", "alive", "addresses", "transports", "rate", "last_heartbeat_age", "job"}));
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

std::string job_status_text(const Json& job) {
  std::vector<std::vector<std::string>> rows;
  for (const std::string f : {"id", "state", "algorithm", "submitted", "error"}) {
    if (const Json* v = job_field(job, f)) rows.push_back({f + ":", cell(v)});
  }
  rows.push_back({"progress:", progress_line(job, -1)});
  std::string out = format_table({"", ""}, rows);
  out.erase(0, out.find('\n') + 1);  // the empty header line
  if (const Json* report = member(job, "report"); report != nullptr && report->is_object())
    out += '\n' + report_text(*report);
  return out;
}

std::string progress_line(const Json& job, double bytes_per_second) {
  std::ostringstream out;
  out << cell(job_field(job, "state"));
  double step = 0, steps = 0, done = 0, total = 0;
  const Json* steps_value = job_field(job, "steps");
  if (steps_value != nullptr && steps_value->is_array()) steps = double(steps_value->size());
  else number(steps_value, &steps);
  if (number(job_field(job, "step"), &step) && steps > 0)
    out << "  step " << report::fixed(std::min(step + 1, steps), 0) << "/" << report::fixed(steps, 0);
  const bool have_done = bytes_done(job, &done);
  const bool have_total = number(job_field(job, "bytes"), &total);
  if (have_done || have_total)
    out << "  " << (have_done ? report::bytes_text(done) : "-") << " / "
        << (have_total ? report::bytes_text(total) : "-");
  if (bytes_per_second >= 0) {
    out << "  " << report::bytes_text(bytes_per_second) << "/s";
    if (have_done && have_total && bytes_per_second > 0)
      out << "  ETA " << report::fixed(std::max(0.0, total - done) / bytes_per_second, 0) << " s";
  }
  return out.str();
}

std::string report_text(const Json& report) {
  std::vector<std::vector<std::string>> rows;
  if (const Json* steps = member(report, "steps"); steps != nullptr && steps->is_array()) {
    for (const Json& s : *steps) {
      rows.push_back({cell(member(s, "index")), cell(member(s, "flows")), bytes_cell(member(s, "bytes")),
                      seconds_cell(member(s, "predicted_seconds")), seconds_cell(member(s, "measured_seconds")),
                      cell(member(s, "attempts"))});
    }
  }
  std::string out;
  if (const Json* algo = member(report, "algorithm")) {
    out += "algorithm: " + cell(algo);
    if (const Json* k = member(report, "k")) out += "  k: " + cell(k);
    out += '\n';
  }
  out += platform_and_replans_text(report);
  out += format_table({"STEP", "FLOWS", "BYTES", "PREDICTED S", "MEASURED S", "ATTEMPTS"}, rows);
  double measured = 0, predicted = 0;
  const bool have_measured = number(member(report, "measured_seconds"), &measured);
  const bool have_predicted = number(member(report, "predicted_seconds"), &predicted);
  out += "total: measured " + seconds_cell(member(report, "measured_seconds")) + " s, predicted " +
         seconds_cell(member(report, "predicted_seconds")) + " s, lower bound " +
         seconds_cell(member(report, "lower_bound_seconds")) + " s, measured/predicted " +
         (have_measured && have_predicted && predicted > 0 ? report::fixed(measured / predicted, 2) : "-") + '\n';
  return out + report_notes(report);
}

std::string nodes_table(const Json& report) {
  std::vector<std::vector<std::string>> rows;
  const Json* steps = member(report, "steps");
  if (steps == nullptr || !steps->is_array()) return "";
  for (const Json& s : *steps) {
    const Json* nodes = member(s, "nodes");
    if (nodes == nullptr || !nodes->is_object()) continue;
    for (const auto& [node, n] : nodes->items()) {
      rows.push_back({cell(member(s, "index")), node, seconds_cell(member(s, "planned_start_seconds")),
                      seconds_cell(member(n, "planned_seconds")), bytes_cell(member(n, "planned_bytes")),
                      seconds_cell(member(s, "started_seconds")), seconds_cell(member(n, "seconds")),
                      bytes_cell(member(n, "bytes"))});
    }
  }
  if (rows.empty()) return "";
  return format_table({"STEP", "NODE", "PLANNED START", "PLANNED S", "PLANNED BYTES", "STARTED", "MEASURED S", "BYTES"},
                      rows);
}

}  // namespace baton::batonctl

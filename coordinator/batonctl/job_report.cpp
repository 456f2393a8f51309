#include "coordinator/batonctl/job_report.h"

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
    for (const Json& v : *value) out += (out.empty() ? "" : ",") + cell(&v);
    return out.empty() ? "-" : out;
  }
  return value->dump();
}

const Json* member(const Json& object, const std::string& name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

std::string bytes_cell(const Json* value) {
  return value != nullptr && value->is_number() ? report::bytes_text(value->get<double>()) : cell(value);
}

std::string bytes_text(std::uint64_t bytes) { return report::bytes_text(static_cast<double>(bytes)); }

template <typename T>
std::string or_dash(const std::optional<T>& value, std::string (*show)(T)) {
  return value ? show(*value) : "-";
}

std::string count_text(std::uint64_t n) { return std::to_string(n); }

std::vector<std::vector<std::string>> rows_of(const Json& answer, const std::string& list,
                                              const std::vector<std::string>& fields) {
  std::vector<std::vector<std::string>> rows;
  const Json* items = member(answer, list);
  if (items == nullptr || !items->is_array()) return rows;
  for (const Json& item : *items) {
    std::vector<std::string> row;
    for (const std::string& f : fields) {
      const Json* v = member(item, f);
      row.push_back(f == "bytes" || f == "bytes_done" || f == "rate" ? bytes_cell(v) : cell(v));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

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
  return format_table(
      {"NODE", "ALIVE", "ADDRESSES", "TRANSPORTS", "RATE/S", "HEARTBEAT AGE", "JOB"},
      rows_of(answer, "agents", {"node", "alive", "addresses", "transports", "rate", "last_heartbeat_age", "job"}));
}

std::string job_status_text(const report::JobReport& job) {
  const std::vector<std::vector<std::string>> rows{{"id:", job.id},
                                                   {"state:", job.state},
                                                   {"algorithm:", job.algorithm},
                                                   {"submitted:", job.submitted},
                                                   {"error:", job.error},
                                                   {"progress:", progress_line(job, -1)}};
  std::string out = format_table({"", ""}, rows);
  out.erase(0, out.find('\n') + 1);  // the empty header line
  if (job.report) out += '\n' + report_text(*job.report);
  return out;
}

std::string progress_line(const report::JobReport& job, double bytes_per_second) {
  std::ostringstream out;
  out << job.state;
  if (job.steps > 0) out << "  step " << std::min(job.step + 1, job.steps) << "/" << job.steps;
  out << "  " << bytes_text(job.bytes_done) << " / " << bytes_text(job.bytes);
  if (bytes_per_second >= 0) {
    out << "  " << report::bytes_text(bytes_per_second) << "/s";
    if (bytes_per_second > 0) {
      const double left = job.bytes > job.bytes_done ? static_cast<double>(job.bytes - job.bytes_done) : 0;
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
  out += format_table({"STEP", "FLOWS", "BYTES", "PREDICTED S", "MEASURED S", "ATTEMPTS"}, rows);
  const double measured = report.measured_seconds, predicted = report.predicted_seconds;
  out += "total: measured " + format_seconds(measured) + " s, predicted " + format_seconds(predicted) + " s, ";
  if (!redistribution) out += "model " + or_dash(report.model_seconds, format_seconds) + " s, ";
  out += "lower bound " + or_dash(report.lower_bound_seconds, format_seconds) + " s, measured/predicted " +
         (predicted > 0 ? report::fixed(measured / predicted, 2) : "-") + '\n';
  return out;
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

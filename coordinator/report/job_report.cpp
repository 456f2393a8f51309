#include "coordinator/report/job_report.h"

#include "coordinator/json/fields.h"
#include "coordinator/json/platform.h"

#include <iterator>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace baton::report {
namespace {

using json::element_path;
using json::InputError;
using json::member_path;

constexpr std::int64_t kMaxCount = std::numeric_limits<std::int64_t>::max();

// ---- Reading, each field named by its path ("report.steps[2].nodes.a0.seconds") ----

using json::count;
using json::flag;
using json::maybe_count;
using json::maybe_number;
using json::maybe_text;
using json::names;
using json::number;
using json::object_at;
using json::present;
using json::text;

NodeLine node_line(const std::string& node, const Json& value, const std::string& path) {
  object_at(value, path);
  return {.node = node,
          .planned_bytes = count(value, path, "planned_bytes"),
          .planned_seconds = number(value, path, "planned_seconds"),
          .bytes = maybe_count(value, path, "bytes"),
          .seconds = maybe_number(value, path, "seconds")};
}

TaskLine task_line(const Json& value, const std::string& path) {
  object_at(value, path);
  TaskLine task;
  task.node = text(value, path, "node");
  task.id = static_cast<std::uint32_t>(json::require_integer(
      json::require_member(value, path, "id"), member_path(path, "id"), 0, std::numeric_limits<std::uint32_t>::max()));
  task.kind = text(value, path, "kind");
  task.peer = maybe_text(value, path, "peer").value_or("");
  if (present(value, "folds")) task.folds = names(value, path, "folds");
  task.bytes = count(value, path, "bytes");
  task.planned_start_seconds = number(value, path, "planned_start_seconds");
  task.planned_end_seconds = number(value, path, "planned_end_seconds");
  task.started_seconds = maybe_number(value, path, "started_seconds");
  task.ended_seconds = maybe_number(value, path, "ended_seconds");
  return task;
}

StepLine step_line(const Json& value, const std::string& path) {
  object_at(value, path);
  StepLine step{.index = count(value, path, "index"),
                .flows = count(value, path, "flows"),
                .bytes = count(value, path, "bytes"),
                .predicted_seconds = number(value, path, "predicted_seconds"),
                .planned_start_seconds = number(value, path, "planned_start_seconds"),
                .measured_seconds = maybe_number(value, path, "measured_seconds"),
                .attempts = std::nullopt,
                .started_seconds = maybe_number(value, path, "started_seconds"),
                .nodes = std::nullopt,
                .tasks = {}};
  if (present(value, "attempts")) {
    step.attempts = static_cast<std::uint32_t>(json::require_integer(
        value.at("attempts"), member_path(path, "attempts"), 0, std::numeric_limits<std::uint32_t>::max()));
  }
  if (present(value, "nodes")) {
    const std::string nodes_path = member_path(path, "nodes");
    step.nodes.emplace();
    for (const auto& [node, entry] : object_at(value.at("nodes"), nodes_path).items()) {
      step.nodes->push_back(node_line(node, entry, member_path(nodes_path, node)));
    }
  }
  if (present(value, "tasks")) {
    const std::string tasks_path = member_path(path, "tasks");
    const Json& tasks = json::require_array(value.at("tasks"), tasks_path, 0, kMaxCount);
    for (std::size_t t = 0; t < tasks.size(); ++t)
      step.tasks.push_back(task_line(tasks[t], element_path(tasks_path, t)));
  }
  return step;
}

PlatformLine platform_line(const Json& value, const std::string& path) {
  object_at(value, path);
  return {.source = text(value, path, "source"),
          .calibration = maybe_text(value, path, "calibration").value_or(""),
          .figures = json::parse_platform(value, path, {.other_members = true}),
          .replan_on_drift = flag(value, path, "replan_on_drift")};
}

ModelLine model_line(const Json& value, const std::string& path) {
  object_at(value, path);
  return {.k = static_cast<int>(json::require_integer(json::require_member(value, path, "k"), member_path(path, "k"), 0,
                                                      std::numeric_limits<int>::max())),
          .d = number(value, path, "d"),
          .D = number(value, path, "D"),
          .beta = number(value, path, "beta")};
}

PlanReport plan_report(const Json& value) {
  const std::string path = "report";
  object_at(value, path);
  PlanReport report;
  report.kind = maybe_text(value, path, "kind").value_or("redistribution");
  report.algorithm = text(value, path, "algorithm");
  report.k = static_cast<int>(json::require_integer(json::require_member(value, path, "k"), member_path(path, "k"), 0,
                                                    std::numeric_limits<int>::max()));
  report.flow_rate = number(value, path, "flow_rate");
  report.predicted_seconds = number(value, path, "predicted_seconds");
  report.lower_bound_seconds = maybe_number(value, path, "lower_bound_seconds");
  report.model_seconds = maybe_number(value, path, "model_seconds");
  report.bandwidth_bound_seconds = maybe_number(value, path, "bandwidth_bound_seconds");
  report.bandwidth_bound_rates = maybe_text(value, path, "bandwidth_bound_rates");
  report.plan_reused_from = maybe_text(value, path, "plan_reused_from");
  if (present(value, "algorithm_candidates")) {
    const std::string list_path = member_path(path, "algorithm_candidates");
    const Json& list = json::require_array(value.at("algorithm_candidates"), list_path, 0, kMaxCount);
    for (std::size_t c = 0; c < list.size(); ++c) {
      const std::string at = element_path(list_path, c);
      object_at(list[c], at);
      report.candidates.push_back(
          {.algorithm = text(list[c], at, "algorithm"), .predicted_seconds = number(list[c], at, "predicted_seconds")});
    }
  }
  report.measured_steps_seconds = number(value, path, "measured_steps_seconds");
  report.measured_seconds = number(value, path, "measured_seconds");
  const std::string steps_path = member_path(path, "steps");
  const Json& steps = json::require_array(json::require_member(value, path, "steps"), steps_path, 0, kMaxCount);
  for (std::size_t s = 0; s < steps.size(); ++s)
    report.steps.push_back(step_line(steps[s], element_path(steps_path, s)));
  if (present(value, "platform")) report.platform = platform_line(value.at("platform"), member_path(path, "platform"));
  if (present(value, "replans")) {
    const std::string replans_path = member_path(path, "replans");
    const Json& replans = json::require_array(value.at("replans"), replans_path, 0, kMaxCount);
    for (std::size_t r = 0; r < replans.size(); ++r)
      report.replans.push_back(parse_replan(replans[r], element_path(replans_path, r)));
  }
  return report;
}

// ---- Writing ----

Json step_json(const StepLine& step) {
  Json out{{"index", step.index},
           {"flows", step.flows},
           {"bytes", step.bytes},
           {"predicted_seconds", step.predicted_seconds},
           {"planned_start_seconds", step.planned_start_seconds}};
  if (step.measured_seconds) out["measured_seconds"] = *step.measured_seconds;
  if (step.attempts) out["attempts"] = *step.attempts;
  if (step.started_seconds) out["started_seconds"] = *step.started_seconds;
  if (step.nodes) {
    // Built as the object's list of members: adding a key to an ordered object searches the
    // keys before it, N² compares for a step of N nodes (a 1 024-node job's report, built
    // on the coordinator's loop at its end). A node listed twice keeps its first place and
    // its last entry, as adding the key again would.
    Json::object_t nodes;
    std::unordered_map<std::string_view, std::size_t> place;
    for (const NodeLine& n : *step.nodes) {
      Json entry{{"planned_bytes", n.planned_bytes}, {"planned_seconds", n.planned_seconds}};
      if (n.bytes) entry["bytes"] = *n.bytes;
      if (n.seconds) entry["seconds"] = *n.seconds;
      const auto [at, added] = place.try_emplace(n.node, nodes.size());
      if (added) nodes.Json::object_t::Container::emplace_back(n.node, std::move(entry));
      else std::next(nodes.begin(), static_cast<std::ptrdiff_t>(at->second))->second = std::move(entry);
    }
    out["nodes"] = Json(std::move(nodes));
  }
  if (!step.tasks.empty()) {
    Json tasks = Json::array();
    for (const TaskLine& t : step.tasks) {
      Json entry{{"node", t.node}, {"id", t.id}, {"kind", t.kind}};
      if (!t.peer.empty()) entry["peer"] = t.peer;
      if (!t.folds.empty()) entry["folds"] = t.folds;
      entry["bytes"] = t.bytes;
      entry["planned_start_seconds"] = t.planned_start_seconds;
      entry["planned_end_seconds"] = t.planned_end_seconds;
      if (t.started_seconds) entry["started_seconds"] = *t.started_seconds;
      if (t.ended_seconds) entry["ended_seconds"] = *t.ended_seconds;
      tasks.push_back(std::move(entry));
    }
    out["tasks"] = std::move(tasks);
  }
  return out;
}

Json model_json(const ModelLine& m) { return Json{{"k", m.k}, {"d", m.d}, {"D", m.D}, {"beta", m.beta}}; }

Json platform_line_json(const PlatformLine& p) {
  Json out{{"source", p.source}};
  if (!p.calibration.empty()) out["calibration"] = p.calibration;
  json::add_platform_fields(p.figures, out);
  out["replan_on_drift"] = p.replan_on_drift;
  return out;
}

Json plan_json(const PlanReport& report) {
  Json steps = Json::array();
  for (const StepLine& s : report.steps) steps.push_back(step_json(s));
  Json out{{"algorithm", report.algorithm},
           {"k", report.k},
           {"flow_rate", report.flow_rate},
           {"steps", std::move(steps)},
           {"predicted_seconds", report.predicted_seconds}};
  if (report.lower_bound_seconds) out["lower_bound_seconds"] = *report.lower_bound_seconds;
  out["measured_steps_seconds"] = report.measured_steps_seconds;
  out["measured_seconds"] = report.measured_seconds;
  // Added with the collectives (issue 14), after the fields of earlier versions.
  out["kind"] = report.kind;
  if (report.model_seconds) out["model_seconds"] = *report.model_seconds;
  // Added with the collectives at the bandwidth bound (issue 26).
  if (report.bandwidth_bound_seconds) out["bandwidth_bound_seconds"] = *report.bandwidth_bound_seconds;
  // Added with redistributions on each node's rate (issue 41).
  if (report.bandwidth_bound_rates) out["bandwidth_bound_rates"] = *report.bandwidth_bound_rates;
  if (!report.candidates.empty()) {
    Json candidates = Json::array();
    for (const AlgorithmCandidate& c : report.candidates)
      candidates.push_back({{"algorithm", c.algorithm}, {"predicted_seconds", c.predicted_seconds}});
    out["algorithm_candidates"] = std::move(candidates);
  }
  // Added with plans reused between jobs (issue 30).
  if (report.plan_reused_from) out["plan_reused_from"] = *report.plan_reused_from;
  // Added with calibration (issue 18): a redistribution's platform and its re-plans.
  if (report.platform) {
    out["platform"] = platform_line_json(*report.platform);
    Json replans = Json::array();
    for (const ReplanLine& r : report.replans) replans.push_back(replan_json(r));
    out["replans"] = std::move(replans);
  }
  return out;
}

}  // namespace

std::string_view name(ReplanCause cause) {
  switch (cause) {
    case ReplanCause::backbone: return "backbone";
    case ReplanCause::nodes: return "nodes";
    case ReplanCause::startup: return "step start-up";
    case ReplanCause::trial: return "wider backbone trial";
    case ReplanCause::trial_failed: return "wider backbone trial failed";
    case ReplanCause::share: return "node share";
  }
  return "unknown";
}

ReplanCause parse_replan_cause(const std::string& text, const std::string& path) {
  for (const ReplanCause c : {ReplanCause::backbone, ReplanCause::nodes, ReplanCause::startup, ReplanCause::trial,
                              ReplanCause::trial_failed, ReplanCause::share}) {
    if (text == name(c)) return c;
  }
  throw json::InputError(path + ": unknown re-plan cause \"" + text + "\"");
}

std::string percent_text(double share) { return std::to_string(static_cast<int>(share * 100 + 0.5)) + " %"; }

std::string node_shares_text(const std::map<std::string, double>& shares) {
  std::string text;
  for (const auto& [node, share] : shares) text += (text.empty() ? "" : ", ") + node + " " + percent_text(share);
  return text;
}

Json replan_json(const ReplanLine& r) {
  Json out{{"at_step", r.at_step}, {"when", r.when},         {"elapsed_seconds", r.elapsed_seconds},
           {"why", r.why},         {"cause", name(r.cause)}, {"old", model_json(r.old_model)}};
  if (r.error) out["error"] = *r.error;
  if (r.new_model) out["new"] = model_json(*r.new_model);
  if (r.steps_before) out["steps_before"] = *r.steps_before;
  if (r.steps_after) out["steps_after"] = *r.steps_after;
  if (r.predicted_remaining_seconds_before)
    out["predicted_remaining_seconds_before"] = *r.predicted_remaining_seconds_before;
  if (r.predicted_remaining_seconds_kept) out["predicted_remaining_seconds_kept"] = *r.predicted_remaining_seconds_kept;
  if (r.predicted_remaining_seconds_after)
    out["predicted_remaining_seconds_after"] = *r.predicted_remaining_seconds_after;
  if (r.cost_seconds) out["cost_seconds"] = *r.cost_seconds;
  if (r.share) out["share"] = *r.share;
  return out;
}

Json to_json(const JobReport& job) {
  Json out{{"id", job.id},
           {"state", job.state},
           {"error", job.error},
           {"submitted", job.submitted},
           {"algorithm", job.algorithm},
           {"senders", job.senders},
           {"receivers", job.receivers},
           {"bytes", job.bytes},
           {"bytes_done", job.bytes_done},
           {"step", job.step},
           {"steps", job.steps},
           {"elapsed_seconds", job.elapsed_seconds}};
  if (job.report) out["report"] = plan_json(*job.report);
  out["kind"] = job.kind;  // added with the collectives (issue 14)
  out["step_bytes_done"] = job.step_bytes_done;
  if (job.started_unix_seconds) out["started_unix_seconds"] = *job.started_unix_seconds;  // jobs at once (issue 40)
  if (!job.node_shares.empty()) out["node_shares"] = job.node_shares;  // jobs sharing nodes (issue 40)
  if (job.exchanges) {                                                 // persistent handoffs (issue 43)
    Json exchanges{{"done", job.exchanges->done}, {"failed", job.exchanges->failed}};
    if (job.exchanges->last_seconds) exchanges["last_seconds"] = *job.exchanges->last_seconds;
    if (!job.exchanges->last_error.empty()) exchanges["last_error"] = job.exchanges->last_error;
    out["exchanges"] = std::move(exchanges);
  }
  return out;
}

Json summary_json(const JobReport& job) {
  return Json{{"id", job.id},
              {"state", job.state},
              {"algorithm", job.algorithm},
              {"steps", job.steps},
              {"step", job.step},
              {"bytes", job.bytes},
              {"bytes_done", job.bytes_done},
              {"submitted", job.submitted},
              {"kind", job.kind},
              {"step_bytes_done", job.step_bytes_done}};
}

JobReport parse_job_report(const Json& value) {
  if (!value.is_object()) throw InputError("job: must be an object");
  JobReport job{.id = text(value, "", "id"),
                .kind = maybe_text(value, "", "kind").value_or("redistribution"),
                .state = text(value, "", "state"),
                .error = text(value, "", "error"),
                .submitted = text(value, "", "submitted"),
                .algorithm = text(value, "", "algorithm"),
                .senders = names(value, "", "senders"),
                .receivers = names(value, "", "receivers"),
                .bytes = count(value, "", "bytes"),
                .bytes_done = count(value, "", "bytes_done"),
                .step_bytes_done = present(value, "step_bytes_done") ? count(value, "", "step_bytes_done") : 0,
                .step = count(value, "", "step"),
                .steps = count(value, "", "steps"),
                .elapsed_seconds = number(value, "", "elapsed_seconds"),
                .report = std::nullopt,
                .started_unix_seconds = maybe_number(value, "", "started_unix_seconds"),
                .node_shares = {},
                .exchanges = std::nullopt};
  if (present(value, "report")) job.report = plan_report(value.at("report"));
  if (present(value, "node_shares")) {
    const Json& shares = object_at(value.at("node_shares"), "node_shares");
    for (const auto& [node, share] : shares.items()) job.node_shares[node] = number(shares, "node_shares", node);
  }
  if (present(value, "exchanges")) {
    const Json& exchanges = object_at(value.at("exchanges"), "exchanges");
    job.exchanges = ExchangesLine{.done = count(exchanges, "exchanges", "done"),
                                  .failed = count(exchanges, "exchanges", "failed"),
                                  .last_seconds = maybe_number(exchanges, "exchanges", "last_seconds"),
                                  .last_error = maybe_text(exchanges, "exchanges", "last_error").value_or("")};
  }
  return job;
}

ReplanLine parse_replan(const Json& value, const std::string& path) {
  object_at(value, path);
  ReplanLine r;
  r.at_step = count(value, path, "at_step");
  r.when = text(value, path, "when");
  r.elapsed_seconds = number(value, path, "elapsed_seconds");
  r.why = text(value, path, "why");
  r.cause = parse_replan_cause(text(value, path, "cause"), member_path(path, "cause"));
  r.old_model = model_line(json::require_member(value, path, "old"), member_path(path, "old"));
  r.error = maybe_text(value, path, "error");
  if (present(value, "new")) r.new_model = model_line(value.at("new"), member_path(path, "new"));
  r.steps_before = maybe_count(value, path, "steps_before");
  r.steps_after = maybe_count(value, path, "steps_after");
  r.predicted_remaining_seconds_before = maybe_number(value, path, "predicted_remaining_seconds_before");
  r.predicted_remaining_seconds_kept = maybe_number(value, path, "predicted_remaining_seconds_kept");
  r.predicted_remaining_seconds_after = maybe_number(value, path, "predicted_remaining_seconds_after");
  r.cost_seconds = maybe_number(value, path, "cost_seconds");
  r.share = maybe_number(value, path, "share");
  return r;
}

}  // namespace baton::report

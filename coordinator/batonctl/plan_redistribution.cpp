// `batonctl plan redistribution`: KPBS schedules in docs/formats.md's shapes.
#include "coordinator/batonctl/plan_problems.h"
#include "coordinator/jobs/redistribution_schedule.h"
#include "coordinator/json/platform.h"
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/bandwidth_bound.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/platform.h"
#include "coordinator/schedule/kpbs/regular_extension.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "error/error.h"

#include <cmath>
#include <string>

namespace baton::batonctl {

using json::parse_platform;

namespace {

namespace kpbs = baton::schedule::kpbs;

// The most senders or receivers one plan may have: the planner is O(√n (m + n)²) and a
// 1024 × 1024 dense matrix already takes minutes.
constexpr std::size_t kMaxNodes = 1024;
// Whole bytes stay exact in a double up to 2^53.
constexpr double kMaxBytes = 9007199254740992.0;

kpbs::Matrix read_matrix(const Json& value, const std::string& path, bool whole_numbers) {
  const Json& rows = require_array(value, path, 1, kMaxNodes);
  const Json& first = require_array(rows[0], element_path(path, 0), 1, kMaxNodes);
  kpbs::Matrix m(rows.size(), first.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string row_path = element_path(path, i);
    const Json& row = require_array(rows[i], row_path, 1, kMaxNodes);
    if (row.size() != first.size()) {
      throw InputError(row_path + ": has " + std::to_string(row.size()) + " entries, but " + element_path(path, 0) +
                       " has " + std::to_string(first.size()) + " (the matrix must be rectangular)");
    }
    for (std::size_t j = 0; j < row.size(); ++j) {
      const std::string cell = element_path(row_path, j);
      m.at(i, j) = whole_numbers
                       ? static_cast<double>(require_integer(row[j], cell, 0, static_cast<std::int64_t>(kMaxBytes)))
                       : require_number(row[j], cell, 0, std::numeric_limits<double>::max());
    }
  }
  return m;
}

// GGP counts each entry in whole start-ups; past 2^32 of them its sums would lose exactness.
void check_units(const kpbs::Problem& problem, const std::string& path) {
  for (std::size_t i = 0; i < problem.times.senders(); ++i) {
    for (std::size_t j = 0; j < problem.times.receivers(); ++j) {
      if (problem.times.at(i, j) / problem.beta > kpbs::kMaxUnitsPerEntry) {
        throw InputError(element_path(element_path(path, i), j) +
                         ": lasts more than 2^32 step start-ups; raise the start-up or split the job");
      }
    }
  }
}

Json steps_json(const kpbs::Schedule& schedule, bool whole_bytes) {
  Json steps = Json::array();
  for (const kpbs::Step& step : schedule.steps) {
    Json transfers = Json::array();
    for (const kpbs::Transfer& t : step.transfers) {
      Json amount = whole_bytes ? Json(static_cast<std::int64_t>(t.amount)) : Json(t.amount);
      transfers.push_back({{"src", t.src}, {"dst", t.dst}, {"amount", amount}});
    }
    steps.push_back({{"duration", step.duration}, {"transfers", std::move(transfers)}});
  }
  return steps;
}

// The note of a plan that does not keep k and 1-port: η bounds only the schedules that do
// (the kpbs paper's Proposition 1), and a reader must not take a cost below it for a better
// plan.
std::string not_kpbs_note(kpbs::Algorithm algorithm) {
  if (algorithm == kpbs::Algorithm::fluid) {
    return "fluid is not a KPBS schedule: every pair's flow runs at once at its share of the nodes' links, "
           "ignoring k and 1-port; lower_bound holds only for schedules that keep k and 1-port, so cost may "
           "fall below it; bandwidth_bound is what the links allow any schedule";
  }
  return "all-at-once is not a KPBS schedule: its one step runs every transfer at once, ignoring k and 1-port, "
         "and its cost counts the longest transfer at the full rate as if no two transfers shared a link; "
         "lower_bound holds only for schedules that keep k and 1-port, so this cost may fall below it and is "
         "not comparable with theirs";
}

// The platform form: bytes on a platform whose nodes may each have their rate, planned by
// any algorithm a job may name (fluid and auto plan on the nodes' rates).
Json plan_on_platform(const Json& input, kpbs::Algorithm algorithm) {
  kpbs::PlatformProblem problem;
  problem.platform = parse_platform(require_member(input, "", "platform"), "platform",
                                    {.positive_step_startup = true, .node_rates = true});
  problem.bytes = read_matrix(require_member(input, "", "traffic"), "traffic", true);
  const kpbs::NodeRates rates = kpbs::node_rates(problem.platform, problem.bytes.senders(), problem.bytes.receivers());
  check_units(kpbs::normalize(problem), "traffic");
  const jobs::RedistributionSchedule planned = jobs::schedule_redistribution(problem, algorithm);
  Json out{{"problem", "redistribution"},
           {"algorithm", kpbs::name(planned.algorithm)},
           {"k", planned.normalized.k},
           {"beta", planned.normalized.beta},
           {"steps", steps_json(planned.schedule, true)},
           {"cost", kpbs::cost(planned.schedule, planned.normalized.beta)},
           {"lower_bound", kpbs::lower_bound(planned.normalized).eta},
           {"bandwidth_bound", kpbs::bandwidth_bound(problem.bytes, rates)}};
  if (!planned.candidates.empty()) {
    Json candidates = Json::array();
    for (const auto& [name, seconds] : planned.candidates)
      candidates.push_back({{"algorithm", name}, {"predicted_seconds", seconds}});
    out["candidates"] = std::move(candidates);
  }
  if (!kpbs::obeys_kpbs(planned.algorithm)) out["note"] = not_kpbs_note(planned.algorithm);
  return out;
}

// The normalized form: times on the papers' uniform platform, by the papers' algorithms.
Json plan_normalized(const Json& input, kpbs::Algorithm algorithm, const std::string& algorithm_name) {
  if (!kpbs::parse_algorithm(algorithm_name)) {
    throw InputError("--algo " + algorithm_name +
                     ": plans on each node's rate, which only the platform form (platform, traffic) gives");
  }
  kpbs::Problem problem;
  problem.k = static_cast<int>(require_integer(require_member(input, "", "k"), "k", 1, 1 << 30));
  problem.beta = require_positive(require_member(input, "", "beta"), "beta");
  problem.times = read_matrix(require_member(input, "", "matrix"), "matrix", false);
  check_units(problem, "matrix");

  const kpbs::Schedule schedule = kpbs::plan(problem, algorithm);
  const kpbs::Validation check =
      kpbs::validate(problem.times, problem.k, problem.beta, schedule,
                     {.rate = 1, .kpbs_rules = kpbs::obeys_kpbs(algorithm), .tolerance = 1e-9});
  if (!check.ok()) {
    throw error::Bug("the " + algorithm_name + " plan failed validation: " + check.errors.front());
  }
  Json out{{"problem", "redistribution"},
           {"algorithm", algorithm_name},
           {"k", problem.k},
           {"beta", problem.beta},
           {"steps", steps_json(schedule, false)},
           {"cost", kpbs::cost(schedule, problem.beta)},
           {"lower_bound", kpbs::lower_bound(problem).eta}};
  if (!kpbs::obeys_kpbs(algorithm)) out["note"] = not_kpbs_note(algorithm);
  return out;
}

Json plan_redistribution(const Json& input, const std::string& algorithm_name, std::uint64_t) {
  require_object(input, "", {"k", "beta", "matrix", "platform", "traffic"});
  const auto algorithm = kpbs::parse_job_algorithm(algorithm_name);
  if (!algorithm) throw InputError("--algo: unknown algorithm '" + algorithm_name + "'");
  const bool platform_form = input.contains("platform") || input.contains("traffic");
  if (platform_form && (input.contains("k") || input.contains("beta") || input.contains("matrix"))) {
    throw InputError(
        "input: give either the normalized form (k, beta, matrix) or the platform form "
        "(platform, traffic), not both");
  }
  return platform_form ? plan_on_platform(input, *algorithm) : plan_normalized(input, *algorithm, algorithm_name);
}

}  // namespace

PlanProblem redistribution_plan_problem() {
  return {.name = "redistribution",
          .summary = "Redistribution between two clusters over a backbone carrying at most k flows (KPBS)",
          .details = R"help(Input, normalized form (weights are times; k flows at once; beta = step start-up):
  {"k": 3, "beta": 1.0, "matrix": [[1, 1, 0], [0, 2, 1]]}
Input, platform form (bytes and bytes/second; d = min of the rates,
k = min(senders, receivers, floor(backbone_rate / d))):
  {"platform": {"sender_rate": 12500000, "receiver_rate": 12500000,
                "backbone_rate": 37500000, "step_startup": 0.002},
   "traffic": [[10000000, 0], [2500000, 7000000]]}
matrix[i][j] / traffic[i][j] is what sender i owes receiver j (0 = nothing).
Limits: at most 1024 senders and 1024 receivers; each entry at most 2^32 step
start-ups long; traffic in whole bytes (at most 2^53).
Algorithms: oggp (default here, as in docs/formats.md; GGP taking the perfect matching
with the heaviest lightest edge), oggp-plus (the coordinator's default: OGGP's
plan, or a cheaper one built step by step so that each step adds least to the
lower bound eta; never worse than OGGP, so within 8/3 of the optimum; up to ~10x
OGGP's time when steps are a few beta long, OGGP's time when they are much
longer), ggp (8/3-approximation), h-weight and h-degree (fast heuristics),
all-at-once (every transfer in one step: the unscheduled
baseline, which ignores k); on the platform form only, fluid (every pair's flow at
once at its share of the nodes' links, at most 16 flows a node a step) and auto
(the algorithm of least predicted time). In the platform form each node may have
its rate: "sender_rates" and "receiver_rates", one per node, take the place of
sender_rate and receiver_rate (which stay required) for planning.
Output: {"problem", "algorithm", "k", "beta", "steps": [{"duration",
"transfers": [{"src", "dst", "amount"}]}], "cost", "lower_bound"}; cost is the
sum of (beta + duration) and lower_bound is the paper's eta; the platform form adds
"bandwidth_bound" (what the links allow any schedule, start-ups left out), auto adds
"candidates" [{"algorithm", "predicted_seconds"}] fastest first ("algorithm" is the
chosen one); all-at-once's and fluid's output add a "note": their cost may fall below
lower_bound, which bounds only schedules that keep k.
Example:
  echo '{"k": 2, "beta": 1, "matrix": [[2, 1], [1, 2]]}' | batonctl plan redistribution -)help",
          .algorithms = kpbs::job_algorithm_names(),
          .default_algorithm = std::string(kpbs::name(kpbs::kPlanCommandDefault)),
          .plan = plan_redistribution};
}

}  // namespace baton::batonctl

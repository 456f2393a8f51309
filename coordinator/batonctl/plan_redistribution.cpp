// `batonctl plan redistribution`: KPBS schedules in docs/formats.md's shapes.
#include "coordinator/batonctl/plan_problems.h"
#include "coordinator/json/platform.h"
#include "coordinator/schedule/kpbs/algorithms.h"
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

Json plan_redistribution(const Json& input, const std::string& algorithm_name, std::uint64_t) {
  require_object(input, "", {"k", "beta", "matrix", "platform", "traffic"});
  const auto algorithm = kpbs::parse_algorithm(algorithm_name);
  if (!algorithm) throw InputError("--algo: unknown algorithm '" + algorithm_name + "'");
  const bool platform_form = input.contains("platform") || input.contains("traffic");
  if (platform_form && (input.contains("k") || input.contains("beta") || input.contains("matrix"))) {
    throw InputError(
        "input: give either the normalized form (k, beta, matrix) or the platform form "
        "(platform, traffic), not both");
  }

  kpbs::Problem problem;
  kpbs::PlatformProblem platform;
  double rate = 1;
  if (platform_form) {
    platform.platform =
        parse_platform(require_member(input, "", "platform"), "platform", {.positive_step_startup = true});
    platform.bytes = read_matrix(require_member(input, "", "traffic"), "traffic", true);
    problem = kpbs::normalize(platform);
    rate = kpbs::flow_rate(platform.platform);
    check_units(problem, "traffic");
  } else {
    problem.k = static_cast<int>(require_integer(require_member(input, "", "k"), "k", 1, 1 << 30));
    problem.beta = require_positive(require_member(input, "", "beta"), "beta");
    problem.times = read_matrix(require_member(input, "", "matrix"), "matrix", false);
    check_units(problem, "matrix");
  }

  const kpbs::Schedule in_time = kpbs::plan(problem, *algorithm);
  const kpbs::Schedule schedule = platform_form ? kpbs::to_bytes(in_time, platform) : in_time;
  const kpbs::Matrix& amounts = platform_form ? platform.bytes : problem.times;
  const kpbs::Validation check =
      kpbs::validate(amounts, problem.k, problem.beta, schedule,
                     {.rate = rate, .kpbs_rules = kpbs::obeys_kpbs(*algorithm), .tolerance = 1e-9});
  if (!check.ok()) {
    throw error::Bug("the " + algorithm_name + " plan failed validation: " + check.errors.front());
  }
  Json out{{"problem", "redistribution"},
           {"algorithm", algorithm_name},
           {"k", problem.k},
           {"beta", problem.beta},
           {"steps", steps_json(schedule, platform_form)},
           {"cost", kpbs::cost(schedule, problem.beta)},
           {"lower_bound", kpbs::lower_bound(problem).eta}};
  // η bounds the schedules that keep k and 1-port (the kpbs paper's Proposition 1); the
  // baseline's cost can fall below it, which a reader must not take for a better plan.
  if (!kpbs::obeys_kpbs(*algorithm)) {
    out["note"] =
        "all-at-once is not a KPBS schedule: its one step runs every transfer at once, ignoring k and 1-port, "
        "and its cost counts the longest transfer at the full rate as if no two transfers shared a link; "
        "lower_bound holds only for schedules that keep k and 1-port, so this cost may fall below it and is "
        "not comparable with theirs";
  }
  return out;
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
baseline, which ignores k).
Output: {"problem", "algorithm", "k", "beta", "steps": [{"duration",
"transfers": [{"src", "dst", "amount"}]}], "cost", "lower_bound"}; cost is the
sum of (beta + duration) and lower_bound is the paper's eta; all-at-once's output adds a
"note": its cost may fall below lower_bound, which bounds only schedules that keep k.
Example:
  echo '{"k": 2, "beta": 1, "matrix": [[2, 1], [1, 2]]}' | batonctl plan redistribution -)help",
          .algorithms = kpbs::algorithm_names(),
          .default_algorithm = std::string(kpbs::name(kpbs::kPlanCommandDefault)),
          .plan = plan_redistribution};
}

}  // namespace baton::batonctl

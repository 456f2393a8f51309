// The driver's part in drift (docs/calibration.md, "Drift"): each finished step against
// its prediction; on drift, new figures from the measured steps, a re-plan of what remains
// (coordinator/jobs/replan.h), checked before the agents get it, journaled so that a
// resumed job rebuilds the same plan, and recorded in the job's report.
#include "coordinator/daemon/driver.h"
#include "coordinator/jobs/replan.h"

#include <asio/bind_executor.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>

#include <algorithm>

namespace baton::coordinator {
namespace {

using Json = nlohmann::ordered_json;
namespace kpbs = schedule::kpbs;

Json platform_json(const kpbs::Platform& p) {
  return Json{{"sender_rate", p.sender_rate},
              {"receiver_rate", p.receiver_rate},
              {"backbone_rate", p.backbone_rate},
              {"step_startup", p.step_startup}};
}

kpbs::Platform platform_of(const Json& j) {
  return kpbs::Platform{.sender_rate = j.at("sender_rate").get<double>(),
                        .receiver_rate = j.at("receiver_rate").get<double>(),
                        .backbone_rate = j.at("backbone_rate").get<double>(),
                        .step_startup = j.at("step_startup").get<double>()};
}

calibration::Model model_of(const kpbs::Platform& p) {
  return {.d = kpbs::flow_rate(p), .D = p.backbone_rate, .beta = p.step_startup};
}

Json model_json(const calibration::Model& m, int k) { return Json{{"k", k}, {"d", m.d}, {"D", m.D}, {"beta", m.beta}}; }

// What the model says `step` of a scheduled plan takes on `model`: its longest flow at d,
// or all its flows through the backbone, whichever is longer (fluid sharing).
double predicted_on(const jobs::StepPlan& step, const calibration::Model& model) {
  std::uint64_t longest = 0;
  for (const jobs::Flow& f : step.flows) longest = std::max(longest, f.bytes);
  return model.beta + std::max(static_cast<double>(longest) / model.d, static_cast<double>(step.bytes) / model.D);
}

}  // namespace

asio::awaitable<void> Driver::follow_drift(TrackedJob& job, JobPlans& plans, std::uint32_t step) {
  if (!job.drift.enabled) co_return;
  const jobs::StepPlan& planned = job.plan->steps[step];
  calibration::StepSample sample{.step = step,
                                 .predicted = planned.predicted_seconds,
                                 .measured = job.steps.back().measured,
                                 .bytes = planned.bytes,
                                 .longest_flow = 0,
                                 .flows = {}};
  const StepTiming& timing = job.timing.at(step);
  for (const jobs::Flow& f : planned.flows) {
    sample.longest_flow = std::max(sample.longest_flow, f.bytes);
    const auto node = timing.nodes.find(job.spec->clusters.receivers.at(f.receiver));
    if (node != timing.nodes.end()) sample.flows.push_back({node->second.bytes, node->second.seconds});
  }
  const std::optional<calibration::Drift> drift = job.drift.detector.observe(sample);
  const std::size_t next = step + 1;
  if (!drift || next >= job.plan->steps.size()) co_return;

  const calibration::Model before = model_of(job.drift.platform);
  const calibration::Estimate estimate =
      calibration::estimate(before, *drift, options_.drift, job.drift.last ? &*job.drift.last : nullptr);
  const kpbs::Platform& old = job.drift.platform;
  // The backbone used in full where that lowers the bound, as for the first plan.
  const kpbs::Platform platform =
      calibration::fullest_platform(calibration::measured_platform(std::min(old.sender_rate, estimate.model.d),
                                                                   std::min(old.receiver_rate, estimate.model.d),
                                                                   estimate.model.D, estimate.model.beta),
                                    job.spec->clusters, job.spec->transfers);
  const std::string why = calibration::describe(*drift, options_.drift);
  if (log_) log_.info("job " + std::to_string(job.id) + ": " + why + "; re-planning from step " + std::to_string(next));

  // On the planner thread, like the first plan: a large job's re-plan takes a while.
  const jobs::CompiledPlan current = *job.plan;
  co_await asio::post(asio::bind_executor(planner_.get_executor(), asio::use_awaitable));
  std::optional<jobs::CompiledPlan> replanned;
  std::string refused;
  try {
    replanned = jobs::replan(current, next, job.spec->clusters, job.spec->transfers, platform, job.spec->algorithm);
  } catch (const std::exception& e) {
    refused = e.what();
  }
  co_await asio::post(asio::bind_executor(io_.get_executor(), asio::use_awaitable));
  job.drift.detector.reset();
  Json record{{"at_step", next},
              {"when", journal::utc_now()},
              {"elapsed_seconds", std::chrono::duration<double>(clock_.now() - job.started).count()},
              {"why", why},
              {"cause", calibration::name(estimate.cause)},
              {"old", model_json(before, current.k)}};
  if (!replanned) {  // never into an invalid state: the plan the agents hold goes on
    record["error"] = "not re-planned: " + refused;
    job.drift.replans.push_back(std::move(record));
    if (log_) log_.warning("job " + std::to_string(job.id) + ": not re-planned: " + refused);
    co_return;
  }
  double before_seconds = 0, kept_seconds = 0, after_seconds = 0;
  for (std::size_t s = next; s < current.steps.size(); ++s) {
    before_seconds += current.steps[s].predicted_seconds;
    kept_seconds += predicted_on(current.steps[s], model_of(platform));
  }
  for (std::size_t s = next; s < replanned->steps.size(); ++s) after_seconds += replanned->steps[s].predicted_seconds;
  record["new"] = model_json(model_of(platform), replanned->k);
  record["steps_before"] = current.steps.size() - next;
  record["steps_after"] = replanned->steps.size() - next;
  record["predicted_remaining_seconds_before"] = before_seconds;  // the old plan on the old model
  record["predicted_remaining_seconds_kept"] = kept_seconds;      // the old plan on the new model
  record["predicted_remaining_seconds_after"] = after_seconds;    // the new plan on the new model
  journal_.add_replan(job.id, {.at_step = static_cast<std::uint32_t>(next),
                               .platform = platform_json(platform).dump(),
                               .record = record.dump()});
  job.plan = std::move(replanned);
  job.drift.platform = platform;
  job.drift.last = estimate;
  job.drift.replans.push_back(std::move(record));
  plans.rebuild();
  job.holding.clear();
  // Refusals and silence are the next step's to handle: it gives the plan again to every
  // node that does not hold it, and fails its attempt with their reasons.
  if (const std::string lost = co_await offer_plans(job, plans); !lost.empty() && log_)
    log_.warning("job " + std::to_string(job.id) + ": the re-plan: " + lost);
}

Json Driver::replay_replans(const TrackedJob& job, jobs::CompiledPlan& plan, kpbs::Platform& platform) {
  Json records = Json::array();
  for (const journal::ReplanRecord& r : journal_.replans(job.id)) {
    platform = platform_of(Json::parse(r.platform));
    plan = jobs::replan(plan, r.at_step, job.spec->clusters, job.spec->transfers, platform, job.spec->algorithm);
    records.push_back(Json::parse(r.record));
  }
  return records;
}

}  // namespace baton::coordinator

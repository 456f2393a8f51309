#include "coupling/session.h"

#include "agent/embedded.h"
#include "coupling/error.h"

#include <charconv>
#include <limits>
#include <optional>
#include <random>
#include <thread>

namespace baton::coupling {
namespace {

using Json = nlohmann::json;

// What the processes of a collective handoff tell each other through `agree`. In the first
// round each says the worst it knows, and the leader (with no problem) the number of the
// exchange, below kNeedsJob; the largest value wins, so the round's answer is the worst
// anyone said, else the leader's number: an exchange when every process holds the kept plan.
constexpr std::uint64_t kNeedsJob = std::uint64_t{1} << 32;       // first round: no kept plan to exchange
constexpr std::uint64_t kSomeoneFailed = std::uint64_t{1} << 33;  // first round: one process cannot take part
constexpr std::uint64_t kSubmitFailed = std::numeric_limits<std::uint64_t>::max();  // second round
constexpr std::uint64_t kExchangeFailed = 1;                                        // after an exchange

// An exchange's number: not 0, below 2^32 (StepBarrier::range_limit), new each time.
std::uint64_t exchange_number() {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  return 1 + random() % (kNeedsJob - 1);
}

std::string require(const std::string& value, const char* what) {
  if (value.empty()) throw Error(Errc::invalid_argument, std::string("session: ") + what + " is not set");
  return value;
}

std::string bytes_text(std::uint64_t bytes) { return std::to_string(bytes) + " bytes"; }

double number_or_zero(const Json& object, const char* key) {
  return object.is_object() && object.contains(key) && object[key].is_number() ? object[key].get<double>() : 0;
}

// A handoff's layouts in words: the key of the job JSON built for them.
std::string spec_key(const std::string& name, const Layout& from, const Layout& to) {
  return name + "\n" + from.describe() + "\n" + to.describe();
}

// A handoff's result from the job's answer once it ended in `state`.
HandoffResult result_of(const std::string& job, const std::string& state, const Json& answer) {
  HandoffResult r;
  r.state = state == "done" ? JobState::done : state == "failed" ? JobState::failed : JobState::cancelled;
  r.job = job;
  if (answer.contains("error") && answer["error"].is_string()) r.error = answer["error"].get<std::string>();
  const Json report = answer.value("report", Json::object());
  if (report.contains("steps") && report["steps"].is_array()) {
    r.steps = report["steps"].size();
    for (const Json& step : report["steps"]) r.bytes += step.value("bytes", std::uint64_t{0});
  }
  r.predicted_seconds = number_or_zero(report, "predicted_seconds");
  r.measured_seconds = number_or_zero(report, "measured_seconds");
  r.lower_bound_seconds = number_or_zero(report, "lower_bound_seconds");
  r.reused_plan = report.contains("plan_reused_from");
  r.report = answer.dump();
  return r;
}

}  // namespace

Session::Session(SessionOptions options)
    : options_(std::move(options)),
      api_(require(options_.api, "api (the coordinator's HTTP API)"), options_.api_token) {
  if (options_.node_id.empty()) return;
  require(options_.coordinator, "coordinator (the coordinator's agent address)");
  require(options_.secret, "secret (the cluster's secret)");
  try {
    agent_ = std::make_unique<EmbeddedAgent>(EmbeddedOptions{.node_id = options_.node_id,
                                                             .coordinator = options_.coordinator,
                                                             .secret = options_.secret,
                                                             .data_address = options_.data_address,
                                                             .rate = options_.platform.rate,
                                                             .same_host_memory = options_.same_host_memory});
  } catch (const std::exception& e) {
    throw Error(Errc::invalid_argument, e.what());
  }
  if (!agent_->wait_registered(options_.timeout)) {
    throw Error(Errc::unreachable, "node " + options_.node_id + ": the coordinator at " + options_.coordinator +
                                       " did not register it within " + std::to_string(options_.timeout.count()) +
                                       " ms (is it running, and is the secret the cluster's?)");
  }
}

Session::~Session() = default;

void Session::share(const std::string& name, const Layout& layout, std::span<std::byte> bytes) {
  if (!agent_) throw Error(Errc::invalid_argument, "share " + name + ": this session has no node (node_id is not set)");
  if (name.empty() || name.starts_with("scratch:")) {
    throw Error(Errc::invalid_argument,
                "share: \"" + name + "\" cannot name an array (empty, or starts with scratch:)");
  }
  const auto p = layout.index_of(options_.node_id);
  if (!p) {
    throw Error(Errc::invalid_argument, "share " + name + ": node " + options_.node_id +
                                            " is not in the layout's group (" + layout.describe() + ")");
  }
  const std::uint64_t needed = layout.local_bytes(*p);
  if (bytes.size() < needed) {
    const auto local = layout.local_shape(*p);
    throw Error(Errc::region_too_small,
                "share " + name + ": node " + options_.node_id + "'s part is " + std::to_string(local[0]) + " x " +
                    std::to_string(local[1]) + " elements of " + std::to_string(layout.element_size) +
                    " bytes = " + bytes_text(needed) + ", the memory given holds " + bytes_text(bytes.size()));
  }
  agent_->register_region(name, bytes.first(needed));
  shared_.insert_or_assign(name, Shared{layout, bytes});
}

void Session::unshare(const std::string& name) {
  if (shared_.erase(name) == 0) throw Error(Errc::unknown_name, "unshare: no array named " + name + " was shared");
  agent_->unregister_region(name);
}

std::string Session::submit_handoff(const std::string& name, const Layout& from, const Layout& to) {
  std::string& spec = specs_[spec_key(name, from, to)];
  // Built once per handoff shape, on the nodes' rates as their agents declared them then.
  if (spec.empty())
    spec = handoff_job(name, from, to, options_.platform, api_.agent_rates(), options_.keep_plans && agree_);
  return api_.submit(spec);
}

std::optional<Error> Session::why_not(const std::string& name, const Layout& from, const Layout& to) const {
  if (from.shape != to.shape || from.element_size != to.element_size) {
    return Error(Errc::invalid_argument, "handoff " + name + ": the two layouts describe different arrays: " +
                                             from.describe() + " against " + to.describe());
  }
  const bool in_from = from.index_of(options_.node_id).has_value(), in_to = to.index_of(options_.node_id).has_value();
  if (options_.node_id.empty() || (!in_from && !in_to)) return std::nullopt;  // a coupler: nothing of its own
  const auto it = shared_.find(name);
  if (it == shared_.end()) {
    return Error(Errc::unknown_name,
                 "handoff " + name + ": node " + options_.node_id + " shared no array named " + name);
  }
  const Layout& mine = in_from ? from : to;
  if (!(it->second.layout == mine)) {
    return Error(Errc::invalid_argument, "handoff " + name + ": node " + options_.node_id + " shared it as " +
                                             it->second.layout.describe() + ", the handoff names " + mine.describe());
  }
  return std::nullopt;
}

std::string Session::agree_on_job(const std::string& name, const Layout& from, const Layout& to, bool leader) {
  std::string job;
  std::optional<Error> failure;
  std::uint64_t number = 0;
  if (leader) {
    try {
      job = submit_handoff(name, from, to);
      const auto [end, ec] = std::from_chars(job.data(), job.data() + job.size(), number);
      if (ec != std::errc() || end != job.data() + job.size() || number >= kSubmitFailed - 1) {
        throw Error(Errc::job_failed,
                    "handoff " + name + ": the coordinator named the job \"" + job + "\", not a number");
      }
    } catch (const Error& e) {
      failure = e;
    }
  }
  if (agree_) {
    const std::uint64_t agreed = agree_(!leader ? 0 : failure ? kSubmitFailed : number + 1);
    if (!leader && (agreed == kSubmitFailed || agreed == 0)) {
      throw Error(Errc::unreachable, "handoff " + name + ": node " + from.nodes.front() +
                                         " could not submit the job (its own error says why)");
    }
    if (!leader) job = std::to_string(agreed - 1);
  }
  if (failure) throw *failure;
  return job;
}

HandoffResult Session::handoff(const std::string& name, const Layout& from, const Layout& to) {
  // Every process checks its part before any job exists and, in a collective handoff, says
  // so in the first round: a wrong call fails everywhere at once, and nobody waits for a
  // job that cannot run. The round is also the barrier before the job or the exchange.
  const std::optional<Error> problem = why_not(name, from, to);
  const bool leader = !agree_ || options_.node_id == from.nodes.front();
  const std::string key = spec_key(name, from, to);
  const bool member = agent_ && (from.index_of(options_.node_id) || to.index_of(options_.node_id));
  const auto kept = kept_.find(key);
  // This process could run the kept plan again: it holds it (or has no part in it).
  const bool can_exchange = kept != kept_.end() && (!member || !agent_->why_no_exchange(kept->second.job));
  const std::uint64_t said = problem ? kSomeoneFailed : !can_exchange ? kNeedsJob : leader ? exchange_number() : 0;
  const std::uint64_t agreed = agree_ ? agree_(said) : kNeedsJob;
  if (agreed >= kSomeoneFailed && !problem) {
    throw Error(Errc::invalid_argument,
                "handoff " + name + ": another process of the handoff could not take part (its own error says why)");
  }
  if (problem) throw *problem;
  std::string exchange_error;
  if (agreed > 0 && agreed < kNeedsJob) {  // 0: an agree that is not the largest value (the leader says > 0)
    if (std::optional<HandoffResult> exchanged = exchange(kept->second, agreed, member, exchange_error)) {
      return *exchanged;
    }
  }
  // The first node of `from` submits (a coupler: the caller) and the others learn the job
  // in the second round.
  const bool reused = specs_.contains(key);
  const std::string job = agree_on_job(name, from, to, leader);
  specs_.try_emplace(key);  // only the leader builds the JSON; the others remember the layouts
  HandoffResult result = wait(job, leader);
  result.reused_spec = reused;
  result.exchange_error = exchange_error;
  if (agree_ && options_.keep_plans && result.state == JobState::done) {
    kept_.insert_or_assign(key, Kept{job, result, Json::parse(result.report, nullptr, false)});
  } else {
    kept_.erase(key);
  }
  return result;
}

std::optional<HandoffResult> Session::exchange(Kept& kept, std::uint64_t number, bool member, std::string& error) {
  EmbeddedAgent::Exchange outcome;  // a process with no part in the exchange: nothing failed
  if (member) outcome = agent_->exchange(kept.job, number, options_.timeout);
  // Every process learns whether every exchange went well: if one did not, all run the
  // handoff as a job instead (compiled again, retried by the coordinator, naming a node
  // that fails), so no process returns before the array is where it belongs.
  const std::uint64_t verdict = agree_(outcome.failure ? kExchangeFailed : 0);
  if (verdict != 0 || outcome.failure) {  // its own failure whatever `agree` answered
    error = outcome.failure
                ? "exchange of job " + kept.job + "'s plan: " + outcome.failure->reason
                : "another process's exchange of job " + kept.job + "'s plan failed (its own error says why)";
    return std::nullopt;
  }
  HandoffResult result = kept.first;
  result.reused_spec = true;
  result.kept_plan = true;
  result.measured_seconds = outcome.seconds;
  if (kept.answer.is_object()) {  // this exchange's in place of the last one's
    kept.answer["exchange"] = {{"number", number}, {"seconds", outcome.seconds}, {"bytes", outcome.bytes}};
    result.report = kept.answer.dump();
  }
  return result;
}

HandoffResult Session::wait(const std::string& job, bool leader) {
  // Each look waits at the coordinator until the job ends (at most 5 s); a coordinator that
  // answers at once (an older one) is looked at again after a pause that doubles up to 50 ms.
  constexpr auto kLongestLook = std::chrono::seconds(5);
  const auto deadline = std::chrono::steady_clock::now() + options_.timeout;
  auto pause = std::chrono::milliseconds(2);
  for (;;) {
    const auto asked = std::chrono::steady_clock::now();
    const auto look = std::max(std::chrono::milliseconds(1),  // a last look at the deadline
                               std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::min<std::chrono::steady_clock::duration>(kLongestLook, deadline - asked)));
    const Json answer = api_.wait_job(job, look);
    const std::string state = answer.value("state", "");
    if (state == "done" || state == "failed" || state == "cancelled") return result_of(job, state, answer);
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      if (leader) api_.cancel(job);
      throw Error(Errc::timeout, "job " + job + " did not end within " + std::to_string(options_.timeout.count()) +
                                     " ms (state " + state + ")");
    }
    if (now - asked < look / 2) {
      std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
      pause = std::min(pause * 2, std::chrono::milliseconds(50));
    }
  }
}

}  // namespace baton::coupling

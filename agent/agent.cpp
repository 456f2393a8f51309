#include "agent/agent.h"

#include "agent/agent_metrics.h"
#include "agent/object_query.h"
#include "agent/plan_check.h"
#include "agent/same_host.h"
#include "protocol/handshake.h"
#include "transport/close_on_exec.h"

#include <asio/bind_executor.hpp>
#include <asio/co_spawn.hpp>
#include <asio/connect.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>

#include <algorithm>

namespace baton::agent {
namespace {

using namespace asio::experimental::awaitable_operators;
using std::chrono::milliseconds;

// Connects to "host:port" within `timeout`. Throws protocol::ChannelError naming it.
asio::awaitable<asio::ip::tcp::socket> connect_to(std::string address, milliseconds timeout) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) {
    throw protocol::ChannelError("coordinator address '" + address + "' is not host:port");
  }
  const auto executor = co_await asio::this_coro::executor;
  asio::ip::tcp::resolver resolver(executor);
  auto [resolve_error, endpoints] =
      co_await resolver.async_resolve(address.substr(0, colon), address.substr(colon + 1), transport::use_nothrow);
  if (resolve_error) throw protocol::ChannelError("cannot resolve " + address + ": " + resolve_error.message());
  asio::ip::tcp::socket socket(executor);
  asio::steady_timer timer(executor, timeout);
  auto outcome = co_await (asio::async_connect(socket, endpoints, transport::use_nothrow) ||
                           timer.async_wait(transport::use_nothrow));
  if (outcome.index() == 1) throw protocol::ChannelError("connecting to " + address + " timed out");
  if (const auto& [error, endpoint] = std::get<0>(outcome); error) {
    throw protocol::ChannelError("cannot connect to " + address + ": " + error.message());
  }
  transport::close_on_exec(socket.native_handle());
  co_return socket;
}

// Measured once per process (combine/speed.h): every agent of an application embedding
// several reports the same speeds.
const std::vector<combine::Speed>& measured_combine_speeds() {
  static const std::vector<combine::Speed> speeds = combine::measure_speeds();
  return speeds;
}

// A coordinator's heartbeat interval, in [0.05, 60] s whatever it sent (NaN: the least).
milliseconds heartbeat_period(double seconds) {
  if (!(seconds >= 0.05)) seconds = 0.05;
  if (seconds > 60) seconds = 60;
  return milliseconds(static_cast<std::int64_t>(seconds * 1000));
}

}  // namespace

Agent::Agent(transport::Context& context, DataPlane& data, Storage& storage, AgentOptions options, PlanCheck check)
    : context_(context), data_(data), storage_(storage), options_(std::move(options)), check_(std::move(check)),
      metrics_(std::make_shared<metrics::Registry>()), changed_(context.executor()) {
  declare_agent_metrics(*metrics_);
  metrics_->set("baton_agent_registered", {}, 0);
  publish_jobs();
  options_.steps.metrics = metrics_;
  // One set of kept connections for every job's sends (agent/peer_links.h).
  if (!options_.steps.links) {
    options_.steps.links =
        std::make_shared<PeerLinks>(context_, transport::NodeIdentity{options_.node_id, options_.secret});
  }
}

std::string Agent::data_address() const {
  if (options_.same_host_data == nullptr || options_.host.empty()) return data_.address();
  return with_memory_path(data_.address(), options_.host, options_.same_host_data->address());
}

std::string Agent::metrics() const {
  std::shared_ptr<const metrics::Registry> jobs;
  {
    const std::lock_guard lock(job_metrics_mutex_);
    jobs = job_metrics_;
  }
  return metrics_->render() + jobs->render();
}

void Agent::publish_jobs() {
  auto jobs = std::make_shared<metrics::Registry>();
  declare_job_metrics(*jobs);
  jobs->set("baton_agent_jobs_held", {}, static_cast<double>(jobs_.size()));
  for (const JobProgress& job : job_progress()) {
    jobs->set("baton_agent_job_steps_done", {{"job", job.job}, {"state", std::string(name(job.state))}},
              job.steps_done);
    jobs->set("baton_agent_job_steps", {{"job", job.job}}, job.steps);
  }
  for (const auto& [job, held] : jobs_) {
    const double running = held.running_step ? *held.running_step + 1 : 0;
    jobs->set("baton_agent_job_running_step", {{"job", job}}, running);
  }
  const std::lock_guard lock(job_metrics_mutex_);
  job_metrics_ = std::move(jobs);
}

Agent::~Agent() {
  for (auto& [job, held] : jobs_) held.runner->close();
}

void Agent::say(const std::string& line) const { log::write(options_.log, log::Level::info, line); }

std::string_view Agent::name(JobState state) {
  switch (state) {
    case JobState::running: return "running";
    case JobState::done: return "done";
    case JobState::aborted: return "aborted";
  }
  return "unknown";
}

std::string Agent::status() const {
  if (jobs_.empty()) return registered_ ? "idle" : "connecting to " + coordinator_address();
  std::string status;
  for (const auto& [job, held] : jobs_) {
    const std::string steps = std::to_string(held.runner->plan().steps_size());
    if (!status.empty()) status += "; ";
    if (held.running_step) status += "job " + job + " step " + std::to_string(*held.running_step + 1) + "/" + steps;
    else
      status += "job " + job + " " + std::string(name(held.state)) + " (" + std::to_string(held.steps_done) + "/" +
                steps + " steps)";
  }
  return status;
}

std::vector<Agent::JobProgress> Agent::job_progress() const {
  std::vector<JobProgress> progress;
  for (const auto& [job, held] : jobs_) {
    progress.push_back({.job = job,
                        .state = held.state,
                        .steps_done = held.steps_done,
                        .steps = static_cast<std::uint32_t>(held.runner->plan().steps_size())});
  }
  return progress;
}

bool Agent::any_step_running() const {
  return std::ranges::any_of(jobs_, [](const auto& entry) { return entry.second.running_step.has_value(); });
}

void Agent::start() {
  combine_speeds_ = &measured_combine_speeds();
  started_ = true;
  running_ = true;
  asio::co_spawn(context_.executor(), session_loop(), asio::detached);
}

asio::awaitable<void> Agent::stop() {
  running_ = false;
  if (!any_step_running() && channel_) channel_->finish();  // else: once the last step is reported
  changed_.notify();                                        // a reconnect waiting out its backoff gives up
  while (started_ && !stopped_) co_await changed_.wait();
}

const std::string& Agent::coordinator_address() const {
  return coordinator_index_ == 0 ? options_.coordinator : options_.other_coordinators[coordinator_index_ - 1];
}

asio::awaitable<void> Agent::session_loop() {
  milliseconds backoff(200);
  while (running_) {
    try {
      auto channel =
          std::make_shared<protocol::Channel>(co_await connect_to(coordinator_address(), registration_timeout()));
      co_await session(channel);
      backoff = milliseconds(200);  // it worked for a while: retry soon
    } catch (const protocol::AuthError& e) {
      // A wrong cluster secret does not heal by retrying: said at warning, every attempt.
      log::write(options_.log, log::Level::warning,
                 std::string("coordinator refused our authentication: ") + e.what() + "; check secret_file");
    } catch (const std::exception& e) {
      say(std::string("coordinator session: ") + e.what());
    }
    registered_ = false;
    metrics_->set("baton_agent_registered", {}, 0);
    channel_.reset();
    if (!running_) break;
    // The next coordinator at once; a whole round tried: back off (docs/ha.md).
    coordinator_index_ = (coordinator_index_ + 1) % (1 + options_.other_coordinators.size());
    if (coordinator_index_ != 0) continue;
    co_await changed_.wait_until(std::chrono::steady_clock::now() + backoff);
    backoff = std::min(backoff * 2, options_.other_coordinators.empty()
                                        ? options_.max_backoff
                                        : std::min(options_.max_backoff, options_.max_backoff_with_standbys));
  }
  // A step still running reports into the void: wait for it so the runner outlives it.
  while (any_step_running()) co_await changed_.wait();
  stopped_ = true;
  changed_.notify();
}

milliseconds Agent::registration_timeout() const {
  if (options_.other_coordinators.empty() || !heartbeat_) return options_.io_timeout;
  return std::min(options_.io_timeout, *heartbeat_);
}

asio::awaitable<void> Agent::session(std::shared_ptr<protocol::Channel> channel) {
  const milliseconds timeout = registration_timeout();
  // A named Identity, not a braced temporary: GCC 12 mis-destroys aggregate temporaries
  // passed by value into a coroutine (ASan: "free on address which was not malloc()-ed").
  protocol::Identity self{.role = "agent", .node_id = options_.node_id, .secret = options_.secret};
  const std::string coordinator =
      co_await protocol::handshake(*channel, protocol::Side::initiator, self, "coordinator", timeout);
  protocol::Envelope hello;
  protocol::Register* reg = hello.mutable_register_();
  reg->set_node_id(options_.node_id);
  reg->add_data_addresses(data_address());
  for (const std::string& t : options_.transports) reg->add_transports(t);
  reg->set_rate(options_.rate);
  reg->set_pool_bytes(context_.options().pool.buffer_count * context_.options().pool.buffer_size);
  reg->set_storage_id(options_.storage_id);
  for (const combine::Speed& speed : *combine_speeds_) {
    protocol::CombineSpeed* reported = reg->add_combine_speeds();
    reported->set_dtype(static_cast<protocol::DataType>(speed.dtype));  // the same numbers (combine/types.h)
    reported->set_op(static_cast<protocol::ReduceOp>(speed.op));
    reported->set_bytes_per_second(speed.bytes_per_second);
  }
  co_await channel->send(std::move(hello), timeout);
  const protocol::Envelope answer = co_await channel->receive(timeout);
  if (answer.body_case() == protocol::Envelope::kRefusal) {
    throw protocol::ChannelError("coordinator " + coordinator +
                                 " refused to register us: " + answer.refusal().reason());
  }
  if (answer.body_case() != protocol::Envelope::kRegistered) {
    co_await channel->refuse("expected registered, got " + std::string(protocol::type_name(answer)));
    throw protocol::ChannelError("coordinator " + coordinator + " answered register with " +
                                 std::string(protocol::type_name(answer)));
  }
  co_await check_epoch(*channel, answer, coordinator);
  if (!running_) {
    // stop() came while this session was being made, found no channel to finish, and waits
    // for the session loop to end: a session begun now would keep it waiting for good.
    channel->finish();
    co_return;
  }
  heartbeat_ = heartbeat_period(answer.registered().heartbeat_seconds());
  heartbeat_before_ = *heartbeat_;
  channel_ = channel;
  registered_ = true;
  metrics_->set("baton_agent_registered", {}, 1);
  metrics_->add("baton_agent_sessions_total");
  say("registered with coordinator " + coordinator + " at " + coordinator_address() + " as " + options_.node_id +
      ", data at " + data_address());
  // Every held job's status, made before the first send: the jobs may change meanwhile.
  std::vector<protocol::Envelope> statuses;
  for (const auto& [job, held] : jobs_) statuses.push_back(job_status(job, held));
  for (protocol::Envelope& status : statuses) co_await send(std::move(status));
  std::map<std::string, protocol::Envelope> reports = std::exchange(undelivered_reports_, {});
  for (auto& [job, report] : reports) co_await send_report(std::move(report));

  // Whichever ends first (a broken session, a failed heartbeat) ends the other. Each says
  // why and returns: `||` waits for the first to *succeed*, so an exception thrown by one
  // would wait out the other's normal return and then be lost, and the log with it.
  co_await (handle_messages(channel) || heartbeats(channel));
}

asio::awaitable<void> Agent::check_epoch(protocol::Channel& channel, const protocol::Envelope& message,
                                         const std::string& coordinator) {
  const std::uint64_t epoch = message.leader_epoch();
  if (epoch == 0 || epoch >= leader_epoch_) {
    leader_epoch_ = std::max(leader_epoch_, epoch);
    co_return;
  }
  const std::string why = "leader epoch " + std::to_string(epoch) + " is older than " + std::to_string(leader_epoch_) +
                          ", the newest this agent has seen (a deposed leader)";
  log::write(options_.log, log::Level::warning,
             "refused " + std::string(protocol::type_name(message)) + " from coordinator " +
                 (coordinator.empty() ? std::string() : coordinator + " ") + "at " + coordinator_address() + ": " +
                 why);
  co_await channel.refuse(why);
  throw protocol::ChannelError("refused a deposed leader's " + std::string(protocol::type_name(message)));
}

asio::awaitable<void> Agent::handle_messages(std::shared_ptr<protocol::Channel> channel) {
  try {
    while (channel->is_open()) {
      const protocol::Envelope message = co_await channel->receive(std::max(*heartbeat_, heartbeat_before_) * 3);
      co_await handle_message(*channel, message);
    }
  } catch (const std::exception& e) {
    channel->close();  // the heartbeats stop too
    say(std::string("coordinator session: ") + e.what());
  }
}

asio::awaitable<void> Agent::handle_message(protocol::Channel& channel, const protocol::Envelope& message) {
  co_await check_epoch(channel, message, "");
  switch (message.body_case()) {
    case protocol::Envelope::kHeartbeat:  // the echo of ours, with the interval from now on
      if (message.heartbeat().interval_seconds() > 0) {
        heartbeat_before_ = *heartbeat_;
        heartbeat_ = heartbeat_period(message.heartbeat().interval_seconds());
      }
      break;
    case protocol::Envelope::kPlan: handle_plan(message.plan()); break;
    case protocol::Envelope::kStepRelease: co_await handle_release(message.step_release()); break;
    case protocol::Envelope::kAbort: handle_abort(message.abort()); break;
    case protocol::Envelope::kStepCancel: {
      const protocol::StepCancel& cancel = message.step_cancel();
      const auto held = jobs_.find(cancel.job());
      const auto in_range = [&](const HeldJob& job) {  // a range's attempt ends as a whole
        return job.range_last && job.running_step && cancel.step() <= *job.running_step;
      };
      if (held != jobs_.end() && (held->second.running_step == cancel.step() || in_range(held->second))) {
        held->second.runner->abort("cancelled by the coordinator: " + cancel.reason());
      }
      break;
    }
    case protocol::Envelope::kJobEnded:
      if (const auto held = jobs_.find(message.job_ended().job()); held != jobs_.end()) {
        // A kept plan stays open for the exchanges its application starts (Plan.keep).
        if (!held->second.runner->plan().keep()) held->second.runner->close();
        held->second.ended = true;
        asio::co_spawn(context_.executor(), commit(held->second.runner->plan()), asio::detached);
      }
      break;
    case protocol::Envelope::kObjectQuery: {
      protocol::Envelope reply;
      *reply.mutable_object_answer() = answer(message.object_query(), storage_);
      co_await send(std::move(reply));
      break;
    }
    case protocol::Envelope::kRefusal:
      throw protocol::ChannelError("coordinator refused us: " + message.refusal().reason());
    default:
      co_await channel.refuse("an agent does not accept " + std::string(protocol::type_name(message)));
      throw protocol::ChannelError("coordinator sent " + std::string(protocol::type_name(message)));
  }
}

asio::awaitable<void> Agent::heartbeats(std::shared_ptr<protocol::Channel> channel) {
  std::uint64_t sequence = 0;
  asio::steady_timer timer(context_.executor());
  while (channel->is_open()) {
    const milliseconds every = *heartbeat_;
    protocol::Envelope beat;
    beat.mutable_heartbeat()->set_sequence(sequence++);
    try {
      co_await channel->send(std::move(beat), every * 3);
    } catch (const std::exception& e) {
      // The channel is broken or stuck (a saturated link): the session ends with this, and
      // says why, since the coordinator will count this agent dead.
      say("coordinator session: heartbeat not sent within " + std::to_string((every * 3).count()) + " ms: " + e.what());
      co_return;
    }
    timer.expires_after(every);
    co_await timer.async_wait(transport::use_nothrow);
  }
}

asio::awaitable<void> Agent::handle_release(const protocol::StepRelease& release) {
  protocol::Envelope refusal;
  protocol::StepReport* report = refusal.mutable_step_report();
  report->set_job(release.job());
  report->set_step(release.step());
  const auto found = jobs_.find(release.job());
  // A job this agent has "done" is still the coordinator's until it ends it: a step that
  // failed elsewhere is released again to every agent, the last one included.
  if (found == jobs_.end() || found->second.state == JobState::aborted) {
    report->set_error("this agent holds no plan for job " + release.job());
  } else if (HeldJob& held = found->second;
             release.step() >= static_cast<std::uint32_t>(held.runner->plan().steps_size())) {
    report->set_error("job " + release.job() + " has no step " + std::to_string(release.step()));
  } else if (release.last_step() > release.step() && held.runner->barrier() == nullptr) {
    report->set_error("job " + release.job() + "'s plan names no members: its steps are released one at a time");
  } else if (release.last_step() >= static_cast<std::uint32_t>(held.runner->plan().steps_size()) &&
             release.last_step() > release.step()) {
    report->set_error("job " + release.job() + " has no step " + std::to_string(release.last_step()));
  } else if (release.range() >= StepBarrier::range_limit) {
    report->set_error("range number " + std::to_string(release.range()) + " is not below 2^32");
  } else if (release.timeout_ms() == 0) {
    report->set_error("the release of step " + std::to_string(release.step()) + " carries no timeout");
  } else if (held.running_step) {  // the job's lockstep: its steps one after another
    report->set_error("step " + std::to_string(*held.running_step) + " is still running");
  } else if (!running_) {
    report->set_error("the agent is stopping");
  } else {
    held.running_step = release.step();
    held.longest_timeout_ms = std::max(held.longest_timeout_ms, release.timeout_ms());
    publish_jobs();
    if (release.last_step() > release.step()) {
      held.range_last = release.last_step();
      asio::co_spawn(context_.executor(), run_range(release.job(), release), asio::detached);
    } else {
      asio::co_spawn(context_.executor(), run_step(release.job(), release), asio::detached);
    }
    co_return;
  }
  co_await send(std::move(refusal));
}

void Agent::handle_plan(const protocol::Plan& plan) {
  const auto held = jobs_.find(plan.job());
  if (held != jobs_.end() && held->second.running_step) {
    // A restarted coordinator resuming this job: answered once the step ends.
    held->second.resent_plan = plan;
    say("job " + plan.job() + ": plan received while its step " + std::to_string(*held->second.running_step) +
        " runs; answering once it ends");
    return;
  }
  std::optional<error::Refusal> refusal = held == jobs_.end() ? make_room(plan) : std::nullopt;
  if (!refusal) refusal = check_(plan);
  if (!refusal) refusal = check_members(plan, options_.node_id);
  if (!refusal) refusal = prepare_staging(plan);
  std::unique_ptr<Storage> scratch;
  if (!refusal) {
    if (held != jobs_.end()) held->second.runner->close();  // the job's old flows and scratch objects go first
    refusal = open_scratch(plan, scratch);
  }
  if (refusal) {
    refuse_plan(plan.job(), refusal->reason);
    return;
  }
  HeldJob& job = jobs_[plan.job()];
  job = HeldJob{};  // a re-sent plan starts the job afresh here
  job.runner =
      std::make_shared<StepRunner>(context_, storage_, plan, transport::NodeIdentity{options_.node_id, options_.secret},
                                   options_.steps, std::move(scratch));
  job.accepted = ++plans_accepted_;
  job.checked_at = storage_.version();  // check_ passed just now
  data_.route_to(job.runner);
  if (options_.same_host_data != nullptr) options_.same_host_data->route_to(job.runner);
  publish_jobs();
  protocol::Envelope answer;
  answer.mutable_plan_accepted()->set_job(plan.job());
  metrics_->add("baton_agent_plans_total", {{"answer", "accepted"}});
  say("job " + plan.job() + ": plan accepted, " + std::to_string(plan.steps_size()) + " steps");
  asio::co_spawn(context_.executor(), send(std::move(answer)), asio::detached);
}

std::optional<error::Refusal> Agent::make_room(const protocol::Plan& plan) {
  // Over first (the coordinator is done with it), then done here (its JobEnded may never
  // come: a coordinator that lost the job), then kept plans (an application may exchange
  // again), the oldest first; never one still running.
  const auto droppable = [](const HeldJob& held) -> std::optional<int> {
    if (held.running_step) return std::nullopt;
    if (held.ended && held.runner->plan().keep() && held.state == JobState::done) return 2;
    if (held.ended || held.state == JobState::aborted) return 0;
    if (held.state == JobState::done) return 1;
    return std::nullopt;
  };
  const auto drop = [&](std::map<std::string, HeldJob>::iterator held, const std::string& why) {
    say("job " + held->first + ": plan dropped: " + why);
    held->second.runner->close();
    jobs_.erase(held);
    publish_jobs();
  };
  // Flows name their job by number: two held jobs of one number would take each other's.
  const auto same_number = std::ranges::find_if(
      jobs_, [&](const auto& entry) { return entry.second.runner->plan().job_number() == plan.job_number(); });
  if (same_number != jobs_.end()) {
    if (!droppable(same_number->second)) {
      return "job number " + std::to_string(plan.job_number()) + " is job " + same_number->first +
             "'s, which this agent still runs";
    }
    drop(same_number, "job " + plan.job() + " has its job number");
  }
  if (jobs_.size() < options_.max_jobs) return {};
  auto oldest = jobs_.end();
  for (auto held = jobs_.begin(); held != jobs_.end(); ++held) {
    const std::optional<int> rank = droppable(held->second);
    if (!rank) continue;
    if (oldest == jobs_.end() ||
        std::pair(*rank, held->second.accepted) < std::pair(*droppable(oldest->second), oldest->second.accepted)) {
      oldest = held;
    }
  }
  if (oldest == jobs_.end()) {
    return "this agent holds " + std::to_string(jobs_.size()) + " jobs' plans, its max_jobs, and runs every one";
  }
  drop(oldest, "room for job " + plan.job() + "'s (max_jobs " + std::to_string(options_.max_jobs) + ")");
  return {};
}

void Agent::refuse_plan(const std::string& job, const std::string& reason) {
  protocol::Envelope answer;
  answer.mutable_plan_refused()->set_job(job);
  answer.mutable_plan_refused()->set_reason(reason);
  metrics_->add("baton_agent_plans_total", {{"answer", "refused"}});
  say("job " + job + ": plan refused: " + reason);
  asio::co_spawn(context_.executor(), send(std::move(answer)), asio::detached);
}

std::optional<error::Refusal> Agent::prepare_staging(const protocol::Plan& plan) {
  if (plan.staged_size() == 0) return {};
  if (!options_.staging) return "this agent cannot stage in-place destinations (memory regions)";
  try {
    for (const protocol::StagedFile& staged : plan.staged()) options_.staging->prepare(staged);
  } catch (const std::exception& e) {
    return std::string("cannot stage an in-place destination: ") + e.what();
  }
  return {};
}

std::optional<error::Refusal> Agent::open_scratch(const protocol::Plan& plan, std::unique_ptr<Storage>& scratch) {
  const std::map<std::string, std::uint64_t> sizes = scratch_sizes(plan);
  if (sizes.empty()) return {};
  if (!options_.scratch) return "this agent keeps no scratch objects";
  try {
    scratch = options_.scratch->open(plan.job_number(), sizes);
  } catch (const std::exception& e) {
    return std::string("cannot make the job's scratch objects: ") + e.what();
  }
  return {};
}

asio::awaitable<void> Agent::commit(protocol::Plan plan) {
  std::string error;
  if (plan.staged_size() > 0 && options_.staging) {
    const auto session_executor = co_await asio::this_coro::executor;
    if (!file_work_) file_work_ = std::make_unique<asio::thread_pool>(1);
    co_await asio::post(asio::bind_executor(file_work_->get_executor(), asio::use_awaitable));
    try {
      for (const protocol::StagedFile& staged : plan.staged()) {
        options_.staging->commit(staged, written_ranges(plan, staged.staging()));
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
    co_await asio::post(asio::bind_executor(session_executor, asio::use_awaitable));
    say("job " + plan.job() + ": " +
        (error.empty() ? std::to_string(plan.staged_size()) + " staged file(s) in place"
                       : "staged files not put in place: " + error));
  }
  protocol::Envelope answer;
  answer.mutable_job_committed()->set_job(plan.job());
  answer.mutable_job_committed()->set_error(error);
  co_await send(std::move(answer));
}

void Agent::handle_abort(const protocol::Abort& abort) {
  const auto found = jobs_.find(abort.job());
  if (found == jobs_.end()) return;
  HeldJob& held = found->second;
  say("job " + abort.job() + ": aborted by the coordinator: " + abort.reason());
  held.runner->abort(abort.reason());
  held.runner->close();
  if (options_.staging) {  // the destinations stay as they were
    for (const protocol::StagedFile& staged : held.runner->plan().staged()) {
      try {
        options_.staging->discard(staged);
      } catch (const std::exception& e) {
        say("job " + abort.job() + ": cannot remove staging file: " + e.what());
      }
    }
  }
  held.state = JobState::aborted;
  publish_jobs();
  if (!held.running_step) asio::co_spawn(context_.executor(), send(job_status(abort.job(), held)), asio::detached);
  // else: run_step reports the aborted step and then the job status
}

asio::awaitable<void> Agent::run_step(std::string job, protocol::StepRelease release) {
  const std::uint32_t step = release.step();
  HeldJob& held = jobs_.at(job);  // kept while its step runs
  const std::shared_ptr<StepRunner> runner = held.runner;
  say("job " + job + " step " + std::to_string(step) + ": started");
  protocol::Envelope envelope;
  bool over = false;
  Signal ended(context_.executor());
  co_await (run_to_report(runner, release, envelope, over, ended) && report_progress(runner, over, ended));
  const protocol::StepReport& report = envelope.step_report();
  if (report.ok()) held.steps_done = std::max(held.steps_done, step + 1);
  count_step(report);
  co_await end_steps(std::move(job), std::move(envelope));
}

void Agent::count_step(const protocol::StepReport& report) {
  metrics_->add("baton_agent_steps_total", {{"result", report.ok() ? "ok" : "failed"}});
  metrics_->observe("baton_agent_step_seconds", {}, report.seconds());
  say("job " + report.job() + " step " + std::to_string(report.step()) + ": " +
      (report.ok() ? "done, " + std::to_string(report.bytes()) + " bytes in " + std::to_string(report.seconds()) + " s"
                   : "failed: " + report.error()));
}

asio::awaitable<void> Agent::end_steps(std::string job, protocol::Envelope envelope) {
  HeldJob& held = jobs_.at(job);  // kept while its step runs
  const std::shared_ptr<StepRunner> runner = held.runner;
  const protocol::StepReport& report = envelope.step_report();
  held.running_step.reset();
  held.range_last.reset();
  changed_.notify();
  if (report.ok() && held.steps_done == static_cast<std::uint32_t>(runner->plan().steps_size()))
    held.state = JobState::done;
  publish_jobs();
  // `held` may be dropped from here on (a new job's plan making room while this one's
  // report is sent): what comes after the report is taken now.
  std::optional<protocol::Envelope> aborted;
  if (held.state == JobState::aborted) aborted = job_status(job, held);
  std::optional<protocol::Plan> resent = std::exchange(held.resent_plan, std::nullopt);
  co_await send_report(std::move(envelope));
  if (aborted) co_await send(std::move(*aborted));
  if (resent) handle_plan(*resent);
  if (!running_ && !any_step_running() && channel_) channel_->finish();  // after the report and status
}

asio::awaitable<void> Agent::run_to_report(std::shared_ptr<StepRunner> runner, const protocol::StepRelease& release,
                                           protocol::Envelope& report, bool& over, Signal& ended) {
  *report.mutable_step_report() =
      co_await runner->run(release.step(), std::chrono::milliseconds(release.timeout_ms()), release.range());
  over = true;
  ended.notify();
}

// About once a second while the step runs (watch, status and metrics show it): the bytes
// moved so far and the tasks ended, read from counters the step keeps anyway.
asio::awaitable<void> Agent::report_progress(std::shared_ptr<StepRunner> runner, const bool& over, Signal& ended) {
  // `over` first: the step may have ended before this coroutine started to wait.
  while (!over) {
    co_await ended.wait_until(std::chrono::steady_clock::now() + std::chrono::seconds(1));
    if (over) co_return;
    std::optional<protocol::StepProgress> progress = runner->progress();
    if (!progress) continue;
    protocol::Envelope envelope;
    *envelope.mutable_step_progress() = std::move(*progress);
    envelope.mutable_step_progress()->set_job(runner->plan().job());
    co_await send(std::move(envelope));
  }
}

asio::awaitable<bool> Agent::send(protocol::Envelope envelope) {
  const std::shared_ptr<protocol::Channel> channel = channel_;
  if (!channel) co_return false;  // no session: the coordinator learns the state from JobStatus on reconnect
  try {
    co_await channel->send(std::move(envelope), options_.io_timeout);
    co_return true;
  } catch (const std::exception& e) {
    say(std::string("sending to the coordinator: ") + e.what());
    co_return false;
  }
}

asio::awaitable<void> Agent::send_report(protocol::Envelope report) {
  // A named copy and a named result: GCC 12 miscompiles `if (!co_await send(report))`
  // (the agent died of SIGILL in this frame).
  protocol::Envelope copy = report;
  const bool sent = co_await send(std::move(copy));
  // The newest report supersedes an older one of its job still waiting: sent later, that
  // one would overwrite this step's (a retry's) outcome at the coordinator.
  const std::string job = report.step_report().job();
  if (sent) undelivered_reports_.erase(job);
  else undelivered_reports_[job] = std::move(report);
}

protocol::Envelope Agent::job_status(const std::string& job, const HeldJob& held) const {
  protocol::Envelope envelope;
  protocol::JobStatus* status = envelope.mutable_job_status();
  status->set_job(job);
  switch (held.state) {
    case JobState::running: status->set_state(protocol::JobStatus::RUNNING); break;
    case JobState::done: status->set_state(protocol::JobStatus::DONE); break;
    case JobState::aborted: status->set_state(protocol::JobStatus::ABORTED); break;
  }
  status->set_steps_done(held.steps_done);
  return envelope;
}

}  // namespace baton::agent

#include "agent/embedded.h"

#include "agent/agent.h"
#include "agent/data_plane.h"
#include "agent/memory_scratch.h"
#include "agent/memory_storage.h"
#include "agent/peer_links.h"
#include "agent/plan_check.h"
#include "agent/same_host.h"
#include "error/error.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>

#include <unistd.h>
#include <algorithm>
#include <future>
#include <thread>

namespace baton {

struct EmbeddedAgent::Parts {
  asio::io_context io;
  // Keeps io.run() going while the agent has nothing in flight (idle, or stopped and
  // about to be taken apart by calls posted from the destructor).
  asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(io);
  std::unique_ptr<transport::Context> context;
  std::unique_ptr<transport::Context> memory_context;  // peers on this host; null without one
  std::unique_ptr<agent::DataPlane> data;
  std::unique_ptr<agent::DataPlane> memory_data;
  agent::MemoryStorage storage;
  agent::MemoryScratch scratch;  // a job's scratch objects, in memory
  std::unique_ptr<agent::Agent> agent;
  std::thread thread;

  // Runs `f` on the agent's thread and returns its result (the agent is single-threaded).
  template <class F>
  auto on_agent_thread(F f) {
    std::packaged_task<decltype(f())()> task(std::move(f));
    auto result = task.get_future();
    asio::post(io, std::move(task));
    return result.get();
  }
};

namespace {

// The shared-memory context for peers on this host, or null (said through `log`) when this
// build or machine has no shm provider.
std::unique_ptr<transport::Context> open_memory_context(asio::any_io_executor executor,
                                                        const EmbeddedOptions& options) {
  transport::TransportConfig config;
  config.kind = "fabric";
  config.provider = "shm";
  config.context = options.transport.context;
  config.log = options.log;
  auto opened = transport::open_context(std::move(executor), config);
  if (!opened.value && options.log) {
    options.log(log::Level::info, "embedded agent " + options.node_id +
                                      ": no shared-memory path for peers on this host: " + opened.detail);
  }
  return std::move(opened.value);
}

}  // namespace

EmbeddedAgent::EmbeddedAgent(EmbeddedOptions options) : parts_(std::make_unique<Parts>()) {
  Parts& p = *parts_;
  auto opened = transport::open_context(p.io.get_executor(), options.transport);
  if (!opened.value) throw error::SystemError("embedded agent " + options.node_id + ": transport: " + opened.detail);
  p.context = std::move(opened.value);
  p.data = std::make_unique<agent::DataPlane>(*p.context, options.data_address,
                                              transport::NodeIdentity{options.node_id, options.secret});
  p.data->log_to(options.log);
  const std::string host = options.same_host_memory ? agent::host_identity() : std::string();
  if (!host.empty()) p.memory_context = open_memory_context(p.io.get_executor(), options);
  if (p.memory_context) {
    p.memory_data = std::make_unique<agent::DataPlane>(*p.memory_context, "",
                                                       transport::NodeIdentity{options.node_id, options.secret});
    p.memory_data->log_to(options.log);
  }
  agent::AgentOptions agent_options{.node_id = options.node_id,
                                    .coordinator = options.coordinator,
                                    .secret = options.secret,
                                    .rate = options.rate,
                                    .transports = {p.context->name()},
                                    .log = std::move(options.log)};
  // Regions belong to this process alone; none can be staged.
  agent_options.storage_id = "memory:" + options.node_id + ":" + std::to_string(::getpid());
  agent_options.scratch = &p.scratch;
  agent_options.same_host_data = p.memory_data.get();
  agent_options.host = host;
  agent_options.steps.links =
      std::make_shared<agent::PeerLinks>(*p.context, transport::NodeIdentity{options.node_id, options.secret},
                                         agent::SameHostPath{.context = p.memory_context.get(), .host = host});
  // Plans name regions: a chunk must stay inside its region at both ends.
  agent::PlanObjects regions{
      .check_name = [](const std::string& name) -> std::optional<error::Refusal> {
        if (name.empty()) return "empty name";
        return std::nullopt;
      },
      .source_size = [&p](const std::string& name) { return p.storage.region_size(name); },
      .destination_limit = [&p](const std::string& name) { return p.storage.region_size(name); },
  };
  p.agent = std::make_unique<agent::Agent>(
      *p.context, *p.data, p.storage, std::move(agent_options),
      [regions](const protocol::Plan& plan) { return agent::check_plan(plan, regions); });
  p.data->start();
  if (p.memory_data) p.memory_data->start();
  p.agent->start();
  p.thread = std::thread([&p] { p.io.run(); });
}

namespace {

asio::awaitable<void> shut_down(agent::Agent& node, agent::DataPlane& data, agent::DataPlane* memory_data,
                                std::promise<void>& done) {
  co_await node.stop();
  co_await data.stop();
  if (memory_data != nullptr) co_await memory_data->stop();
  done.set_value();
}

}  // namespace

EmbeddedAgent::~EmbeddedAgent() {
  Parts& p = *parts_;
  // The running step finishes and is reported, then every coroutine of the data plane
  // ends: only then may the parts they use go.
  std::promise<void> stopped;
  asio::co_spawn(p.io, shut_down(*p.agent, *p.data, p.memory_data.get(), stopped), asio::detached);
  stopped.get_future().wait();
  p.on_agent_thread([&p] {
    p.agent.reset();
    p.data.reset();
    p.memory_data.reset();
    return 0;
  });
  p.work.reset();
  p.io.stop();
  p.thread.join();
}

void EmbeddedAgent::register_region(const std::string& name, std::span<std::byte> bytes) {
  Parts& p = *parts_;
  p.on_agent_thread([&] {
    p.storage.register_region(name, bytes);
    return 0;
  });
}

void EmbeddedAgent::unregister_region(const std::string& name) {
  Parts& p = *parts_;
  p.on_agent_thread([&] {
    p.storage.unregister_region(name);
    return 0;
  });
}

bool EmbeddedAgent::wait_registered(std::chrono::milliseconds timeout) {
  Parts& p = *parts_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!p.on_agent_thread([&p] { return p.agent->registered(); })) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

std::string EmbeddedAgent::wait_job(const std::string& job, std::chrono::milliseconds timeout) {
  Parts& p = *parts_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto progress = p.on_agent_thread([&p] { return p.agent->job_progress(); });
    const auto held = std::ranges::find(progress, job, &agent::Agent::JobProgress::job);
    if (held != progress.end() && held->state != agent::Agent::JobState::running) {
      return std::string(agent::Agent::name(held->state));
    }
    if (std::chrono::steady_clock::now() >= deadline) return {};
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::optional<error::Refusal> EmbeddedAgent::why_no_exchange(const std::string& job) {
  Parts& p = *parts_;
  return p.on_agent_thread([&] { return p.agent->why_no_exchange(job); });
}

EmbeddedAgent::Exchange EmbeddedAgent::exchange(const std::string& job, std::uint64_t number,
                                                std::chrono::milliseconds timeout) {
  Parts& p = *parts_;
  // Shared with the exchange's coroutine, which may outlive a wait that timed out.
  auto outcome = std::make_shared<std::promise<protocol::ExchangeReport>>();
  std::future<protocol::ExchangeReport> ended = outcome->get_future();
  asio::co_spawn(
      p.io,
      [&p, job, number, outcome]() -> asio::awaitable<void> {
        outcome->set_value(co_await p.agent->exchange(job, number));
      },
      asio::detached);
  if (ended.wait_for(timeout) != std::future_status::ready) {
    return {.failure = "exchange " + std::to_string(number) + " of job " + job + " did not end within " +
                       std::to_string(timeout.count()) + " ms",
            .bytes = 0,
            .seconds = 0};
  }
  const protocol::ExchangeReport report = ended.get();
  std::optional<error::Refusal> failure;
  if (!report.ok()) failure = report.error();
  return {.failure = std::move(failure), .bytes = report.bytes(), .seconds = report.seconds()};
}

std::string EmbeddedAgent::status() {
  Parts& p = *parts_;
  return p.on_agent_thread([&p] { return p.agent->status(); });
}

std::string EmbeddedAgent::data_address() const { return parts_->data->address(); }

}  // namespace baton

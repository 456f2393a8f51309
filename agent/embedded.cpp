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

struct EmbeddedLoop::Parts {
  asio::io_context io;
  // Keeps io.run() going while no agent has anything in flight.
  asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(io);
  std::thread thread{[this] { io.run(); }};
};

EmbeddedLoop::EmbeddedLoop() : parts_(std::make_unique<Parts>()) {}

EmbeddedLoop::~EmbeddedLoop() {
  parts_->work.reset();
  parts_->io.stop();
  parts_->thread.join();
}

struct EmbeddedAgent::Parts {
  explicit Parts(std::shared_ptr<EmbeddedLoop> shared)
      : loop(shared ? std::move(shared) : std::make_shared<EmbeddedLoop>()), io(loop->parts_->io) {}

  std::shared_ptr<EmbeddedLoop> loop;  // held until every part below that uses it is gone
  asio::io_context& io;
  std::unique_ptr<transport::Context> context;
  std::unique_ptr<transport::Context> memory_context;  // peers on this host; null without one
  std::unique_ptr<agent::DataPlane> data;
  std::unique_ptr<agent::DataPlane> memory_data;
  agent::MemoryStorage storage;
  agent::MemoryScratch scratch;  // a job's scratch objects, in memory
  std::unique_ptr<agent::Agent> agent;

  // Runs `f` on the agent's loop and returns its result (the agent is single-threaded).
  template <class F>
  auto on_agent_thread(F f) {
    std::packaged_task<decltype(f())()> task(std::move(f));
    auto result = task.get_future();
    asio::post(io, std::move(task));
    return result.get();
  }
  // On the loop: builds and starts the agent and its data planes.
  void start(EmbeddedOptions options);
  // On the loop: the agent and its data planes go, then the transport contexts, in the
  // order that each outlives what uses it.
  void take_apart() {
    agent.reset();
    data.reset();
    memory_data.reset();
    memory_context.reset();
    context.reset();
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

void EmbeddedAgent::Parts::start(EmbeddedOptions options) {
  auto opened = transport::open_context(io.get_executor(), options.transport);
  if (!opened.value) throw error::SystemError("embedded agent " + options.node_id + ": transport: " + opened.detail);
  context = std::move(opened.value);
  data = std::make_unique<agent::DataPlane>(*context, options.data_address,
                                            transport::NodeIdentity{options.node_id, options.secret});
  data->log_to(options.log);
  const std::string host = options.same_host_memory ? agent::host_identity() : std::string();
  if (!host.empty()) memory_context = open_memory_context(io.get_executor(), options);
  if (memory_context) {
    memory_data = std::make_unique<agent::DataPlane>(*memory_context, "",
                                                     transport::NodeIdentity{options.node_id, options.secret});
    memory_data->log_to(options.log);
  }
  agent::AgentOptions agent_options{.node_id = options.node_id,
                                    .coordinator = options.coordinator,
                                    .secret = options.secret,
                                    .rate = options.rate,
                                    .transports = {context->name()},
                                    .log = std::move(options.log)};
  // Regions belong to this process alone; none can be staged.
  agent_options.storage_id = "memory:" + options.node_id + ":" + std::to_string(::getpid());
  agent_options.scratch = &scratch;
  agent_options.same_host_data = memory_data.get();
  agent_options.host = host;
  agent_options.steps.links =
      std::make_shared<agent::PeerLinks>(*context, transport::NodeIdentity{options.node_id, options.secret},
                                         agent::SameHostPath{.context = memory_context.get(), .host = host});
  // Plans name regions: a chunk must stay inside its region at both ends.
  agent::PlanObjects regions{
      .check_name = [](const std::string& name) -> std::optional<error::Refusal> {
        if (name.empty()) return "empty name";
        return std::nullopt;
      },
      .source_size = [this](const std::string& name) { return storage.region_size(name); },
      .destination_limit = [this](const std::string& name) { return storage.region_size(name); },
  };
  agent = std::make_unique<agent::Agent>(
      *context, *data, storage, std::move(agent_options),
      [regions](const protocol::Plan& plan) { return agent::check_plan(plan, regions); });
  data->start();
  if (memory_data) memory_data->start();
  agent->start();
}

EmbeddedAgent::EmbeddedAgent(EmbeddedOptions options) : parts_(std::make_unique<Parts>(options.loop)) {
  // Built on the loop, as every later call runs: other agents may be running on it.
  try {
    parts_->on_agent_thread([this, &options] {
      parts_->start(std::move(options));
      return 0;
    });
  } catch (...) {
    parts_->on_agent_thread([this] {
      parts_->take_apart();
      return 0;
    });
    throw;
  }
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
  // A shared loop runs on: what taking the parts apart queued (operations ended as
  // aborted) runs first, while the transport contexts are still there, and they go last.
  p.on_agent_thread([&p] {
    p.take_apart();
    return 0;
  });
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

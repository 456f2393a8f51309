#include "bench/transport_common.h"

#include "error/result.h"
#include "transport/authenticate.h"

#include <fstream>
#include <future>
#include <optional>
#include <sstream>
#include <thread>

#include <asio/co_spawn.hpp>
#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <asio/use_future.hpp>

namespace baton::bench {
namespace {

const std::string kBenchSecret = "a secret shared by the two bench nodes";

constexpr std::uint64_t region_size = 64ULL << 20;

std::vector<std::byte> make_region() {
  std::vector<std::byte> region(region_size);
  for (std::size_t i = 0; i < region.size(); ++i) region[i] = static_cast<std::byte>((i * 131 + (i >> 12)) & 0xFF);
  return region;
}

class RecordingSink final : public transport::Sink {
 public:
  explicit RecordingSink(std::vector<Arrival>* arrivals) : arrivals_(arrivals) {}
  std::error_code write(std::uint64_t, std::span<const std::byte> bytes) override {
    if (arrivals_ != nullptr) arrivals_->push_back({std::chrono::steady_clock::now(), bytes.size()});
    return {};
  }

 private:
  std::vector<Arrival>* arrivals_;
};

// One io_context on its own thread, kept alive until stop().
class Node {
 public:
  Node() : work_(asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}
  ~Node() {
    work_.reset();
    io_.stop();
    thread_.join();
  }
  asio::io_context& io() { return io_; }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::thread thread_;
};

}  // namespace

transport::TransportConfig config_for(const std::string& transport, const transport::ContextOptions& context) {
  transport::TransportConfig config;
  config.context = context;
  if (transport.rfind("fabric/", 0) == 0) {
    config.kind = "fabric";
    config.provider = transport.substr(7);
  }
  return config;
}

FlowRunResult run_flows(const FlowRunOptions& options) {
  FlowRunResult result;
  result.arrivals.resize(options.flows);
  const auto region = make_region();
  const transport::MemorySource source(region);

  Node sending, receiving;
  auto sender = transport::open_context(sending.io().get_executor(), config_for(options.transport, options.context));
  auto receiver =
      transport::open_context(receiving.io().get_executor(), config_for(options.transport, options.context));
  if (sender.error || receiver.error) {
    result.error = sender.error ? sender.detail : receiver.detail;
    // Contexts must go on their own threads' terms: nothing runs on them yet.
    return result;
  }

  // Listen and link every flow: connect on the sending thread, accept on the receiving one.
  auto listening = asio::co_spawn(
                       receiving.io(),
                       [&]() -> asio::awaitable<error::Result<std::unique_ptr<transport::Listener>>> {
                         co_return receiver.value->listen(receiver.value->name() == "tcp" ? "127.0.0.1:0" : "");
                       },
                       asio::use_future)
                       .get();
  if (listening.error) {
    result.error = listening.detail;
    return result;
  }
  const std::string address =
      asio::co_spawn(
          receiving.io(), [&]() -> asio::awaitable<std::string> { co_return listening.value->address(); },
          asio::use_future)
          .get();
  std::vector<std::unique_ptr<transport::Connection>> sends(options.flows), receives(options.flows);
  for (std::size_t i = 0; i < options.flows; ++i) {
    auto accepted = asio::co_spawn(receiving.io(), listening.value->accept(std::chrono::seconds(10)), asio::use_future);
    auto connected = asio::co_spawn(sending.io(), sender.value->connect(address), asio::use_future).get();
    auto got = accepted.get();
    if (connected.error || got.error) {
      result.error = connected.error ? connected.detail : got.error.message();
      break;
    }
    sends[i] = std::move(connected.value);
    receives[i] = std::move(got.value);
    if (options.authenticated) {
      const transport::NodeIdentity sending_node{"bench-sender", kBenchSecret},
          receiving_node{"bench-receiver", kBenchSecret};
      auto receiver_side = asio::co_spawn(
          receiving.io(), transport::authenticate_as_receiver(*receives[i], receiving_node, std::chrono::seconds(10)),
          asio::use_future);
      const auto sender_side = asio::co_spawn(sending.io(),
                                              transport::authenticate_as_sender(
                                                  *sends[i], sending_node, "bench-receiver", std::chrono::seconds(10)),
                                              asio::use_future)
                                   .get();
      const auto receiver_result = receiver_side.get();
      if (!sender_side.ok() || !receiver_result.ok()) {
        result.error = "authentication: " + (sender_side.ok() ? receiver_result.detail : sender_side.detail);
        break;
      }
    }
  }

  std::vector<std::future<std::string>> outcomes;
  const auto start = std::chrono::steady_clock::now();
  result.start = start;
  if (result.error.empty()) {
    for (std::size_t i = 0; i < options.flows; ++i) {
      outcomes.push_back(asio::co_spawn(
          receiving.io(),
          [&, i]() -> asio::awaitable<std::string> {
            RecordingSink sink(options.record_arrivals ? &result.arrivals[i] : nullptr);
            for (std::uint64_t done = 0; done < options.bytes_per_flow;) {
              const auto report = co_await transport::receive_flow(*receives[i], sink, receiver.value->pool(),
                                                                   {.expected = std::nullopt,
                                                                    .max_range = region_size,
                                                                    .frame_timeout = options.context.frame_timeout,
                                                                    .begin_timeout = std::nullopt});
              if (!report.ok()) co_return report.describe();
              done += report.flow.length;
            }
            co_return std::string();
          },
          asio::use_future));
      outcomes.push_back(asio::co_spawn(
          sending.io(),
          [&, i]() -> asio::awaitable<std::string> {
            transport::SteadyPacer pacer({.rate_bytes_per_second = options.rate_per_flow}, nullptr, start);
            const transport::SendOptions send{
                .max_chunk = options.context.pool.buffer_size - transport::frame_header_size,
                .frame_timeout = options.context.frame_timeout};
            std::uint32_t step = 0;
            for (std::uint64_t done = 0; done < options.bytes_per_flow; ++step) {
              const std::uint64_t length = std::min(region_size, options.bytes_per_flow - done);
              const transport::FlowSpec flow{.job = i, .step = step, .offset = 0, .length = length};
              const auto report =
                  co_await transport::send_flow(*sends[i], flow, source, pacer, sender.value->pool(), send);
              if (!report.ok()) co_return report.describe();
              done += length;
            }
            co_return std::string();
          },
          asio::use_future));
    }
    for (auto& outcome : outcomes) {
      const std::string error = outcome.get();
      if (!error.empty() && result.error.empty()) result.error = error;
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.bytes = options.bytes_per_flow * options.flows;
  result.ok = result.error.empty();

  // Tear down on the owning threads.
  asio::co_spawn(
      sending.io(),
      [&]() -> asio::awaitable<void> {
        sends.clear();
        sender.value.reset();
        co_return;
      },
      asio::use_future)
      .get();
  asio::co_spawn(
      receiving.io(),
      [&]() -> asio::awaitable<void> {
        receives.clear();
        listening.value.reset();
        receiver.value.reset();
        co_return;
      },
      asio::use_future)
      .get();
  return result;
}

std::uint64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      std::uint64_t kib = 0;
      fields >> kib;
      return kib * 1024;
    }
  }
  return 0;
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace baton::bench

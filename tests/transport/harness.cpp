#include "tests/transport/harness.h"

#include <boost/test/unit_test.hpp>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/awaitable_operators.hpp>

#include "transport/pacer.h"

namespace baton::transport::test {

using namespace asio::experimental::awaitable_operators;

std::vector<std::string> transport_labels() {
  std::vector<std::string> labels{"tcp"};
  if (fabric_built()) {
    labels.emplace_back("fabric/tcp;ofi_rxm");
    labels.emplace_back("fabric/sockets");
    labels.emplace_back("fabric/shm");
  }
  return labels;
}

ContextOptions test_options() {
  return {.pool = {.buffer_count = 16, .buffer_size = 64 * 1024},
          .frame_timeout = std::chrono::milliseconds(700),
          .connect_timeout = std::chrono::milliseconds(5000)};
}

namespace {

TransportConfig config_for(const std::string& label, ContextOptions options) {
  TransportConfig config;
  config.context = options;
  if (label.rfind("fabric/", 0) == 0) {
    config.kind = "fabric";
    config.provider = label.substr(7);
  }
  return config;
}

}  // namespace

Harness::Harness(const std::string& label, ContextOptions options) {
  auto sender = open_context(io_.get_executor(), config_for(label, options));
  if (sender.error) {
    skip_reason_ = label + ": " + sender.detail;
    return;
  }
  auto receiver = open_context(io_.get_executor(), config_for(label, options));
  if (receiver.error) {
    skip_reason_ = label + ": " + receiver.detail;
    return;
  }
  sender_ = std::move(sender.value);
  receiver_ = std::move(receiver.value);
}

Harness::~Harness() {
  io_.restart();
  io_.run_for(std::chrono::seconds(3));
}

void Harness::run_until(const std::function<bool()>& done, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    BOOST_TEST_REQUIRE((std::chrono::steady_clock::now() < deadline),
                       "test did not finish within " << limit.count() << " s");
    io_.run_for(std::chrono::milliseconds(50));
    if (io_.stopped()) io_.restart();
  }
}

std::vector<Link> Harness::links(std::size_t count) {
  if (!listener_) {
    auto listening = receiver_->listen(receiver_->name() == "tcp" ? "127.0.0.1:0" : "");
    BOOST_TEST_REQUIRE(!listening.error, listening.detail);
    listener_ = std::move(listening.value);
  }
  std::vector<Link> made;
  bool finished = false;
  asio::co_spawn(
      io_,
      [&]() -> asio::awaitable<void> {
        for (std::size_t i = 0; i < count; ++i) {
          auto [connected, accepted] =
              co_await (sender_->connect(listener_->address()) && listener_->accept(std::chrono::milliseconds(5000)));
          BOOST_TEST_REQUIRE(!connected.error, connected.detail);
          BOOST_TEST_REQUIRE(!accepted.error, accepted.error.message());
          made.push_back({std::move(connected.value), std::move(accepted.value)});
        }
        finished = true;
      },
      asio::detached);
  run_until([&] { return finished; }, std::chrono::seconds(30));
  return made;
}

SendOptions Harness::send_options() const {
  return {.max_chunk = sender_->pool().buffer_size() - frame_header_size,
          .frame_timeout = sender_->options().frame_timeout};
}

ReceiveOptions Harness::receive_options() const {
  return {.expected = std::nullopt,
          .max_range = std::uint64_t{1} << 40,
          .frame_timeout = receiver_->options().frame_timeout,
          .begin_timeout = std::nullopt};
}

Transfer transfer(Harness& harness, const FlowSpec& flow, const Source& source, Sink& sink,
                  std::chrono::seconds limit) {
  auto link = std::move(harness.links(1).front());
  Transfer result;
  int done = 0;
  SteadyPacer unpaced({}, nullptr, std::chrono::steady_clock::now());
  asio::co_spawn(
      harness.io(),
      [&]() -> asio::awaitable<void> {
        result.sent = co_await send_flow(*link.sender, flow, source, unpaced, harness.sender_node().pool(),
                                         harness.send_options());
        ++done;
      },
      asio::detached);
  asio::co_spawn(
      harness.io(),
      [&]() -> asio::awaitable<void> {
        result.received =
            co_await receive_flow(*link.receiver, sink, harness.receiver_node().pool(), harness.receive_options());
        ++done;
      },
      asio::detached);
  harness.run_until([&] { return done == 2; }, limit);
  return result;
}

std::vector<std::byte> pattern(std::size_t size, std::uint64_t seed) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = pattern_byte(i, seed);
  return bytes;
}

}  // namespace baton::transport::test

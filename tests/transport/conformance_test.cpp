// One conformance suite, run against every transport (TCP and each libfabric provider).
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>

#include "tests/support/tools.h"
#include "tests/transport/harness.h"
#include "transport/checksum.h"
#include "transport/errors.h"
#include "transport/frame.h"

using namespace baton::transport;
using namespace baton::transport::test;
namespace bdata = boost::unit_test::data;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

namespace {

// A transport whose provider this machine lacks is skipped with a warning naming it (a
// failure under CI=true: scripts/setup.sh installs libfabric with its providers); any other
// failure to open fails the test.
bool available(const Harness& harness) {
  if (harness.ready()) return true;
  if (baton::test::under_ci())
    BOOST_ERROR("a provider scripts/setup.sh installs is missing: " << harness.skip_reason());
  BOOST_WARN_MESSAGE(false, "skipped: " << harness.skip_reason());
  BOOST_TEST(harness.skip_reason().find("not available") != std::string::npos, harness.skip_reason());
  return false;
}

// A source that makes pattern bytes on demand (no view: chunks go through the pool), so a
// stream of any size needs no memory of its own.
class PatternSource final : public Source {
 public:
  PatternSource(std::uint64_t size, std::uint64_t seed) : size_(size), seed_(seed) {}
  std::uint64_t size() const override { return size_; }
  std::error_code read(std::uint64_t offset, std::span<std::byte> into) const override {
    for (std::size_t i = 0; i < into.size(); ++i) into[i] = pattern_byte(offset + i, seed_);
    return {};
  }

 private:
  std::uint64_t size_, seed_;
};

// A sink that checks every byte against the pattern and that chunks arrive in order.
class PatternCheckSink final : public Sink {
 public:
  PatternCheckSink(std::uint64_t begin, std::uint64_t seed) : next_(begin), seed_(seed) {}
  std::error_code write(std::uint64_t offset, std::span<const std::byte> bytes) override {
    if (offset != next_) ++misplaced_;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      if (bytes[i] != pattern_byte(offset + i, seed_)) ++wrong_;
    }
    next_ = offset + bytes.size();
    return {};
  }
  std::uint64_t next() const { return next_; }
  std::uint64_t wrong() const { return wrong_; }
  std::uint64_t misplaced() const { return misplaced_; }

 private:
  std::uint64_t next_, seed_, wrong_ = 0, misplaced_ = 0;
};

void expect_success(const Transfer& t, const FlowSpec& flow) {
  BOOST_TEST(t.sent.ok(), t.sent.describe());
  BOOST_TEST(t.received.ok(), t.received.describe());
  BOOST_TEST((t.received.flow == flow));
  BOOST_TEST(t.received.bytes_verified == flow.length);
  BOOST_TEST(t.sent.bytes_verified == flow.length);
  BOOST_TEST(t.sent.checksum == t.received.checksum);
}

// Runs a hand-made (possibly hostile) sender against a real receiver; returns the
// receiver's report and how long it took.
struct Hostile {
  FlowReport received;
  steady_clock::duration took{};
};

Hostile against_receiver(Harness& h, Sink& sink, const std::function<asio::awaitable<void>(Connection&)>& evil,
                         std::optional<FlowSpec> expected = std::nullopt) {
  auto link = std::move(h.links(1).front());
  Hostile result;
  bool done = false, evil_done = false;
  const auto start = steady_clock::now();
  asio::co_spawn(
      h.io(),
      [&]() -> asio::awaitable<void> {
        auto options = h.receive_options();
        options.expected = expected;
        result.received = co_await receive_flow(*link.receiver, sink, h.receiver_node().pool(), options);
        result.took = steady_clock::now() - start;
        done = true;
      },
      asio::detached);
  asio::co_spawn(
      h.io(),
      [&]() -> asio::awaitable<void> {
        co_await evil(*link.sender);
        evil_done = true;
      },
      asio::detached);
  h.run_until([&] { return done && evil_done; }, std::chrono::seconds(30));
  return result;
}

asio::awaitable<void> send_raw(Connection& c, const FrameHeader& header, std::span<const std::byte> payload) {
  co_await c.send_frame(encode_header(header), payload, milliseconds(2000));
}

FrameHeader data_header(const FlowSpec& flow, std::uint64_t offset, std::span<const std::byte> payload) {
  return {.kind = FrameKind::data,
          .job = flow.job,
          .step = flow.step,
          .length = static_cast<std::uint32_t>(payload.size()),
          .offset = offset,
          .range_end = flow.end(),
          .checksum = xxh3_64(payload)};
}

FrameHeader begin_header(const FlowSpec& flow) {
  return {.kind = FrameKind::begin,
          .job = flow.job,
          .step = flow.step,
          .length = 0,
          .offset = flow.offset,
          .range_end = flow.end(),
          .checksum = 0};
}

const auto labels = bdata::make(transport_labels());

}  // namespace

BOOST_AUTO_TEST_SUITE(conformance)

BOOST_DATA_TEST_CASE(zero_bytes, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    std::vector<std::byte> region(16, std::byte{0x5A});
    MemorySource source(region);
    MemorySink sink(region);
    const FlowSpec flow{.job = 1, .step = 0, .offset = 8, .length = 0};
    const auto t = transfer(h, flow, source, sink);
    expect_success(t, flow);
  }
}

BOOST_DATA_TEST_CASE(one_byte, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    const auto data = pattern(10, 3);
    std::vector<std::byte> out(10, std::byte{0});
    MemorySource source(data);
    MemorySink sink(out);
    const FlowSpec flow{.job = 2, .step = 5, .offset = 7, .length = 1};
    const auto t = transfer(h, flow, source, sink);
    expect_success(t, flow);
    BOOST_TEST((out[7] == data[7]));
    BOOST_TEST(std::count(out.begin(), out.end(), std::byte{0}) == 9);
  }
}

BOOST_DATA_TEST_CASE(unaligned_sizes_land_exactly_in_place, labels, label) {
  auto options = test_options();
  options.pool.buffer_size = 4096 + frame_header_size;  // many chunks per flow
  Harness h(label, options);
  if (available(h)) {
    const auto data = pattern(200'000, 11);
    for (const std::uint64_t size : {3ULL, 4095ULL, 4096ULL, 4097ULL, 65'537ULL, 3 * 4096ULL + 7}) {
      for (const std::uint64_t offset : {0ULL, 1ULL, 12'345ULL}) {
        std::vector<std::byte> out(data.size(), std::byte{0xEE});
        MemorySource source(data);
        MemorySink sink(out);
        const FlowSpec flow{.job = 3, .step = 1, .offset = offset, .length = size};
        const auto t = transfer(h, flow, source, sink);
        expect_success(t, flow);
        BOOST_TEST(std::equal(out.begin() + offset, out.begin() + offset + size, data.begin() + offset),
                   "size " << size << " offset " << offset);
        BOOST_TEST(std::all_of(out.begin(), out.begin() + offset, [](std::byte b) { return b == std::byte{0xEE}; }));
        BOOST_TEST(
            std::all_of(out.begin() + offset + size, out.end(), [](std::byte b) { return b == std::byte{0xEE}; }));
      }
    }
  }
}

BOOST_DATA_TEST_CASE(file_to_file, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    const auto data = pattern(300'001, 5);
    const std::string from = "transport_conformance_from.bin", to = "transport_conformance_to.bin";
    {
      std::FILE* f = std::fopen(from.c_str(), "wb");
      BOOST_TEST_REQUIRE(f != nullptr);
      std::fwrite(data.data(), 1, data.size(), f);
      std::fclose(f);
      std::remove(to.c_str());
    }
    {
      FileSource source(from);
      FileSink sink(to);
      const FlowSpec flow{.job = 4, .step = 2, .offset = 1'001, .length = 250'000};
      const auto t = transfer(h, flow, source, sink);
      expect_success(t, flow);
    }
    std::vector<std::byte> back(data.size());
    std::FILE* f = std::fopen(to.c_str(), "rb");
    BOOST_TEST_REQUIRE(f != nullptr);
    const auto n = std::fread(back.data(), 1, back.size(), f);
    std::fclose(f);
    BOOST_TEST(n == 251'001u);
    BOOST_TEST(std::equal(back.begin() + 1'001, back.begin() + 251'001, data.begin() + 1'001));
    std::remove(from.c_str());
    std::remove(to.c_str());
  }
}

BOOST_DATA_TEST_CASE(large_stream, labels, label) {
  // 1 GiB in the normal build; 64 MiB under ASan, where every byte costs ~10x.
  const std::uint64_t size = sanitized_build() ? (64ULL << 20) : (1ULL << 30);
  auto options = test_options();
  options.pool = {.buffer_count = 8, .buffer_size = 1 << 20};
  // The sockets provider buffers a sender's frames without limit, so the sender may wait
  // for its ack as long as the receiver takes to work through all of them.
  options.frame_timeout = milliseconds(20'000);
  Harness h(label, options);
  if (available(h)) {
    PatternSource source(size + 3, 21);
    PatternCheckSink sink(3, 21);
    const FlowSpec flow{.job = 9, .step = 0, .offset = 3, .length = size};
    const auto start = steady_clock::now();
    const auto t = transfer(h, flow, source, sink, std::chrono::seconds(150));
    const double seconds = std::chrono::duration<double>(steady_clock::now() - start).count();
    expect_success(t, flow);
    BOOST_TEST(sink.next() == flow.end());
    BOOST_TEST(sink.wrong() == 0u);
    BOOST_TEST(sink.misplaced() == 0u);
    BOOST_TEST(h.receiver_node().pool().high_water() <= 8u);
    BOOST_TEST_MESSAGE(label << ": " << size << " bytes in " << seconds << " s");
  }
}

BOOST_DATA_TEST_CASE(sixty_four_concurrent_flows_on_one_io_context, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    constexpr std::size_t flows = 64, each = 50'000;
    const auto data = pattern(flows * each + 1000, 8);
    std::vector<std::byte> out(data.size(), std::byte{0});
    MemorySource source(data);
    MemorySink sink(out);
    auto links = h.links(flows);
    std::vector<FlowReport> sent(flows), received(flows);
    std::size_t done = 0;
    SteadyPacer unpaced({}, nullptr, steady_clock::now());
    for (std::size_t i = 0; i < flows; ++i) {
      const FlowSpec flow{.job = 64, .step = 3, .offset = i * each, .length = each - i};
      asio::co_spawn(
          h.io(),
          [&, i, flow]() -> asio::awaitable<void> {
            sent[i] =
                co_await send_flow(*links[i].sender, flow, source, unpaced, h.sender_node().pool(), h.send_options());
            ++done;
          },
          asio::detached);
      asio::co_spawn(
          h.io(),
          [&, i]() -> asio::awaitable<void> {
            received[i] =
                co_await receive_flow(*links[i].receiver, sink, h.receiver_node().pool(), h.receive_options());
            ++done;
          },
          asio::detached);
    }
    h.run_until([&] { return done == 2 * flows; }, std::chrono::seconds(60));
    for (std::size_t i = 0; i < flows; ++i) {
      BOOST_TEST(sent[i].ok(), sent[i].describe());
      BOOST_TEST(received[i].ok(), received[i].describe());
      BOOST_TEST(std::equal(out.begin() + i * each, out.begin() + (i + 1) * each - i, data.begin() + i * each));
    }
  }
}

BOOST_DATA_TEST_CASE(pool_exhaustion_makes_flows_wait_not_fail, labels, label) {
  auto options = test_options();
  options.pool = {.buffer_count = 2, .buffer_size = 8192};
  // Sixteen flows take turns with two buffers: a sender may wait for its ack that long.
  options.frame_timeout = milliseconds(10'000);
  Harness h(label, options);
  if (available(h)) {
    constexpr std::size_t flows = 16, each = 100'000;
    const auto data = pattern(flows * each, 13);
    std::vector<std::byte> out(data.size(), std::byte{0});
    MemorySource source(data);
    MemorySink sink(out);
    auto links = h.links(flows);
    std::size_t done = 0;
    std::vector<FlowReport> sent(flows), received(flows);
    // Receivers first: waiting for their begin frames, they hold no buffer.
    for (std::size_t i = 0; i < flows; ++i) {
      asio::co_spawn(
          h.io(),
          [&, i]() -> asio::awaitable<void> {
            received[i] =
                co_await receive_flow(*links[i].receiver, sink, h.receiver_node().pool(), h.receive_options());
            ++done;
          },
          asio::detached);
    }
    if (h.io().stopped()) h.io().restart();
    h.io().poll();  // every receiver runs to its first wait: for its begin frame
    BOOST_TEST(h.receiver_node().pool().available() == 2u);
    BOOST_TEST(h.receiver_node().pool().waits() == 0u);
    SteadyPacer unpaced({}, nullptr, steady_clock::now());
    for (std::size_t i = 0; i < flows; ++i) {
      const FlowSpec flow{.job = 5, .step = 1, .offset = i * each, .length = each};
      asio::co_spawn(
          h.io(),
          [&, i, flow]() -> asio::awaitable<void> {
            sent[i] =
                co_await send_flow(*links[i].sender, flow, source, unpaced, h.sender_node().pool(), h.send_options());
            ++done;
          },
          asio::detached);
    }
    h.run_until([&] { return done == 2 * flows; }, std::chrono::seconds(60));
    for (std::size_t i = 0; i < flows; ++i) {
      BOOST_TEST(sent[i].ok(), sent[i].describe());
      BOOST_TEST(received[i].ok(), received[i].describe());
    }
    BOOST_TEST((out == data));
    BOOST_TEST(h.receiver_node().pool().high_water() == 2u);
    BOOST_TEST(h.receiver_node().pool().waits() > 0u);  // the flows took turns with the two buffers
  }
}

BOOST_DATA_TEST_CASE(held_pool_stalls_the_flow_until_buffers_return, labels, label) {
  auto options = test_options();
  options.pool = {.buffer_count = 2, .buffer_size = 8192};
  options.frame_timeout = milliseconds(5000);
  Harness h(label, options);
  if (available(h)) {
    const auto data = pattern(64 * 1024, 17);
    std::vector<std::byte> out(data.size(), std::byte{0});
    MemorySource source(data);
    MemorySink sink(out);
    auto link = std::move(h.links(1).front());
    std::vector<Buffer> held;
    while (auto b = h.receiver_node().pool().try_acquire()) held.push_back(std::move(*b));
    FlowReport sent, received;
    int done = 0;
    SteadyPacer unpaced({}, nullptr, steady_clock::now());
    const FlowSpec flow{.job = 6, .step = 0, .offset = 0, .length = data.size()};
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> {
          sent = co_await send_flow(*link.sender, flow, source, unpaced, h.sender_node().pool(), h.send_options());
          ++done;
        },
        asio::detached);
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> {
          received = co_await receive_flow(*link.receiver, sink, h.receiver_node().pool(), h.receive_options());
          ++done;
        },
        asio::detached);
    // Stalled: the receiver waits for a buffer (an event), and nothing has landed.
    h.run_until([&] { return h.receiver_node().pool().waits() > 0 || done == 2; }, std::chrono::seconds(30));
    BOOST_TEST(h.receiver_node().pool().waits() > 0u);
    BOOST_TEST(done == 0);
    BOOST_TEST(std::all_of(out.begin(), out.end(), [](std::byte b) { return b == std::byte{0}; }));
    held.clear();
    h.run_until([&] { return done == 2; }, std::chrono::seconds(30));
    BOOST_TEST(sent.ok(), sent.describe());
    BOOST_TEST(received.ok(), received.describe());
    BOOST_TEST((out == data));
  }
}

// Timeouts here are shown by the error they end with, each after a silence that lasts
// until the receiver has ended; the one bound on time left is a lower bound, which a
// loaded machine cannot break (a timer is never early). How late a timer may fire is the
// machine's, not the transport's: the test's run_until and CTest limits catch a hang.
BOOST_DATA_TEST_CASE(idle_peer_times_out_after_the_frame_timeout, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    DiscardSink sink;
    const auto r = against_receiver(h, sink, [](Connection&) -> asio::awaitable<void> { co_return; });
    BOOST_TEST((r.received.error == errc::idle_timeout), r.received.describe());
    BOOST_TEST(r.received.detail.find("waiting for the begin frame") != std::string::npos);
    BOOST_TEST((r.took >= milliseconds(650)));  // frame_timeout 700 ms, less the transport's rounding
  }
}

BOOST_DATA_TEST_CASE(silent_peer_mid_flow_times_out_with_bytes_verified, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    const FlowSpec flow{.job = 7, .step = 1, .offset = 100, .length = 10'000};
    const auto chunk = pattern(1000, 2);
    DiscardSink sink;
    const auto r = against_receiver(h, sink, [&](Connection& c) -> asio::awaitable<void> {
      co_await send_raw(c, begin_header(flow), {});
      co_await send_raw(c, data_header(flow, 100, chunk), chunk);
    });
    BOOST_TEST((r.received.error == errc::idle_timeout), r.received.describe());
    BOOST_TEST(r.received.bytes_verified == 1000u);
  }
}

BOOST_DATA_TEST_CASE(peer_death_between_frames, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    const FlowSpec flow{.job = 7, .step = 2, .offset = 0, .length = 10'000};
    const auto chunk = pattern(2000, 4);
    DiscardSink sink;
    const auto r = against_receiver(h, sink, [&](Connection& c) -> asio::awaitable<void> {
      co_await send_raw(c, begin_header(flow), {});
      co_await send_raw(c, data_header(flow, 0, chunk), chunk);
      c.fail(std::make_error_code(std::errc::owner_dead));  // closes the link: the sender "dies"
    });
    // TCP sees the close; a connectionless fabric endpoint only sees the silence.
    const bool closed_or_silent = r.received.error == errc::peer_closed || r.received.error == errc::idle_timeout;
    BOOST_TEST(closed_or_silent, r.received.describe());
    BOOST_TEST(r.received.bytes_verified == 2000u);
  }
}

BOOST_DATA_TEST_CASE(peer_death_mid_frame_is_a_truncation, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    const FlowSpec flow{.job = 7, .step = 3, .offset = 0, .length = 10'000};
    const auto part = pattern(10, 4);
    std::vector<std::byte> out(10'000, std::byte{0});
    MemorySink sink(out);
    const auto r = against_receiver(h, sink, [&](Connection& c) -> asio::awaitable<void> {
      co_await send_raw(c, begin_header(flow), {});
      auto header = data_header(flow, 0, part);
      header.length = 1000;  // announces 1000 bytes, sends 10, dies
      co_await send_raw(c, header, part);
      c.fail(std::make_error_code(std::errc::owner_dead));
    });
    BOOST_TEST((r.received.error == errc::truncated_frame), r.received.describe());
    BOOST_TEST(r.received.bytes_verified == 0u);
    BOOST_TEST(std::all_of(out.begin(), out.end(), [](std::byte b) { return b == std::byte{0}; }));
  }
}

// An agent that stops closes its connections; a receive waiting on one (a kept link's
// receiver waits a minute for the next flow) must end then, not at its deadline. The
// receive's timeout is past run_until's limit, so waiting it out fails the test.
BOOST_DATA_TEST_CASE(closing_a_connection_ends_the_receive_waiting_on_it, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    auto link = std::move(h.links(1).front());
    std::optional<ReceivedFrame> received, control;
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> {
          Buffer buffer = co_await h.receiver_node().pool().acquire();
          received = co_await link.receiver->receive_frame(buffer, milliseconds(60'000));
        },
        asio::detached);
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> { control = co_await link.sender->receive_control(milliseconds(60'000)); },
        asio::detached);
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> {
          co_await asio::post(h.io(), asio::use_awaitable);  // both receives are waiting by now
          link.receiver->fail(errc::connection_failed);
          link.sender->fail(errc::connection_failed);
        },
        asio::detached);
    h.run_until([&] { return received && control; }, std::chrono::seconds(20));
    BOOST_TEST_REQUIRE((received && control));
    for (const ReceivedFrame* frame : {&*received, &*control}) {
      BOOST_TEST(!!frame->error);
      BOOST_TEST((frame->error != errc::idle_timeout), frame->error.message());
    }
  }
}

// An agent that stops closes its listener: the accept waiting on it ends then, and so does
// every later one (the accept's own timeout is past run_until's limit).
BOOST_DATA_TEST_CASE(closing_a_listener_ends_the_accept_waiting_on_it, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    Context& node = h.receiver_node();
    auto listening = node.listen(node.name() == "tcp" ? "127.0.0.1:0" : "");
    BOOST_TEST_REQUIRE(!listening.error, listening.detail);
    Listener& listener = *listening.value;
    std::optional<std::error_code> waiting, later;
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> {
          // Named results: GCC 12 cannot take a member of a co_await expression.
          const auto first = co_await listener.accept(milliseconds(60'000));
          waiting = first.error;
          const auto second = co_await listener.accept(milliseconds(60'000));
          later = second.error;
        },
        asio::detached);
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> {
          co_await asio::post(h.io(), asio::use_awaitable);  // the accept is waiting by now
          listener.close();
        },
        asio::detached);
    h.run_until([&] { return later.has_value(); }, std::chrono::seconds(20));
    BOOST_TEST_REQUIRE((waiting && later));
    for (const std::error_code& error : {*waiting, *later}) {
      BOOST_TEST(!!error);
      BOOST_TEST((error != errc::idle_timeout), error.message());
    }
  }
}

BOOST_DATA_TEST_CASE(corrupted_chunk_is_never_written_and_spares_other_flows, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    const FlowSpec flow{.job = 8, .step = 4, .offset = 0, .length = 3000};
    const auto data = pattern(3000, 6);
    std::vector<std::byte> out(3000, std::byte{0});
    MemorySink sink(out);
    // A good flow on another link, running at the same time.
    const auto good_data = pattern(500'000, 7);
    std::vector<std::byte> good_out(good_data.size(), std::byte{0});
    MemorySource good_source(good_data);
    MemorySink good_sink(good_out);
    auto good_link = std::move(h.links(1).front());
    FlowReport good_sent, good_received;
    int good_done = 0;
    SteadyPacer unpaced({}, nullptr, steady_clock::now());
    const FlowSpec good_flow{.job = 8, .step = 4, .offset = 0, .length = good_data.size()};
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> {
          good_sent = co_await send_flow(*good_link.sender, good_flow, good_source, unpaced, h.sender_node().pool(),
                                         h.send_options());
          ++good_done;
        },
        asio::detached);
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> {
          good_received =
              co_await receive_flow(*good_link.receiver, good_sink, h.receiver_node().pool(), h.receive_options());
          ++good_done;
        },
        asio::detached);

    const auto r = against_receiver(h, sink, [&](Connection& c) -> asio::awaitable<void> {
      co_await send_raw(c, begin_header(flow), {});
      const auto first = std::span(data).first(1000);
      co_await send_raw(c, data_header(flow, 0, first), first);
      auto second = std::vector<std::byte>(data.begin() + 1000, data.begin() + 2000);
      const auto header = data_header(flow, 1000, second);
      second[500] ^= std::byte{0x01};  // one bit flipped in transit
      co_await send_raw(c, header, second);
    });
    BOOST_TEST((r.received.error == errc::payload_checksum_mismatch), r.received.describe());
    BOOST_TEST(r.received.detail.find("[1000, 2000)") != std::string::npos, r.received.detail);
    BOOST_TEST(r.received.bytes_verified == 1000u);
    BOOST_TEST(std::equal(out.begin(), out.begin() + 1000, data.begin()));
    BOOST_TEST(std::all_of(out.begin() + 1000, out.end(), [](std::byte b) { return b == std::byte{0}; }));
    h.run_until([&] { return good_done == 2; }, std::chrono::seconds(30));
    BOOST_TEST(good_sent.ok(), good_sent.describe());
    BOOST_TEST(good_received.ok(), good_received.describe());
    BOOST_TEST((good_out == good_data));
  }
}

namespace {

struct Garbage {
  const char* name;
  std::error_code expected;
  std::function<asio::awaitable<void>(Connection&)> send;
  // Sends one message longer than any receive the receiver posts (see the test below).
  bool longer_than_a_receive = false;
};

const FlowSpec g_flow{.job = 10, .step = 2, .offset = 4096, .length = 8192};

std::vector<Garbage> garbage_cases() {
  static const auto chunk = pattern(4096, 9);
  std::vector<Garbage> cases;
  cases.push_back({"random bytes", errc::bad_magic, [](Connection& c) -> asio::awaitable<void> {
                     std::mt19937_64 random(1234);
                     HeaderBytes junk{};
                     for (auto& b : junk) b = static_cast<std::byte>(random() & 0xFF);
                     std::vector<std::byte> tail(300);
                     for (auto& b : tail) b = static_cast<std::byte>(random() & 0xFF);
                     co_await c.send_frame(junk, tail, milliseconds(2000));
                   }});
  cases.push_back({"garbled header", errc::header_checksum_mismatch, [](Connection& c) -> asio::awaitable<void> {
                     auto bytes = encode_header(begin_header(g_flow));
                     bytes[30] ^= std::byte{0x10};
                     co_await c.send_frame(bytes, {}, milliseconds(2000));
                   }});
  cases.push_back({"oversized chunk", errc::oversized_frame,
                   [](Connection& c) -> asio::awaitable<void> {
                     co_await send_raw(c, begin_header(g_flow), {});
                     const std::vector<std::byte> big(test_options().pool.buffer_size,
                                                      std::byte{1});  // header + this > buffer
                     co_await send_raw(c, data_header(g_flow, 4096, big), big);
                   },
                   true});
  cases.push_back({"range above the cap", errc::oversized_frame, [](Connection& c) -> asio::awaitable<void> {
                     co_await send_raw(c, begin_header({.job = 1, .step = 1, .offset = 0, .length = (1ULL << 40) + 1}),
                                       {});
                   }});
  cases.push_back({"data before begin", errc::unexpected_frame, [](Connection& c) -> asio::awaitable<void> {
                     co_await send_raw(c, data_header(g_flow, 4096, chunk), chunk);
                   }});
  cases.push_back({"chunk at the wrong offset", errc::unexpected_frame, [](Connection& c) -> asio::awaitable<void> {
                     co_await send_raw(c, begin_header(g_flow), {});
                     co_await send_raw(c, data_header(g_flow, 4096 + 1, chunk), chunk);
                   }});
  cases.push_back({"chunk past the range", errc::unexpected_frame, [](Connection& c) -> asio::awaitable<void> {
                     co_await send_raw(c, begin_header(g_flow), {});
                     co_await send_raw(c, data_header(g_flow, 4096, chunk), chunk);
                     co_await send_raw(c, data_header(g_flow, 8192, chunk), chunk);
                     co_await send_raw(c, data_header(g_flow, 12288, chunk), chunk);
                   }});
  cases.push_back({"chunk of another job", errc::unexpected_frame, [](Connection& c) -> asio::awaitable<void> {
                     co_await send_raw(c, begin_header(g_flow), {});
                     auto header = data_header(g_flow, 4096, chunk);
                     header.job = 11;
                     co_await send_raw(c, header, chunk);
                   }});
  cases.push_back({"end too early", errc::unexpected_frame, [](Connection& c) -> asio::awaitable<void> {
                     co_await send_raw(c, begin_header(g_flow), {});
                     co_await send_raw(c, data_header(g_flow, 4096, chunk), chunk);
                     co_await send_raw(c,
                                       {.kind = FrameKind::end,
                                        .job = 10,
                                        .step = 2,
                                        .length = 0,
                                        .offset = g_flow.end(),
                                        .range_end = g_flow.end(),
                                        .checksum = 0},
                                       {});
                   }});
  cases.push_back({"second begin", errc::unexpected_frame, [](Connection& c) -> asio::awaitable<void> {
                     co_await send_raw(c, begin_header(g_flow), {});
                     co_await send_raw(c, begin_header(g_flow), {});
                   }});
  cases.push_back({"wrong range checksum", errc::range_checksum_mismatch, [](Connection& c) -> asio::awaitable<void> {
                     co_await send_raw(c, begin_header(g_flow), {});
                     co_await send_raw(c, data_header(g_flow, 4096, chunk), chunk);
                     co_await send_raw(c, data_header(g_flow, 8192, chunk), chunk);
                     co_await send_raw(c,
                                       {.kind = FrameKind::end,
                                        .job = 10,
                                        .step = 2,
                                        .length = 0,
                                        .offset = g_flow.end(),
                                        .range_end = g_flow.end(),
                                        .checksum = 12345},
                                       {});
                   }});
  cases.push_back({"sender gives up", errc::rejected_by_peer, [](Connection& c) -> asio::awaitable<void> {
                     co_await send_raw(c, begin_header(g_flow), {});
                     const std::string why = "disk on fire";
                     const auto payload = std::as_bytes(std::span(why.data(), why.size()));
                     co_await send_raw(c,
                                       {.kind = FrameKind::reject,
                                        .job = 10,
                                        .step = 2,
                                        .length = static_cast<std::uint32_t>(payload.size()),
                                        .offset = 4096,
                                        .range_end = g_flow.end(),
                                        .checksum = xxh3_64(payload)},
                                       payload);
                   }});
  return cases;
}

}  // namespace

BOOST_DATA_TEST_CASE(garbage_frames_end_the_flow_with_a_clear_error, labels, label) {
  // A frame timeout longer than against_receiver's 30 s guard: a receiver that waited for
  // more instead of refusing at once fails that guard, whatever the machine's speed.
  auto options = test_options();
  options.frame_timeout = milliseconds(120'000);
  Harness h(label, options);
  if (available(h)) {
    for (const auto& g : garbage_cases()) {
      // libfabric 1.17's shm provider never returns from fi_trecv when the message waiting
      // for it is longer than the buffer posted (docs/transport.md, "shm"); only a process
      // of the agent's own user can reach its shm endpoint.
      if (label == "fabric/shm" && g.longer_than_a_receive) {
        BOOST_TEST_MESSAGE("fabric/shm: case '" << g.name << "' not run: the provider hangs on a truncated receive");
        continue;
      }
      std::vector<std::byte> out(g_flow.end() + 8192, std::byte{0});
      MemorySink sink(out);
      const auto r = against_receiver(h, sink, g.send);
      BOOST_TEST((r.received.error == g.expected), g.name << ": " << r.received.describe());
      BOOST_TEST(!r.received.describe().empty());
    }
  }
}

BOOST_DATA_TEST_CASE(receiver_refuses_a_flow_it_did_not_expect, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    const auto data = pattern(5000, 1);
    MemorySource source(data);
    DiscardSink sink;
    auto link = std::move(h.links(1).front());
    FlowReport sent, received;
    int done = 0;
    SteadyPacer unpaced({}, nullptr, steady_clock::now());
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> {
          sent = co_await send_flow(*link.sender, {.job = 1, .step = 1, .offset = 0, .length = 5000}, source, unpaced,
                                    h.sender_node().pool(), h.send_options());
          ++done;
        },
        asio::detached);
    asio::co_spawn(
        h.io(),
        [&]() -> asio::awaitable<void> {
          auto options = h.receive_options();
          options.expected = FlowSpec{.job = 1, .step = 2, .offset = 0, .length = 5000};
          received = co_await receive_flow(*link.receiver, sink, h.receiver_node().pool(), options);
          ++done;
        },
        asio::detached);
    h.run_until([&] { return done == 2; }, std::chrono::seconds(30));
    BOOST_TEST((received.error == errc::unexpected_frame), received.describe());
    BOOST_TEST(received.detail.find("expected job 1 step 2") != std::string::npos, received.detail);
    BOOST_TEST(!sent.ok());
  }
}

// A receiver serving several planned flows picks each one's sink from its begin frame (its
// range, and the release of its step it names, 0 for none) and refuses a flow it did not
// plan, naming why.
BOOST_DATA_TEST_CASE(receiver_resolves_each_flow_to_its_sink, labels, label) {
  Harness h(label, test_options());
  if (available(h)) {
    const auto data = pattern(6000, 3);
    MemorySource source(data);
    std::vector<std::byte> first(6000, std::byte{0}), second(6000, std::byte{0});
    MemorySink first_sink(first), second_sink(second);
    const auto resolve = [&](const FlowSpec& f) -> ResolvedSink {
      if (f.job != 9 || f.step != 4) return {nullptr, "not this step"};
      if (f.offset == 0 && f.length == 1000 && f.release == 0) return {&first_sink, {}};
      if (f.offset == 1000 && f.length == 5000 && f.release == 77) return {&second_sink, {}};
      return {nullptr, "no planned chunk at " + std::to_string(f.offset)};
    };
    auto links = h.links(3);
    const std::array<FlowSpec, 3> flows{{{.job = 9, .step = 4, .offset = 1000, .length = 5000, .release = 77},
                                         {.job = 9, .step = 4, .offset = 0, .length = 1000},
                                         {.job = 9, .step = 4, .offset = 10, .length = 990}}};
    std::array<FlowReport, 3> sent, received;
    int done = 0;
    SteadyPacer unpaced({}, nullptr, steady_clock::now());
    for (std::size_t i = 0; i < flows.size(); ++i) {
      asio::co_spawn(
          h.io(),
          [&, i]() -> asio::awaitable<void> {
            sent[i] = co_await send_flow(*links[i].sender, flows[i], source, unpaced, h.sender_node().pool(),
                                         h.send_options());
            ++done;
          },
          asio::detached);
      asio::co_spawn(
          h.io(),
          [&, i]() -> asio::awaitable<void> {
            received[i] =
                co_await receive_flow(*links[i].receiver, resolve, h.receiver_node().pool(), h.receive_options());
            ++done;
          },
          asio::detached);
    }
    h.run_until([&] { return done == 6; }, std::chrono::seconds(30));
    BOOST_TEST(received[0].ok(), received[0].describe());
    BOOST_TEST(received[1].ok(), received[1].describe());
    BOOST_TEST((std::equal(data.begin() + 1000, data.end(), second.begin() + 1000)));
    BOOST_TEST((std::equal(data.begin(), data.begin() + 1000, first.begin())));
    BOOST_TEST((second[999] == std::byte{0} && first[1000] == std::byte{0}));
    BOOST_TEST((received[2].error == errc::unexpected_frame), received[2].describe());
    BOOST_TEST(received[2].detail == "no planned chunk at 10");
    BOOST_TEST(!sent[2].ok());
  }
}

BOOST_AUTO_TEST_SUITE_END()

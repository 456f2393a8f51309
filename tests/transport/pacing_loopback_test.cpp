// Pacing measured on loopback. Load on a shared machine can only make a paced flow late,
// never early, so the strict checks are the ones the token bucket guarantees: by any time t
// the receiver has seen at most burst + rate·t bytes. The average rate gets a wide lower
// bound (a pacer that is 25 % slow still fails). The ±2 % accuracy over one-second windows
// is measured by bench/transport_pacing, not asserted here.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>

#include "tests/transport/harness.h"

using namespace baton::transport;
using namespace baton::transport::test;
using std::chrono::steady_clock;

namespace {

// Records when each verified chunk arrived and how many bytes had arrived by then.
class TimingSink final : public Sink {
 public:
  struct Arrival {
    steady_clock::time_point at;
    std::uint64_t total;
  };
  std::error_code write(std::uint64_t, std::span<const std::byte> bytes) override {
    total_ += bytes.size();
    arrivals_.push_back({steady_clock::now(), total_});
    return {};
  }
  const std::vector<Arrival>& arrivals() const { return arrivals_; }

 private:
  std::uint64_t total_ = 0;
  std::vector<Arrival> arrivals_;
};

double seconds_between(steady_clock::time_point a, steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

struct PacedRun {
  std::vector<TimingSink> sinks;
  steady_clock::time_point start;
  std::vector<std::string> sender_states;  // each sender's link_state() once its flow ended
};

// Runs `rates.size()` flows of `bytes` each, paced per flow and (if node_rate > 0) together.
PacedRun run_paced(Harness& h, const std::vector<std::uint64_t>& rates, std::uint64_t node_rate, std::uint64_t bytes) {
  const auto data = pattern(bytes, 1);
  MemorySource source(data);
  auto links = h.links(rates.size());
  PacedRun run{.sinks = std::vector<TimingSink>(rates.size()), .start = steady_clock::now(), .sender_states = {}};
  std::optional<NodeCap<steady_clock>> node;
  if (node_rate > 0) node.emplace(PacerOptions{.rate_bytes_per_second = node_rate}, run.start);
  std::vector<std::unique_ptr<SteadyPacer>> pacers;
  std::size_t done = 0;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    pacers.push_back(std::make_unique<SteadyPacer>(PacerOptions{.rate_bytes_per_second = rates[i]},
                                                   node ? &*node : nullptr, run.start));
    const FlowSpec flow{.job = 1, .step = 0, .offset = 0, .length = bytes};
    asio::co_spawn(
        h.io(),
        [&, i, flow]() -> asio::awaitable<void> {
          const auto report =
              co_await send_flow(*links[i].sender, flow, source, *pacers[i], h.sender_node().pool(), h.send_options());
          BOOST_TEST(report.ok(), report.describe());
          ++done;
        },
        asio::detached);
    asio::co_spawn(
        h.io(),
        [&, i]() -> asio::awaitable<void> {
          const auto report =
              co_await receive_flow(*links[i].receiver, run.sinks[i], h.receiver_node().pool(), h.receive_options());
          BOOST_TEST(report.ok(), report.describe());
          ++done;
        },
        asio::detached);
  }
  h.run_until([&] { return done == 2 * rates.size(); }, std::chrono::seconds(60));
  for (const Link& link : links) run.sender_states.push_back(link.sender->link_state());
  return run;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_paced_flow_never_runs_ahead_and_keeps_up_on_average) {
  Harness h("tcp", test_options());
  const std::uint64_t rate = 8'000'000, bytes = 8'000'000;  // one second
  const auto run = run_paced(h, {rate}, 0, bytes);
  const auto& arrivals = run.sinks[0].arrivals();
  BOOST_TEST_REQUIRE(arrivals.size() > 10u);
  const std::uint64_t burst = default_burst(rate);
  for (const auto& a : arrivals) {
    const double allowed = static_cast<double>(burst) + static_cast<double>(rate) * seconds_between(run.start, a.at);
    BOOST_TEST_REQUIRE(static_cast<double>(a.total) <= allowed + 1.0, "ran ahead: " << a.total << " > " << allowed);
  }
  const double took = seconds_between(run.start, arrivals.back().at);
  const double measured = static_cast<double>(bytes - burst) / took;
  BOOST_TEST_MESSAGE("paced at " << rate << " B/s, measured " << measured << " B/s");
  BOOST_TEST(measured >= 0.8 * static_cast<double>(rate));
}

BOOST_AUTO_TEST_CASE(the_node_cap_binds_flows_together) {
  Harness h("tcp", test_options());
  // Two flows allowed 8 MB/s each, but the node only 6 MB/s: together they get 6 MB/s.
  const std::uint64_t node_rate = 6'000'000, bytes = 3'000'000;
  const auto run = run_paced(h, {8'000'000, 8'000'000}, node_rate, bytes);
  std::vector<std::pair<steady_clock::time_point, std::uint64_t>> events;
  for (const auto& sink : run.sinks) {
    std::uint64_t before = 0;
    for (const auto& a : sink.arrivals()) {
      events.emplace_back(a.at, a.total - before);
      before = a.total;
    }
  }
  std::sort(events.begin(), events.end());
  const std::uint64_t burst = default_burst(node_rate);
  std::uint64_t total = 0;
  for (const auto& [at, n] : events) {
    total += n;
    const double allowed = static_cast<double>(burst) + static_cast<double>(node_rate) * seconds_between(run.start, at);
    BOOST_TEST_REQUIRE(static_cast<double>(total) <= allowed + 1.0, "node cap exceeded: " << total << " > " << allowed);
  }
  const double took = seconds_between(run.start, events.back().first);
  BOOST_TEST(static_cast<double>(2 * bytes - burst) / took >= 0.8 * static_cast<double>(node_rate));
}

BOOST_AUTO_TEST_CASE(a_senders_connection_asks_for_cubic) {
  // docs/transport.md, "Congestion control": the connections a context opens (a sender's)
  // run cubic wherever the kernel offers it, whatever the system's default.
  Harness h("tcp", test_options());
  const auto run = run_paced(h, {2'000'000}, 0, 200'000);
  const std::string& state = run.sender_states.at(0);
  std::ifstream available("/proc/sys/net/ipv4/tcp_available_congestion_control");
  const std::string names((std::istreambuf_iterator<char>(available)), std::istreambuf_iterator<char>());
  if (names.find("cubic") == std::string::npos) {
    BOOST_TEST_MESSAGE("this kernel offers no cubic (" << names << "): the system's congestion control stays");
  } else {
    BOOST_TEST(state.find("congestion control cubic") != std::string::npos, state);
  }
}

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include "tests/transport/instants.h"
#include "transport/pacer.h"

using namespace baton::transport;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using test::at_ns;

BOOST_AUTO_TEST_SUITE(flow_pacer)

BOOST_AUTO_TEST_CASE(unpaced_grants_everything_at_once) {
  FlowPacer<std::chrono::steady_clock> pacer({}, nullptr, at_ns(0));
  BOOST_TEST(!pacer.paced());
  BOOST_TEST(pacer.max_piece() == std::numeric_limits<std::uint64_t>::max());
  const auto grant = pacer.acquire(std::uint64_t{1} << 40, at_ns(0));
  BOOST_TEST(grant.granted);
  BOOST_TEST(grant.wait.count() == 0);
}

BOOST_AUTO_TEST_CASE(default_burst_is_ten_milliseconds_of_rate) {
  BOOST_TEST(default_burst(100'000'000) == 1'000'000u);
  BOOST_TEST(default_burst(1'000) == 32'768u);  // floor: chunks of 8 KiB, headers under 1 %
  FlowPacer<std::chrono::steady_clock> pacer({.rate_bytes_per_second = 50'000'000}, nullptr, at_ns(0));
  BOOST_TEST(pacer.max_piece() == 500'000u);
}

BOOST_AUTO_TEST_CASE(the_slower_of_flow_and_node_decides_and_the_node_serves_in_order) {
  NodeCap<std::chrono::steady_clock> node({.rate_bytes_per_second = 500, .burst_bytes = 100}, at_ns(0));
  FlowPacer<std::chrono::steady_clock> a({.rate_bytes_per_second = 1000, .burst_bytes = 100}, &node, at_ns(0));
  FlowPacer<std::chrono::steady_clock> b({.rate_bytes_per_second = 1000, .burst_bytes = 100}, &node, at_ns(0));
  auto grant = a.acquire(100, at_ns(0));
  BOOST_TEST((grant.granted && grant.wait.count() == 0));
  // a's own bucket is empty: nothing taken, ask again when it holds 100 bytes (100 ms).
  grant = a.acquire(100, at_ns(0));
  BOOST_TEST(!grant.granted);
  BOOST_TEST(grant.wait.count() == nanoseconds(milliseconds(100)).count());
  // b has its own tokens, the node none: b's 50 bytes are reserved and go once the node
  // has them, 50 bytes at 500 B/s = 100 ms.
  grant = b.acquire(50, at_ns(0));
  BOOST_TEST(grant.granted);
  BOOST_TEST(grant.wait.count() == nanoseconds(milliseconds(100)).count());
  // At 100 ms a asks again: the node's 50 new bytes are b's, so a's 100 go 200 ms later.
  grant = a.acquire(100, at_ns(100'000'000));
  BOOST_TEST(grant.granted);
  BOOST_TEST(grant.wait.count() == nanoseconds(milliseconds(200)).count());
  BOOST_TEST(a.max_piece() == 100u);
}

namespace {

// Greedy flows sharing one node cap, each asking for its own piece again as soon as the last
// one went, simulated on exact instants up to `until_ns`. Returns the bytes each flow sent,
// and checks on the way that the node's bytes sent by any instant T stay within
// burst + rate·T.
std::vector<std::uint64_t> run_greedy(std::vector<FlowPacer<std::chrono::steady_clock>>& flows,
                                      const std::vector<std::uint64_t>& pieces, std::int64_t until_ns,
                                      std::uint64_t rate, std::uint64_t burst) {
  std::vector<std::int64_t> next(flows.size(), 0);
  std::vector<std::uint64_t> sent(flows.size(), 0);
  std::map<std::int64_t, std::uint64_t> departures;  // instant -> bytes that went then
  for (;;) {
    const auto i = static_cast<std::size_t>(std::min_element(next.begin(), next.end()) - next.begin());
    if (next[i] > until_ns) break;
    const auto grant = flows[i].acquire(pieces[i], at_ns(next[i]));
    next[i] += std::chrono::duration_cast<nanoseconds>(grant.wait).count();
    if (!grant.granted) continue;
    if (next[i] <= until_ns) sent[i] += pieces[i];
    departures[next[i]] += pieces[i];
  }
  std::uint64_t total = 0;
  for (const auto& [at, bytes] : departures) {
    if (at > until_ns) break;
    total += bytes;
    BOOST_TEST_REQUIRE(total <= burst + rate * static_cast<std::uint64_t>(at) / 1'000'000'000);
  }
  return sent;
}

}  // namespace

BOOST_AUTO_TEST_CASE(flows_sharing_a_node_never_exceed_it_together) {
  // Independent check: over [0, T] the node lets through at most burst + rate·T bytes, and
  // greedy flows that always ask get at least rate·T − (one piece per flow).
  const std::uint64_t rate = 10'000, burst = 1'000, piece = 200;
  NodeCap<std::chrono::steady_clock> node({.rate_bytes_per_second = rate, .burst_bytes = burst}, at_ns(0));
  std::vector<FlowPacer<std::chrono::steady_clock>> flows;
  for (int i = 0; i < 4; ++i)
    flows.emplace_back(PacerOptions{.rate_bytes_per_second = 4'000, .burst_bytes = burst}, &node, at_ns(0));
  const std::int64_t until = 2'000'000'000;
  const std::vector<std::uint64_t> sent = run_greedy(flows, std::vector<std::uint64_t>(4, piece), until, rate, burst);
  const std::uint64_t total = std::accumulate(sent.begin(), sent.end(), std::uint64_t{0});
  BOOST_TEST(total + piece * flows.size() >= burst + rate * 2);
}

BOOST_AUTO_TEST_CASE(no_flow_starves_whatever_its_pieces) {
  // One flow asking for 700 bytes at a time beside seven asking for 100: served in the
  // order they ask, each gets the node in proportion to its piece. Asked and taken only
  // when there, the small requests took every byte as it came and the large one waited
  // for ever (a 64 MiB all-reduce's flow stalled 22 s so, docs/transport.md "Pacing").
  const std::uint64_t rate = 10'000, burst = 2'800;
  NodeCap<std::chrono::steady_clock> node({.rate_bytes_per_second = rate, .burst_bytes = burst}, at_ns(0));
  std::vector<FlowPacer<std::chrono::steady_clock>> flows;
  std::vector<std::uint64_t> pieces;
  for (int i = 0; i < 8; ++i) {
    flows.emplace_back(PacerOptions{.rate_bytes_per_second = 1'000'000, .burst_bytes = burst}, &node, at_ns(0));
    pieces.push_back(i == 0 ? 700 : 100);
  }
  const std::vector<std::uint64_t> sent = run_greedy(flows, pieces, 10'000'000'000, rate, burst);
  const double all_pieces = std::accumulate(pieces.begin(), pieces.end(), 0.0);
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const double fair = static_cast<double>(rate) * 10 * static_cast<double>(pieces[i]) / all_pieces;
    BOOST_TEST(static_cast<double>(sent[i]) >= 0.9 * fair, "flow " << i << " sent " << sent[i] << " of " << fair);
  }
}

// A sender's new flow: one piece (a quarter of the burst) at once, then the rate.
BOOST_AUTO_TEST_CASE(a_flow_started_with_one_piece_sends_one_piece_at_once) {
  FlowPacer<std::chrono::steady_clock> pacer({.rate_bytes_per_second = 1000, .burst_bytes = 100}, nullptr, at_ns(0));
  pacer.start_with_one_piece(at_ns(0));
  BOOST_TEST(pacer.acquire(25, at_ns(0)).granted);
  auto grant = pacer.acquire(25, at_ns(0));
  BOOST_TEST((!grant.granted && grant.wait == milliseconds(25)));
  // The bucket fills to its whole burst again when the flow pauses.
  grant = pacer.acquire(100, at_ns(1'000'000'000));
  BOOST_TEST((grant.granted && grant.wait.count() == 0));
}

// Pacing toward a planned end (docs/transport.md): a flow of rate 1000 B/s and a bucket of
// 100 bytes, aimed at 500 bytes by t = 1 s.
BOOST_AUTO_TEST_CASE(an_aimed_flow_paces_what_is_left_over_the_time_left) {
  FlowPacer<std::chrono::steady_clock> pacer({.rate_bytes_per_second = 1000, .burst_bytes = 100}, nullptr, at_ns(0));
  pacer.aim(at_ns(1'000'000'000), 500, 1);
  BOOST_TEST(pacer.acquire(100, at_ns(0)).granted);  // the full bucket
  // 400 bytes left in 1 s: 400 B/s, so the next 100 bytes come in 250 ms, not 100 ms.
  auto grant = pacer.acquire(100, at_ns(0));
  BOOST_TEST((!grant.granted && grant.wait == milliseconds(250)));
  BOOST_TEST(pacer.rate() == 400u);
  BOOST_TEST(pacer.acquire(100, at_ns(250'000'000)).granted);
  // 300 bytes left in 750 ms: 400 B/s still, the plan is kept to the nanosecond.
  grant = pacer.acquire(100, at_ns(250'000'000));
  BOOST_TEST((!grant.granted && grant.wait == milliseconds(250)));
  BOOST_TEST(pacer.rate() == 400u);
}

BOOST_AUTO_TEST_CASE(a_late_flow_catches_up_no_faster_than_its_rate) {
  FlowPacer<std::chrono::steady_clock> pacer({.rate_bytes_per_second = 1000, .burst_bytes = 100}, nullptr, at_ns(0));
  pacer.aim(at_ns(200'000'000), 500, 1);  // 500 bytes in 200 ms would take 2500 B/s
  BOOST_TEST(pacer.acquire(100, at_ns(0)).granted);
  auto grant = pacer.acquire(100, at_ns(0));
  BOOST_TEST((!grant.granted && grant.wait == milliseconds(100)));
  BOOST_TEST(pacer.rate() == 1000u);
  // Past the planned end: the flow's rate, whatever is left.
  BOOST_TEST(pacer.acquire(100, at_ns(5'000'000'000)).granted);
  grant = pacer.acquire(100, at_ns(5'000'000'000));
  BOOST_TEST((!grant.granted && grant.wait == milliseconds(100)));
}

BOOST_AUTO_TEST_CASE(well_ahead_of_its_plan_a_flow_keeps_its_floor) {
  FlowPacer<std::chrono::steady_clock> pacer({.rate_bytes_per_second = 1000, .burst_bytes = 100}, nullptr, at_ns(0));
  pacer.aim(at_ns(100'000'000'000), 500, 200);  // 100 s for 500 bytes, but at least 200 B/s
  BOOST_TEST(pacer.acquire(100, at_ns(0)).granted);
  const auto grant = pacer.acquire(100, at_ns(0));
  BOOST_TEST((!grant.granted && grant.wait == milliseconds(500)));
  BOOST_TEST(pacer.rate() == 200u);
}

BOOST_AUTO_TEST_CASE(a_floor_above_the_rate_is_the_rate_and_a_flow_without_a_rate_is_not_steered) {
  FlowPacer<std::chrono::steady_clock> capped({.rate_bytes_per_second = 1000, .burst_bytes = 100}, nullptr, at_ns(0));
  capped.aim(at_ns(100'000'000'000), 500, 5000);
  BOOST_TEST(capped.acquire(100, at_ns(0)).granted);
  BOOST_TEST(capped.acquire(100, at_ns(0)).wait == milliseconds(100));
  // Only the node's cap: aiming changes nothing, the node serves at its rate.
  NodeCap<std::chrono::steady_clock> node({.rate_bytes_per_second = 1000, .burst_bytes = 100}, at_ns(0));
  FlowPacer<std::chrono::steady_clock> uncapped({}, &node, at_ns(0));
  uncapped.aim(at_ns(100'000'000'000), 500, 1);
  BOOST_TEST(uncapped.rate() == 0u);
  BOOST_TEST(uncapped.acquire(100, at_ns(0)).wait.count() == 0);
  BOOST_TEST(uncapped.acquire(100, at_ns(0)).wait == milliseconds(100));
}

BOOST_AUTO_TEST_SUITE_END()

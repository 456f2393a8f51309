// The leader election on etcd (docs/ha.md) against a real etcd on loopback: one leader at
// a time, a standby that leads at once when the leader resigns and within the TTL when
// the leader dies, and a leader that finds itself deposed when etcd is gone.
#include "coordinator/journal/etcd_election.h"
#include "coordinator/journal/etcd_journal.h"
#include "error/refusal.h"
#include "tests/support/etcd_cluster.h"

#include <boost/test/unit_test.hpp>

#include <future>
#include <optional>
#include <thread>

namespace bj = baton::journal;
using baton::test::EtcdCluster;
using namespace std::chrono_literals;

namespace {

constexpr const char* kKey = "/baton/e/leader";

std::unique_ptr<bj::EtcdElection> candidate(const EtcdCluster& etcd, const std::string& name, std::int64_t ttl = 2) {
  return std::make_unique<bj::EtcdElection>(bj::EtcdOptions{.endpoints = etcd.endpoints()}, kKey, name, ttl,
                                            baton::log::Sink{});
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(etcd_election, *boost::unit_test::label("etcd"))

BOOST_AUTO_TEST_CASE(a_standby_leads_at_once_when_the_leader_resigns_with_a_higher_epoch) {
  EtcdCluster etcd;
  auto first = candidate(etcd, "coord-1");
  const std::int64_t epoch = first->campaign();
  BOOST_TEST(epoch > 0);
  first->hold([](const std::string& why) { BOOST_ERROR("lost: " << why); });

  auto second = candidate(etcd, "coord-2");
  auto standing_by = std::async(std::launch::async, [&] { return second->campaign(); });
  BOOST_TEST((standing_by.wait_for(3s) == std::future_status::timeout));  // past a TTL: the leader renews
  bj::EtcdClient client({.endpoints = etcd.endpoints()});
  BOOST_TEST(client.get(kKey).at(0).value == "coord-1");

  const auto resigned = std::chrono::steady_clock::now();
  first->resign();
  BOOST_REQUIRE((standing_by.wait_for(10s) == std::future_status::ready));
  const std::int64_t next = standing_by.get();
  BOOST_TEST_MESSAGE("a standby led " << seconds_since(resigned) << " s after the leader resigned");
  BOOST_TEST(seconds_since(resigned) < 1.0);
  BOOST_TEST(next > epoch);
  BOOST_TEST(client.get(kKey).at(0).value == "coord-2");
  BOOST_TEST(client.get(kKey).at(0).create_revision == next);
}

BOOST_AUTO_TEST_CASE(a_standby_leads_within_the_ttl_when_the_leader_stops_renewing) {
  EtcdCluster etcd;
  auto first = candidate(etcd, "coord-1", 2);
  const std::int64_t epoch = first->campaign();
  first->hold([](const std::string&) {});
  auto second = candidate(etcd, "coord-2", 2);
  auto standing_by = std::async(std::launch::async, [&] { return second->campaign(); });
  const auto died = std::chrono::steady_clock::now();
  first.reset();  // renews no more and does not resign: a crash, as etcd sees it
  BOOST_REQUIRE((standing_by.wait_for(10s) == std::future_status::ready));
  const double took = seconds_since(died);
  BOOST_TEST_MESSAGE("a standby led " << took << " s after the leader stopped renewing (TTL 2 s)");
  BOOST_TEST(took < 2.0 + 1.5);
  BOOST_TEST(standing_by.get() > epoch);
}

BOOST_AUTO_TEST_CASE(a_leader_cut_off_from_etcd_is_deposed_within_its_ttl_and_its_journal_refuses) {
  EtcdCluster etcd;
  auto leader = candidate(etcd, "coord-1", 2);
  const std::int64_t epoch = leader->campaign();
  bj::EtcdJournal journal({.endpoints = etcd.endpoints(), .timeout = 1s}, "/baton/e/");
  std::promise<std::string> lost;
  journal.fence(kKey, epoch, [](const std::string&) {});
  const std::uint64_t id = journal.add_job("{}");
  leader->hold([&](const std::string& why) { lost.set_value(why); });
  BOOST_TEST(!leader->lapsed());  // a renewal was granted less than a TTL ago
  const auto cut = std::chrono::steady_clock::now();
  etcd.kill(0);
  auto deposed = lost.get_future();
  BOOST_REQUIRE((deposed.wait_for(5s) == std::future_status::ready));
  const double took = seconds_since(cut);
  BOOST_TEST_MESSAGE("the leader counted itself deposed " << took << " s after etcd went (TTL 2 s): " << deposed.get());
  BOOST_TEST(took <= 2.0);
  BOOST_CHECK_THROW(journal.set_state(id, "running"), bj::EtcdError);
  // Every renewal etcd granted was sent before the cut: a TTL after it, the lease may have
  // lapsed, and the leader says so without asking etcd (what it checks before a release).
  std::this_thread::sleep_until(cut + 2s);
  const std::optional<baton::error::Refusal> lapsed = leader->lapsed();
  BOOST_TEST_REQUIRE(lapsed.has_value());
  BOOST_TEST(lapsed->reason == "no renewal of the leader lease granted within its TTL (2 s)");
}

BOOST_AUTO_TEST_CASE(a_ttl_etcd_cannot_keep_is_refused) {
  BOOST_CHECK_THROW(bj::EtcdElection({.endpoints = {"http://127.0.0.1:1"}}, kKey, "c", 1, {}),
                    baton::error::InvalidInput);
}

BOOST_AUTO_TEST_SUITE_END()

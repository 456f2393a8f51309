// The example configurations of an etcd-backed trio (systemd/examples/, docs/ha.md,
// docs/systemd.md) load with the daemons' own loaders, and agree: one etcd, one prefix and
// one TTL for the three coordinators, each its own id and addresses, addresses a standby
// can redirect to, and agents that list every coordinator.
#include "agent/config.h"
#include "coordinator/daemon/config.h"
#include "coordinator/daemon/standby_routes.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace {

// The examples beside the files they name (secret, api-token), as an operator installs them.
fs::path staged(const baton::test::TempDir& dir, const std::string& name) {
  const fs::path to = dir.path / name;
  fs::copy_file(fs::path(BATON_SOURCE_DIR) / "systemd/examples" / name, to);
  std::ofstream(dir.path / "secret") << "a-secret-of-enough-length-0123456789\n";
  std::ofstream(dir.path / "api-token") << "an-api-token-of-enough-length\n";
  return to;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_trio_examples_load_and_agree) {
  baton::test::TempDir dir{"baton-ha-examples"};
  std::vector<baton::coordinator::CoordinatorConfig> trio;
  for (const char* name : {"coordinator-ha-1.toml", "coordinator-ha-2.toml", "coordinator-ha-3.toml"})
    trio.push_back(baton::coordinator::load_coordinator_config(staged(dir, name)));
  std::set<std::string> ids, agent_addresses, api_addresses;
  for (const auto& c : trio) {
    BOOST_REQUIRE(c.etcd.has_value());
    BOOST_TEST(c.etcd->endpoints == trio[0].etcd->endpoints);
    BOOST_TEST(c.etcd->endpoints.size() == 3u);
    BOOST_TEST(c.etcd->prefix == trio[0].etcd->prefix);
    BOOST_TEST(c.etcd->leader_ttl_seconds == trio[0].etcd->leader_ttl_seconds);
    BOOST_TEST(c.secret == trio[0].secret);
    BOOST_TEST(c.api_token == "an-api-token-of-enough-length");
    ids.insert(c.id);
    agent_addresses.insert(c.agent_address);
    api_addresses.insert(c.api_address);
    // A standby can send a write to it: not a wildcard, not itself.
    const std::string leader = R"({"id":")" + c.id + R"(","api":")" + c.api_address + R"("})";
    BOOST_TEST(baton::coordinator::leader_location(leader, "/v1/jobs", "another") ==
               "http://" + c.api_address + "/v1/jobs");
  }
  BOOST_TEST(ids.size() == 3u);
  BOOST_TEST(agent_addresses.size() == 3u);
  BOOST_TEST(api_addresses.size() == 3u);

  const auto agent = baton::agent::load_agent_config(staged(dir, "agent-ha.toml"));
  std::set<std::string> known{agent.coordinator};
  known.insert(agent.other_coordinators.begin(), agent.other_coordinators.end());
  BOOST_TEST(known == agent_addresses);
  BOOST_TEST(agent.secret == trio[0].secret);
}

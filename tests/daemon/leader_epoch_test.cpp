// The leader's epoch on the wire (docs/ha.md, "Fencing"): a real baton-agent that knows
// two coordinator addresses, and coordinators' agent registries in this process, each with
// its epoch. The agent registers with the leader of epoch 7; a registry of epoch 3 (a
// deposed leader) is refused at registration, and a message stamped with an older epoch
// on a live session is refused too, each said in the agent's log; epoch 9 is taken.
#include "coordinator/daemon/agent_registry.h"
#include "tests/support/daemon.h"
#include "tests/support/ports.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <functional>

namespace bc = baton::coordinator;
using namespace std::chrono_literals;

namespace {

const std::string kSecret = "leader-epoch-test-cluster-secret-0123";

std::unique_ptr<bc::AgentRegistry> registry(asio::io_context& io, const std::string& id, std::uint64_t epoch,
                                            const std::string& address) {
  auto r = std::make_unique<bc::AgentRegistry>(io, baton::protocol::Identity{"coordinator", id, kSecret},
                                               bc::HeartbeatPolicy{.every = 200ms}, baton::log::Sink{});
  r->set_leader_epoch(epoch);
  r->listen(address);
  return r;
}

// Runs `io` until `done` holds or `limit` passes; whether it held.
bool run_until(asio::io_context& io, const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    io.restart();
    io.run_for(50ms);
  }
  return true;
}

bool alive(const bc::AgentRegistry& r, const std::string& node) {
  const auto found = r.find(node);
  return found && found->alive;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(leader_epoch)

BOOST_AUTO_TEST_CASE(an_agent_refuses_a_deposed_leaders_registration_and_messages_and_says_so) {
  baton::test::TempDir dir("baton-epoch");
  const std::string first = "127.0.0.1:" + std::to_string(baton::test::unused_loopback_port());
  const std::string second = "127.0.0.1:" + std::to_string(baton::test::unused_loopback_port());
  dir.write("secret", kSecret + "\n");
  dir.write("data/.keep", "");
  dir.write("agent.toml",
            "node_id = \"n1\"\ncoordinator = [\"" + first + "\", \"" + second +
                "\"]\nsecret_file = \"secret\"\ndata_root = \"data\"\n"
                "data_address = \"127.0.0.1:0\"\nrate = 100000000\nbuffer_count = 4\nbuffer_size = 65536\n");

  // The agent first: forked after a registry listens, it would hold that listener open too.
  baton::test::Daemon agent({BATON_AGENT_PATH, "--config", (dir.path / "agent.toml").string()},
                            (dir.path / "agent.log").string());
  asio::io_context io;
  auto leader = registry(io, "c-7", 7, first);
  BOOST_REQUIRE_MESSAGE(run_until(
                            io, [&] { return alive(*leader, "n1"); }, 30s),
                        agent.log());

  // The leader goes; the agent tries the next address, where a deposed leader listens.
  leader->stop();
  auto deposed = registry(io, "c-3", 3, second);
  BOOST_REQUIRE_MESSAGE(
      run_until(
          io, [&] { return agent.log().find("leader epoch 3 is older than 7") != std::string::npos; }, 30s),
      agent.log());
  BOOST_TEST(agent.log().find("refused registered from coordinator c-3") != std::string::npos, agent.log());
  BOOST_TEST(!alive(*deposed, "n1"));

  // A newer leader at the first address: taken.
  deposed->stop();
  leader.reset();
  io.restart();
  io.poll();
  auto newer = registry(io, "c-9", 9, first);
  BOOST_REQUIRE_MESSAGE(run_until(
                            io, [&] { return alive(*newer, "n1"); }, 30s),
                        agent.log());

  // A message of an older epoch on that live session is refused too, and ends it.
  newer->set_leader_epoch(5);
  baton::protocol::Envelope abort;
  abort.mutable_abort()->set_job("42");
  abort.mutable_abort()->set_reason("a deposed leader's abort");
  BOOST_REQUIRE(newer->send("n1", abort));
  BOOST_REQUIRE_MESSAGE(run_until(
                            io,
                            [&] {
                              // The abort, or a heartbeat's echo stamped 5 before it.
                              return agent.log().find("from coordinator at " + first +
                                                      ": leader epoch 5 is older than 9") != std::string::npos;
                            },
                            30s),
                        agent.log());
  BOOST_TEST(run_until(
      io, [&] { return !alive(*newer, "n1"); }, 10s));
}

BOOST_AUTO_TEST_SUITE_END()

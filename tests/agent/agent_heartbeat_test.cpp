// A whole agent (agent/agent.h) keeps the heartbeat interval its coordinator gives it: the
// one in Registered, then the one in an echo that carries one (docs/runtime.md,
// "Liveness"), and its heartbeats come that far apart from then on, over a real control
// session with a fake coordinator that echoes the others without one.
#include "agent/agent.h"
#include "tests/agent/fake_coordinator.h"
#include "tests/agent/step_harness.h"

#include <boost/test/unit_test.hpp>

using namespace baton::agent::test;

namespace {

bp::Envelope echo_with_interval(double seconds) {
  bp::Envelope e;
  e.mutable_heartbeat()->set_sequence(0);
  e.mutable_heartbeat()->set_interval_seconds(seconds);
  return e;
}

// The agent's heartbeat interval in milliseconds, -1 before it registered.
long interval_ms(const ba::Agent& agent) {
  return agent.heartbeat_interval() ? static_cast<long>(agent.heartbeat_interval()->count()) : -1;
}

// One whole agent, "a", registered with a fake coordinator whose Registered says
// `heartbeat_seconds`; stopped (its last messages written) at the end.
struct OneAgent {
  explicit OneAgent(double heartbeat_seconds)
      : coordinator(io, kSecret, heartbeat_seconds), node(io, "a"),
        agent(*node.context, *node.data, node.storage,
              ba::AgentOptions{.node_id = "a", .coordinator = coordinator.address(), .secret = kSecret, .log = {}},
              [](const bp::Plan&) { return std::optional<baton::error::Refusal>(); }) {
    agent.start();
    coordinator.await_registration("a");
  }
  ~OneAgent() {
    std::size_t stopped = 0;
    asio::co_spawn(io, agent.stop(), [&stopped](std::exception_ptr) { ++stopped; });
    BOOST_TEST(coordinator.run_until([&] { return stopped == 1; }));
    coordinator.close();
    stop_nodes(io, {&node});
  }
  asio::io_context io;
  FakeCoordinator coordinator;
  Node node;
  ba::Agent agent;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_heartbeat)

BOOST_AUTO_TEST_CASE(an_agent_heartbeats_at_the_interval_of_the_last_echo) {
  OneAgent a(0.05);
  BOOST_REQUIRE(a.coordinator.run_until([&] { return interval_ms(a.agent) == 50; }));  // Registered's
  BOOST_REQUIRE(a.coordinator.run_until([&] { return a.coordinator.heartbeats("a").size() >= 2; }));

  a.coordinator.send("a", echo_with_interval(0.4));
  BOOST_REQUIRE(a.coordinator.run_until([&] { return interval_ms(a.agent) == 400; }));
  // The heartbeat under way may still keep the old wait; the three after it keep the new,
  // though the fake's echoes of them carry no interval (an older coordinator's: unchanged).
  const std::size_t from = a.coordinator.heartbeats("a").size() + 1;
  BOOST_REQUIRE(a.coordinator.run_until([&] { return a.coordinator.heartbeats("a").size() >= from + 3; }));
  const auto& times = a.coordinator.heartbeats("a");
  // A timer never fires early, but the fake may note one heartbeat late and the next on
  // time: half the interval apart at least, where the old interval made them 50 ms apart.
  for (std::size_t i = from + 1; i <= from + 2; ++i) {
    const auto gap = std::chrono::duration_cast<std::chrono::milliseconds>(times[i] - times[i - 1]);
    BOOST_TEST(gap.count() >= 200, "heartbeat " << i << " came " << gap.count() << " ms after the one before");
  }

  // One out of the agents' range is clamped to it.
  a.coordinator.send("a", echo_with_interval(1e9));
  BOOST_REQUIRE(a.coordinator.run_until([&] { return interval_ms(a.agent) == 60'000; }));
}

// A shorter interval in an echo that comes while the agent waits out the longer one: its
// next heartbeat (and so the next echo) comes as late as the longer allows, and the agent
// keeps its session meanwhile instead of giving the coordinator three of the shorter.
BOOST_AUTO_TEST_CASE(an_agent_keeps_its_session_while_it_waits_out_the_longer_interval) {
  OneAgent a(0.6);
  BOOST_REQUIRE(a.coordinator.run_until([&] { return a.coordinator.heartbeats("a").size() >= 1; }));
  // Just after a heartbeat: the agent's wait for the next has nearly all of 0.6 s to run,
  // twice three of the new interval (0.1 s).
  a.coordinator.send("a", echo_with_interval(0.1));
  BOOST_REQUIRE(a.coordinator.run_until([&] { return interval_ms(a.agent) == 100; }));
  const std::size_t seen = a.coordinator.heartbeats("a").size();
  BOOST_REQUIRE(a.coordinator.run_until([&] { return a.coordinator.heartbeats("a").size() >= seen + 4; }));
  BOOST_TEST(a.coordinator.registrations("a") == 1);  // the first session still
  BOOST_TEST(!a.coordinator.closed("a"));
}

BOOST_AUTO_TEST_SUITE_END()

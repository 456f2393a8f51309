// A whole agent (agent/agent.h) told to stop while its control session is being made (its
// Register sent, not answered yet) stops once the answer comes, closing that session
// instead of beginning it. Before, such a stop found no session to finish and waited for
// the session loop, which then ran the new session for good.
#include "agent/agent.h"
#include "tests/agent/fake_coordinator.h"
#include "tests/agent/step_harness.h"

#include <boost/test/unit_test.hpp>

using namespace baton::agent::test;

BOOST_AUTO_TEST_SUITE(agent_stop)

BOOST_AUTO_TEST_CASE(a_stop_while_the_agent_registers_closes_the_session_once_answered) {
  asio::io_context io;
  FakeCoordinator coordinator(io, kSecret);
  Node node(io, "a");
  ba::Agent agent(*node.context, *node.data, node.storage,
                  ba::AgentOptions{.node_id = "a", .coordinator = coordinator.address(), .secret = kSecret, .log = {}},
                  [](const bp::Plan&) { return std::optional<baton::error::Refusal>(); });
  coordinator.hold_registrations();
  agent.start();
  BOOST_REQUIRE(coordinator.run_until([&] { return coordinator.registers_received() == 1; }));
  std::size_t stopped = 0;
  asio::co_spawn(io, agent.stop(), [&stopped](std::exception_ptr) { ++stopped; });
  coordinator.release_registrations();
  BOOST_TEST(coordinator.run_until([&] { return stopped == 1; }));
  BOOST_TEST(coordinator.registrations("a") == 1);                             // answered,
  BOOST_TEST(coordinator.run_until([&] { return coordinator.closed("a"); }));  // then closed by the agent
  BOOST_TEST(!agent.registered());
  coordinator.close();
  stop_nodes(io, {&node});
}

BOOST_AUTO_TEST_SUITE_END()

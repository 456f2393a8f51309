// The control handshake over real loopback sockets: both sides agree only when both hold
// the secret; a man in the middle without it can relay the handshake but neither inject
// nor alter a message afterwards; the responder proves nothing to an unproven peer.
#include "protocol/handshake.h"
#include "tests/protocol/loopback_pair.h"

#include <boost/test/unit_test.hpp>

#include <asio/experimental/as_tuple.hpp>
#include <asio/write.hpp>

#include <array>
#include <optional>
#include <tuple>

namespace bp = baton::protocol;
using namespace std::chrono_literals;
using asio::ip::tcp;
using baton::test::run_pair;

namespace {

const std::string kSecret = "0123456789abcdef-cluster";
// Named, not braced temporaries: GCC 12 mis-destroys aggregate temporaries passed by value
// into a coroutine.
const bp::Identity kCoordinator{"coordinator", "coord-1", kSecret};
const bp::Identity kAgent{"agent", "a3", kSecret};

// Result of one side: the peer id it learned, or the error it ended with.
struct Outcome {
  std::optional<std::string> peer;
  std::string error;
};

// Reads (and drops) what `socket` receives until its peer closes the connection: a peer
// that holds a connection open for as long as the other side keeps it.
asio::awaitable<void> until_closed(tcp::socket& socket) {
  std::array<char, 256> ignored{};
  for (;;) {
    const std::tuple<std::error_code, std::size_t> read =  // named: GCC 12 and structured bindings
        co_await socket.async_read_some(asio::buffer(ignored), asio::experimental::as_tuple(asio::use_awaitable));
    if (std::get<0>(read)) co_return;
  }
}

// Runs the handshake on `socket`, then (if it succeeded) waits for one message: its
// type, or the error that ended the wait, goes to `after`.
asio::awaitable<void> handshake_then_receive(tcp::socket socket, bp::Side side, bp::Identity self,
                                             std::string peer_role, Outcome& outcome, std::string* after) {
  bp::Channel channel(std::move(socket));
  try {
    outcome.peer = co_await bp::handshake(channel, side, self, peer_role, 5s);
  } catch (const std::exception& e) {
    outcome.error = e.what();
    co_return;
  }
  if (after == nullptr) co_return;
  try {
    *after = std::string(bp::type_name(co_await channel.receive(3s)));
  } catch (const std::exception& e) {
    *after = e.what();
  }
}

baton::test::SocketTask handshaking(bp::Side side, Outcome& outcome, bp::Identity self, std::string peer_role) {
  return [side, &outcome, self, peer_role](tcp::socket socket) -> asio::awaitable<void> {
    co_await handshake_then_receive(std::move(socket), side, self, peer_role, outcome, nullptr);
  };
}

// A message as long as a sealed one could be: refused for its seal, not its size.
bp::Envelope forged_plan() {
  bp::Envelope e;
  e.mutable_plan()->set_job(std::string(64, 'j'));
  return e;
}

bp::Envelope heartbeat_numbered(std::uint64_t sequence) {
  bp::Envelope e;
  e.mutable_heartbeat()->set_sequence(sequence);
  return e;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(handshake)

BOOST_AUTO_TEST_CASE(both_sides_learn_each_other_with_the_same_secret) {
  Outcome coordinator, agent;
  run_pair(handshaking(bp::Side::responder, coordinator, {"coordinator", "coord-1", kSecret}, "agent"),
           handshaking(bp::Side::initiator, agent, {"agent", "a3", kSecret}, "coordinator"));
  BOOST_TEST(coordinator.peer.value_or("-") == "a3", coordinator.error);
  BOOST_TEST(agent.peer.value_or("-") == "coord-1", agent.error);
}

BOOST_AUTO_TEST_CASE(a_wrong_secret_is_refused_on_both_sides) {
  Outcome coordinator, agent;
  run_pair(handshaking(bp::Side::responder, coordinator, {"coordinator", "coord-1", kSecret}, "agent"),
           handshaking(bp::Side::initiator, agent, {"agent", "a3", "another-secret-of-ours"}, "coordinator"));
  BOOST_TEST(!coordinator.peer.has_value());
  BOOST_TEST(!agent.peer.has_value());
  BOOST_TEST(coordinator.error.find("failed authentication: wrong cluster secret") != std::string::npos,
             coordinator.error);
  BOOST_TEST(agent.error.find("refused us: authentication failed") != std::string::npos, agent.error);
}

BOOST_AUTO_TEST_CASE(an_agent_posing_as_a_coordinator_is_refused) {
  Outcome coordinator, impostor;
  run_pair(handshaking(bp::Side::responder, coordinator, {"coordinator", "coord-1", kSecret}, "agent"),
           handshaking(bp::Side::initiator, impostor, {"coordinator", "evil", kSecret}, "coordinator"));
  BOOST_TEST(!coordinator.peer.has_value());
  BOOST_TEST(coordinator.error.find("a agent was expected, not 'coordinator'") != std::string::npos, coordinator.error);
  BOOST_TEST(impostor.error.find("refused us") != std::string::npos, impostor.error);
}

// The responder must not hand a proof to a peer that has not proven itself: a peer with
// no secret that answers with a made-up proof gets the responder's Hello and a Refusal,
// never the responder's Finished (which it could otherwise carry elsewhere).
BOOST_AUTO_TEST_CASE(the_responder_proves_nothing_to_an_unproven_peer) {
  Outcome coordinator;
  std::vector<std::string> seen_by_attacker;
  run_pair(handshaking(bp::Side::responder, coordinator, {"coordinator", "coord-1", kSecret}, "agent"),
           [&](tcp::socket s) -> asio::awaitable<void> {
             bp::Channel channel(std::move(s));
             bp::Envelope hello;
             hello.mutable_hello()->set_role("agent");
             hello.mutable_hello()->set_node_id("a0");
             hello.mutable_hello()->set_nonce(std::string(32, 'n'));
             co_await channel.send(hello, 2s);
             seen_by_attacker.emplace_back(bp::type_name(co_await channel.receive(2s)));
             bp::Envelope proof;
             proof.mutable_proof()->set_mac(std::string(32, 'x'));
             co_await channel.send(proof, 2s);
             try {
               for (;;) seen_by_attacker.emplace_back(bp::type_name(co_await channel.receive(2s)));
             } catch (const std::exception&) {
               // the responder closed the connection after its refusal
             }
           });
  BOOST_TEST(seen_by_attacker == (std::vector<std::string>{"hello", "refusal"}), boost::test_tools::per_element());
  BOOST_TEST(coordinator.error.find("wrong cluster secret") != std::string::npos, coordinator.error);
}

BOOST_AUTO_TEST_CASE(a_large_frame_before_authentication_is_refused_unread) {
  Outcome coordinator;
  run_pair(handshaking(bp::Side::responder, coordinator, {"coordinator", "coord-1", kSecret}, "agent"),
           [](tcp::socket s) -> asio::awaitable<void> {
             // 16 MiB announced; only the 4-byte length is ever sent.
             co_await asio::async_write(s, asio::buffer(std::string("\x01\x00\x00\x00", 4)), asio::use_awaitable);
             co_await until_closed(s);
           });
  BOOST_TEST(coordinator.error.find("above the limit of 4096") != std::string::npos, coordinator.error);
}

BOOST_AUTO_TEST_CASE(the_handshake_has_one_deadline_for_all_of_it) {
  Outcome coordinator;
  std::chrono::steady_clock::duration took{};
  run_pair(
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        const auto started = std::chrono::steady_clock::now();
        try {
          co_await bp::handshake(channel, bp::Side::responder, kCoordinator, "agent", 600ms);
        } catch (const std::exception& e) {
          coordinator.error = e.what();
        }
        took = std::chrono::steady_clock::now() - started;
      },
      [](tcp::socket s) -> asio::awaitable<void> {
        // Connected and silent until the coordinator gives up: the only way the handshake
        // can end is its own deadline.
        co_await until_closed(s);
      });
  BOOST_TEST(coordinator.error.find("said nothing") != std::string::npos, coordinator.error);
  // A real timer is never early: this lower bound holds however loaded the machine.
  BOOST_TEST((took >= 590ms));
}

// The attack of the security review: a peer with no secret sits between an agent and the
// coordinator and relays each one's handshake messages to the other. Relaying is all it
// can do: both ends complete (the bytes are theirs), but a message it then injects, into
// either session, fails the seal and ends the channel.
BOOST_AUTO_TEST_CASE(a_relay_without_the_secret_cannot_inject_into_either_session) {
  asio::io_context io;
  tcp::acceptor coordinator_port(io, {asio::ip::make_address("127.0.0.1"), 0});
  tcp::acceptor relay_port(io, {asio::ip::make_address("127.0.0.1"), 0});
  Outcome coordinator, agent;
  std::string coordinator_after, agent_after;

  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        tcp::socket s = co_await coordinator_port.async_accept(asio::use_awaitable);
        co_await handshake_then_receive(std::move(s), bp::Side::responder, kCoordinator, "agent", coordinator,
                                        &coordinator_after);
      },
      asio::detached);
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        tcp::socket s(io);
        co_await s.async_connect(relay_port.local_endpoint(), asio::use_awaitable);
        co_await handshake_then_receive(std::move(s), bp::Side::initiator, kAgent, "coordinator", agent, &agent_after);
      },
      asio::detached);
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        bp::Channel to_agent(co_await relay_port.async_accept(asio::use_awaitable));
        tcp::socket upstream(io);
        co_await upstream.async_connect(coordinator_port.local_endpoint(), asio::use_awaitable);
        bp::Channel to_coordinator(std::move(upstream));
        co_await to_coordinator.send(co_await to_agent.receive(2s), 2s);  // agent's hello
        co_await to_agent.send(co_await to_coordinator.receive(2s), 2s);  // coordinator's hello
        co_await to_coordinator.send(co_await to_agent.receive(2s), 2s);  // agent's proof
        co_await to_agent.send(co_await to_coordinator.receive(2s), 2s);  // coordinator's proof
        co_await to_agent.send(forged_plan(), 2s);                        // injected both ways
        co_await to_coordinator.send(forged_plan(), 2s);
        // Both ends refuse the forgery and close: until then the relay holds its connections.
        for (bp::Channel* end : {&to_agent, &to_coordinator}) {
          try {
            for (;;) co_await end->receive(10s);
          } catch (const std::exception&) {
          }
        }
      },
      asio::detached);
  io.run_for(10s);

  BOOST_TEST(agent.peer.value_or("-") == "coord-1", agent.error);
  BOOST_TEST(coordinator.peer.value_or("-") == "a3", coordinator.error);
  BOOST_TEST(agent_after.find("seal does not match") != std::string::npos, agent_after);
  BOOST_TEST(coordinator_after.find("seal does not match") != std::string::npos, coordinator_after);
}

BOOST_AUTO_TEST_CASE(sealed_messages_flow_both_ways_after_the_handshake) {
  std::vector<std::uint64_t> at_coordinator, at_agent;
  run_pair(
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        co_await bp::handshake(channel, bp::Side::responder, kCoordinator, "agent", 5s);
        for (std::uint64_t i = 0; i < 3; ++i) {
          at_coordinator.push_back((co_await channel.receive(5s)).heartbeat().sequence());
          co_await channel.send(heartbeat(100 + i), 5s);
        }
      },
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        co_await bp::handshake(channel, bp::Side::initiator, kAgent, "coordinator", 5s);
        BOOST_TEST(channel.is_protected());
        for (std::uint64_t i = 0; i < 3; ++i) {
          co_await channel.send(heartbeat_numbered(i), 5s);
          at_agent.push_back((co_await channel.receive(5s)).heartbeat().sequence());
        }
      });
  BOOST_TEST(at_coordinator == (std::vector<std::uint64_t>{0, 1, 2}), boost::test_tools::per_element());
  BOOST_TEST(at_agent == (std::vector<std::uint64_t>{100, 101, 102}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

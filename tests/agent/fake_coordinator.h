// A coordinator for tests of whole agents (agent/agent.h): accepts their control sessions
// on loopback with the real handshake, answers Register with Registered, echoes each
// heartbeat as it is (no interval in it) and notes when it came, and lets a test send each
// agent messages and take what it sends back, waiting on the test's io_context (which the agents run on too) until a
// message comes.
#pragma once

#include "agent/signal.h"
#include "protocol/channel.h"
#include "protocol/handshake.h"
#include "transport/async.h"

#include <boost/test/unit_test.hpp>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>

#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace baton::agent::test {

class FakeCoordinator {
 public:
  // How long a test waits for a message or a state before it fails.
  static constexpr std::chrono::seconds patience{20};

  // `heartbeat_seconds`: the interval Registered tells the agents.
  FakeCoordinator(asio::io_context& io, std::string secret, double heartbeat_seconds = 1)
      : io_(io), acceptor_(io, {asio::ip::make_address("127.0.0.1"), 0}), secret_(std::move(secret)),
        heartbeat_seconds_(heartbeat_seconds) {
    asio::co_spawn(io_, accept_loop(), asio::detached);
  }
  FakeCoordinator(const FakeCoordinator&) = delete;
  FakeCoordinator& operator=(const FakeCoordinator&) = delete;
  ~FakeCoordinator() { close(); }

  std::string address() const { return "127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()); }

  // Runs the io_context until `done()` holds (asked once more after each event) or
  // `patience` has passed; whether it held.
  bool run_until(const std::function<bool()>& done) {
    io_.restart();
    const auto deadline = std::chrono::steady_clock::now() + patience;
    for (;;) {
      if (done()) return true;
      if (std::chrono::steady_clock::now() >= deadline) return false;
      io_.run_one_for(std::chrono::milliseconds(100));
    }
  }

  // How many times `node` has registered.
  int registrations(const std::string& node) const {
    const auto found = sessions_.find(node);
    return found == sessions_.end() ? 0 : found->second->registration;
  }
  // Waits until `node` has registered `count` times.
  void await_registration(const std::string& node, int count = 1) {
    BOOST_REQUIRE_MESSAGE(run_until([&] { return registrations(node) >= count; }),
                          node << " did not register (" << count << ")");
  }

  // Sends `message` to `node`'s live session, after every message sent to it before.
  void send(const std::string& node, protocol::Envelope message) {
    const std::shared_ptr<Session> session = sessions_.at(node);
    asio::co_spawn(
        io_,
        [session, message = std::move(message)]() mutable -> asio::awaitable<void> {
          try {
            co_await session->channel->send(std::move(message), std::chrono::seconds(5));
          } catch (const std::exception&) {
            session->closed = true;
          }
        },
        asio::detached);
  }

  using Wanted = std::function<bool(const protocol::Envelope&)>;

  // The first message of `node`'s live session that `wanted` picks (heartbeats are never
  // kept; other messages stay for a later take). Fails the test when none comes in time.
  protocol::Envelope take(const std::string& node, const Wanted& wanted, const std::string& what) {
    return first(node, wanted, what, true);
  }
  // The same, left where it is for a later take.
  protocol::Envelope peek(const std::string& node, const Wanted& wanted, const std::string& what) {
    return first(node, wanted, what, false);
  }

  // When each heartbeat of `node`'s live session came, in order.
  const std::vector<std::chrono::steady_clock::time_point>& heartbeats(const std::string& node) const {
    return sessions_.at(node)->heartbeats;
  }

  // Whether `node`'s live session has ended (the agent closed it).
  bool closed(const std::string& node) const { return sessions_.at(node)->closed; }

  // Ends `node`'s session, as a coordinator that restarted would: the agent registers again.
  void drop(const std::string& node) {
    sessions_.at(node)->channel->close();
    sessions_.at(node)->closed = true;
  }

  // From now on each Register waits for release_registrations() before it is answered.
  void hold_registrations() { holding_ = true; }
  void release_registrations() {
    holding_ = false;
    released_.notify();
  }
  // How many Register messages came (answered or held).
  int registers_received() const { return registers_received_; }

  // Stops accepting and ends every session.
  void close() {
    acceptor_.close();
    for (auto& [node, session] : sessions_) session->channel->close();
  }

 private:
  struct Session {
    std::shared_ptr<protocol::Channel> channel;
    int registration = 0;
    std::deque<protocol::Envelope> inbox;  // what the agent sent, heartbeats left out
    std::vector<std::chrono::steady_clock::time_point> heartbeats;
    bool closed = false;
  };

  protocol::Envelope first(const std::string& node, const Wanted& wanted, const std::string& what, bool remove) {
    std::optional<protocol::Envelope> found;
    const bool came = run_until([&] {
      std::deque<protocol::Envelope>& inbox = sessions_.at(node)->inbox;
      const auto message = std::ranges::find_if(inbox, wanted);
      if (message == inbox.end()) return false;
      found = *message;
      if (remove) inbox.erase(message);
      return true;
    });
    BOOST_REQUIRE_MESSAGE(came, node << " sent no " << what);
    return *found;
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [error, socket] = co_await acceptor_.async_accept(transport::use_nothrow);
      if (error) co_return;  // closed
      asio::co_spawn(io_, serve(std::make_shared<protocol::Channel>(std::move(socket))), asio::detached);
    }
  }

  asio::awaitable<void> serve(std::shared_ptr<protocol::Channel> channel) {
    auto session = std::make_shared<Session>();
    session->channel = channel;
    try {
      const protocol::Identity self{.role = "coordinator", .node_id = "fake-coordinator", .secret = secret_};
      const std::string node =
          co_await protocol::handshake(*channel, protocol::Side::responder, self, "agent", std::chrono::seconds(5));
      const protocol::Envelope hello = co_await channel->receive(std::chrono::seconds(5));
      if (hello.body_case() != protocol::Envelope::kRegister) throw protocol::ChannelError("expected register");
      ++registers_received_;
      while (holding_) co_await released_.wait();
      protocol::Envelope registered;
      registered.mutable_registered()->set_coordinator_id("fake-coordinator");
      registered.mutable_registered()->set_heartbeat_seconds(heartbeat_seconds_);
      co_await channel->send(std::move(registered), std::chrono::seconds(5));
      const auto previous = sessions_.find(node);
      session->registration = previous == sessions_.end() ? 1 : previous->second->registration + 1;
      sessions_[node] = session;
      for (;;) {
        protocol::Envelope message = co_await channel->receive(std::chrono::seconds(30));
        if (message.body_case() == protocol::Envelope::kHeartbeat) {
          session->heartbeats.push_back(std::chrono::steady_clock::now());
          co_await channel->send(std::move(message), std::chrono::seconds(5));
        } else {
          session->inbox.push_back(std::move(message));
        }
      }
    } catch (const std::exception&) {
      session->closed = true;  // the agent (or the test) ended the session
    }
  }

  asio::io_context& io_;
  asio::ip::tcp::acceptor acceptor_;
  std::string secret_;
  double heartbeat_seconds_;
  std::map<std::string, std::shared_ptr<Session>> sessions_;  // each node's live (last) session
  bool holding_ = false;
  Signal released_{io_.get_executor()};
  int registers_received_ = 0;
};

}  // namespace baton::agent::test

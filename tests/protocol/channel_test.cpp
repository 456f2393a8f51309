// Control channels over real loopback sockets: frames are length-checked, bad bytes and
// silent peers end the channel with an error naming them, and sealed messages are checked.
#include "protocol/channel.h"
#include "tests/protocol/loopback_pair.h"

#include <boost/test/unit_test.hpp>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/write.hpp>

#include <algorithm>
#include <numeric>

namespace bp = baton::protocol;
using namespace std::chrono_literals;
using asio::ip::tcp;
using baton::test::run_pair;

BOOST_AUTO_TEST_SUITE(channel)

BOOST_AUTO_TEST_CASE(messages_round_trip_in_order) {
  std::vector<std::uint64_t> got;
  run_pair(
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        for (int i = 0; i < 3; ++i) got.push_back((co_await channel.receive(5s)).heartbeat().sequence());
      },
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        for (std::uint64_t i = 7; i < 10; ++i) {
          bp::Envelope e;
          e.mutable_heartbeat()->set_sequence(i);
          co_await channel.send(e, 5s);
        }
      });
  BOOST_TEST(got == (std::vector<std::uint64_t>{7, 8, 9}), boost::test_tools::per_element());
}

// A raw peer sends `bytes`; the channel's receive must end with an error containing `text`.
void expect_receive_error(const std::string& bytes, const std::string& text, std::chrono::milliseconds timeout = 5s) {
  std::string error;
  run_pair(
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        try {
          co_await channel.receive(timeout);
          error = "no error";
        } catch (const std::exception& e) {
          error = e.what();
        }
      },
      [&](tcp::socket s) -> asio::awaitable<void> {
        if (!bytes.empty()) co_await asio::async_write(s, asio::buffer(bytes), asio::use_awaitable);
        asio::steady_timer wait(s.get_executor(), 300ms);  // hold the connection open a moment
        co_await wait.async_wait(asio::use_awaitable);
      });
  BOOST_TEST(error.find(text) != std::string::npos, "got: " << error);
}

BOOST_AUTO_TEST_CASE(an_oversized_length_is_refused_before_reading_it) {
  expect_receive_error(std::string("\x7f\xff\xff\xff", 4), "above");
}

BOOST_AUTO_TEST_CASE(bytes_that_are_not_a_message_are_refused) {
  std::string frame;
  bp::append_frame(frame, std::string("\xff\xff\xff\xff\xff", 5));
  expect_receive_error(frame, "not a Baton message");
}

BOOST_AUTO_TEST_CASE(a_silent_peer_times_out) { expect_receive_error("", "said nothing for 100 ms", 100ms); }

BOOST_AUTO_TEST_CASE(a_peer_closing_mid_message_is_named) {
  expect_receive_error(std::string("\x00\x00\x00\x10hal", 7), "in the middle of a message");
}

BOOST_AUTO_TEST_CASE(concurrent_senders_never_interleave_their_frames) {
  std::vector<std::uint64_t> got;
  run_pair(
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        for (int i = 0; i < 200; ++i) {
          const std::string reason = (co_await channel.receive(5s)).refusal().reason();
          // Each message is 256 KiB of one letter followed by its number: a frame torn by
          // another writer would mix letters or lose its length.
          const bool whole = reason.size() > 262144 && std::all_of(reason.begin(), reason.begin() + 262144,
                                                                   [&](char c) { return c == reason[0]; });
          got.push_back(whole ? std::stoull(reason.substr(262144)) : 999999);
        }
      },
      [&](tcp::socket s) -> asio::awaitable<void> {
        auto channel = std::make_shared<bp::Channel>(std::move(s));
        const auto executor = co_await asio::this_coro::executor;
        for (std::uint64_t i = 0; i < 200; ++i) {
          asio::co_spawn(
              executor,
              [channel, i]() -> asio::awaitable<void> {
                bp::Envelope e;
                e.mutable_refusal()->set_reason(std::string(262144, static_cast<char>('a' + i % 26)) +
                                                std::to_string(i));
                co_await channel->send(e, 5s);
              },
              asio::detached);
        }
        asio::steady_timer wait(executor, 1s);
        co_await wait.async_wait(asio::use_awaitable);
      });
  std::vector<std::uint64_t> expected(200);
  std::iota(expected.begin(), expected.end(), 0);
  BOOST_TEST(got == expected, boost::test_tools::per_element());
}

// A stopping agent queues its last report behind a heartbeat and hangs up: finish() closes
// only once the queue is written. 1 MiB a message, more than the socket buffers hold, so
// the writer is still busy when finish() is called.
BOOST_AUTO_TEST_CASE(finish_closes_once_every_message_sent_before_it_is_written) {
  constexpr int sent = 40;
  int received = 0;
  std::string ended;
  bool open_after_finish = false;
  run_pair(
      [&](tcp::socket s) -> asio::awaitable<void> {
        bp::Channel channel(std::move(s));
        try {
          for (;;) {
            const std::string reason = (co_await channel.receive(5s)).refusal().reason();
            if (reason != std::to_string(received) + std::string(1 << 20, 'x')) break;
            ++received;
          }
        } catch (const std::exception& e) {
          ended = e.what();
        }
      },
      [&](tcp::socket s) -> asio::awaitable<void> {
        auto channel = std::make_shared<bp::Channel>(std::move(s));
        const auto executor = co_await asio::this_coro::executor;
        for (int i = 0; i < sent; ++i) {
          bp::Envelope e;
          e.mutable_refusal()->set_reason(std::to_string(i) + std::string(1 << 20, 'x'));
          asio::co_spawn(
              executor, [channel, e]() -> asio::awaitable<void> { co_await channel->send(e, 5s); }, asio::detached);
        }
        co_await asio::post(executor, asio::use_awaitable);  // the first send is writing, the rest wait
        channel->finish();
        open_after_finish = channel->is_open();
        while (channel->is_open()) co_await asio::post(executor, asio::use_awaitable);
      });
  BOOST_TEST(open_after_finish);  // it was still writing
  BOOST_TEST(received == sent);
  BOOST_TEST(!ended.empty());  // and then the channel closed
}

BOOST_AUTO_TEST_CASE(finish_with_nothing_to_write_closes_at_once) {
  run_pair([&](tcp::socket) -> asio::awaitable<void> { co_return; },
           [&](tcp::socket s) -> asio::awaitable<void> {
             bp::Channel channel(std::move(s));
             channel.finish();
             BOOST_TEST(!channel.is_open());
             co_return;
           });
}

BOOST_AUTO_TEST_SUITE_END()

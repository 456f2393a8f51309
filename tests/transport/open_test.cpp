// Opening transports from configuration: a missing provider is reported plainly, and falls
// back to TCP only when configured, and then visibly.
#include <boost/test/unit_test.hpp>

#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>
#include <asio/use_future.hpp>

#include "transport/errors.h"
#include "transport/open.h"

using namespace baton::transport;

BOOST_AUTO_TEST_CASE(tcp_opens) {
  asio::io_context io;
  const auto opened = open_context(io.get_executor(), {});
  BOOST_TEST_REQUIRE(!opened.error, opened.detail);
  BOOST_TEST(opened.value->name() == "tcp");
}

BOOST_AUTO_TEST_CASE(a_missing_provider_is_reported_plainly) {
  asio::io_context io;
  TransportConfig config;
  config.kind = "fabric";
  config.provider = "no-such-provider";
  const auto opened = open_context(io.get_executor(), config);
  BOOST_TEST(!opened.value);
  BOOST_TEST((opened.error == errc::provider_unavailable), opened.error.message());
  BOOST_TEST(opened.detail.find("'no-such-provider' is not available") != std::string::npos, opened.detail);
  if (fabric_built()) {
    BOOST_TEST(opened.detail.find("available providers:") != std::string::npos, opened.detail);
    BOOST_TEST(opened.detail.find("tcp;ofi_rxm") != std::string::npos, opened.detail);
  }
}

BOOST_AUTO_TEST_CASE(fallback_to_tcp_only_when_configured_and_never_silently) {
  asio::io_context io;
  std::vector<std::pair<baton::log::Level, std::string>> logged;
  TransportConfig config;
  config.kind = "fabric";
  config.provider = "verbs;ofi_rxm-that-is-not-here";
  config.fall_back_to_tcp = true;
  config.log = [&](baton::log::Level level, std::string_view line) { logged.emplace_back(level, line); };
  const auto opened = open_context(io.get_executor(), config);
  BOOST_TEST_REQUIRE(!opened.error, opened.detail);
  BOOST_TEST(opened.value->name() == "tcp");
  BOOST_TEST_REQUIRE(logged.size() == 1u);
  const auto& [level, notice] = logged.front();
  BOOST_TEST((level == baton::log::Level::warning));
  BOOST_TEST(notice.find("verbs;ofi_rxm-that-is-not-here") != std::string::npos, notice);
  BOOST_TEST(notice.find("falling back to TCP") != std::string::npos, notice);
}

BOOST_AUTO_TEST_CASE(an_available_provider_does_not_fall_back) {
  if (!fabric_built()) return;
  asio::io_context io;
  TransportConfig config;
  config.kind = "fabric";
  config.provider = "tcp;ofi_rxm";
  config.fall_back_to_tcp = true;
  int logged = 0;
  config.log = [&](baton::log::Level, std::string_view) { ++logged; };
  const auto opened = open_context(io.get_executor(), config);
  BOOST_TEST_REQUIRE(!opened.error, opened.detail);
  BOOST_TEST(opened.value->name() == "fabric/tcp;ofi_rxm");
  BOOST_TEST(logged == 0);
}

BOOST_AUTO_TEST_CASE(bad_configuration_is_an_error_not_a_crash) {
  asio::io_context io;
  TransportConfig config;
  config.kind = "carrier-pigeon";
  auto opened = open_context(io.get_executor(), config);
  BOOST_TEST((opened.error == std::errc::invalid_argument));
  BOOST_TEST(opened.detail.find("carrier-pigeon") != std::string::npos);

  config.kind = "tcp";
  config.context.pool.buffer_size = 100;  // below a header and a reject reason
  opened = open_context(io.get_executor(), config);
  BOOST_TEST((opened.error == std::errc::invalid_argument));
  BOOST_TEST(opened.detail.find("buffer_size") != std::string::npos, opened.detail);

  config.context.pool = {.buffer_count = 0, .buffer_size = 4096};
  opened = open_context(io.get_executor(), config);
  BOOST_TEST((opened.error == std::errc::invalid_argument));
  BOOST_TEST(opened.detail.find("buffer_count") != std::string::npos, opened.detail);
}

BOOST_AUTO_TEST_CASE(bad_addresses_are_refused_with_the_address_named) {
  asio::io_context io;
  auto opened = open_context(io.get_executor(), {});
  for (const std::string address : {"", "localhost:80", "1.2.3.4", "1.2.3.4:99999", "[::1]:x", "999.1.1.1:5"}) {
    const auto listening = opened.value->listen(address);
    BOOST_TEST((listening.error == errc::bad_address), address);
    BOOST_TEST(listening.detail.find("'" + address + "'") != std::string::npos, listening.detail);
  }
  auto connected = asio::co_spawn(io, opened.value->connect("not an address"), asio::use_future);
  io.run();
  BOOST_TEST((connected.get().error == errc::bad_address));
}

BOOST_AUTO_TEST_CASE(connecting_to_nobody_says_so) {
  asio::io_context io;
  auto opened = open_context(io.get_executor(), {});
  // Find a free port, then close it again so nobody listens there.
  std::string address;
  {
    auto listening = opened.value->listen("127.0.0.1:0");
    BOOST_TEST_REQUIRE(!listening.error);
    address = listening.value->address();
  }
  auto connected = asio::co_spawn(io, opened.value->connect(address), asio::use_future);
  io.run();
  const auto result = connected.get();
  BOOST_TEST(static_cast<bool>(result.error));
  BOOST_TEST(result.detail.find(address) != std::string::npos, result.detail);
}

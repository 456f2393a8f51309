// The agent's metrics endpoint on its own: served over real HTTP (cpp-httplib's client),
// with the format's content type, and clear errors for addresses it cannot serve.
#include "metrics/http_server.h"
#include "error/error.h"
#include "metrics/registry.h"

#include <httplib.h>
#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <string>

using baton::metrics::HttpServer;

namespace {

std::string error_of(const std::string& address) {
  HttpServer server([] { return std::string(); });
  try {
    server.start(address);
  } catch (const baton::error::Error& e) {
    return e.what();
  }
  return "started";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(http_server)

BOOST_AUTO_TEST_CASE(a_scrape_gets_the_rendered_text_each_time) {
  int scrapes = 0;
  HttpServer server([&scrapes] { return "baton_scrapes " + std::to_string(++scrapes) + "\n"; });
  server.start("127.0.0.1:0");
  BOOST_TEST(server.address().starts_with("127.0.0.1:"));
  BOOST_TEST(server.address() != "127.0.0.1:0");
  httplib::Client client("http://" + server.address());
  for (const char* expected : {"baton_scrapes 1\n", "baton_scrapes 2\n"}) {
    const auto answer = client.Get("/metrics");
    BOOST_TEST_REQUIRE(static_cast<bool>(answer));
    BOOST_TEST(answer->status == 200);
    BOOST_TEST(answer->body == expected);
    BOOST_TEST(answer->get_header_value("Content-Type") == baton::metrics::content_type);
  }
  const auto other = client.Get("/");
  BOOST_TEST_REQUIRE(static_cast<bool>(other));
  BOOST_TEST(other->status == 404);
  server.stop();
  BOOST_TEST(!client.Get("/metrics"), "nothing answers once stopped");
}

BOOST_AUTO_TEST_CASE(addresses_it_cannot_serve_are_named) {
  for (const char* bad : {"9464", ":9464", "127.0.0.1:", "127.0.0.1:http", "127.0.0.1:70000", "127.0.0.1:-1"}) {
    const std::string error = error_of(bad);
    BOOST_TEST(error.find(std::string("metrics address '") + bad + "'") != std::string::npos, bad << ": " << error);
  }
  HttpServer taken([] { return std::string(); });
  taken.start("127.0.0.1:0");
  const std::string error = error_of(taken.address());
  BOOST_TEST(error.find("cannot serve the metrics address '" + taken.address() + "'") != std::string::npos, error);
}

BOOST_AUTO_TEST_SUITE_END()

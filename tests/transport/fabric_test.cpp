// The libfabric transport's own pieces: the out-of-band address text, the hello a
// connecting peer sends (bad ones must be refused, not trusted) and the rxm defaults.
#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

#include "transport/fabric/connection.h"
#include "transport/fabric/endpoint.h"
#include "transport/fabric/listener.h"
#include "transport/fabric/rxm_defaults.h"

using namespace baton::transport::fabric;

BOOST_AUTO_TEST_CASE(addresses_round_trip_through_hex) {
  std::vector<std::byte> bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<std::byte>(i));
  const std::string text = to_hex(bytes);
  BOOST_TEST(text.size() == 512u);
  BOOST_TEST(text.substr(0, 6) == "000102");
  BOOST_TEST(text.substr(506) == "fdfeff");
  const auto back = from_hex(text);
  BOOST_TEST_REQUIRE(back.has_value());
  BOOST_TEST((*back == bytes));
  BOOST_TEST(from_hex("0A0b").has_value());
}

BOOST_AUTO_TEST_CASE(bad_address_text_is_refused) {
  for (const std::string& bad : std::vector<std::string>{"", "0", "abc", "zz", "0g", std::string(1026, 'a'), "12 4"}) {
    BOOST_TEST(!from_hex(bad).has_value(), "'" << bad.substr(0, 8) << "'");
  }
}

BOOST_AUTO_TEST_CASE(hellos_round_trip_and_garbage_is_refused) {
  const auto hello = parse_hello(hello_text(0xABCDEF, "0011"));
  BOOST_TEST_REQUIRE(hello.has_value());
  BOOST_TEST(hello->id == 0xABCDEFu);
  BOOST_TEST(hello->address == "0011");
  BOOST_TEST(parse_hello(hello_text(max_connection_id, "ff")).has_value());
  for (const std::string& bad : std::vector<std::string>{"", "BTNH1", "BTNH1 ", "BTNH1 12", "BTNH1 12 ", "BTNH2 12 ff",
                                                         "btnh1 12 ff", "BTNH1 0 ff", "BTNH1 xyz ff", "BTNH1 12z ff",
                                                         std::string("BTNH1 ") + std::string(20, 'f') + " ff",
                                                         std::string("BTNH1 1 ") + std::string(700, 'a')}) {
    BOOST_TEST(!parse_hello(bad).has_value(), "'" << bad.substr(0, 20) << "'");
  }
}

BOOST_AUTO_TEST_CASE(tags_of_connections_and_directions_never_collide) {
  // Set-up tags have bit 63; data tags never do; the two directions of one id differ.
  BOOST_TEST((hello_tag & setup_tag_bit) != 0u);
  BOOST_TEST((welcome_tag(max_connection_id) & setup_tag_bit) != 0u);
  BOOST_TEST((data_tag(max_connection_id, true) & setup_tag_bit) == 0u);
  BOOST_TEST(data_tag(7, true) != data_tag(7, false));
  BOOST_TEST(data_tag(7, true) != data_tag(8, false));
  BOOST_TEST(welcome_tag(1) != hello_tag);
}

// The rxm memory defaults fill in what the environment leaves unset, never override what
// an operator set, and are applied once (libfabric reads them only at its first use).
BOOST_AUTO_TEST_CASE(rxm_memory_defaults_never_override_the_environment) {
  ::unsetenv("FI_OFI_RXM_BUFFER_SIZE");
  ::setenv("FI_OFI_RXM_USE_SRX", "1", 1);
  apply_rxm_memory_defaults();
  BOOST_TEST(std::string(std::getenv("FI_OFI_RXM_BUFFER_SIZE")) == "4096");
  BOOST_TEST(std::string(std::getenv("FI_OFI_RXM_USE_SRX")) == "1");
  ::unsetenv("FI_OFI_RXM_BUFFER_SIZE");
  apply_rxm_memory_defaults();
  BOOST_TEST(std::getenv("FI_OFI_RXM_BUFFER_SIZE") == nullptr);
}

// Base64 (http/base64.h): RFC 4648's test vectors both ways, every byte value round trip,
// and text that is not padded base64 refused with a line naming what is wrong.
#include "http/base64.h"

#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>

using baton::http::base64_decode;
using baton::http::base64_encode;

namespace {

// RFC 4648, section 10.
const std::pair<std::string, std::string> kRfc4648Vectors[] = {
    {"", ""},
    {"f", "Zg=="},
    {"fo", "Zm8="},
    {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="},
    {"fooba", "Zm9vYmE="},
    {"foobar", "Zm9vYmFy"},
};

// Text that is not padded base64, and the line base64_decode refuses it with.
const std::pair<std::string, std::string> kRefusals[] = {
    {"Zg=", "not base64: 3 characters, not a multiple of 4 (padding with '=' missing?)"},
    {"Zg", "not base64: 2 characters, not a multiple of 4 (padding with '=' missing?)"},
    {"Zm9v!mFy", "not base64: '!' at character 5 is not in the alphabet"},
    {"Zm 9", "not base64: byte 32 at character 3 is not in the alphabet"},
    {std::string("Zm9\0", 4), "not base64: byte 0 at character 4 is not in the alphabet"},
    {"Zm9-", "not base64: '-' at character 4 is not in the alphabet"},  // base64url's
    {"Z===", "not base64: '=' at character 2 is not padding at the end"},
    {"Zg=a", "not base64: '=' at character 3 is not padding at the end"},
    {"Zg==Zg==", "not base64: '=' at character 3 is not padding at the end"},
    {"====", "not base64: '=' at character 1 is not padding at the end"},
};

}  // namespace

BOOST_AUTO_TEST_CASE(encodes_and_decodes_the_rfc_4648_vectors) {
  for (const auto& [bytes, text] : kRfc4648Vectors) {
    BOOST_TEST(base64_encode(bytes) == text);
    BOOST_TEST(base64_decode(text) == bytes);
  }
}

BOOST_AUTO_TEST_CASE(round_trips_every_byte_value_at_every_length_modulo_3) {
  std::string every;
  for (int c = 0; c < 256; ++c) every += static_cast<char>(c);
  for (std::size_t n = 0; n <= every.size(); ++n) {
    const std::string bytes = every.substr(0, n);
    BOOST_TEST(base64_decode(base64_encode(bytes)) == bytes);
  }
  BOOST_TEST(base64_encode("\xfb\xff") == "+/8=");  // the alphabet's last two characters
}

BOOST_AUTO_TEST_CASE(refuses_what_is_not_padded_base64_naming_why) {
  for (const auto& [text, message] : kRefusals) {
    BOOST_CHECK_EXCEPTION(base64_decode(text), baton::error::InvalidInput,
                          [&message = message](const baton::error::InvalidInput& e) {
                            BOOST_TEST(e.what() == message);
                            return true;
                          });
  }
}

// The one parser of job and calibration ids: digits only, within 64 bits.
#include "coordinator/daemon/record_id.h"

#include <boost/test/unit_test.hpp>

namespace bc = baton::coordinator;

BOOST_AUTO_TEST_SUITE(record_id)

BOOST_AUTO_TEST_CASE(an_id_is_digits_only_and_fits_64_bits) {
  BOOST_TEST(bc::parse_record_id("7").value() == 7u);
  BOOST_TEST(bc::parse_record_id("0").value() == 0u);
  BOOST_TEST(bc::parse_record_id("18446744073709551615").value() == 18446744073709551615u);
  for (const char* bad : {"", "7x", "x7", " 7", "7 ", "+7", "-1", "0x7", "1e3", "18446744073709551616"}) {
    BOOST_TEST(!bc::parse_record_id(bad).has_value(), "accepted \"" << bad << "\"");
  }
}

BOOST_AUTO_TEST_SUITE_END()

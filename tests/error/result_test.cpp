// Result: ok when its error is empty; describe() names the error and what was tried.
#include "error/result.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <system_error>

namespace baton::error {
namespace {

BOOST_AUTO_TEST_CASE(a_result_without_an_error_is_ok_and_carries_its_value) {
  const Result<int> r{.error = {}, .detail = {}, .value = 7};
  BOOST_TEST(r.ok());
  BOOST_TEST(r.value == 7);
  BOOST_TEST(Status{}.ok());
}

BOOST_AUTO_TEST_CASE(a_failed_result_describes_its_error_and_detail) {
  const auto refused = std::make_error_code(std::errc::connection_refused);
  const Result<int> r{.error = refused, .detail = "connect 10.0.0.2:4711", .value = 0};
  BOOST_TEST(!r.ok());
  BOOST_TEST(r.describe() == refused.message() + ": connect 10.0.0.2:4711");
  const Status bare{.error = refused, .detail = {}};
  BOOST_TEST(!bare.ok());
  BOOST_TEST(bare.describe() == refused.message());
}

}  // namespace
}  // namespace baton::error

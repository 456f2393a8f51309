// The exception hierarchy: every kind is an error::Error and a std::exception (so the
// daemons' last-resort handlers still catch it), and no kind is another.
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <cerrno>
#include <exception>
#include <stdexcept>
#include <string>
#include <system_error>

namespace baton::error {
namespace {

// Whether `thrown`, thrown, is caught by a handler of `Caught`.
template <class Caught, class Kind>
bool caught_as(const Kind& thrown) {
  try {
    throw thrown;
  } catch (const Caught&) {
    return true;
  } catch (...) {
    return false;
  }
}

BOOST_AUTO_TEST_CASE(every_kind_is_an_error_and_a_std_exception_keeping_its_message) {
  BOOST_TEST(caught_as<Error>(InvalidInput("x")));
  BOOST_TEST(caught_as<Error>(Bug("x")));
  BOOST_TEST(caught_as<Error>(SystemError("x")));
  BOOST_TEST(caught_as<std::exception>(InvalidInput("x")));
  BOOST_TEST(caught_as<std::runtime_error>(Bug("x")));
  BOOST_TEST(std::string(InvalidInput("matrix[1][2]: must be >= 0").what()) == "matrix[1][2]: must be >= 0");
  BOOST_TEST(std::string(Bug("schedule fails its own validation").what()) == "schedule fails its own validation");
}

BOOST_AUTO_TEST_CASE(the_kinds_are_distinct) {
  BOOST_TEST(!caught_as<InvalidInput>(Bug("broken")));
  BOOST_TEST(!caught_as<Bug>(SystemError("down")));
  BOOST_TEST(!caught_as<SystemError>(InvalidInput("bad")));
  BOOST_TEST(!caught_as<InvalidInput>(Error("the base alone")));
}

BOOST_AUTO_TEST_CASE(a_system_error_carries_its_code_and_says_it_as_std_system_error_does) {
  const std::error_code code(ENOENT, std::generic_category());
  const SystemError e(code, "open /data/a");
  BOOST_TEST(e.code() == code);
  BOOST_TEST(std::string(e.what()) == std::system_error(code, "open /data/a").what());
  BOOST_TEST(std::string(e.what()) == "open /data/a: " + code.message());
}

BOOST_AUTO_TEST_CASE(a_system_error_without_a_code_has_an_empty_one) {
  const SystemError e("OpenSSL: HMAC failed");
  BOOST_TEST(!e.code());
  BOOST_TEST(std::string(e.what()) == "OpenSSL: HMAC failed");
}

}  // namespace
}  // namespace baton::error

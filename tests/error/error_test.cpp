// The exception hierarchy: every kind is an error::Error and a std::exception (so the
// daemons' last-resort handlers still catch it), and no kind is another.
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <cerrno>
#include <exception>
#include <string>
#include <system_error>

namespace baton::error {
namespace {

template <class Kind>
bool caught_as_error_base(const Kind& thrown, const std::string& what) {
  try {
    throw thrown;
  } catch (const Error& e) {
    return std::string(e.what()) == what;
  }
}

template <class Kind>
bool caught_as_std_exception(const Kind& thrown) {
  try {
    throw thrown;
  } catch (const std::exception& e) {
    return dynamic_cast<const Kind*>(&e) != nullptr;
  }
}

BOOST_AUTO_TEST_CASE(every_kind_is_an_error_and_a_std_exception_keeping_its_message) {
  BOOST_TEST(caught_as_error_base(InvalidInput("matrix[1][2]: must be >= 0"), "matrix[1][2]: must be >= 0"));
  BOOST_TEST(caught_as_error_base(Bug("schedule fails its own validation"), "schedule fails its own validation"));
  BOOST_TEST(caught_as_error_base(SystemError("GLPK failed"), "GLPK failed"));
  BOOST_TEST(caught_as_std_exception(InvalidInput("x")));
  BOOST_TEST(caught_as_std_exception(Bug("x")));
  BOOST_TEST(caught_as_std_exception(SystemError("x")));
}

BOOST_AUTO_TEST_CASE(the_kinds_are_distinct) {
  BOOST_CHECK_THROW(throw InvalidInput("bad"), InvalidInput);
  bool bug_caught_as_input = false;
  try {
    throw Bug("broken");
  } catch (const InvalidInput&) {
    bug_caught_as_input = true;
  } catch (const Bug&) {
  }
  BOOST_TEST(!bug_caught_as_input);
  bool system_caught_as_bug = false;
  try {
    throw SystemError("down");
  } catch (const Bug&) {
    system_caught_as_bug = true;
  } catch (const SystemError&) {
  }
  BOOST_TEST(!system_caught_as_bug);
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

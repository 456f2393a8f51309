// A configuration's keys read strictly (config/toml_field.h): a wrong type is named with
// its key, what it must be, what it is and its line, never replaced by the default.
#include "config/toml_field.h"

#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace bc = baton::config;

namespace {

// The error `read` throws on the table of `text`, or "" when it throws none.
template <class Read>
std::string error_of(const std::string& text, Read read) {
  const toml::table file = toml::parse(text);
  try {
    read(file);
  } catch (const baton::error::InvalidInput& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(toml_field)

BOOST_AUTO_TEST_CASE(a_number_may_be_written_as_an_integer_or_a_float_an_integer_only_as_an_integer) {
  const toml::table file = toml::parse("rate = 100000000\nfloat = 1.25e8\ncount = 64\n");
  BOOST_TEST(bc::field_or<double>(file, "rate", 0.0) == 1e8);
  BOOST_TEST(bc::field_or<double>(file, "float", 0.0) == 1.25e8);
  BOOST_TEST(bc::field_or<std::int64_t>(file, "count", 0) == 64);
  const auto count = [](const toml::table& f) { (void)bc::field_or<std::int64_t>(f, "count", 0); };
  BOOST_TEST(error_of("a = 1\ncount = 64.0\n", count) == "count must be an integer, not a float (line 2)");
}

BOOST_AUTO_TEST_CASE(a_value_of_the_wrong_type_is_named_with_its_key_and_line_not_defaulted) {
  const auto rate = [](const toml::table& f) { (void)bc::field_or<double>(f, "rate", 0.0); };
  BOOST_TEST(error_of("\nrate = \"fast\"\n", rate) == "rate must be a number, not a string (line 2)");
  BOOST_TEST(error_of("rate = 1979-05-27\n", rate) == "rate must be a number, not a date (line 1)");
  BOOST_TEST(error_of("[rate]\nx = 1\n", rate) == "rate must be a number, not a table (line 1)");
  const auto flag = [](const toml::table& f) { (void)bc::field_or<bool>(f, "flag", true); };
  BOOST_TEST(error_of("flag = \"yes\"\n", flag) == "flag must be true or false, not a string (line 1)");
  const auto name = [](const toml::table& f) { (void)bc::field_or<std::string>(f, "name", "n"); };
  BOOST_TEST(error_of("name = 7\n", name) == "name must be a string, not an integer (line 1)");
  const auto list = [](const toml::table& f) { (void)bc::field_or<std::vector<std::string>>(f, "list", {}); };
  BOOST_TEST(error_of("list = \"a\"\n", list) == "list must be a list of strings, not a string (line 1)");
  // The item that is not a string is the one named, on its own line.
  BOOST_TEST(error_of("list = [\n  \"a\",\n  2,\n]\n", list) ==
             "list must be a list of strings, not an integer (line 3)");
}

BOOST_AUTO_TEST_CASE(an_absent_key_is_its_default_and_a_required_one_is_named) {
  const toml::table file = toml::parse("present = [\"a\", \"b\"]\n");
  BOOST_TEST(bc::field_or<std::string>(file, "absent", "fallback") == "fallback");
  BOOST_TEST(bc::required_field<std::vector<std::string>>(file, "present") == (std::vector<std::string>{"a", "b"}),
             boost::test_tools::per_element());
  const auto node_id = [](const toml::table& f) { (void)bc::required_field<std::string>(f, "node_id"); };
  BOOST_TEST(error_of("", node_id) == "missing key 'node_id' (it has no default)");
}

BOOST_AUTO_TEST_CASE(an_unknown_key_is_named_with_its_likely_meaning_and_line) {
  const auto check = [](const toml::table& f) { bc::check_known_keys(f, {"rate", "node_id"}); };
  BOOST_TEST(error_of("rate = 1\n\nrat = 5\n", check) == "unknown key 'rat' (did you mean 'rate'?) (line 3)");
  BOOST_TEST(error_of("rate = 1\nnode_id = \"n\"\n", check) == "");
}

BOOST_AUTO_TEST_SUITE_END()

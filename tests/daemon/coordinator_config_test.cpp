// The coordinator's configuration file: the drift and trial settings read with their
// defaults, and a value out of range refused naming the file and the key.
#include "coordinator/daemon/config.h"
#include "error/error.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>

namespace bc = baton::coordinator;

namespace {

// A directory holding a cluster secret, for configurations of the required keys and more.
struct ConfigDir : baton::test::TempDir {
  ConfigDir() { write("secret", std::string(32, 'k') + "\n"); }
  std::filesystem::path write_config(const std::string& extra) const {
    write("coordinator.toml", "id = \"c\"\nsecret_file = \"secret\"\nstate_dir = \"state\"\n" + extra);
    return path / "coordinator.toml";
  }
};

std::string error_of(const std::filesystem::path& path) {
  try {
    bc::load_coordinator_config(path);
  } catch (const baton::error::InvalidInput& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(coordinator_config, ConfigDir)

BOOST_AUTO_TEST_CASE(trials_of_a_wider_backbone_are_on_by_default_and_set_by_the_file) {
  const bc::CoordinatorConfig defaults = bc::load_coordinator_config(write_config(""));
  BOOST_TEST(defaults.drift.widen_after == 3);
  BOOST_TEST(defaults.drift.widen_factor == 2.0);
  BOOST_TEST(defaults.drift.widen_budget == 0.05);
  const bc::CoordinatorConfig set =
      bc::load_coordinator_config(write_config("widen_after_steps = 0\nwiden_factor = 1.5\nwiden_budget = 0.2\n"));
  BOOST_TEST(set.drift.widen_after == 0);
  BOOST_TEST(set.drift.widen_factor == 1.5);
  BOOST_TEST(set.drift.widen_budget == 0.2);
}

BOOST_AUTO_TEST_CASE(a_trial_setting_out_of_range_is_refused_naming_the_key) {
  const std::string factor = error_of(write_config("widen_factor = 1.0\n"));
  BOOST_TEST(factor.find("coordinator.toml") != std::string::npos, factor);
  BOOST_TEST(factor.find("widen_factor must be within (1, 100]") != std::string::npos, factor);
  const std::string after = error_of(write_config("widen_after_steps = -1\n"));
  BOOST_TEST(after.find("widen_after_steps must be within [0, 1000]") != std::string::npos, after);
  const std::string budget = error_of(write_config("widen_budget = 1.5\n"));
  BOOST_TEST(budget.find("widen_budget must be within [0, 1]") != std::string::npos, budget);
}

BOOST_AUTO_TEST_CASE(the_queue_caps_have_defaults_are_set_by_the_file_and_checked) {
  const bc::CoordinatorConfig defaults = bc::load_coordinator_config(write_config(""));
  BOOST_TEST(defaults.max_queued_jobs == 256u);
  BOOST_TEST(defaults.max_queued_calibrations == 4u);
  const bc::CoordinatorConfig set =
      bc::load_coordinator_config(write_config("max_queued_jobs = 10\nmax_queued_calibrations = 1\n"));
  BOOST_TEST(set.max_queued_jobs == 10u);
  BOOST_TEST(set.max_queued_calibrations == 1u);
  const std::string zero = error_of(write_config("max_queued_calibrations = 0\n"));
  BOOST_TEST(zero.find("max_queued_calibrations must be within [1, 1000]") != std::string::npos, zero);
}

BOOST_AUTO_TEST_CASE(the_journal_is_sqlite_by_default_and_etcd_with_its_endpoints_prefix_and_ttl) {
  BOOST_TEST(!bc::load_coordinator_config(write_config("")).etcd.has_value());
  BOOST_TEST(!bc::load_coordinator_config(write_config("journal = \"sqlite\"\n")).etcd.has_value());
  const bc::CoordinatorConfig etcd = bc::load_coordinator_config(
      write_config("journal = \"etcd\"\netcd_endpoints = [\"http://10.0.0.1:2379\", \"http://10.0.0.2:2379\"]\n"));
  BOOST_REQUIRE(etcd.etcd.has_value());
  BOOST_TEST(etcd.etcd->endpoints.size() == 2u);
  BOOST_TEST(etcd.etcd->prefix == "/baton/default/");
  BOOST_TEST(etcd.etcd->leader_ttl_seconds == 5);
  BOOST_TEST(etcd.etcd->timeout.count() == 5000);
  const bc::CoordinatorConfig set = bc::load_coordinator_config(
      write_config("journal = \"etcd\"\netcd_endpoints = [\"http://h:1\"]\netcd_prefix = \"/baton/a/\"\n"
                   "leader_ttl_seconds = 3\netcd_timeout_seconds = 0.5\n"));
  BOOST_TEST(set.etcd->prefix == "/baton/a/");
  BOOST_TEST(set.etcd->leader_ttl_seconds == 3);
  BOOST_TEST(set.etcd->timeout.count() == 500);
}

BOOST_AUTO_TEST_CASE(a_wrong_journal_setting_is_refused_naming_the_key) {
  const auto error = [&](const std::string& extra) { return error_of(write_config(extra)); };
  BOOST_TEST(error("journal = \"zookeeper\"\n").find("journal must be \"sqlite\" or \"etcd\"") != std::string::npos);
  BOOST_TEST(error("journal = \"etcd\"\n").find("needs etcd_endpoints") != std::string::npos);
  BOOST_TEST(error("journal = \"etcd\"\netcd_endpoints = []\n").find("etcd_endpoints is empty") != std::string::npos);
  BOOST_TEST(error("journal = \"etcd\"\netcd_endpoints = [\"10.0.0.1:2379\"]\n").find("not http://host:port") !=
             std::string::npos);
  BOOST_TEST(error("journal = \"etcd\"\netcd_endpoints = [\"http://h:1\"]\netcd_prefix = \"/baton\"\n")
                 .find("etcd_prefix must end with '/'") != std::string::npos);
  BOOST_TEST(error("journal = \"etcd\"\netcd_endpoints = [\"http://h:1\"]\nleader_ttl_seconds = 1\n")
                 .find("leader_ttl_seconds must be within [2, 3600]") != std::string::npos);
  BOOST_TEST(error("etcd_endpoints = [\"http://h:1\"]\n").find("etcd_endpoints is set but journal is not \"etcd\"") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(arrays_nested_past_the_limit_are_refused_naming_the_line_and_brackets_in_strings_are_not) {
  // A thousand `[` overflowed toml11's recursive parser (fuzz/coordinator_config_fuzz.cpp).
  const std::string deep = error_of(write_config("\n\nx = " + std::string(1000, '[') + "\n"));
  BOOST_TEST(deep.find("arrays and inline tables nested deeper than 64 (line 6)") != std::string::npos, deep);
  const std::string tables = error_of(write_config("x = " + std::string(65, '{') + "\n"));
  BOOST_TEST(tables.find("nested deeper than 64") != std::string::npos, tables);
  // Brackets in strings and comments do not nest anything: this file loads (and then names
  // its unknown key).
  const std::string quoted =
      error_of(write_config("# " + std::string(100, '[') + "\nnote = \"" + std::string(100, '[') + "\"\nliteral = '" +
                            std::string(100, '{') + "'\nmulti = \"\"\"\n" + std::string(100, '[') + "\n\"\"\"\n"));
  BOOST_TEST(quoted.find("unknown key") != std::string::npos, quoted);
}

BOOST_AUTO_TEST_CASE(a_binary_integer_of_more_than_62_digits_is_refused_naming_the_line) {
  // toml11 overflows a signed integer on the 63rd digit (fuzz/agent_config_fuzz.cpp).
  const std::string long_one = error_of(write_config("\nx = 0b" + std::string(70, '0') + "1\n"));
  BOOST_TEST(long_one.find("a binary integer of more than 62 digits (line 5)") != std::string::npos, long_one);
  // 62 digits, underscores apart, and 0b in a string or a key are not refused for it.
  const std::string fine = error_of(write_config("x = 0b" + std::string(31, '1') + "_" + std::string(31, '0') +
                                                 "\ns = \"0b" + std::string(70, '1') + "\"\n"));
  BOOST_TEST(fine.find("unknown key") != std::string::npos, fine);
}

BOOST_AUTO_TEST_CASE(multi_line_strings_are_skipped_whole_quotes_inside_them_included) {
  // A quote inside a multi-line string does not end it: neither the brackets nor the
  // binary digits after it are read as TOML (the screen once took ''' for three ').
  const std::string quoted =
      error_of(write_config("a = '''it's 0b" + std::string(70, '1') + " " + std::string(100, '[') +
                            "'''\nb = \"\"\"say \"0b" + std::string(70, '1') + "\"\"\"\"\n"));
  BOOST_TEST(quoted.find("unknown key") != std::string::npos, quoted);
  // After the string, the screen reads TOML again.
  const std::string after = error_of(write_config("a = '''it's'''\nx = 0b" + std::string(63, '1') + "\n"));
  BOOST_TEST(after.find("more than 62 digits (line 5)") != std::string::npos, after);
}

BOOST_AUTO_TEST_SUITE_END()

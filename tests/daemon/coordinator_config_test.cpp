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

BOOST_AUTO_TEST_CASE(the_heartbeat_policy_has_defaults_is_set_by_the_file_and_checked) {
  const bc::CoordinatorConfig defaults = bc::load_coordinator_config(write_config(""));
  BOOST_TEST(defaults.heartbeat.every.count() == 1000);
  BOOST_TEST(defaults.heartbeat.max_per_second == 128.0);
  const bc::CoordinatorConfig set =
      bc::load_coordinator_config(write_config("heartbeat_seconds = 0.5\nmax_heartbeats_per_second = 1000\n"));
  BOOST_TEST(set.heartbeat.every.count() == 500);
  BOOST_TEST(set.heartbeat.max_per_second == 1000.0);
  const std::string zero = error_of(write_config("max_heartbeats_per_second = 0\n"));
  BOOST_TEST(zero.find("max_heartbeats_per_second must be within [1, 1000000]") != std::string::npos, zero);
  const std::string nan = error_of(write_config("max_heartbeats_per_second = nan\n"));
  BOOST_TEST(nan.find("max_heartbeats_per_second must be within [1, 1000000]") != std::string::npos, nan);
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

BOOST_AUTO_TEST_CASE(jobs_share_no_node_by_default_and_the_file_sets_how_many_may) {
  BOOST_TEST(bc::load_coordinator_config(write_config("")).max_jobs_per_node == 1u);
  BOOST_TEST(bc::load_coordinator_config(write_config("max_jobs_per_node = 4\n")).max_jobs_per_node == 4u);
  const std::string past = error_of(write_config("max_jobs_per_node = 65\n"));
  BOOST_TEST(past.find("max_jobs_per_node must be within [1, 64]") != std::string::npos, past);
}

BOOST_AUTO_TEST_CASE(the_least_step_timeout_is_30_s_by_default_and_set_by_the_file) {
  BOOST_TEST(bc::load_coordinator_config(write_config("")).min_step_timeout.count() == 30'000);
  BOOST_TEST(bc::load_coordinator_config(write_config("min_step_timeout_seconds = 2.5\n")).min_step_timeout.count() ==
             2'500);
  for (const char* bad : {"min_step_timeout_seconds = 0.5\n", "min_step_timeout_seconds = 1e9\n"}) {
    const std::string error = error_of(write_config(bad));
    BOOST_TEST(error.find("min_step_timeout_seconds must be within [1, 86400]") != std::string::npos, error);
  }
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

BOOST_AUTO_TEST_CASE(nesting_and_integers_past_the_parsers_limits_are_refused_naming_the_file_and_the_line) {
  // Findings 4 and 5 of docs/fuzzing.md through the loader: a thousand `[` overflowed
  // toml11's stack and a long binary integer its arithmetic; toml++ refuses both
  // (tests/config/toml_file_test.cpp has the other hazards).
  const std::string deep = error_of(write_config("\n\nx = " + std::string(1000, '[') + "\n"));
  BOOST_TEST(deep.find("coordinator.toml: ") != std::string::npos, deep);
  BOOST_TEST(deep.find("exceeded maximum nested value depth of 256") != std::string::npos, deep);
  BOOST_TEST(deep.find("(line 6, column ") != std::string::npos, deep);
  const std::string long_one = error_of(write_config("\nx = 0b" + std::string(64, '1') + "\n"));
  BOOST_TEST(long_one.find("is not representable in 64 bits (line 5, column ") != std::string::npos, long_one);
  // A binary integer of 63 digits, and 0b in a string, are read (and the key then named).
  const std::string fine = error_of(write_config("x = 0b" + std::string(31, '1') + "_" + std::string(32, '0') +
                                                 "\ns = \"0b" + std::string(70, '1') + "\"\n"));
  BOOST_TEST(fine.find("unknown key '") != std::string::npos, fine);
}

BOOST_AUTO_TEST_SUITE_END()

// baton-agent's configuration file: every mistake named with its key, numbers read
// whichever way TOML writes them (agent/config.h, config/toml_field.h).
#include "agent/config.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

using baton::agent::load_agent_config;
using baton::test::TempDir;

namespace {

// A minimal valid file plus `extra` lines, with its secret beside it.
std::filesystem::path config_with(const TempDir& dir, const std::string& extra) {
  dir.write("secret", "a-secret-of-enough-length-0123456789\n");
  std::filesystem::create_directories(dir.path / "data");
  dir.write("agent.toml",
            "node_id = \"n1\"\ncoordinator = \"127.0.0.1:7071\"\nsecret_file = \"secret\"\n"
            "data_root = \"data\"\n" +
                extra);
  return dir.path / "agent.toml";
}

std::string error_of(const std::filesystem::path& path) {
  try {
    load_agent_config(path);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_config)

BOOST_AUTO_TEST_CASE(coordinator_is_one_address_or_a_list_of_the_standby_coordinators) {
  TempDir dir;
  const auto path = config_with(dir, "");
  BOOST_TEST(load_agent_config(path).coordinator == "127.0.0.1:7071");
  BOOST_TEST(load_agent_config(path).other_coordinators.empty());
  const auto with = [&](const std::string& coordinator) {
    dir.write("agent.toml",
              "node_id = \"n1\"\ncoordinator = " + coordinator + "\nsecret_file = \"secret\"\ndata_root = \"data\"\n");
    return dir.path / "agent.toml";
  };
  const auto three = load_agent_config(with(R"(["10.0.0.1:7071", "10.0.0.2:7071", "10.0.0.3:7071"])"));
  BOOST_TEST(three.coordinator == "10.0.0.1:7071");
  BOOST_TEST(three.other_coordinators == (std::vector<std::string>{"10.0.0.2:7071", "10.0.0.3:7071"}),
             boost::test_tools::per_element());
  BOOST_TEST(error_of(with("[]")).find("coordinator is an empty list") != std::string::npos);
  BOOST_TEST(error_of(with("[7071]")).find("coordinator") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_rate_written_as_an_integer_or_a_float_is_the_same_rate) {
  TempDir a, b;
  BOOST_TEST(load_agent_config(config_with(a, "rate = 100000000\n")).rate == 1e8);
  BOOST_TEST(load_agent_config(config_with(b, "rate = 1.25e8\n")).rate == 1.25e8);
}

BOOST_AUTO_TEST_CASE(a_value_of_the_wrong_type_is_named_not_replaced_by_the_default) {
  TempDir a, b, c;
  BOOST_TEST(error_of(config_with(a, "rate = \"fast\"\n")).find("rate must be a number") != std::string::npos);
  const std::string count = error_of(config_with(b, "buffer_count = \"64\"\n"));
  BOOST_TEST(count.find("buffer_count") != std::string::npos, count);
  const std::string level = error_of(config_with(c, "log_level = \"loud\"\n"));
  BOOST_TEST(level.find("log_level must be \"info\" or \"debug\"") != std::string::npos, level);
}

BOOST_AUTO_TEST_CASE(max_jobs_is_read_and_held_to_its_range) {
  TempDir a, b, c;
  BOOST_TEST(load_agent_config(config_with(a, "")).max_jobs == 16u);
  BOOST_TEST(load_agent_config(config_with(b, "max_jobs = 4\n")).max_jobs == 4u);
  const std::string zero = error_of(config_with(c, "max_jobs = 0\n"));
  BOOST_TEST(zero.find("max_jobs must be within [1, 1024]") != std::string::npos, zero);
}

BOOST_AUTO_TEST_CASE(unknown_keys_and_missing_ones_are_named) {
  TempDir a, b;
  const std::string typo = error_of(config_with(a, "rat = 5\n"));
  BOOST_TEST(typo.find("unknown key 'rat' (did you mean 'rate'?)") != std::string::npos, typo);
  b.write("agent.toml", "coordinator = \"127.0.0.1:7071\"\n");
  BOOST_TEST(error_of(b.path / "agent.toml").find("node_id") != std::string::npos, error_of(b.path / "agent.toml"));
}

BOOST_AUTO_TEST_CASE(the_metrics_address_is_optional) {
  TempDir a, b;
  BOOST_TEST(load_agent_config(config_with(a, "")).metrics_address.empty());
  BOOST_TEST(load_agent_config(config_with(b, "metrics_address = \"127.0.0.1:9105\"\n")).metrics_address ==
             "127.0.0.1:9105");
}

BOOST_AUTO_TEST_CASE(flow_silence_defaults_to_30_s_and_is_bounded) {
  TempDir a, b, c;
  BOOST_TEST(load_agent_config(config_with(a, "")).transport.context.frame_timeout.count() == 30'000);
  BOOST_TEST(
      load_agent_config(config_with(b, "flow_silence_seconds = 2.5\n")).transport.context.frame_timeout.count() ==
      2'500);
  const std::string zero = error_of(config_with(c, "flow_silence_seconds = 0\n"));
  BOOST_TEST(zero.find("flow_silence_seconds must be within [1, 3600]") != std::string::npos, zero);
}

BOOST_AUTO_TEST_CASE(tcp_congestion_defaults_to_cubic_may_be_the_systems_and_refuses_a_bad_name) {
  TempDir a, b, c, d;
  BOOST_TEST(load_agent_config(config_with(a, "")).transport.context.tcp_congestion == "cubic");
  BOOST_TEST(load_agent_config(config_with(b, "tcp_congestion = \"\"\n")).transport.context.tcp_congestion.empty());
  BOOST_TEST(load_agent_config(config_with(c, "tcp_congestion = \"bbr\"\n")).transport.context.tcp_congestion == "bbr");
  const std::string bad = error_of(config_with(d, "tcp_congestion = \"Cubic; rm\"\n"));
  BOOST_TEST(
      bad.find("tcp_congestion must be empty (the system's) or a congestion control's name") != std::string::npos, bad);
}

BOOST_AUTO_TEST_SUITE_END()

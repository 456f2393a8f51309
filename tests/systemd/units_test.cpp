// What `cmake --install` puts in place, checked with systemd's own tools and the daemons'
// own configuration loaders: the units are configured with the prefix given at install
// time, pass `systemd-analyze verify`, lead to the installed binaries and configurations;
// systemd-sysusers and systemd-tmpfiles accept the snippets; the example configurations
// load and agree with the units.
#include "agent/config.h"
#include "coordinator/daemon/config.h"
#include "tests/support/run_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tools.h"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using baton::test::run_process;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// The value of the line `key=...` in a unit file, "" when there is none.
std::string setting(const std::string& text, const std::string& key) {
  std::smatch match;
  if (!std::regex_search(text, match, std::regex("(^|\n)" + key + "=([^\n]*)"))) return {};
  return match[2].str();
}

// `cmake --install` of this build with `arguments`, and DESTDIR when given.
baton::test::ProcessResult install(const std::vector<std::string>& arguments, const fs::path& destdir = {}) {
  std::vector<std::string> argv{"/usr/bin/env"};
  if (!destdir.empty()) argv.push_back("DESTDIR=" + destdir.string());
  argv.insert(argv.end(), {CMAKE_COMMAND, "--install", BATON_BINARY_DIR});
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_process(argv, {}, std::chrono::seconds(120));
}

// The build installed with `--prefix` into a temporary directory.
struct Staged {
  baton::test::TempDir dir{"baton-stage"};
  fs::path prefix = dir.path;
  fs::path units = prefix / "lib/systemd/system";
  fs::path config = prefix / "etc/baton";
  Staged() {
    const auto result = install({"--prefix", prefix.string()});
    BOOST_REQUIRE_MESSAGE(result.exit_code == 0, result.out << result.err);
  }
};

// systemd-analyze verify's findings on the unit file `unit`: "" when clean. It exits 0
// on warnings (an unknown key, a bad value: "ignoring"), so any output counts.
std::string verify(const fs::path& unit) {
  const auto result = run_process({baton::test::tool_path("systemd-analyze"), "verify", unit.string()});
  return result.exit_code == 0 ? result.out + result.err
                               : "exit " + std::to_string(result.exit_code) + ": " + result.out + result.err;
}

// A build configured with BATON_INSTALL_CONFIG_DIR installs configurations there whatever
// the prefix: staging it would write outside the stage.
bool config_dir_is_fixed() {
  if (std::string(BATON_INSTALL_CONFIG_DIR).empty()) return false;
  BOOST_TEST_MESSAGE("skipped: this build installs configurations to BATON_INSTALL_CONFIG_DIR="
                     << BATON_INSTALL_CONFIG_DIR << " whatever the prefix; a staged install would write there");
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(units)

// Labelled systemd: systemd's own tools check what is installed (CTest's
// test_systemd_units_tools runs these where they are on PATH).
BOOST_AUTO_TEST_CASE(the_installed_units_pass_systemd_analyze_verify, *boost::unit_test::label("systemd")) {
  if (config_dir_is_fixed()) return;
  Staged stage;
  for (const char* unit : {"baton-agent.service", "baton-coordinator.service"}) {
    BOOST_REQUIRE(fs::exists(stage.units / unit));
    const std::string findings = verify(stage.units / unit);
    BOOST_TEST(findings.empty(), unit << ": " << findings);
  }
  // The check can fail: a misspelt hardening key is a finding, and so is an ExecStart=
  // binary that is not there.
  const std::string text = read(stage.units / "baton-agent.service");
  std::ofstream(stage.units / "baton-misspelt.service") << replace_all(text, "ProtectSystem=", "ProtectSytem=");
  BOOST_TEST(verify(stage.units / "baton-misspelt.service").find("ProtectSytem") != std::string::npos);
  fs::remove(stage.prefix / "bin/baton-agent");
  BOOST_TEST(verify(stage.units / "baton-agent.service").find("baton-agent is not executable") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_hardening_keeps_systemds_exposure_score_low, *boost::unit_test::label("systemd")) {
  if (config_dir_is_fixed()) return;
  Staged stage;
  // `systemd-analyze security` scores a unit's exposure from 0 (locked down) to 10 and
  // fails above --threshold (tenths). Today: agent 2.1, coordinator 1.8 ("OK").
  const auto exposure = [](const fs::path& unit, int threshold) {
    return run_process({baton::test::tool_path("systemd-analyze"), "security", "--offline=yes", "--no-pager",
                        "--threshold=" + std::to_string(threshold), unit.string()});
  };
  const auto agent = exposure(stage.units / "baton-agent.service", 25);
  BOOST_TEST(agent.exit_code == 0, agent.out << agent.err);
  const auto coordinator = exposure(stage.units / "baton-coordinator.service", 20);
  BOOST_TEST(coordinator.exit_code == 0, coordinator.out << coordinator.err);
  // The check can fail: the agent's unit without its hardening lines scores far worse.
  std::istringstream lines(read(stage.units / "baton-agent.service"));
  std::string bare;
  bool drop = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("# Hardening")) {
      drop = true;
    } else if (drop && !line.starts_with("#")) {
      drop = false;  // the setting under a "# Hardening" comment
    } else {
      bare += line + "\n";
    }
  }
  std::ofstream(stage.units / "baton-bare.service") << bare;
  BOOST_TEST(exposure(stage.units / "baton-bare.service", 25).exit_code != 0);
}

BOOST_AUTO_TEST_CASE(the_units_name_the_prefix_given_at_install_time) {
  if (config_dir_is_fixed()) return;
  Staged stage;
  for (const auto& [unit, binary, config] :
       {std::tuple{"baton-agent.service", "baton-agent", "agent.toml"},
        std::tuple{"baton-coordinator.service", "baton-coordinator", "coordinator.toml"}}) {
    const std::string text = read(stage.units / unit);
    BOOST_TEST(!std::regex_search(text, std::regex("@[A-Z_]+@")), unit << " has an unconfigured @VARIABLE@");
    BOOST_TEST(setting(text, "ExecStart") ==
               (stage.prefix / "bin" / binary).string() + " --config " + (stage.config / config).string());
    BOOST_TEST(fs::exists(stage.prefix / "bin" / binary));
    BOOST_TEST(fs::exists(stage.config / config));
    BOOST_TEST(fs::exists(stage.config / (std::string(config) + ".example")));
    BOOST_TEST(setting(text, "Documentation") == "file://" + (stage.prefix / "share/doc/baton/systemd.md").string());
    BOOST_TEST(setting(text, "Type") == "notify");
    BOOST_TEST(setting(text, "User") == "baton");
    // Every connection costs a descriptor: room for many (docs/security.md).
    BOOST_TEST(setting(text, "LimitNOFILE") == "65536");
  }
  BOOST_TEST(fs::exists(stage.prefix / "share/doc/baton/systemd.md"));
  BOOST_TEST(fs::exists(stage.prefix / "bin/batonctl"));
}

BOOST_AUTO_TEST_CASE(a_system_install_configures_etc_baton_and_a_reinstall_keeps_an_edited_configuration) {
  if (config_dir_is_fixed()) return;
  const baton::test::TempDir root_dir("baton-stage");
  const fs::path root = root_dir.path;
  const auto first = install({"--prefix", "/usr"}, root);
  BOOST_REQUIRE_MESSAGE(first.exit_code == 0, first.out << first.err);
  const std::string unit = read(root / "usr/lib/systemd/system/baton-agent.service");
  BOOST_TEST(setting(unit, "ExecStart") == "/usr/bin/baton-agent --config /etc/baton/agent.toml");
  BOOST_TEST(fs::exists(root / "usr/bin/baton-agent"));
  BOOST_TEST(fs::exists(root / "usr/lib/sysusers.d/baton.conf"));
  BOOST_TEST(fs::exists(root / "usr/lib/tmpfiles.d/baton.conf"));

  const fs::path config = root / "etc/baton/agent.toml";
  BOOST_REQUIRE(fs::exists(config));
  std::ofstream(config) << "# edited by the operator\n";
  const auto again = install({"--prefix", "/usr"}, root);
  BOOST_REQUIRE(again.exit_code == 0);
  BOOST_TEST(read(config) == "# edited by the operator\n");
  BOOST_TEST(again.out.find("Keeping: " + config.string()) != std::string::npos, again.out);
  BOOST_TEST(read(root / "etc/baton/agent.toml.example").find("node_id = ") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(systemd_sysusers_and_tmpfiles_create_the_user_and_the_data_root,
                     *boost::unit_test::label("systemd")) {
  if (config_dir_is_fixed()) return;
  Staged stage;  // its prefix doubles as the --root the tools work in
  const auto users = run_process({baton::test::tool_path("systemd-sysusers"), "--root=" + stage.prefix.string(),
                                  (stage.prefix / "lib/sysusers.d/baton.conf").string()});
  BOOST_REQUIRE_MESSAGE(users.exit_code == 0, users.err);
  std::smatch user;
  const std::string passwd = read(stage.prefix / "etc/passwd");
  BOOST_REQUIRE_MESSAGE(std::regex_search(passwd, user, std::regex("(^|\n)baton:x:([0-9]+):")), passwd);
  const auto files = run_process({baton::test::tool_path("systemd-tmpfiles"), "--root=" + stage.prefix.string(),
                                  "--create", (stage.prefix / "lib/tmpfiles.d/baton.conf").string()});
  BOOST_REQUIRE_MESSAGE(files.exit_code == 0, files.err);
  struct stat st {};
  // The data root of the tmpfiles snippet (the last test checks it is agent.toml's).
  BOOST_REQUIRE(::stat((stage.prefix / "srv/baton").c_str(), &st) == 0);
  BOOST_TEST(S_ISDIR(st.st_mode));
  BOOST_TEST((st.st_mode & 07777) == 0750u);
  BOOST_TEST(std::to_string(st.st_uid) == user[2].str());
}

BOOST_AUTO_TEST_CASE(the_example_configurations_load_and_agree_with_the_units) {
  if (config_dir_is_fixed()) return;
  Staged stage;
  // The examples read "secret" beside them.
  std::ofstream(stage.config / "secret") << "a-secret-of-enough-length-0123456789\n";
  const auto agent = baton::agent::load_agent_config(stage.config / "agent.toml");
  BOOST_TEST(agent.node_id == "node-1");
  BOOST_TEST(agent.secret == "a-secret-of-enough-length-0123456789");
  BOOST_TEST(agent.log_level == "info");
  const std::string agent_unit = read(stage.units / "baton-agent.service");
  BOOST_TEST("-" + agent.data_root.string() == setting(agent_unit, "ReadWritePaths"));
  BOOST_TEST(read(stage.prefix / "lib/tmpfiles.d/baton.conf").find("\nd     " + agent.data_root.string() + " ") !=
             std::string::npos);

  const auto coordinator = baton::coordinator::load_coordinator_config(stage.config / "coordinator.toml");
  BOOST_TEST(coordinator.agent_address == agent.coordinator);
  BOOST_TEST(coordinator.api_token.empty());
  const std::string coordinator_unit = read(stage.units / "baton-coordinator.service");
  BOOST_TEST(coordinator.state_dir == fs::path("/var/lib") / setting(coordinator_unit, "StateDirectory"));
}

BOOST_AUTO_TEST_SUITE_END()

// What `cmake --install` puts in place, checked with systemd's own tools and the daemons'
// own configuration loaders: the generated units pass `systemd-analyze verify`, their
// paths lead to the installed binaries, and the example configurations load.
#include "agent/config.h"
#include "coordinator/daemon/config.h"
#include "tests/support/run_process.h"

#include <boost/test/unit_test.hpp>

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

// The build installed with DESTDIR into a temporary directory, plus what
// `systemd-analyze verify --root` needs to resolve the units' dependencies there:
// systemd's own units and /bin/kill (ExecReload=).
struct Staged {
  fs::path root;
  fs::path units;
  Staged() {
    std::string tmpl = (fs::temp_directory_path() / "baton-stage.XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    root = tmpl;
    const auto install = run_process({"/usr/bin/env", "DESTDIR=" + root.string(), CMAKE_COMMAND, "--install", BATON_BINARY_DIR},
                                     {}, std::chrono::seconds(120));
    BOOST_REQUIRE_MESSAGE(install.exit_code == 0, install.out << install.err);
    units = root / fs::path(BATON_INSTALL_PREFIX).relative_path() / "lib/systemd/system";
    fs::create_directories(root / "usr/lib/systemd");
    fs::copy("/usr/lib/systemd/system", root / "usr/lib/systemd/system", fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::create_directories(root / "bin");
    fs::copy_file(fs::canonical("/bin/kill"), root / "bin/kill");
  }
  ~Staged() {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
  // systemd-analyze verify's findings on `unit` (a path under the stage): "" when clean.
  std::string verify(const fs::path& unit) const {
    const auto result = run_process({"/usr/bin/systemd-analyze", "verify", "--root=" + root.string(),
                                     "/" + fs::relative(unit, root).string()});
    // verify exits 0 for warnings (unknown keys, bad values are "ignoring"), so any output counts.
    return result.exit_code == 0 ? result.out + result.err : "exit " + std::to_string(result.exit_code) + ": " + result.out + result.err;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(units)

BOOST_AUTO_TEST_CASE(the_installed_units_pass_systemd_analyze_verify) {
  if (!fs::exists("/usr/bin/systemd-analyze")) {
    BOOST_TEST_MESSAGE("skipped: systemd-analyze is not installed (scripts/setup.sh installs package systemd)");
    return;
  }
  Staged stage;
  for (const char* unit : {"baton-agent.service", "baton-coordinator.service"}) {
    BOOST_REQUIRE(fs::exists(stage.units / unit));
    const std::string findings = stage.verify(stage.units / unit);
    BOOST_TEST(findings.empty(), unit << ": " << findings);
  }
  // The check can fail: a misspelt hardening key is a finding.
  const std::string broken = replace_all(read(stage.units / "baton-agent.service"), "ProtectSystem=", "ProtectSytem=");
  std::ofstream(stage.units / "baton-broken.service") << broken;
  BOOST_TEST(stage.verify(stage.units / "baton-broken.service").find("ProtectSytem") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_units_start_the_installed_binaries_with_the_installed_configurations) {
  Staged stage;
  for (const auto& [unit, binary, config] : {std::tuple{"baton-agent.service", "baton-agent", "agent.toml"},
                                             std::tuple{"baton-coordinator.service", "baton-coordinator", "coordinator.toml"}}) {
    const std::string text = read(stage.units / unit);
    std::smatch exec;
    BOOST_REQUIRE(std::regex_search(text, exec, std::regex(R"(\nExecStart=(\S+) --config (\S+)\n)")));
    BOOST_TEST(exec[1].str() == std::string(BATON_INSTALL_PREFIX) + "/bin/" + binary);
    BOOST_TEST(fs::exists(stage.root / fs::path(exec[1].str()).relative_path()), exec[1].str() << " not installed");
    BOOST_TEST(fs::exists(stage.root / fs::path(exec[2].str()).relative_path()), exec[2].str() << " not installed");
    BOOST_TEST(exec[2].str() == std::string(BATON_CONFIG_DIR) + "/" + config);
    BOOST_TEST(fs::exists(stage.root / fs::path(exec[2].str()).relative_path().string().append(".example")));
    BOOST_TEST(text.find("\nType=notify\n") != std::string::npos);
    BOOST_TEST(text.find("\nWatchdogSec=") != std::string::npos);
  }
  const fs::path lib = stage.root / fs::path(BATON_INSTALL_PREFIX).relative_path() / "lib";
  BOOST_TEST(read(lib / "sysusers.d/baton.conf").find("\nu     baton ") != std::string::npos);
  BOOST_TEST(read(lib / "tmpfiles.d/baton.conf").find(std::string("d     ") + BATON_DATA_ROOT) != std::string::npos);
  BOOST_TEST(read(stage.units / "baton-agent.service").find(std::string("\nReadWritePaths=") + BATON_DATA_ROOT + "\n") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_reinstall_keeps_an_edited_configuration) {
  Staged stage;
  const fs::path config = stage.root / fs::path(BATON_CONFIG_DIR).relative_path() / "agent.toml";
  std::ofstream(config) << "# edited by the operator\n";
  const auto again = run_process({"/usr/bin/env", "DESTDIR=" + stage.root.string(), CMAKE_COMMAND, "--install", BATON_BINARY_DIR},
                                 {}, std::chrono::seconds(120));
  BOOST_REQUIRE(again.exit_code == 0);
  BOOST_TEST(read(config) == "# edited by the operator\n");
  BOOST_TEST(again.out.find("Keeping: " + config.string()) != std::string::npos, again.out);
}

BOOST_AUTO_TEST_CASE(the_example_configurations_load_with_the_daemons_own_loaders) {
  Staged stage;
  // Point the examples' absolute paths (secret, data root, state) into a scratch directory.
  const fs::path scratch = stage.root / "scratch";
  fs::create_directories(scratch / "data");
  std::ofstream(scratch / "secret") << "a-secret-of-enough-length-0123456789\n";
  const fs::path etc = stage.root / fs::path(BATON_CONFIG_DIR).relative_path();
  const auto localize = [&](const std::string& name) {
    std::string text = read(etc / (name + ".example"));
    text = replace_all(text, std::string(BATON_CONFIG_DIR) + "/secret", (scratch / "secret").string());
    text = replace_all(text, std::string("\"") + BATON_DATA_ROOT + "\"", "\"" + (scratch / "data").string() + "\"");
    text = replace_all(text, "/var/lib/baton-coordinator", (scratch / "state").string());
    std::ofstream(scratch / name) << text;
    return scratch / name;
  };
  const auto agent = baton::agent::load_agent_config(localize("agent.toml"));
  BOOST_TEST(agent.node_id == "node-1");
  BOOST_TEST(agent.data_root == scratch / "data");
  BOOST_TEST(agent.log_level == "info");
  const auto coordinator = baton::coordinator::load_coordinator_config(localize("coordinator.toml"));
  BOOST_TEST(coordinator.api_address == "127.0.0.1:7070");
  BOOST_TEST(coordinator.state_dir == scratch / "state");
}

BOOST_AUTO_TEST_SUITE_END()

// The real units under the machine's systemd: installs this build into a directory under
// /run, loads its units as runtime units (/run/systemd/system), starts the coordinator
// and an agent on loopback, and checks what systemctl reports (active, STATUS=, reload,
// a clean stop). Needs systemd as PID 1, root, and no Baton units installed already;
// otherwise it exits 77 (CTest: skipped) and says why. It leaves the user baton behind.
#include "tests/support/ports.h"
#include "tests/support/run_process.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

using baton::test::run_process;
namespace fs = std::filesystem;

namespace {

const fs::path runtime_units = "/run/systemd/system";

std::string pid1() {
  std::ifstream comm("/proc/1/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

void skip(const std::string& why) {
  std::cout << "skipped: " << why << "\n";
  std::exit(77);
}

struct RequireSystemd {
  RequireSystemd() {
    if (!fs::exists(runtime_units)) {
      skip("PID 1 is '" + pid1() +
           "', not systemd (/run/systemd/system is missing), so the units cannot be started here");
    }
    if (::geteuid() != 0) skip("starting system units and creating the user baton needs root");
    if (!std::string(BATON_INSTALL_CONFIG_DIR).empty()) {
      skip("this build installs configurations to BATON_INSTALL_CONFIG_DIR=" + std::string(BATON_INSTALL_CONFIG_DIR) +
           " whatever the prefix; the test installs under /run only");
    }
    for (const char* unit : {"baton-agent.service", "baton-coordinator.service"}) {
      if (run_process({"/usr/bin/systemctl", "cat", unit}).exit_code == 0) {
        skip(std::string(unit) + " is installed on this machine; the test will not replace it");
      }
    }
  }
};

baton::test::ProcessResult systemctl(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv{"/usr/bin/systemctl"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_process(argv, {}, std::chrono::seconds(100));
}

// `systemctl show -p NAME --value UNIT`, without the newline.
std::string property(const std::string& unit, const std::string& name) {
  std::string value = systemctl({"show", "-p", name, "--value", unit}).out;
  while (!value.empty() && value.back() == '\n') value.pop_back();
  return value;
}

// This build installed under /run (the units' PrivateTmp= hides /tmp), its units loaded;
// everything is unloaded and removed again at the end.
struct LiveInstall {
  baton::test::TempDir dir{"baton-live-test", "/run"};
  fs::path prefix = dir.path;
  LiveInstall() {
    fs::permissions(prefix, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
    const auto install = run_process({CMAKE_COMMAND, "--install", BATON_BINARY_DIR, "--prefix", prefix.string()}, {},
                                     std::chrono::seconds(120));
    BOOST_REQUIRE_MESSAGE(install.exit_code == 0, install.out << install.err);
    const auto users = run_process({"/usr/bin/systemd-sysusers", (prefix / "lib/sysusers.d/baton.conf").string()});
    BOOST_REQUIRE_MESSAGE(users.exit_code == 0, users.err);
    for (const char* unit : {"baton-agent.service", "baton-coordinator.service"}) {
      fs::copy_file(prefix / "lib/systemd/system" / unit, runtime_units / unit);
    }
    BOOST_REQUIRE(systemctl({"daemon-reload"}).exit_code == 0);
  }
  ~LiveInstall() {
    systemctl({"stop", "baton-agent.service", "baton-coordinator.service"});
    std::error_code ignored;
    for (const char* unit : {"baton-agent.service", "baton-coordinator.service"}) {
      fs::remove(runtime_units / unit, ignored);
    }
    systemctl({"daemon-reload"});
    systemctl({"reset-failed", "baton-agent.service", "baton-coordinator.service"});
  }
};

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(RequireSystemd);

BOOST_AUTO_TEST_CASE(the_units_start_report_status_reload_and_stop_under_systemd) {
  LiveInstall live;
  const fs::path etc = live.prefix / "etc/baton";
  {
    std::ofstream(etc / "secret") << "live-units-test-secret-0123456789\n";
    const auto group = run_process({"/usr/bin/chgrp", "baton", (etc / "secret").string()});
    BOOST_REQUIRE_MESSAGE(group.exit_code == 0, group.err);
    fs::permissions(etc / "secret", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  }
  const std::string coordinator = "127.0.0.1:" + std::to_string(baton::test::unused_loopback_port());
  std::ofstream(etc / "coordinator.toml")
      << "agent_address = \"" << coordinator << "\"\napi_address = \"127.0.0.1:" << baton::test::unused_loopback_port()
      << "\"\nsecret_file = \"secret\"\n";
  fs::create_directories(live.prefix / "data");
  std::ofstream(etc / "agent.toml") << "node_id = \"live\"\ncoordinator = \"" << coordinator
                                    << "\"\nsecret_file = \"secret\"\ndata_root = \"" << (live.prefix / "data").string()
                                    << "\"\n";

  // Type=notify: `systemctl start` returns once the daemon said READY=1.
  const auto started = systemctl({"start", "baton-coordinator.service"});
  BOOST_REQUIRE_MESSAGE(started.exit_code == 0, started.err << systemctl({"status", "baton-coordinator.service"}).out);
  BOOST_TEST(property("baton-coordinator.service", "ActiveState") == "active");
  BOOST_TEST(property("baton-coordinator.service", "StatusText").starts_with("idle"));
  const auto agent = systemctl({"start", "baton-agent.service"});
  BOOST_REQUIRE_MESSAGE(agent.exit_code == 0, agent.err << systemctl({"status", "baton-agent.service"}).out);
  BOOST_TEST(property("baton-agent.service", "ActiveState") == "active");
  BOOST_TEST(property("baton-agent.service", "StatusText") == "idle");

  // ExecReload= (SIGHUP): RELOADING=1 then READY=1; the unit stays active.
  BOOST_TEST(systemctl({"reload", "baton-agent.service"}).exit_code == 0);
  BOOST_TEST(property("baton-agent.service", "ActiveState") == "active");

  BOOST_TEST(systemctl({"stop", "baton-agent.service", "baton-coordinator.service"}).exit_code == 0);
  BOOST_TEST(property("baton-agent.service", "Result") == "success");
  BOOST_TEST(property("baton-coordinator.service", "Result") == "success");
}

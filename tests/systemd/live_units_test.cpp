// The real units under a real systemd, when this machine has one to spare: exits 77
// (CTest: skipped) with the reason when it does not. Machines here run without systemd
// as PID 1 (containers, firecracker VMs); docs/systemd.md says how to run it by hand.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace {

std::string pid1() {
  std::ifstream comm("/proc/1/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

struct RequireSystemd {
  RequireSystemd() {
    if (!std::filesystem::exists("/run/systemd/system")) {
      std::cout << "skipped: PID 1 is '" << pid1()
                << "', not systemd (/run/systemd/system is missing), so the units cannot be started here\n";
      std::exit(77);
    }
    std::cout << "skipped: systemd runs here, but starting the units needs an installed build and root; "
                 "run the steps of docs/systemd.md (\"Trying the units\") by hand\n";
    std::exit(77);
  }
};

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(RequireSystemd);

BOOST_AUTO_TEST_CASE(units_start_under_systemd) { BOOST_TEST(std::filesystem::exists("/run/systemd/system")); }

// The entry point of every test executable (cmake/BatonTest.cmake links it into each):
// compiled once per tree rather than once per suite, since it is most of Boost.Test's
// headers. The master suite, which Boost.Test's reports call the module, is named after
// the executable (test_agent, test_journal, ...), as CTest names the test.
#include <boost/test/unit_test.hpp>

#include <filesystem>

namespace {

bool name_the_module() {
  auto& master = boost::unit_test::framework::master_test_suite();
  if (master.argc > 0) master.p_name.value = std::filesystem::path(master.argv[0]).filename().string();
  return true;
}

}  // namespace

int main(int argc, char* argv[]) { return boost::unit_test::unit_test_main(&name_the_module, argc, argv); }

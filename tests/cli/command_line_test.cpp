// The three programs' shared conventions (cli/command_line.h), on the real binaries:
// --version from CMake's project version, usage errors exit 2 naming what is wrong.
#include "tests/support/run_process.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using baton::test::run_process;

namespace {

const std::vector<std::pair<std::string, std::string>> kPrograms{
    {"batonctl", BATONCTL_PATH}, {"baton-coordinator", BATON_COORDINATOR_PATH}, {"baton-agent", BATON_AGENT_PATH}};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_CASE(every_program_prints_its_name_and_the_build_s_version) {
  for (const auto& [name, path] : kPrograms) {
    const auto r = run_process({path, "--version"});
    BOOST_TEST(r.exit_code == 0, name);
    BOOST_TEST(r.out == name + " " + BATON_EXPECTED_VERSION + "\n");
    BOOST_TEST(r.err.empty(), r.err);
  }
}

BOOST_AUTO_TEST_CASE(every_program_s_usage_errors_exit_2_naming_the_option) {
  for (const auto& [name, path] : kPrograms) {
    const auto unknown = run_process({path, "--frobnicate"});
    BOOST_TEST(unknown.exit_code == 2, name << ": " << unknown.err);
    BOOST_TEST(has(unknown.err, "--frobnicate"), unknown.err);
    BOOST_TEST(has(unknown.err, "--help"), unknown.err);
    const auto help = run_process({path, "--help"});
    BOOST_TEST(help.exit_code == 0, name);
    BOOST_TEST(has(help.out, "--version"), help.out);
  }
  for (const std::string daemon : {BATON_COORDINATOR_PATH, BATON_AGENT_PATH}) {
    const auto no_config = run_process({daemon});  // --config is required
    BOOST_TEST(no_config.exit_code == 2, no_config.err);
    BOOST_TEST(has(no_config.err, "--config is required"), no_config.err);
  }
}

BOOST_AUTO_TEST_CASE(batonctl_names_an_unknown_command_and_lists_the_valid_ones) {
  const auto top = run_process({BATONCTL_PATH, "frobnicate"});
  BOOST_TEST(top.exit_code == 2);
  BOOST_TEST(top.err.starts_with("batonctl: unknown command 'frobnicate'; the commands are: plan, submit, status,"),
             top.err);
  const auto plan = run_process({BATONCTL_PATH, "plan", "nosuchproblem"});
  BOOST_TEST(plan.exit_code == 2);
  BOOST_TEST(plan.err.starts_with("batonctl plan: unknown command 'nosuchproblem'; the commands are: "
                                  "redistribution, reduction, allreduce, multicast, buffered-multicast\n"),
             plan.err);
  // A typo gets its probable word, for commands and for options.
  const auto typo = run_process({BATONCTL_PATH, "sumbit", "job.json"});
  BOOST_TEST(typo.exit_code == 2);
  BOOST_TEST(typo.err.starts_with("batonctl: unknown command 'sumbit' (did you mean 'submit'?); the commands are: "),
             typo.err);
  const auto option = run_process({BATONCTL_PATH, "plan", "reduction", "-", "--alog=dp"});
  BOOST_TEST(option.exit_code == 2);
  BOOST_TEST(option.err.starts_with("batonctl plan reduction: unknown option '--alog' (did you mean '--algo'?)\n"),
             option.err);
  // So does a value outside an option's list, named with the list.
  const auto value = run_process({BATONCTL_PATH, "plan", "reduction", "-", "--algo", "dpp"});
  BOOST_TEST(value.exit_code == 2);
  BOOST_TEST(value.err.starts_with("batonctl plan reduction: --algo: 'dpp' (did you mean 'dp'?) is not one of snf, dp, "
                                   "bnb, binomial\n"),
             value.err);
  const auto help = run_process({BATONCTL_PATH, "jobs", "--help"});
  BOOST_TEST(has(help.out, "{table,json}"), help.out);
  const auto none = run_process({BATONCTL_PATH, "plan"});
  BOOST_TEST(none.exit_code == 2);
  BOOST_TEST(none.err.starts_with("batonctl plan: a command is required, one of: redistribution,"), none.err);
  const auto extra = run_process({BATONCTL_PATH, "jobs", "extra"});
  BOOST_TEST(extra.exit_code == 2);
  BOOST_TEST(extra.err.starts_with("batonctl jobs: "), extra.err);
  BOOST_TEST(has(extra.err, "extra"), extra.err);
}

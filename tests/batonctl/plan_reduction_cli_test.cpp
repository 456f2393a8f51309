// `batonctl plan reduction` and `batonctl plan allreduce` as a user runs them: the real
// binary, docs/formats.md's shapes, plans re-checked by the independent validators, and bad
// input refused with exit 2 and one line naming the field.
#include "coordinator/schedule/reduction/validator.h"
#include "tests/support/run_process.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace red = baton::schedule::reduction;
using baton::test::run_process;
using nlohmann::json;

namespace {

baton::test::ProcessResult plan(const std::string& problem, const std::string& input,
                                const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{BATONCTL_PATH, "plan", problem, "-"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run_process(argv, input);
}

red::Transfer transfer_of(const json& t) {
  return {t.at("src").get<std::size_t>(), t.at("dst").get<std::size_t>(), t.at("start").get<double>(),
          t.at("end").get<double>()};
}

// Exit 2, nothing on stdout, one line on stderr that mentions `field`.
void expect_refused(const std::string& problem, const std::string& input, const std::string& field,
                    const std::vector<std::string>& extra = {}) {
  BOOST_TEST_CONTEXT(problem << " " << input.substr(0, 80)) {
    const auto r = plan(problem, input, extra);
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.out.empty());
    BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    BOOST_TEST(r.err.find(field) != std::string::npos, r.err);
  }
}

const std::string kFig1 = R"({"times": [10, 5, 5, 5, 4, 2, 2], "destination": 0})";

}  // namespace

BOOST_AUTO_TEST_CASE(every_reduction_algorithm_prints_a_valid_plan) {
  const red::Problem problem{.times = {10, 5, 5, 5, 4, 2, 2}, .destination = 0};
  for (const std::string algo : {"snf", "dp", "bnb", "binomial"}) {
    BOOST_TEST_CONTEXT(algo) {
      const std::string input = algo == "dp" ? R"({"times": [10, 5, 5, 5, 2, 2, 2], "destination": 0})" : kFig1;
      const red::Problem p = algo == "dp" ? red::Problem{{10, 5, 5, 5, 2, 2, 2}, 0} : problem;
      const auto r = plan("reduction", input, {"--algo", algo});
      BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
      BOOST_TEST(r.err.empty());
      const json out = json::parse(r.out);
      BOOST_TEST(out.at("problem") == "reduction");
      BOOST_TEST(out.at("algorithm") == algo);
      red::Schedule schedule;
      for (const json& t : out.at("transfers")) schedule.transfers.push_back(transfer_of(t));
      const red::Verdict verdict = red::validate_reduction(p, schedule);
      BOOST_TEST_REQUIRE(!verdict.broken, verdict.broken.value_or("").reason);
      BOOST_TEST(out.at("makespan").get<double>() == verdict.makespan);
    }
  }
}

BOOST_AUTO_TEST_CASE(snf_is_the_default_and_bnb_finds_the_fig8_optimum) {
  const auto snf = plan("reduction", kFig1);
  BOOST_TEST_REQUIRE(snf.exit_code == 0, snf.err);
  BOOST_TEST(json::parse(snf.out).at("algorithm") == "snf");
  // Fig. 8 with x = 1.25: SNF takes x + 3, the optimum is 4.
  const std::string fig8 = R"({"times": [1.25, 1.25, 1.25, 1.25, 1, 1, 1, 1, 1, 1, 1, 1]})";
  const auto heuristic = plan("reduction", fig8, {"--algo", "snf"});
  const auto optimum = plan("reduction", fig8, {"--algo", "bnb"});
  const auto dp = plan("reduction", fig8, {"--algo", "dp"});
  BOOST_TEST_REQUIRE(optimum.exit_code == 0, optimum.err);
  BOOST_TEST_REQUIRE(dp.exit_code == 0, dp.err);
  BOOST_TEST(json::parse(heuristic.out).at("makespan").get<double>() == 4.25);
  BOOST_TEST(json::parse(optimum.out).at("makespan").get<double>() == 4.0);
  BOOST_TEST(json::parse(dp.out).at("makespan").get<double>() == 4.0);
}

BOOST_AUTO_TEST_CASE(allreduce_prints_phases_and_a_root) {
  const std::vector<double> times{10, 5, 5, 5, 4, 2, 2};
  for (const std::string algo : {"snf-fnf", "binomial"}) {
    BOOST_TEST_CONTEXT(algo) {
      const auto r = plan("allreduce", kFig1, {"--algo", algo});
      BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
      const json out = json::parse(r.out);
      BOOST_TEST(out.at("problem") == "allreduce");
      BOOST_TEST(out.at("algorithm") == algo);
      red::AllReduceSchedule schedule{.root = out.at("root").get<std::size_t>(), .transfers = {}};
      for (const json& t : out.at("transfers")) {
        const std::string phase = t.at("phase");
        BOOST_TEST((phase == "reduce" || phase == "broadcast"));
        schedule.transfers.push_back({transfer_of(t), phase == "reduce" ? red::Phase::reduce : red::Phase::broadcast});
      }
      const red::Verdict verdict = red::validate_allreduce(times, schedule);
      BOOST_TEST_REQUIRE(!verdict.broken, verdict.broken.value_or("").reason);
      BOOST_TEST(out.at("makespan").get<double>() == verdict.makespan);
    }
  }
  const auto snf_fnf = plan("allreduce", kFig1);
  BOOST_TEST(json::parse(snf_fnf.out).at("root") == 5);  // the fastest node
  // allreduce ignores "destination", even one that is not a node.
  BOOST_TEST(plan("allreduce", R"({"times": [1, 2], "destination": 7})").exit_code == 0);
}

BOOST_AUTO_TEST_CASE(a_file_and_a_single_node) {
  const std::string path = "test_plan_reduction_cli_input.json";
  std::ofstream(path) << kFig1;
  const auto r = run_process({BATONCTL_PATH, "plan", "reduction", path});
  std::remove(path.c_str());
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto alone = plan("reduction", R"({"times": [3]})");
  BOOST_TEST_REQUIRE(alone.exit_code == 0, alone.err);
  BOOST_TEST(json::parse(alone.out).at("makespan").get<double>() == 0.0);
  BOOST_TEST(json::parse(alone.out).at("transfers").empty());
}

BOOST_AUTO_TEST_CASE(bad_input_is_refused_with_the_field_named) {
  for (const std::string problem : {"reduction", "allreduce"}) {
    expect_refused(problem, "", "input");
    expect_refused(problem, "{\"times\": [1, 2", "input");
    expect_refused(problem, "[1, 2]", "input");
    expect_refused(problem, "{}", "times");
    expect_refused(problem, R"({"times": []})", "times");
    expect_refused(problem, R"({"times": 3})", "times");
    expect_refused(problem, R"({"times": [1, 0, 2]})", "times[1]");
    expect_refused(problem, R"({"times": [1, -2]})", "times[1]");
    expect_refused(problem, R"({"times": [1, "fast"]})", "times[1]");
    expect_refused(problem, R"({"times": [1, 2e15]})", "times[1]");
    expect_refused(problem, R"({"times": [1, 2], "speed": 3})", "speed");
  }
  expect_refused("reduction", R"({"times": [1, 2], "destination": 2})", "destination");
  expect_refused("reduction", R"({"times": [1, 2], "destination": -1})", "destination");
  expect_refused("reduction", R"({"times": [1, 2], "destination": 0.5})", "destination");
  expect_refused("reduction", R"({"times": [1, 2, 3, 4]})", "distinct", {"--algo", "dp"});
  std::string many = R"({"times": [1)";
  for (int i = 0; i < 30; ++i) many += ", 2";
  expect_refused("reduction", many + "]}", "24 nodes", {"--algo", "bnb"});
  std::string huge = R"({"times": [1)";
  for (int i = 0; i < 600; ++i) huge += ", " + std::to_string(1 + i % 2);
  expect_refused("reduction", huge + "]}", "512 nodes", {"--algo", "dp"});
}

BOOST_AUTO_TEST_CASE(an_unknown_algorithm_is_a_usage_error) {
  const auto r = plan("reduction", kFig1, {"--algo", "fastest"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty());
  const auto help = run_process({BATONCTL_PATH, "plan", "reduction", "--help"});
  BOOST_TEST(help.exit_code == 0);
  BOOST_TEST(help.out.find("24 nodes") != std::string::npos);
}

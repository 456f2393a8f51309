// `batonctl plan redistribution` as a user runs it: the real binary, docs/formats.md's shapes,
// its plans checked by the independent validator, and every kind of bad input refused
// with exit 2 and one line naming the field.
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "coordinator/schedule/kpbs/validator.h"
#include "tests/support/run_process.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

namespace kpbs = baton::schedule::kpbs;
using baton::test::run_process;
using nlohmann::json;

namespace {

baton::test::ProcessResult plan(const std::string& input, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{BATONCTL_PATH, "plan", "redistribution", "-"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run_process(argv, input);
}

kpbs::Schedule schedule_of(const json& out) {
  kpbs::Schedule s;
  for (const json& step : out.at("steps")) {
    kpbs::Step st;
    st.duration = step.at("duration").get<double>();
    for (const json& t : step.at("transfers")) {
      st.transfers.push_back(
          {t.at("src").get<std::size_t>(), t.at("dst").get<std::size_t>(), t.at("amount").get<double>()});
    }
    s.steps.push_back(std::move(st));
  }
  return s;
}

const std::string kShortPaper = R"({"k": 4, "beta": 3, "matrix": [[3,2,0,0],[2,0,2,0],[0,0,4,2],[0,1.5,1,1]]})";

}  // namespace

BOOST_AUTO_TEST_CASE(normalized_form_for_every_algorithm) {
  const kpbs::Matrix m{{3, 2, 0, 0}, {2, 0, 2, 0}, {0, 0, 4, 2}, {0, 1.5, 1, 1}};
  for (const std::string algo : {"oggp", "ggp", "h-weight", "h-degree", "all-at-once"}) {
    BOOST_TEST_CONTEXT(algo) {
      const auto r = plan(kShortPaper, {"--algo", algo});
      BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
      BOOST_TEST(r.err.empty());
      const json out = json::parse(r.out);
      BOOST_TEST(out.at("problem") == "redistribution");
      BOOST_TEST(out.at("algorithm") == algo);
      BOOST_TEST(out.at("k") == 4);
      BOOST_TEST(out.at("beta") == 3.0);
      BOOST_TEST(out.at("lower_bound").get<double>() == 16.0);
      const kpbs::Validation v = kpbs::validate(m, 4, 3.0, schedule_of(out), {.kpbs_rules = algo != "all-at-once"});
      BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
      BOOST_TEST(out.at("cost").get<double>() == v.cost, boost::test_tools::tolerance(1e-9));
      if (algo != "all-at-once") BOOST_TEST(v.cost >= 16.0);
    }
  }
}

// docs/formats.md's contract: without --algo the plan command keeps OGGP (the coordinator's
// jobs default to oggp-plus: job_spec_test).
BOOST_AUTO_TEST_CASE(default_algorithm_is_oggp_and_file_argument_works) {
  const auto r = plan(kShortPaper);
  BOOST_TEST_REQUIRE(r.exit_code == 0);
  BOOST_TEST(json::parse(r.out).at("algorithm") == "oggp");
}

// docs/formats.md's platform example: d = 12.5 MB/s, k = min(2, 2, ⌊37.5/12.5⌋) = 2.
BOOST_AUTO_TEST_CASE(platform_form_gives_whole_bytes_and_seconds) {
  const std::string input = R"({"platform": {"sender_rate": 12500000, "receiver_rate": 12500000,
      "backbone_rate": 37500000, "step_startup": 0.002},
      "traffic": [[10000000, 0], [2500000, 7000000]]})";
  const auto r = plan(input);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const json out = json::parse(r.out);
  BOOST_TEST(out.at("k") == 2);
  BOOST_TEST(out.at("beta") == 0.002);
  for (const json& step : out.at("steps")) {
    for (const json& t : step.at("transfers")) BOOST_TEST(t.at("amount").is_number_integer());
  }
  const kpbs::Matrix bytes{{10000000, 0}, {2500000, 7000000}};
  const kpbs::Validation v = kpbs::validate(bytes, 2, 0.002, schedule_of(out), {.rate = 12500000, .tolerance = 0});
  BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
  // η: W = 0.8 + 0.2 s at sender... receiver 0 gets 12.5 MB = 1 s; P/k = 1.56/2; Δ = 2.
  BOOST_TEST(out.at("lower_bound").get<double>() == 1.0 + 2 * 0.002, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(all_at_once_says_why_its_cost_is_below_the_lower_bound) {
  // examples/redistribution-platform.json: d = 12.5 MB/s, k = 3, beta = 2 ms.
  const std::string input = R"({"platform": {"sender_rate": 12500000, "receiver_rate": 12500000,
      "backbone_rate": 37500000, "step_startup": 0.002},
      "traffic": [[30000000, 20000000, 0, 0], [20000000, 0, 20000000, 0],
                  [0, 0, 40000000, 20000000], [0, 15000000, 10000000, 10000000]]})";
  const auto baseline = plan(input, {"--algo", "all-at-once"});
  BOOST_TEST_REQUIRE(baseline.exit_code == 0, baseline.err);
  const json out = json::parse(baseline.out);
  // One step as long as its longest transfer, 40 MB / d = 3.2 s, plus beta.
  BOOST_TEST(out.at("cost").get<double>() == 3.202, boost::test_tools::tolerance(1e-12));
  // η: receiver 2 gets 70 MB = 5.6 s (more than 185 MB / (k d) = 4.93 s); sender 3 has 3
  // transfers and 9 transfers need ceil(9 / 3) = 3 steps: 3 start-ups.
  BOOST_TEST(out.at("lower_bound").get<double>() == 5.6 + 3 * 0.002, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(out.at("note").get<std::string>().find("not comparable") != std::string::npos);
  const auto oggp = plan(input, {"--algo", "oggp"});
  BOOST_TEST_REQUIRE(oggp.exit_code == 0, oggp.err);
  BOOST_TEST(!json::parse(oggp.out).contains("note"));
}

// Nodes of their own rates: 2 senders at 1 and 2 MB/s, 2 receivers at 1 and 3 MB/s. What
// the links allow, worked by hand: sender 1 pushes 3.2 MB at 2 MB/s = 1.6 s, more than
// sender 0 (1.5 s), receiver 0 (1.2 s) or receiver 1 (3.5 / 3 = 1.17 s).
BOOST_AUTO_TEST_CASE(nodes_of_their_own_rates_plan_fluid_and_auto) {
  const std::string input = R"({"platform": {"sender_rate": 1000000, "receiver_rate": 1000000,
      "sender_rates": [1000000, 2000000], "receiver_rates": [1000000, 3000000],
      "backbone_rate": 1000000000, "step_startup": 0.001},
      "traffic": [[1000000, 500000], [200000, 3000000]]})";
  const kpbs::Matrix traffic{{1000000, 500000}, {200000, 3000000}};
  const std::vector<double> send_rate{1e6, 2e6}, receive_rate{1e6, 3e6};
  for (const std::string algo : {"fluid", "auto"}) {
    BOOST_TEST_CONTEXT(algo) {
      const auto r = plan(input, {"--algo", algo});
      BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
      const json out = json::parse(r.out);
      // Where the nodes differ, the fluid plan is the one of least predicted time: it runs
      // every link at once for T*, where any matching step leaves a fast node idle.
      BOOST_TEST(out.at("algorithm") == "fluid");
      BOOST_TEST(out.at("bandwidth_bound").get<double>() == 1.6, boost::test_tools::tolerance(1e-12));
      BOOST_TEST(out.at("cost").get<double>() == 1.601, boost::test_tools::tolerance(1e-12));
      BOOST_TEST(out.at("note").get<std::string>().find("fluid is not a KPBS schedule") != std::string::npos);
      // Every byte owed, and no node above its rate in any step (checked here, not by the
      // planner's own validator).
      kpbs::Matrix moved(2, 2);
      for (const json& step : out.at("steps")) {
        const double seconds = step.at("duration").get<double>();
        std::vector<double> sent(2), received(2);
        for (const json& t : step.at("transfers")) {
          const auto src = t.at("src").get<std::size_t>(), dst = t.at("dst").get<std::size_t>();
          const double amount = t.at("amount").get<double>();
          moved.at(src, dst) += amount;
          sent[src] += amount;
          received[dst] += amount;
        }
        for (std::size_t i = 0; i < 2; ++i) {
          BOOST_TEST(sent[i] / seconds <= send_rate[i] * (1 + 1e-9));
          BOOST_TEST(received[i] / seconds <= receive_rate[i] * (1 + 1e-9));
        }
      }
      for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t j = 0; j < 2; ++j) BOOST_TEST(moved.at(i, j) == traffic.at(i, j));
      BOOST_TEST(out.contains("candidates") == (algo == "auto"));
    }
  }
  const json chosen = json::parse(plan(input, {"--algo", "auto"}).out);
  const json& candidates = chosen.at("candidates");
  BOOST_TEST(candidates.size() == 6U);
  BOOST_TEST(candidates.front().at("algorithm") == "fluid");
  for (std::size_t c = 1; c < candidates.size(); ++c) {
    BOOST_TEST(candidates[c - 1].at("predicted_seconds").get<double>() <=
               candidates[c].at("predicted_seconds").get<double>());
  }
}

BOOST_AUTO_TEST_CASE(fluid_and_auto_need_the_platform_form) {
  for (const std::string algo : {"fluid", "auto"}) {
    const auto r = plan(kShortPaper, {"--algo", algo});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err == "batonctl plan redistribution: --algo " + algo +
                            ": plans on each node's rate, which only the platform form (platform, traffic) gives\n");
  }
}

BOOST_AUTO_TEST_CASE(bad_input_exits_2_naming_the_field) {
  const std::string big_row = "[" + std::string(1024 * 2, ' ') + "]";
  std::string huge = R"({"k": 1, "beta": 1, "matrix": [)";
  for (int i = 0; i < 1025; ++i) huge += (i ? ",[1]" : "[1]");
  huge += "]}";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"", "input: empty"},
      {"   \n", "input: empty"},
      {"{\"k\": 2,", "input: not valid JSON"},
      {"[1, 2]", "input: must be an object"},
      {R"({"beta": 1, "matrix": [[1]]})", "k: missing"},
      {R"({"k": 0, "beta": 1, "matrix": [[1]]})", "k: must be >= 1"},
      {R"({"k": -3, "beta": 1, "matrix": [[1]]})", "k: must be >= 1"},
      {R"({"k": 2.5, "beta": 1, "matrix": [[1]]})", "k: must be a whole number"},
      {R"({"k": "2", "beta": 1, "matrix": [[1]]})", "k: must be a number"},
      {R"({"k": 2, "beta": 0, "matrix": [[1]]})", "beta: must be > 0"},
      {R"({"k": 2, "matrix": [[1]]})", "beta: missing"},
      {R"({"k": 2, "beta": 1, "matrix": []})", "matrix: must hold at least 1 element"},
      {R"({"k": 2, "beta": 1, "matrix": [[]]})", "matrix[0]: must hold at least 1 element"},
      {R"({"k": 2, "beta": 1, "matrix": [[1, 2], [3]]})", "matrix[1]: has 1 entries"},
      {R"({"k": 2, "beta": 1, "matrix": [[1, -2]]})", "matrix[0][1]: must be >= 0"},
      {R"({"k": 2, "beta": 1, "matrix": [[1, "x"]]})", "matrix[0][1]: must be a number"},
      {R"({"k": 2, "beta": 1, "matrix": [[1, null]]})", "matrix[0][1]: must be a number"},
      {R"({"k": 2, "beta": 1, "matrix": [1, 2]})", "matrix[0]: must be an array"},
      {R"({"k": 2, "beta": 1e-9, "matrix": [[1e9]]})", "matrix[0][0]: lasts more than 2^32"},
      {R"({"k": 2, "beta": 1, "matrix": [[1]], "betta": 2})", "betta: unknown field"},
      {huge, "matrix: holds 1025 elements, more than the limit of 1024"},
      {R"({"k": 2, "beta": 1, "matrix": [[1]], "traffic": [[1]]})", "input: give either"},
      {R"({"traffic": [[1]]})", "platform: missing"},
      {R"({"platform": {"sender_rate": 1, "receiver_rate": 1, "backbone_rate": 1}, "traffic": [[1]]})",
       "platform.step_startup: missing"},
      {R"({"platform": {"sender_rate": -1, "receiver_rate": 1, "backbone_rate": 1, "step_startup": 1}, "traffic": [[1]]})",
       "platform.sender_rate: must be >= 0"},
      {R"({"platform": {"sender_rate": 1, "receiver_rate": 1, "backbone_rate": 1, "step_startup": 1}, "traffic": [[1.5]]})",
       "traffic[0][0]: must be a whole number"},
      {R"({"platform": {"sender_rate": 1, "receiver_rate": 1, "backbone_rate": 1, "step_startup": 1, "x": 1}, "traffic": [[1]]})",
       "platform.x: unknown field"},
  };
  for (const auto& [input, field] : cases) {
    BOOST_TEST_CONTEXT(input.substr(0, 120)) {
      const auto r = plan(input);
      BOOST_TEST(r.exit_code == 2);
      BOOST_TEST(r.out.empty());
      BOOST_TEST(r.err.find(field) != std::string::npos, "stderr: " << r.err);
      BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
  }
}

BOOST_AUTO_TEST_CASE(inputs_above_256_mib_are_refused_unread) {
  char path[] = "/tmp/baton-huge-XXXXXX";
  const int fd = mkstemp(path);
  BOOST_TEST_REQUIRE(fd >= 0);
  BOOST_TEST_REQUIRE(ftruncate(fd, off_t{257} << 20) == 0);  // sparse: no disk used
  close(fd);
  const auto r = run_process({BATONCTL_PATH, "plan", "redistribution", path});
  unlink(path);
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("larger than 256 MiB") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
  BOOST_TEST(run_process({BATONCTL_PATH, "plan", "redistribution", "-", "--algo", "fastest"}, kShortPaper).exit_code ==
             2);
  BOOST_TEST(run_process({BATONCTL_PATH, "plan", "redistribution"}).exit_code == 2);
  BOOST_TEST(run_process({BATONCTL_PATH, "plan", "redistribution", "/nonexistent/p.json"}).exit_code == 2);
  BOOST_TEST(run_process({BATONCTL_PATH}).exit_code == 2);
}

BOOST_AUTO_TEST_CASE(help_teaches_the_input_format) {
  const auto r = run_process({BATONCTL_PATH, "plan", "redistribution", "--help"});
  BOOST_TEST(r.exit_code == 0);
  for (const char* needle : {"normalized form", "platform form", "backbone_rate", "oggp", "all-at-once", "Example"}) {
    BOOST_TEST(r.out.find(needle) != std::string::npos, needle);
  }
}

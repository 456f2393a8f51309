// `batonctl plan multicast` as a user runs it: the real binary, docs/formats.md's shapes, its
// plans checked by the independent validator, and every kind of bad input refused with
// exit 2 and one line naming the field.
#include "coordinator/schedule/multicast/algorithms.h"
#include "coordinator/schedule/multicast/lower_bound.h"
#include "coordinator/schedule/multicast/validator.h"
#include "tests/support/run_process.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace mc = baton::schedule::multicast;
using baton::test::run_process;
using nlohmann::json;

namespace {

baton::test::ProcessResult plan(const std::string& input, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{BATONCTL_PATH, "plan", "multicast", "-"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run_process(argv, input);
}

std::vector<mc::TaskList> tasks_of(const json& out) {
  std::vector<mc::TaskList> tasks;
  for (const json& node : out.at("tasks")) {
    mc::TaskList list;
    for (const json& t : node) {
      const std::string op = t.at("op").get<std::string>();
      BOOST_TEST((op == "send" || op == "recv"));
      list.push_back({op == "send" ? mc::Op::send : mc::Op::recv, t.at("peer").get<std::size_t>(),
                      t.at("multicast").get<std::size_t>(), t.at("start").get<double>(), t.at("end").get<double>()});
    }
    tasks.push_back(std::move(list));
  }
  return tasks;
}

// The paper's Section 6 example: P0, P1 send in 1 and receive in 3; P2, P3 send in 2 and
// receive in 6; P0 -> {1, 2}, P1 -> {2, 3}, P2 -> {0, 1, 3}.
const std::string kFigure4 = R"({
  "nodes": [{"send_fixed": 1, "send_per_byte": 0, "recv_fixed": 3, "recv_per_byte": 0},
            {"send_fixed": 1, "send_per_byte": 0, "recv_fixed": 3, "recv_per_byte": 0},
            {"send_fixed": 2, "send_per_byte": 0, "recv_fixed": 6, "recv_per_byte": 0},
            {"send_fixed": 2, "send_per_byte": 0, "recv_fixed": 6, "recv_per_byte": 0}],
  "link_per_byte": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
  "multicasts": [{"source": 0, "bytes": 1000, "destinations": [1, 2]},
                 {"source": 1, "bytes": 1000, "destinations": [2, 3]},
                 {"source": 2, "bytes": 1000, "destinations": [0, 1, 3]}]})";

mc::Problem figure_4_problem() {
  mc::Problem p;
  p.nodes = {{1, 0, 3, 0}, {1, 0, 3, 0}, {2, 0, 6, 0}, {2, 0, 6, 0}};
  p.link_per_byte = mc::uniform_links(4, 0);
  p.multicasts = {{0, 1000, {1, 2}}, {1, 1000, {2, 3}}, {2, 1000, {0, 1, 3}}};
  return p;
}

// A small heterogeneous instance with a link matrix, as the docs/formats.md example.
const std::string kSmall = R"({
  "nodes": [{"send_fixed": 80e-6, "send_per_byte": 1e-9, "recv_fixed": 90e-6, "recv_per_byte": 2e-9},
            {"send_fixed": 300e-6, "send_per_byte": 5e-9, "recv_fixed": 200e-6, "recv_per_byte": 1e-9},
            {"send_fixed": 120e-6, "send_per_byte": 1e-10, "recv_fixed": 400e-6, "recv_per_byte": 1e-8}],
  "link_per_byte": [[0, 8e-9, 5.2e-8], [8e-9, 0, 8e-9], [5.2e-8, 8e-9, 0]],
  "multicasts": [{"source": 0, "bytes": 1048576, "destinations": [1, 2]},
                 {"source": 2, "bytes": 1024, "destinations": [0, 1]},
                 {"source": 0, "bytes": 0, "destinations": []}]})";

mc::Problem small_problem() {
  mc::Problem p;
  p.nodes = {{80e-6, 1e-9, 90e-6, 2e-9}, {300e-6, 5e-9, 200e-6, 1e-9}, {120e-6, 1e-10, 400e-6, 1e-8}};
  p.link_per_byte = {{0, 8e-9, 5.2e-8}, {8e-9, 0, 8e-9}, {5.2e-8, 8e-9, 0}};
  p.multicasts = {{0, 1048576, {1, 2}}, {2, 1024, {0, 1}}, {0, 0, {}}};
  return p;
}

void expect_bad_input(const std::string& input, const std::string& fragment,
                      const std::vector<std::string>& extra = {}) {
  BOOST_TEST_CONTEXT(fragment) {
    const auto r = plan(input, extra);
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.out.empty());
    BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
    BOOST_TEST(r.err.find(fragment) != std::string::npos, r.err);
  }
}

// kSmall with one piece of text replaced.
std::string small_with(const std::string& from, const std::string& to) {
  std::string text = kSmall;
  const std::size_t at = text.find(from);
  BOOST_TEST_REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_gives_a_valid_plan_in_the_documented_shape) {
  const mc::Problem problem = small_problem();
  for (const std::string& algo : mc::algorithm_names()) {
    BOOST_TEST_CONTEXT(algo) {
      const auto r = plan(kSmall, {"--algo", algo});
      BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
      BOOST_TEST(r.err.empty());
      const json out = json::parse(r.out);
      BOOST_TEST(out.at("problem") == "multicast");
      BOOST_TEST(out.at("algorithm") == algo);
      const std::vector<mc::TaskList> tasks = tasks_of(out);
      BOOST_TEST_REQUIRE(tasks.size() == 3u);
      const mc::Validation v = mc::validate(problem, tasks);
      BOOST_TEST(v.ok(), (v.ok() ? "" : v.errors.front()));
      BOOST_TEST(out.at("completion_time").get<double>() == v.completion_time, boost::test_tools::tolerance(1e-12));
      BOOST_TEST(out.at("lower_bound").get<double>() == mc::earliest_reach_lower_bound(problem),
                 boost::test_tools::tolerance(1e-12));
      BOOST_TEST(out.at("lower_bound").get<double>() <= out.at("completion_time").get<double>());
    }
  }
}

BOOST_AUTO_TEST_CASE(the_papers_example_through_the_command_line) {
  // Figure 4(b): ECF's last delivery completes at 19.
  const auto r = plan(kFigure4, {"--algo", "ecf"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const json out = json::parse(r.out);
  BOOST_TEST(out.at("completion_time").get<double>() == 19.0);
  BOOST_TEST(mc::validate(figure_4_problem(), tasks_of(out)).ok());
}

BOOST_AUTO_TEST_CASE(the_default_algorithm_is_wrp) {
  const auto r = plan(kFigure4);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(json::parse(r.out).at("algorithm") == "wrp");
}

BOOST_AUTO_TEST_CASE(one_number_means_the_same_link_for_every_pair) {
  std::string scalar = kFigure4;
  const std::string matrix = R"([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])";
  scalar.replace(scalar.find(matrix), matrix.size(), "0");
  for (const std::string algo : {"ecfp", "wr"}) {
    const auto a = plan(kFigure4, {"--algo", algo});
    const auto b = plan(scalar, {"--algo", algo});
    BOOST_TEST_REQUIRE(a.exit_code == 0, a.err);
    BOOST_TEST_REQUIRE(b.exit_code == 0, b.err);
    BOOST_TEST(a.out == b.out);
  }
}

BOOST_AUTO_TEST_CASE(a_seed_reproduces_a_random_plan) {
  for (const std::string algo : {"rrs", "rrsp"}) {
    const auto a = plan(kFigure4, {"--algo", algo, "--seed", "42"});
    const auto b = plan(kFigure4, {"--algo", algo, "--seed", "42"});
    BOOST_TEST_REQUIRE(a.exit_code == 0, a.err);
    BOOST_TEST(a.out == b.out);
    BOOST_TEST(mc::validate(figure_4_problem(), tasks_of(json::parse(a.out))).ok());
  }
}

BOOST_AUTO_TEST_CASE(a_file_argument_works_like_stdin) {
  const auto r = run_process({BATONCTL_PATH, "plan", "multicast", "/nonexistent/multicast.json"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err.find("cannot open") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(malformed_documents) {
  expect_bad_input("", "input: empty");
  expect_bad_input("{\"nodes\": [", "not valid JSON");
  expect_bad_input("[1, 2]", "input: must be an object");
  expect_bad_input(R"({"link_per_byte": 0, "multicasts": []})", "nodes: missing");
  expect_bad_input(small_with("\"multicasts\"", "\"extra\": 1, \"multicasts\""), "extra: unknown field");
  expect_bad_input(R"({"nodes": [], "link_per_byte": 0, "multicasts": []})", "nodes: must hold at least 1");
}

BOOST_AUTO_TEST_CASE(bad_node_costs) {
  expect_bad_input(small_with("\"send_fixed\": 80e-6", "\"send_fixed\": -1"), "nodes[0].send_fixed: must be >= 0");
  expect_bad_input(small_with(", \"recv_per_byte\": 1e-9}", "}"), "nodes[1].recv_per_byte: missing");
  expect_bad_input(small_with("\"recv_fixed\": 400e-6", "\"recv_fixed\": \"fast\""),
                   "nodes[2].recv_fixed: must be a number");
  expect_bad_input(small_with("\"send_per_byte\": 1e-9", "\"send_per_byte\": 2"),
                   "nodes[0].send_per_byte: must be <= 1");
  expect_bad_input(small_with("\"recv_fixed\": 90e-6", "\"recv_fixed\": 1e9"), "nodes[0].recv_fixed: must be <= 3600");
}

BOOST_AUTO_TEST_CASE(bad_link_matrices) {
  expect_bad_input(small_with("[8e-9, 0, 8e-9]", "[8e-9, 0]"), "link_per_byte[1]: must be an array of 3");
  expect_bad_input(small_with("[8e-9, 0, 8e-9], ", ""), "link_per_byte: must be a number or a 3 x 3 matrix");
  expect_bad_input(small_with("[[0, 8e-9", "[[0, -8e-9"), "link_per_byte[0][1]: must be >= 0");
  expect_bad_input(small_with("[[0, 8e-9, 5.2e-8], [8e-9, 0, 8e-9], [5.2e-8, 8e-9, 0]]", "\"gigabit\""),
                   "link_per_byte: must be a number or a 3 x 3 matrix");
  expect_bad_input(small_with("[[0, 8e-9, 5.2e-8], [8e-9, 0, 8e-9], [5.2e-8, 8e-9, 0]]", "-1"),
                   "link_per_byte: must be >= 0");
}

BOOST_AUTO_TEST_CASE(bad_multicasts) {
  expect_bad_input(small_with("\"source\": 2", "\"source\": 5"),
                   "multicasts[1].source: node 5 is out of range (nodes: 3)");
  expect_bad_input(small_with("\"source\": 2", "\"source\": -1"), "multicasts[1].source: must be >= 0");
  expect_bad_input(small_with("\"destinations\": [1, 2]", "\"destinations\": [1, 7]"),
                   "multicasts[0].destinations[1]: node 7 is out of range");
  expect_bad_input(small_with("\"destinations\": [1, 2]", "\"destinations\": [0, 1]"),
                   "multicasts[0].destinations[0]: node 0 is the multicast's own source");
  expect_bad_input(small_with("\"destinations\": [1, 2]", "\"destinations\": [2, 1, 2]"),
                   "multicasts[0].destinations[2]: node 2 repeats multicasts[0].destinations[0]");
  expect_bad_input(small_with("\"bytes\": 1024", "\"bytes\": 10.5"), "multicasts[1].bytes: must be a whole number");
  expect_bad_input(small_with("\"bytes\": 1024", "\"bytes\": -3"), "multicasts[1].bytes: must be >= 0");
  expect_bad_input(small_with("\"bytes\": 1024", "\"bytes\": 1e300"), "multicasts[1].bytes: must be <=");
  expect_bad_input(small_with("\"bytes\": 1024, ", ""), "multicasts[1].bytes: missing");
  expect_bad_input(small_with("\"destinations\": []", "\"destinations\": [], \"to\": 1"),
                   "multicasts[2].to: unknown field");
  expect_bad_input(small_with("\"destinations\": []", "\"destinations\": 3"),
                   "multicasts[2].destinations: must be an array");
}

BOOST_AUTO_TEST_CASE(sizes_beyond_the_limits) {
  const auto nodes = [](int n) {
    json list = json::array();
    for (int i = 0; i < n; ++i) {
      list.push_back({{"send_fixed", 1e-4}, {"send_per_byte", 0}, {"recv_fixed", 1e-4}, {"recv_per_byte", 0}});
    }
    return list;
  };
  const json too_many_nodes{{"nodes", nodes(257)}, {"link_per_byte", 0}, {"multicasts", json::array()}};
  expect_bad_input(too_many_nodes.dump(), "nodes: holds 257 elements, more than the limit of 256");

  // 50 broadcasts on 200 nodes name 9950 destinations, more than 8192.
  json too_many_deliveries{{"nodes", nodes(200)}, {"link_per_byte", 0}, {"multicasts", json::array()}};
  for (int s = 0; s < 50; ++s) {
    json destinations = json::array();
    for (int d = 0; d < 200; ++d) {
      if (d != s) destinations.push_back(d);
    }
    too_many_deliveries["multicasts"].push_back({{"source", s}, {"bytes", 1}, {"destinations", destinations}});
  }
  expect_bad_input(too_many_deliveries.dump(), "destinations in all (the limit)");
}

BOOST_AUTO_TEST_CASE(bad_options) {
  const auto unknown = plan(kFigure4, {"--algo", "fefp"});
  BOOST_TEST(unknown.exit_code == 2);
  BOOST_TEST(unknown.out.empty());
  for (const char* seed : {"abc", "-1"}) {  // CLI11 alone would read -1 as 2^64 - 1
    const auto bad_seed = plan(kFigure4, {"--seed", seed});
    BOOST_TEST(bad_seed.exit_code == 2);
    BOOST_TEST(bad_seed.out.empty());
  }
}

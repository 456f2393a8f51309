// `batonctl plan buffered-multicast` as a user runs it: the real binary, docs/formats.md's shapes,
// its plans re-checked by the independent validator, and bad input refused with exit 2 and
// one line naming the field.
#include "coordinator/schedule/buffered_multicast/examples.h"
#include "coordinator/schedule/buffered_multicast/problem.h"
#include "coordinator/schedule/buffered_multicast/validator.h"
#include "tests/support/run_process.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace bm = baton::schedule::buffered_multicast;
using baton::test::run_process;
using nlohmann::json;

namespace {

baton::test::ProcessResult plan(const std::string& input, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{BATONCTL_PATH, "plan", "buffered-multicast", "-"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run_process(argv, input);
}

json problem_json(const bm::Problem& p) {
  json messages = json::array();
  for (const bm::Message& m : p.messages) {
    messages.push_back({{"source", m.source}, {"destinations", m.destinations}});
  }
  return {{"processors", p.processors}, {"buffers", p.buffers}, {"messages", messages}};
}

bm::Schedule schedule_of(const json& out) {
  bm::Schedule s;
  for (const json& send : out.at("sends")) {
    s.sends.push_back({.message = send.at("message").get<std::size_t>(),
                       .round = send.at("round").get<std::uint64_t>(),
                       .destinations = send.at("destinations").get<std::vector<bm::ProcessorId>>()});
  }
  return s;
}

// Plans `p` through the binary and checks the output against docs/formats.md and the validator;
// returns the document.
json plan_and_check(const bm::Problem& p, const std::string& algorithm) {
  const auto r = plan(problem_json(p).dump(), {"--algo", algorithm});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.empty());
  const json out = json::parse(r.out);
  BOOST_TEST(out.at("problem") == "buffered-multicast");
  BOOST_TEST(out.at("algorithm") == algorithm);
  const std::size_t d = bm::degree(p);
  BOOST_TEST(out.at("degree").get<std::size_t>() == d);
  BOOST_TEST(out.at("bound").get<std::uint64_t>() == d * ((d + p.buffers - 1) / p.buffers) + p.buffers - 1);
  const bm::Schedule s = schedule_of(out);
  const bm::Validation v = bm::validate(p, s);
  BOOST_TEST(v.ok(), v.summary());
  BOOST_TEST(out.at("rounds").get<std::uint64_t>() == v.rounds);
  BOOST_TEST(std::ranges::is_sorted(s.sends, {}, [](const bm::Send& send) { return send.round; }));
  for (const bm::Send& send : s.sends) BOOST_TEST(send.round >= 1u);
  return out;
}

const bm::Problem kExample{.processors = 9,
                           .buffers = 2,
                           .messages = {{.source = 0, .destinations = {3, 4}},
                                        {.source = 0, .destinations = {5, 6, 7}},
                                        {.source = 1, .destinations = {3, 5}},
                                        {.source = 2, .destinations = {4, 8, 3}},
                                        {.source = 2, .destinations = {6}}}};

}  // namespace

BOOST_AUTO_TEST_CASE(both_algorithms_give_valid_plans_in_formats_shape) {
  for (const std::string algo : {"ordered-coloring", "coloring"}) {
    BOOST_TEST_CONTEXT(algo) {
      const json out = plan_and_check(kExample, algo);
      BOOST_TEST(out.at("degree") == 3);
      BOOST_TEST(out.at("bound") == 7);  // 3·⌈3/2⌉ + 2 − 1
      BOOST_TEST(out.at("rounds").get<int>() <= 7);
      const std::vector<std::string> keys{"problem", "algorithm", "rounds", "degree", "bound", "sends"};
      // The keys in docs/formats.md's order (JSON does not require it, but people read it).
      const auto r = plan(problem_json(kExample).dump(), {"--algo", algo});
      const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(r.out);
      std::vector<std::string> seen;
      for (const auto& [key, value] : ordered.items()) seen.push_back(key);
      BOOST_TEST(seen == keys, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(default_algorithm_is_ordered_coloring_and_a_file_works) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("baton-buffered-cli-" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << problem_json(kExample).dump();
  const auto r = run_process({BATONCTL_PATH, "plan", "buffered-multicast", file.string()});
  std::filesystem::remove(file);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(json::parse(r.out).at("algorithm") == "ordered-coloring");
}

// Example 3.2 through the binary: l = 1 gives d², l = d gives 2d − 1 (d = 3).
BOOST_AUTO_TEST_CASE(example_3_2_through_the_binary) {
  BOOST_TEST(plan_and_check(bm::example_3_2(3, 1), "ordered-coloring").at("rounds") == 9);
  BOOST_TEST(plan_and_check(bm::example_3_2(3, 3), "ordered-coloring").at("rounds") == 5);
  BOOST_TEST(plan_and_check(bm::example_3_2(3, 3), "coloring").at("rounds") == 5);
}

// No messages: nothing to send; the bound formula is taken literally (0·0 + l − 1).
BOOST_AUTO_TEST_CASE(no_messages_is_an_empty_plan) {
  const auto r = plan(R"({"processors": 3, "buffers": 2, "messages": []})");
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const json out = json::parse(r.out);
  BOOST_TEST(out.at("rounds") == 0);
  BOOST_TEST(out.at("degree") == 0);
  BOOST_TEST(out.at("bound") == 1);
  BOOST_TEST(out.at("sends").empty());
}

BOOST_AUTO_TEST_CASE(bad_input_exits_2_with_one_line_naming_the_field) {
  const std::string ok_message = R"({"source": 0, "destinations": [1]})";
  const auto with_messages = [](const std::string& messages) {
    return R"({"processors": 9, "buffers": 2, "messages": [)" + messages + "]}";
  };
  const std::vector<std::pair<std::string, std::string>> cases{
      {"", "input: empty"},
      {"{", "input: not valid JSON"},
      {"[]", "input: must be an object"},
      {R"({"buffers": 1, "messages": []})", "processors: missing"},
      {R"({"processors": 0, "buffers": 1, "messages": []})", "processors: must be >= 1"},
      {R"({"processors": 1000001, "buffers": 1, "messages": []})", "processors: must be <= 1000000"},
      {R"({"processors": 2.5, "buffers": 1, "messages": []})", "processors: must be a whole number"},
      {R"({"processors": 3, "messages": []})", "buffers: missing"},
      {R"({"processors": 3, "buffers": 0, "messages": []})", "buffers: must be >= 1"},
      {R"({"processors": 3, "buffers": -2, "messages": []})", "buffers: must be >= 1"},
      {R"({"processors": 3, "buffers": 2000000, "messages": []})", "buffers: must be <= 1000000"},
      {R"({"processors": 3, "buffers": 1})", "messages: missing"},
      {R"({"processors": 3, "buffers": 1, "messages": {}})", "messages: must be an array"},
      {R"({"processors": 3, "buffers": 1, "buffer": 1, "messages": []})", "buffer: unknown field"},
      {with_messages("3"), "messages[0]: must be an object"},
      {with_messages(ok_message + R"(, {"destinations": [1]})"), "messages[1].source: missing"},
      {with_messages(R"({"source": 0, "destinations": [1], "size": 4})"), "messages[0].size: unknown field"},
      {with_messages(R"({"source": 9, "destinations": [1]})"),
       "messages[0].source: processor 9 is out of range (processors: 9)"},
      {with_messages(R"({"source": -1, "destinations": [1]})"), "messages[0].source: must be >= 0"},
      {with_messages(R"({"source": 0})"), "messages[0].destinations: missing"},
      {with_messages(R"({"source": 0, "destinations": 1})"), "messages[0].destinations: must be an array"},
      {with_messages(R"({"source": 0, "destinations": []})"), "messages[0].destinations: must hold at least 1 element"},
      {with_messages(ok_message + R"(, {"source": 2, "destinations": [1, 9]})"),
       "messages[1].destinations[1]: processor 9 is out of range (processors: 9)"},
      {with_messages(R"({"source": 0, "destinations": [1, "2"]})"), "messages[0].destinations[1]: must be a number"},
      {with_messages(ok_message + R"(, {"source": 2, "destinations": [2]})"),
       "messages[1].destinations[0]: processor 2 is the message's own source"},
      {with_messages(R"({"source": 0, "destinations": [1, 4, 1]})"),
       "messages[0].destinations[2]: processor 1 repeats messages[0].destinations[0]"},
  };
  for (const auto& [input, expected] : cases) {
    BOOST_TEST_CONTEXT(input) {
      const auto r = plan(input);
      BOOST_TEST(r.exit_code == 2);
      BOOST_TEST(r.out.empty());
      BOOST_TEST(std::ranges::count(r.err, '\n') == 1, r.err);
      BOOST_TEST(r.err.find(expected) != std::string::npos, r.err);
    }
  }
}

BOOST_AUTO_TEST_CASE(more_messages_than_the_cap_are_refused) {
  std::string messages = "[0";
  for (int k = 0; k < 1'000'000; ++k) messages += ",0";
  const auto r = plan(R"({"processors": 3, "buffers": 1, "messages": )" + messages + "]}");
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err.find("messages: holds 1000001 elements, more than the limit of 1000000") != std::string::npos,
             r.err);
}

BOOST_AUTO_TEST_CASE(an_unknown_algorithm_is_a_usage_error) {
  const auto r = plan(problem_json(kExample).dump(), {"--algo", "greedy"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty());
}

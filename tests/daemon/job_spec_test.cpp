// Job submissions: what the API accepts, and a one-line error naming the field for
// everything it does not.
#include "coordinator/daemon/job_spec.h"
#include "coordinator/json/input.h"

#include <boost/test/unit_test.hpp>

namespace bc = baton::coordinator;

namespace {

const std::string kPlatform =
    R"("platform": {"sender_rate": 1e6, "receiver_rate": 2e6, "backbone_rate": 3e6, "step_startup": 0.01})";

std::string spec_refusal(const std::string& json) {
  try {
    bc::parse_job_spec(json);
  } catch (const baton::json::InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(job_spec)

BOOST_AUTO_TEST_CASE(transfers_and_platform_are_read_as_given) {
  const bc::JobSpec spec = bc::parse_job_spec(R"({"senders": ["a"], "receivers": ["b", "c"], "algorithm": "ggp", )" +
                                              kPlatform + R"(, "transfers": [{"src_node": "a", "src_file": "x",
      "src_offset": 5, "length": 7, "dst_node": "c", "dst_file": "y", "dst_offset": 9}]})");
  BOOST_TEST(spec.clusters.receivers.size() == 2u);
  BOOST_TEST(spec.platform.receiver_rate == 2e6);
  BOOST_TEST((spec.algorithm == baton::schedule::kpbs::Algorithm::ggp));
  BOOST_REQUIRE(spec.transfers.size() == 1u);
  BOOST_TEST(spec.transfers[0].dst_node == "c");
  BOOST_TEST(spec.transfers[0].src_offset == 5u);
  BOOST_TEST(spec.transfers[0].dst_offset == 9u);
}

BOOST_AUTO_TEST_CASE(priority_is_optional_whole_and_bounded) {
  const std::string head = R"({"senders": ["a"], "receivers": ["b"], )" + kPlatform +
                           R"(, "transfers": [{"src_node": "a", "src_file": "x", "src_offset": 0, "length": 7,
      "dst_node": "b", "dst_file": "y", "dst_offset": 0}])";
  BOOST_TEST(bc::parse_job_spec(head + "}").priority == 0);
  BOOST_TEST(bc::parse_job_spec(head + R"(, "priority": -3})").priority == -3);
  BOOST_TEST(bc::parse_job_spec(head + R"(, "priority": 1000000})").priority == 1'000'000);
  for (const std::string bad : {"1.5", "\"high\"", "1000001", "-1000001", "18446744073709551615"}) {
    BOOST_TEST(spec_refusal(head + R"(, "priority": )" + bad + "}") ==
                   "priority: must be a whole number in [-1000000, 1000000], not " + bad,
               bad);
  }
}

BOOST_AUTO_TEST_CASE(weight_is_optional_positive_and_bounded_and_all_at_once_does_not_share) {
  const std::string head = R"({"senders": ["a"], "receivers": ["b"], )" + kPlatform +
                           R"(, "transfers": [{"src_node": "a", "src_file": "x", "src_offset": 0, "length": 7,
      "dst_node": "b", "dst_file": "y", "dst_offset": 0}])";
  BOOST_TEST(bc::parse_job_spec(head + "}").weight == 1.0);
  BOOST_TEST(bc::parse_job_spec(head + R"(, "weight": 2.5})").weight == 2.5);
  BOOST_TEST(bc::parse_job_spec(head + "}").shares_nodes());
  BOOST_TEST(!bc::parse_job_spec(head + R"(, "algorithm": "all-at-once"})").shares_nodes());
  for (const std::string bad : {"0", "-1", "100.5", "\"3\"", "null"}) {
    BOOST_TEST(
        spec_refusal(head + R"(, "weight": )" + bad + "}") == "weight: must be a number in [0.01, 100], not " + bad,
        bad);
  }
}

BOOST_AUTO_TEST_CASE(keep_plan_is_optional_and_a_boolean) {
  const std::string head = R"({"senders": ["a"], "receivers": ["b"], )" + kPlatform +
                           R"(, "transfers": [{"src_node": "a", "src_file": "x", "src_offset": 0, "length": 7,
      "dst_node": "b", "dst_file": "y", "dst_offset": 0}])";
  BOOST_TEST(!bc::parse_job_spec(head + "}").keep_plan);
  BOOST_TEST(bc::parse_job_spec(head + R"(, "keep_plan": true})").keep_plan);
  BOOST_TEST(spec_refusal(head + R"(, "keep_plan": 1})") == "keep_plan: must be true or false");
  BOOST_TEST(spec_refusal(head + R"(, "keep_plans": true})").find("keep_plans") != std::string::npos);
}

// Each node's own rate (docs/runtime.md): one per node, in the job's order, and the
// algorithms that plan on them.
BOOST_AUTO_TEST_CASE(each_nodes_rate_and_the_algorithms_on_them_are_read) {
  const std::string transfers = R"("transfers": [{"src_node": "a", "src_file": "x", "src_offset": 0, "length": 7,
      "dst_node": "c", "dst_file": "y", "dst_offset": 0}])";
  const auto job = [&](const std::string& algorithm, const std::string& rates) {
    return R"({"senders": ["a"], "receivers": ["b", "c"], "algorithm": ")" + algorithm +
           R"(", "platform": {"sender_rate": 1e6, "receiver_rate": 2e6, "backbone_rate": 3e6, "step_startup": 0.01, )" +
           rates + "}, " + transfers + "}";
  };
  const bc::JobSpec spec = bc::parse_job_spec(job("auto", R"("sender_rates": [5e6], "receiver_rates": [1e6, 4e6])"));
  BOOST_TEST((spec.algorithm == baton::schedule::kpbs::Algorithm::automatic));
  BOOST_TEST(spec.platform.sender_rates == (std::vector<double>{5e6}));
  BOOST_TEST(spec.platform.receiver_rates == (std::vector<double>{1e6, 4e6}));
  BOOST_TEST((bc::parse_job_spec(job("fluid", R"("sender_rates": [5e6])")).algorithm ==
              baton::schedule::kpbs::Algorithm::fluid));
  BOOST_TEST(spec_refusal(job("fluid", R"("receiver_rates": [1e6])")) ==
             "platform.receiver_rates: 1 rates for 2 receivers");
  BOOST_TEST(spec_refusal(job("oggp", R"("sender_rates": [0])")) == "platform.sender_rates[0]: must be > 0");
  BOOST_TEST(
      spec_refusal(job("fast", R"("sender_rates": [1e6])")) ==
      "algorithm: unknown algorithm \"fast\" for a redistribution (oggp, ggp, h-weight, h-degree, all-at-once, oggp-plus, fluid, auto)");
}

BOOST_AUTO_TEST_CASE(a_pattern_expands_to_every_byte_once) {
  const bc::JobSpec spec = bc::parse_job_spec(R"({"senders": ["a0", "a1"], "receivers": ["b0", "b1", "b2"], )" +
                                              kPlatform + R"(, "pattern": {"bytes": 1000, "to": "block-cyclic",
      "to_block": 64}})");
  std::uint64_t total = 0;
  for (const baton::jobs::TransferSpec& t : spec.transfers) total += t.length;
  BOOST_TEST(total == 1000u);
  BOOST_TEST((spec.algorithm == baton::schedule::kpbs::Algorithm::oggp_plus));  // the default
}

BOOST_AUTO_TEST_CASE(bad_jobs_are_named) {
  BOOST_TEST(spec_refusal("[").find("JSON") != std::string::npos, spec_refusal("["));
  BOOST_TEST(spec_refusal(R"({"senders": [], "receivers": ["b"]})").find("senders") != std::string::npos);
  const std::string head = R"({"senders": ["a"], "receivers": ["b"], )" + kPlatform;
  BOOST_TEST(spec_refusal(head + "}") == "job: give exactly one of \"transfers\", \"transfer_runs\" and \"pattern\"");
  BOOST_TEST(
      spec_refusal(head + R"(, "algorithm": "fast"})") ==
      "algorithm: unknown algorithm \"fast\" for a redistribution (oggp, ggp, h-weight, h-degree, all-at-once, oggp-plus, fluid, auto)");
  BOOST_TEST(spec_refusal(head + R"(, "speed": 1})") == "speed: unknown field");
  BOOST_TEST(spec_refusal(head + R"(, "algoritm": "ggp"})") == "algoritm: unknown field (did you mean \"algorithm\"?)");
  BOOST_TEST(spec_refusal(head + R"(, "pattern": {"byte": 10}})") ==
             "pattern.byte: unknown field (did you mean \"bytes\"?)");
  BOOST_TEST(spec_refusal(head + R"(, "transfers": [{"src_node": "a", "src_file": "x", "src_offset": 0, "length": 0,
      "dst_node": "b", "dst_file": "y", "dst_offset": 0}]})")
                 .find("transfers[0].length") != std::string::npos);
  BOOST_TEST(spec_refusal(head + R"(, "transfers": [{"src_node": "b", "src_file": "x", "src_offset": 0, "length": 3,
      "dst_node": "a", "dst_file": "y", "dst_offset": 0}]})") != "accepted");
  BOOST_TEST(spec_refusal(head + R"(, "pattern": {"bytes": 10, "to": "diagonal"}})").find("pattern.to") !=
             std::string::npos);
}

namespace {

// A job of `runs` (the members of "transfer_runs", JSON objects) from a0, a1 to b0, b1.
std::string runs_job(const std::string& runs) {
  return R"({"senders": ["a0", "a1"], "receivers": ["b0", "b1"], )" + kPlatform + R"(, "transfer_runs": [)" + runs +
         "]}";
}

std::string run(const std::string& fields) {
  return R"({"src_node": "a0", "src_file": "x", "dst_node": "b1", "dst_file": "y", )" + fields + "}";
}

}  // namespace

BOOST_AUTO_TEST_CASE(transfer_runs_expand_to_the_transfers_they_stand_for) {
  // Three rows of a column block: 16 bytes at every 100th of a0's x, packed in b1's y.
  const bc::JobSpec spec = bc::parse_job_spec(runs_job(
      run(R"("src_offset": 8, "src_stride": 100, "length": 16, "dst_offset": 0, "dst_stride": 16, "count": 3)") + ", " +
      run(R"("src_offset": 0, "src_stride": 0, "length": 4, "dst_offset": 48, "dst_stride": 0, "count": 1)")));
  BOOST_REQUIRE(spec.transfers.size() == 4u);
  for (std::uint64_t i = 0; i < 3; ++i) {
    BOOST_TEST(spec.transfers[i].src_offset == 8 + 100 * i);
    BOOST_TEST(spec.transfers[i].dst_offset == 16 * i);
    BOOST_TEST(spec.transfers[i].length == 16u);
    BOOST_TEST(spec.transfers[i].dst_node == "b1");
  }
  BOOST_TEST(spec.transfers[3].dst_offset == 48u);
  BOOST_TEST(spec.transfers[3].length == 4u);
}

BOOST_AUTO_TEST_CASE(hostile_transfer_runs_are_refused_before_they_are_expanded) {
  const std::string head = R"({"senders": ["a0"], "receivers": ["b0"], )" + kPlatform;
  BOOST_TEST(spec_refusal(head + R"(, "transfers": [], "transfer_runs": []})") ==
             "job: give exactly one of \"transfers\", \"transfer_runs\" and \"pattern\"");
  BOOST_TEST(spec_refusal(runs_job("")) == "transfer_runs: must hold at least 1 element", spec_refusal(runs_job("")));
  // 2^40 transfers from 150 bytes: refused by the sum of the counts, nothing built.
  BOOST_TEST(spec_refusal(runs_job(run(R"("src_offset": 0, "src_stride": 1, "length": 1, "dst_offset": 0,
      "dst_stride": 1, "count": 1099511627776)"))) ==
             "transfer_runs[0].count: the runs expand to more than the limit of " +
                 std::to_string(bc::kMaxJobTransfers) + " transfers");
  // Two runs each within the limit, together past it.
  const std::string half = run(R"("src_offset": 0, "src_stride": 1, "length": 1, "dst_offset": 0, "dst_stride": 1,
      "count": )" + std::to_string(bc::kMaxJobTransfers / 2 + 1));
  BOOST_TEST(spec_refusal(runs_job(half + ", " + half)).find("transfer_runs[1].count: the runs expand to more than") ==
             0u);
  // A stride that would wrap the last offset past 2^63 - 1.
  BOOST_TEST(spec_refusal(runs_job(run(R"("src_offset": 0, "src_stride": 4611686018427387904, "length": 1,
      "dst_offset": 0, "dst_stride": 1, "count": 3)"))) ==
             "transfer_runs[0]: the last range's src_offset (src_offset + (count - 1) * src_stride) is past "
             "9223372036854775807");
  // Runs whose ranges write over each other are refused like transfers that do.
  BOOST_TEST(spec_refusal(runs_job(run(R"("src_offset": 0, "src_stride": 8, "length": 8, "dst_offset": 0,
      "dst_stride": 4, "count": 2)")))
                 .find("writes over") != std::string::npos);
  BOOST_TEST(spec_refusal(runs_job(run(R"("src_offset": 0, "src_stride": 8, "length": 8, "dst_offset": 0,
      "dst_stride": -8, "count": 2)"))) == "transfer_runs[0].dst_stride: must be >= 0");
  BOOST_TEST(spec_refusal(runs_job(run(R"("src_offset": 0, "src_stride": 8, "length": 8, "dst_offset": 0,
      "dst_stride": 8, "count": 0)"))) == "transfer_runs[0].count: must be >= 1");
  BOOST_TEST(spec_refusal(runs_job(run(R"("src_offset": 0, "src_stride": 8, "length": 8, "dst_offset": 0,
      "dst_stide": 8, "count": 2)")))
                 .find("transfer_runs[0].dst_stide: unknown field") == 0u);
  BOOST_TEST(spec_refusal(runs_job(R"({"src_node": "a9", "src_file": "x", "dst_node": "b1", "dst_file": "y",
      "src_offset": 0, "src_stride": 8, "length": 8, "dst_offset": 0, "dst_stride": 8, "count": 2})"))
                 .find("unknown source node 'a9'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(without_a_platform_the_job_waits_for_a_calibration_and_may_name_one) {
  const std::string pattern = R"("pattern": {"bytes": 1000, "to": "block"})";
  const bc::JobSpec measured = bc::parse_job_spec(R"({"senders": ["a"], "receivers": ["b"], )" + pattern + "}");
  BOOST_TEST(!measured.platform_given);
  BOOST_TEST(measured.calibration.empty());
  BOOST_TEST(!measured.replan.has_value());
  const bc::JobSpec named = bc::parse_job_spec(
      R"({"senders": ["a"], "receivers": ["b"], "calibration": "4", "replan": false, )" + pattern + "}");
  BOOST_TEST(named.calibration == "4");
  BOOST_TEST((named.replan == false));
  // As journaled: the platform the calibration gave, and its id.
  const bc::JobSpec journaled = bc::parse_job_spec(R"({"senders": ["a"], "receivers": ["b"], "calibration": "4", )" +
                                                   kPlatform + ", " + pattern + "}");
  BOOST_TEST(journaled.platform_given);
  BOOST_TEST(journaled.platform.backbone_rate == 3e6);
  BOOST_TEST(journaled.calibration == "4");
  const std::string head = R"({"senders": ["a"], "receivers": ["b"], )" + pattern;
  BOOST_TEST(spec_refusal(head + R"(, "replan": "yes"})") == "replan: must be true or false");
  BOOST_TEST(spec_refusal(head + R"(, "calibration": 4})") == "calibration: must be a non-empty string");
}

BOOST_AUTO_TEST_CASE(a_pattern_that_expands_too_far_is_refused_before_expanding) {
  // The security review's 309-byte job: 256 MiB in 1-byte blocks, 2^28 transfers (about
  // 40 GB of them, had they been built).
  const std::string job = R"({"senders": ["a0", "a1"], "receivers": ["b0", "b1"], )" + kPlatform +
                          R"(, "pattern": {"bytes": 268435456, "to": "block-cyclic", "to_block": 1}})";
  BOOST_TEST(spec_refusal(job) == "pattern: expands to 268435456 transfers, more than the limit " +
                                      std::to_string(bc::kMaxJobTransfers) + "; use larger blocks");
  // One more transfer than the limit is refused too: 2 × 2 nodes, blocks of 1 byte.
  const std::string over = R"({"senders": ["a0", "a1"], "receivers": ["b0", "b1"], )" + kPlatform +
                           R"(, "pattern": {"bytes": )" + std::to_string(bc::kMaxJobTransfers + 1) +
                           R"(, "from": "block-cyclic", "from_block": 1, "to": "block-cyclic", "to_block": 1}})";
  BOOST_TEST(
      spec_refusal(over).find("pattern: expands to " + std::to_string(bc::kMaxJobTransfers + 1) + " transfers") == 0u,
      spec_refusal(over));
}

BOOST_AUTO_TEST_CASE(hostile_json_is_refused_with_what_is_wrong) {
  const std::string head = R"({"senders": ["a"], "receivers": ["b"], )" + kPlatform;
  // 2 000 000 levels: refused by the pre-scan at level 65, without recursion.
  BOOST_TEST(spec_refusal(std::string(2'000'000, '[')) == "input: nested deeper than 64 levels at byte 65");
  BOOST_TEST(
      spec_refusal(
          R"({"senders": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["a"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]})")
          .find("nested deeper than 64 levels") != std::string::npos);
  // Brackets inside strings do not count.
  BOOST_TEST(spec_refusal(R"({"senders": [")" + std::string(100, '[') + R"("], "receivers": ["b"], )" + kPlatform +
                          R"(, "pattern": {"bytes": 10, "to": "block"}})") == "accepted");
  BOOST_TEST(spec_refusal(R"({"senders": ["a"], "receivers": ["b"], "platform": {"sender_rate": 1e999999}})") ==
             "platform.sender_rate: number 1e999999 is out of range (at byte 68)");
  // The platform's one reader (json/platform.h) names the field: a typo, a rate that is not
  // > 0, a step start-up beyond an hour.
  const std::string pair = R"({"senders": ["a"], "receivers": ["b"], "platform": )";
  BOOST_TEST(spec_refusal(pair + R"({"sender_rat": 1}})").find("platform.sender_rat: unknown field") == 0u);
  BOOST_TEST(spec_refusal(pair + R"({"sender_rate": 0, "receiver_rate": 1, "backbone_rate": 1, "step_startup": 0}})") ==
             "platform.sender_rate: must be > 0");
  BOOST_TEST(
      spec_refusal(pair + R"({"sender_rate": 1, "receiver_rate": 1, "backbone_rate": 1, "step_startup": 4000}})") ==
      "platform.step_startup: must be <= 3600");
  BOOST_TEST(spec_refusal(head + R"(, "pattern": {"bytes": 1)" + std::string(400, '0') + "}}")
                 .find("pattern.bytes: number 1000") == 0u);
  BOOST_TEST(spec_refusal(head + R"(, "pattern": {"bytes": 100000000000000000000000}})") ==
             "pattern.bytes: must be <= 9223372036854775807");
  BOOST_TEST(spec_refusal(head + R"(, "pattern": {"bytes": 9.223372036854775808e18}})") ==  // 2^63
             "pattern.bytes: must be <= 9223372036854775807");
  BOOST_TEST(spec_refusal(head + R"(, "pattern": {"bytes": -1e300}})") == "pattern.bytes: must be >= 1");
  BOOST_TEST(spec_refusal(head + R"(, "pattern": {"bytes": 10}})" + std::string(1, '\0')) ==
             "input: NUL byte at byte " + std::to_string(head.size() + 28) + " (JSON holds none)");
  BOOST_TEST(spec_refusal(head + R"(, "pattern": {"bytes": 10}} {})").find("input: not valid JSON at byte") == 0u);
  BOOST_TEST(spec_refusal("") == "input: empty (expected a JSON object)");
  BOOST_TEST(spec_refusal(" \r\n") == "input: empty (expected a JSON object)");
  BOOST_TEST(spec_refusal("{\"senders\": [\"\xff\"]}") ==
             "input: not valid JSON at byte 15 (in senders[0]): syntax error while parsing value - invalid string: "
             "ill-formed UTF-8 byte");
  BOOST_TEST(spec_refusal(R"({"senders": ["a"], "senders": ["b"]})") == "senders: given twice");
  BOOST_TEST(spec_refusal(head + R"(, "pattern": {"bytes": 10, "to": "block", "to": "block"}})") ==
             "pattern.to: given twice");
}

BOOST_AUTO_TEST_SUITE_END()

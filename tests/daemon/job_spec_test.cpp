// Job submissions: what the API accepts, and a one-line error naming the field for
// everything it does not.
#include "coordinator/batonctl/json_input.h"
#include "coordinator/daemon/job_spec.h"

#include <boost/test/unit_test.hpp>

namespace bc = baton::coordinator;

namespace {

const std::string kPlatform =
    R"("platform": {"sender_rate": 1e6, "receiver_rate": 2e6, "backbone_rate": 3e6, "step_startup": 0.01})";

std::string refusal(const std::string& json) {
  try {
    bc::parse_job_spec(json);
  } catch (const baton::cli::InputError& e) {
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

BOOST_AUTO_TEST_CASE(a_pattern_expands_to_every_byte_once) {
  const bc::JobSpec spec = bc::parse_job_spec(R"({"senders": ["a0", "a1"], "receivers": ["b0", "b1", "b2"], )" +
                                              kPlatform + R"(, "pattern": {"bytes": 1000, "to": "block-cyclic",
      "to_block": 64}})");
  std::uint64_t total = 0;
  for (const bc::TransferSpec& t : spec.transfers) total += t.length;
  BOOST_TEST(total == 1000u);
  BOOST_TEST((spec.algorithm == baton::schedule::kpbs::Algorithm::oggp_plus));  // the default
}

BOOST_AUTO_TEST_CASE(bad_jobs_are_named) {
  BOOST_TEST(refusal("[") .find("JSON") != std::string::npos, refusal("["));
  BOOST_TEST(refusal(R"({"senders": [], "receivers": ["b"]})").find("senders") != std::string::npos);
  const std::string head = R"({"senders": ["a"], "receivers": ["b"], )" + kPlatform;
  BOOST_TEST(refusal(head + "}") == "job: give exactly one of \"transfers\" and \"pattern\"");
  BOOST_TEST(refusal(head + R"(, "algorithm": "fast"})") == "algorithm: unknown algorithm \"fast\"");
  BOOST_TEST(refusal(head + R"(, "speed": 1})").find("speed") != std::string::npos);
  BOOST_TEST(refusal(head + R"(, "transfers": [{"src_node": "a", "src_file": "x", "src_offset": 0, "length": 0,
      "dst_node": "b", "dst_file": "y", "dst_offset": 0}]})").find("transfers[0].length") != std::string::npos);
  BOOST_TEST(refusal(head + R"(, "transfers": [{"src_node": "b", "src_file": "x", "src_offset": 0, "length": 3,
      "dst_node": "a", "dst_file": "y", "dst_offset": 0}]})") != "accepted");
  BOOST_TEST(refusal(head + R"(, "pattern": {"bytes": 10, "to": "diagonal"}})").find("pattern.to") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

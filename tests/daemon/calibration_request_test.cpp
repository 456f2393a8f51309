// Calibration requests: what the API accepts, and a one-line error naming the field for
// everything it does not.
#include "coordinator/daemon/calibration_request.h"
#include "coordinator/json/input.h"

#include <boost/test/unit_test.hpp>

namespace bc = baton::coordinator;

namespace {

std::string calibration_refusal(const std::string& json) {
  try {
    bc::parse_calibration_request(json);
  } catch (const baton::json::InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(calibration_request)

BOOST_AUTO_TEST_CASE(groups_and_flow_seconds_are_read_as_given) {
  const auto r = bc::parse_calibration_request(R"({"senders": ["a", "b"], "receivers": ["c"], "flow_seconds": 0.2})");
  BOOST_TEST(r.senders == (std::vector<std::string>{"a", "b"}));
  BOOST_TEST(r.receivers == (std::vector<std::string>{"c"}));
  BOOST_TEST(r.probe.flow_seconds == 0.2);
  BOOST_TEST(bc::parse_calibration_request(R"({"senders": ["a"], "receivers": ["c"]})").probe.flow_seconds == 0.4);
}

BOOST_AUTO_TEST_CASE(bad_requests_are_named) {
  BOOST_TEST(calibration_refusal(R"({"receivers": ["c"]})").find("senders") != std::string::npos);
  BOOST_TEST(calibration_refusal(R"({"senders": [], "receivers": ["c"]})").find("senders") != std::string::npos);
  BOOST_TEST(calibration_refusal(R"({"senders": ["a"], "receivers": [""]})") ==
             "receivers[0]: must be a non-empty node id");
  BOOST_TEST(calibration_refusal(R"({"senders": ["a", "a"], "receivers": ["c"]})").find("node a is listed twice") ==
             0u);
  BOOST_TEST(calibration_refusal(R"({"senders": ["a"], "receivers": ["a"]})").find("node a is listed twice") == 0u);
  BOOST_TEST(
      calibration_refusal(R"({"senders": ["a"], "receivers": ["c"], "flow_seconds": 0.01})").find("flow_seconds") ==
      0u);
  BOOST_TEST(calibration_refusal(R"({"senders": ["a"], "receivers": ["c"], "speed": 1})").find("speed") !=
             std::string::npos);
}

// The largest request the API takes: 4096 + 4096 node ids of 256 bytes, well within the
// body cap; one byte or one value more is refused before it is parsed further.
BOOST_AUTO_TEST_CASE(the_largest_request_is_read_and_larger_ones_are_refused_before_parsing) {
  std::string largest = R"({"senders": [)";
  for (int i = 0; i < 8192; ++i) {
    if (i == 4096) largest += R"(], "receivers": [)";
    else if (i > 0) largest += ",";
    std::string id = std::to_string(i);
    largest += "\"" + id + std::string(bc::kMaxNodeIdBytes - id.size(), 'n') + "\"";
  }
  largest += R"(], "flow_seconds": 0.1})";
  BOOST_TEST(largest.size() < bc::kMaxCalibrationBytes);
  const auto r = bc::parse_calibration_request(largest);
  BOOST_TEST(r.senders.size() == 4096u);
  BOOST_TEST(r.receivers.size() == 4096u);

  const std::string padded = R"({"senders": ["a"], "receivers": ["c"]})";
  const std::string over = padded + std::string(bc::kMaxCalibrationBytes + 1 - padded.size(), ' ');
  BOOST_TEST(calibration_refusal(over) == "input: 4194305 bytes, more than a calibration request's 4 MiB");
  BOOST_TEST(calibration_refusal(R"({"senders": [")" + std::string(257, 'x') + R"("], "receivers": ["c"]})") ==
             "senders[0]: a node id of 257 bytes, longer than 256");
  std::string one_too_many = R"({"senders": [)";
  for (int i = 0; i < 4097; ++i) one_too_many += (i ? ",\"s" : "\"s") + std::to_string(i) + "\"";
  one_too_many += R"(], "receivers": [)";
  for (int i = 0; i < 4097; ++i) one_too_many += (i ? ",\"r" : "\"r") + std::to_string(i) + "\"";
  BOOST_TEST(calibration_refusal(one_too_many + "]}") ==
             "receivers[4096]: the document holds more values than the 8196 it may");
  BOOST_CHECK_THROW(baton::json::parse_document("[1, 2, 3]", 3), baton::json::InputError);
  BOOST_TEST(baton::json::parse_document("[1, 2, 3]", 4).size() == 3u);
}

BOOST_AUTO_TEST_SUITE_END()

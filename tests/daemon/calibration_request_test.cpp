// Calibration requests: what the API accepts, and a one-line error naming the field for
// everything it does not.
#include "coordinator/daemon/calibration_request.h"
#include "coordinator/json/input.h"

#include <boost/test/unit_test.hpp>

namespace bc = baton::coordinator;

namespace {

std::string refusal(const std::string& json) {
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
  BOOST_TEST(refusal(R"({"receivers": ["c"]})").find("senders") != std::string::npos);
  BOOST_TEST(refusal(R"({"senders": [], "receivers": ["c"]})").find("senders") != std::string::npos);
  BOOST_TEST(refusal(R"({"senders": ["a"], "receivers": [""]})") == "receivers[0]: must be a non-empty node id");
  BOOST_TEST(refusal(R"({"senders": ["a", "a"], "receivers": ["c"]})").find("node a is listed twice") == 0u);
  BOOST_TEST(refusal(R"({"senders": ["a"], "receivers": ["a"]})").find("node a is listed twice") == 0u);
  BOOST_TEST(refusal(R"({"senders": ["a"], "receivers": ["c"], "flow_seconds": 0.01})").find("flow_seconds") == 0u);
  BOOST_TEST(refusal(R"({"senders": ["a"], "receivers": ["c"], "speed": 1})").find("speed") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

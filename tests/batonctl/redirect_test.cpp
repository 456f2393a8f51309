// batonctl following a standby's redirect (coordinator/batonctl/redirect.h, docs/ha.md).
#include "coordinator/batonctl/redirect.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

using baton::batonctl::parse_redirect;

namespace {

std::string refusal(const std::string& location) {
  try {
    parse_redirect(location);
  } catch (const baton::error::InvalidInput& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_redirect_names_the_leader_and_keeps_the_path_and_query) {
  const auto leader = parse_redirect("http://10.0.0.1:7070/v1/jobs/4/cancel");
  BOOST_TEST(leader.coordinator.host == "10.0.0.1");
  BOOST_TEST(leader.coordinator.port == 7070);
  BOOST_TEST(leader.coordinator.text == "http://10.0.0.1:7070");
  BOOST_TEST(leader.target == "/v1/jobs/4/cancel");
  const auto v6 = parse_redirect("http://[fd00::2]:7070/v1/jobs?x=1");
  BOOST_TEST(v6.coordinator.host == "fd00::2");
  BOOST_TEST(v6.target == "/v1/jobs?x=1");
}

BOOST_AUTO_TEST_CASE(a_redirect_batonctl_cannot_follow_is_said) {
  BOOST_TEST(refusal("https://10.0.0.1:7070/v1/jobs").find("not an http:// URL with a path") != std::string::npos);
  BOOST_TEST(refusal("http://10.0.0.1:7070").find("not an http:// URL with a path") != std::string::npos);
  BOOST_TEST(refusal("").find("not an http:// URL") != std::string::npos);
  BOOST_TEST(refusal("http://10.0.0.1:x/v1").find("a redirect to 'http://10.0.0.1:x/v1'") != std::string::npos);
}

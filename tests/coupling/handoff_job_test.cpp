// The job a handoff submits (coupling/handoff_job.h): on each node's declared rate when
// the coordinator lists every node of both groups, on the session's rate otherwise.
#include "coupling/handoff_job.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

namespace bc = baton::coupling;
using Json = nlohmann::json;

namespace {

bc::HandoffPlatform at(double rate, double backbone_rate = 0) {
  bc::HandoffPlatform p;
  p.rate = rate;
  p.backbone_rate = backbone_rate;
  return p;
}

bc::Layout group(const std::string& prefix, std::size_t n, int dim) {
  std::vector<std::string> nodes;
  for (std::size_t i = 0; i < n; ++i) nodes.push_back(prefix + std::to_string(i));
  return bc::Layout::make({12, 12}, 8, nodes, {.dim = dim});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(handoff_job)

BOOST_AUTO_TEST_CASE(declared_rates_give_each_node_its_own) {
  const bc::Layout from = group("p", 4, 0), to = group("c", 3, 1);
  const std::map<std::string, double> declared{{"p0", 50e6}, {"p1", 12.5e6}, {"p2", 50e6},   {"p3", 25e6},
                                               {"c0", 50e6}, {"c1", 25e6},   {"c2", 12.5e6}, {"elsewhere", 1}};
  const Json job = Json::parse(bc::handoff_job("field", from, to, at(50e6), declared));
  const Json& platform = job.at("platform");
  BOOST_TEST(platform.at("sender_rates").get<std::vector<double>>() == (std::vector<double>{50e6, 12.5e6, 50e6, 25e6}));
  BOOST_TEST(platform.at("receiver_rates").get<std::vector<double>>() == (std::vector<double>{50e6, 25e6, 12.5e6}));
  BOOST_TEST(platform.at("sender_rate").get<double>() == 50e6);
  // No shared bottleneck: 3 flows of the fastest pair (150 MB/s), more than the smaller
  // group's summed rates (87.5 MB/s of the consumers), so k = 3.
  BOOST_TEST(platform.at("backbone_rate").get<double>() == 150e6);
  BOOST_TEST(!job.contains("algorithm"));
}

BOOST_AUTO_TEST_CASE(a_node_without_a_declared_rate_leaves_all_at_the_sessions) {
  const bc::Layout from = group("p", 2, 0), to = group("c", 2, 1);
  const Json job = Json::parse(bc::handoff_job("field", from, to, at(10e6), {{"p0", 5e6}, {"p1", 5e6}, {"c0", 5e6}}));
  const Json& platform = job.at("platform");
  BOOST_TEST(!platform.contains("sender_rates"));
  BOOST_TEST(!platform.contains("receiver_rates"));
  BOOST_TEST(platform.at("backbone_rate").get<double>() == 20e6);  // rate x min(P, Q), as before
  const Json given = Json::parse(bc::handoff_job("field", from, to, at(10e6, 7e6), {}));
  BOOST_TEST(given.at("platform").at("backbone_rate").get<double>() == 7e6);
}

BOOST_AUTO_TEST_SUITE_END()

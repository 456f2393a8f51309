// The cost model of Section 2 (Equations 1-3) and the well-formedness check.
#include "coordinator/schedule/multicast/problem.h"

#include <boost/test/unit_test.hpp>

#include <limits>

namespace bm = baton::schedule::multicast;

namespace {

bm::Problem two_nodes() {
  bm::Problem p;
  p.nodes = {{80e-6, 1e-9, 90e-6, 2e-9}, {100e-6, 3e-9, 50e-6, 4e-9}};
  p.link_per_byte = {{0, 8e-9}, {5e-8, 0}};
  p.multicasts = {{0, 1000, {1}}, {1, 0, {0}}};
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(problem)

BOOST_AUTO_TEST_CASE(equations_1_to_3) {
  const bm::Problem p = two_nodes();
  namespace tt = boost::test_tools;
  // S(0, 1000) = 80 µs + 1 µs; X(0, 1)·1000 = 8 µs; R(1, 1000) = 50 µs + 4 µs.
  BOOST_TEST(bm::send_overhead(p, 0, 0) == 81e-6, tt::tolerance(1e-12));
  BOOST_TEST(bm::link_time(p, 0, 1, 0) == 8e-6, tt::tolerance(1e-12));
  BOOST_TEST(bm::recv_overhead(p, 1, 0) == 54e-6, tt::tolerance(1e-12));
  BOOST_TEST(bm::latency(p, 0, 1, 0) == 143e-6, tt::tolerance(1e-12));
  // The link matrix is not symmetric: X(1, 0) differs. A 0-byte message costs the fixed parts.
  BOOST_TEST(bm::latency(p, 1, 0, 1) == 100e-6 + 90e-6, tt::tolerance(1e-12));
  BOOST_TEST(bm::delivery_count(p) == 2u);
}

BOOST_AUTO_TEST_CASE(problem_error_names_what_is_wrong) {
  BOOST_TEST(!bm::problem_error(two_nodes()).has_value());
  bm::Problem p = two_nodes();
  p.nodes[1].recv_fixed = -1;
  BOOST_TEST(bm::problem_error(p).value_or("").reason.find("node 1") != std::string::npos);
  p = two_nodes();
  p.nodes[0].send_per_byte = std::numeric_limits<double>::infinity();
  BOOST_TEST(bm::problem_error(p).has_value());
  p = two_nodes();
  p.link_per_byte[1].pop_back();
  BOOST_TEST(bm::problem_error(p).value_or("").reason.find("row 1") != std::string::npos);
  p = two_nodes();
  p.multicasts[0].source = 2;
  BOOST_TEST(bm::problem_error(p).value_or("").reason.find("source out of range") != std::string::npos);
  p = two_nodes();
  p.multicasts[0].destinations = {0};
  BOOST_TEST(bm::problem_error(p).value_or("").reason.find("the source is one of its destinations") !=
             std::string::npos);
  p = two_nodes();
  p.multicasts[1].destinations = {0, 0};
  BOOST_TEST(bm::problem_error(p).value_or("").reason.find("listed twice") != std::string::npos);
  p = two_nodes();
  p.multicasts[1].destinations = {5};
  BOOST_TEST(bm::problem_error(p).value_or("").reason.find("destination out of range") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

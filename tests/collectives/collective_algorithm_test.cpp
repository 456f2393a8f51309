// The collective algorithms' names (coordinator/collectives/collective_algorithm.h): each kind's
// list round-trips through its names, no kind takes another's, and every algorithm backed
// by a paper's scheduler has that scheduler's own name (docs/formats.md lists both).
#include "coordinator/collectives/collective_algorithm.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace bj = baton::jobs;
namespace coll = baton::collectives;
namespace red = baton::schedule::reduction;
namespace mc = baton::schedule::multicast;
namespace bm = baton::schedule::buffered_multicast;
using Algorithm = coll::Algorithm;

namespace {

constexpr bj::JobKind kCollectives[] = {bj::JobKind::reduce, bj::JobKind::allreduce, bj::JobKind::multicast,
                                        bj::JobKind::buffered_multicast};

bool listed(bj::JobKind kind, Algorithm algorithm) {
  const std::vector<Algorithm> all = coll::algorithms(kind);
  return std::ranges::find(all, algorithm) != all.end();
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_kind_s_algorithms_round_trip_through_their_names) {
  BOOST_TEST(coll::algorithms(bj::JobKind::redistribution).empty());
  for (const bj::JobKind kind : kCollectives) {
    const std::vector<Algorithm> all = coll::algorithms(kind);
    BOOST_TEST_REQUIRE(!all.empty());
    BOOST_TEST((all.front() == Algorithm::automatic), bj::name(kind));
    for (const Algorithm a : all) {
      const auto parsed = coll::parse_algorithm(kind, coll::name(a));
      BOOST_TEST((parsed == a), bj::name(kind) << " " << coll::name(a));
    }
    BOOST_TEST(!coll::parse_algorithm(kind, "Auto").has_value());
    BOOST_TEST(!coll::parse_algorithm(kind, "").has_value());
  }
  // A name is taken only by the kinds that list it.
  BOOST_TEST(!coll::parse_algorithm(bj::JobKind::reduce, "ring").has_value());
  BOOST_TEST(!coll::parse_algorithm(bj::JobKind::allreduce, "snf").has_value());
  BOOST_TEST(!coll::parse_algorithm(bj::JobKind::multicast, "coloring").has_value());
  BOOST_TEST(!coll::parse_algorithm(bj::JobKind::buffered_multicast, "wrp").has_value());
  BOOST_TEST(!coll::parse_algorithm(bj::JobKind::redistribution, "auto").has_value());
  // One name, one algorithm per kind: binomial is the SNF paper's for reduce and
  // allreduce and the baseline for multicast.
  for (const bj::JobKind kind : {bj::JobKind::reduce, bj::JobKind::allreduce, bj::JobKind::multicast})
    BOOST_TEST((coll::parse_algorithm(kind, "binomial") == Algorithm::binomial));
}

BOOST_AUTO_TEST_CASE(the_papers_schedulers_keep_their_own_names) {
  // Every name a scheduler knows is one of `kind`'s algorithms, which maps back to it.
  const auto each_keeps_its_name = [](bj::JobKind kind, const std::vector<std::string>& names, auto scheduler_of) {
    for (const std::string& n : names) {
      const auto a = coll::parse_algorithm(kind, n);
      BOOST_TEST_REQUIRE(a.has_value(), n);
      BOOST_TEST(name(scheduler_of(*a)) == n);
    }
  };
  each_keeps_its_name(bj::JobKind::reduce, red::reduction_algorithm_names(), coll::reduction_scheduler);
  each_keeps_its_name(bj::JobKind::allreduce, red::allreduce_algorithm_names(), coll::allreduce_scheduler);
  each_keeps_its_name(bj::JobKind::multicast, mc::algorithm_names(), coll::multicast_scheduler);
  each_keeps_its_name(bj::JobKind::buffered_multicast, bm::algorithm_names(), coll::buffered_multicast_scheduler);
  // Each kind's default after auto is its scheduler's default.
  BOOST_TEST(coll::name(coll::algorithms(bj::JobKind::reduce)[1]) == red::name(red::kDefaultReductionAlgorithm));
  BOOST_TEST(coll::name(coll::algorithms(bj::JobKind::allreduce)[1]) == red::name(red::kDefaultAllReduceAlgorithm));
  BOOST_TEST(coll::name(coll::algorithms(bj::JobKind::multicast)[1]) == mc::name(mc::kDefaultAlgorithm));
  BOOST_TEST(coll::name(coll::algorithms(bj::JobKind::buffered_multicast)[1]) == bm::name(bm::kDefaultAlgorithm));
}

BOOST_AUTO_TEST_CASE(an_algorithm_without_that_scheduler_is_a_logic_error) {
  BOOST_TEST(!listed(bj::JobKind::allreduce, Algorithm::flat));
  BOOST_CHECK_THROW(coll::reduction_scheduler(Algorithm::flat), baton::error::Bug);
  BOOST_CHECK_THROW(coll::allreduce_scheduler(Algorithm::ring), baton::error::Bug);
  BOOST_CHECK_THROW(coll::multicast_scheduler(Algorithm::binomial), baton::error::Bug);
  BOOST_CHECK_THROW(coll::buffered_multicast_scheduler(Algorithm::automatic), baton::error::Bug);
}

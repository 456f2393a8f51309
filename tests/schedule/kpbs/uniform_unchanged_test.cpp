// The papers' algorithms on a uniform platform plan exactly as they did before each node
// got its own rate (issue 41): every schedule of Fig. 16's shape (10 x 10 nodes, 10 to
// 100 MB a pair, k = 3, 5, 7) hashes to what the planner printed before the change, and
// naming every node's rate, all equal, changes no byte of it.
#include "coordinator/schedule/kpbs/algorithms.h"
#include "coordinator/schedule/kpbs/platform.h"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstdint>
#include <random>
#include <string>

namespace kpbs = baton::schedule::kpbs;

namespace {

// FNV-1a over every step's duration and every transfer's src, dst and amount, bit for bit.
std::uint64_t fingerprint(const kpbs::Schedule& schedule) {
  std::uint64_t h = 1469598103934665603ULL;
  const auto mix = [&](std::uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= (v >> (8 * b)) & 0xff;
      h *= 1099511628211ULL;
    }
  };
  for (const kpbs::Step& step : schedule.steps) {
    mix(std::bit_cast<std::uint64_t>(step.duration));
    for (const kpbs::Transfer& t : step.transfers) {
      mix(t.src);
      mix(t.dst);
      mix(std::bit_cast<std::uint64_t>(t.amount));
    }
  }
  return h;
}

// Fig. 16's instances: node links of 100/k Mbit/s, the backbone 100 Mbit/s, β = 2 ms.
kpbs::PlatformProblem fig16_instance(int k, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<long> megabytes(10'000'000, 100'000'000);
  const double node = 100e6 / 8 / k;
  kpbs::PlatformProblem pp;
  pp.platform = {.sender_rate = node,
                 .receiver_rate = node,
                 .backbone_rate = node * k,
                 .step_startup = 0.002,
                 .sender_rates = {},
                 .receiver_rates = {}};
  pp.bytes = kpbs::Matrix(10, 10);
  for (std::size_t i = 0; i < 10; ++i) {
    for (std::size_t j = 0; j < 10; ++j) pp.bytes.at(i, j) = static_cast<double>(megabytes(rng));
  }
  return pp;
}

std::uint64_t planned(const kpbs::PlatformProblem& pp, kpbs::Algorithm algorithm) {
  return fingerprint(kpbs::to_bytes(kpbs::plan(kpbs::normalize(pp), algorithm), pp));
}

constexpr const char* kBefore =
    "18259485419815814688 7608900685458161710 18259485419815814688 13597844541057774949 1269043526552757540 17933788681940585816 14606779550418216068 17933788681940585816 14590786620153698906 5366826089142933368 1990649771757443815 5968747189818941505 1990649771757443815 7725073732666486281 11278710157884052769 ";

}  // namespace

BOOST_AUTO_TEST_SUITE(uniform_unchanged)

BOOST_AUTO_TEST_CASE(fig16_plans_hash_as_before) {
  std::string printed;
  for (const int k : {3, 5, 7}) {
    for (const auto algorithm : {kpbs::Algorithm::oggp, kpbs::Algorithm::ggp, kpbs::Algorithm::oggp_plus,
                                 kpbs::Algorithm::heuristic_weights, kpbs::Algorithm::heuristic_degrees}) {
      printed += std::to_string(planned(fig16_instance(k, 16), algorithm)) + " ";
    }
  }
  // Printed by this test on main before per-node rates existed (commit d30680ba).
  BOOST_TEST(printed == kBefore);
}

// Each node named at the cluster's rate is the uniform platform: the same bytes, bit for bit.
BOOST_AUTO_TEST_CASE(every_node_named_at_the_same_rate_plans_the_same) {
  for (const int k : {3, 5, 7}) {
    const kpbs::PlatformProblem uniform = fig16_instance(k, 16);
    kpbs::PlatformProblem named = uniform;
    named.platform.sender_rates.assign(10, uniform.platform.sender_rate);
    named.platform.receiver_rates.assign(10, uniform.platform.receiver_rate);
    for (const auto algorithm : {kpbs::Algorithm::oggp, kpbs::Algorithm::ggp, kpbs::Algorithm::oggp_plus,
                                 kpbs::Algorithm::heuristic_weights, kpbs::Algorithm::heuristic_degrees}) {
      BOOST_TEST(planned(named, algorithm) == planned(uniform, algorithm));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

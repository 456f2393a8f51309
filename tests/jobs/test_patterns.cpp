// Array patterns, checked by moving simulated files: every destination byte must receive
// the array element the destination layout puts there, exactly once.
#include "coordinator/jobs/patterns.h"

#include <boost/test/unit_test.hpp>

#include <map>
#include <random>

namespace bc = baton::coordinator;

namespace {

// Each node's file as the global indices of the elements it holds, built by dealing the
// array out piece by piece (not by the formula under test).
std::vector<std::vector<std::uint64_t>> deal(bc::Layout layout, std::uint64_t block, std::uint64_t bytes,
                                             std::size_t nodes) {
  std::vector<std::vector<std::uint64_t>> files(nodes);
  const std::uint64_t piece = layout == bc::Layout::block ? (bytes + nodes - 1) / nodes : block;
  std::size_t owner = 0;
  for (std::uint64_t start = 0; start < bytes; start += piece, ++owner) {
    for (std::uint64_t g = start; g < std::min(bytes, start + piece); ++g) {
      files[layout == bc::Layout::block ? owner : owner % nodes].push_back(g);
    }
  }
  return files;
}

bc::Clusters clusters(std::size_t p, std::size_t q) {
  bc::Clusters c;
  for (std::size_t i = 0; i < p; ++i) c.senders.push_back("src" + std::to_string(i));
  for (std::size_t j = 0; j < q; ++j) c.receivers.push_back("dst" + std::to_string(j));
  return c;
}

void check_pattern(const bc::RedistributionPattern& p, std::size_t P, std::size_t Q) {
  const bc::Clusters c = clusters(P, Q);
  const auto src = deal(p.from, p.from_block, p.bytes, P);
  const auto want = deal(p.to, p.to_block, p.bytes, Q);
  std::vector<std::vector<std::int64_t>> got(Q);
  for (std::size_t j = 0; j < Q; ++j) got[j].assign(want[j].size(), -1);
  const auto transfers = bc::expand(p, c);
  bc::check_transfers(c, transfers);  // no overlap, known nodes
  for (const auto& t : transfers) {
    const std::size_t s = std::stoul(t.src_node.substr(3)), d = std::stoul(t.dst_node.substr(3));
    BOOST_TEST_REQUIRE(t.src_offset + t.length <= src[s].size());
    BOOST_TEST_REQUIRE(t.dst_offset + t.length <= got[d].size());
    for (std::uint64_t i = 0; i < t.length; ++i) {
      BOOST_TEST_REQUIRE(got[d][t.dst_offset + i] == -1);  // written once
      got[d][t.dst_offset + i] = static_cast<std::int64_t>(src[s][t.src_offset + i]);
    }
  }
  for (std::size_t j = 0; j < Q; ++j) {
    for (std::size_t i = 0; i < want[j].size(); ++i) {
      BOOST_TEST_REQUIRE(got[j][i] == static_cast<std::int64_t>(want[j][i]));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(patterns)

BOOST_AUTO_TEST_CASE(block_to_block_cyclic_and_back_on_random_shapes) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<std::uint64_t> bytes(1, 5000), block(1, 300);
  std::uniform_int_distribution<std::size_t> nodes(1, 9);
  for (int n = 0; n < 300; ++n) {
    bc::RedistributionPattern p;
    p.bytes = bytes(rng);
    const std::size_t P = nodes(rng), Q = nodes(rng);
    const bc::Layout layouts[] = {bc::Layout::block, bc::Layout::block_cyclic};
    p.from = layouts[n % 2];
    p.to = layouts[(n / 2) % 2];
    p.from_block = block(rng);
    p.to_block = block(rng);
    BOOST_TEST_CONTEXT("#" << n << " bytes " << p.bytes << " P " << P << " Q " << Q) { check_pattern(p, P, Q); }
  }
}

BOOST_AUTO_TEST_CASE(contiguous_pieces_are_merged) {
  // Block over 2 nodes to block over 4 nodes: each destination gets one transfer.
  bc::RedistributionPattern p{.bytes = 400, .from = bc::Layout::block, .to = bc::Layout::block};
  const auto transfers = bc::expand(p, clusters(2, 4));
  BOOST_TEST(transfers.size() == 4u);
  for (const auto& t : transfers) BOOST_TEST(t.length == 100u);
}

BOOST_AUTO_TEST_CASE(bad_patterns_are_refused) {
  BOOST_CHECK_THROW(bc::expand({.bytes = 0}, clusters(1, 1)), std::invalid_argument);
  BOOST_CHECK_THROW(bc::expand({.bytes = 10, .to = bc::Layout::block_cyclic, .to_block = 0}, clusters(1, 1)),
                    std::invalid_argument);
  BOOST_CHECK_THROW(bc::expand({.bytes = 10}, clusters(0, 1)), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()

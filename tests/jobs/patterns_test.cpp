// Array patterns, checked by moving simulated files: every destination byte must receive
// the array element the destination layout puts there, exactly once.
#include "coordinator/jobs/patterns.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <limits>
#include <map>
#include <random>

namespace bj = baton::jobs;

namespace {

// Each node's file as the global indices of the elements it holds, built by dealing the
// array out piece by piece (not by the formula under test).
std::vector<std::vector<std::uint64_t>> deal(bj::Layout layout, std::uint64_t block, std::uint64_t bytes,
                                             std::size_t nodes) {
  std::vector<std::vector<std::uint64_t>> files(nodes);
  const std::uint64_t piece = layout == bj::Layout::block ? (bytes + nodes - 1) / nodes : block;
  std::size_t owner = 0;
  for (std::uint64_t start = 0; start < bytes; start += piece, ++owner) {
    for (std::uint64_t g = start; g < std::min(bytes, start + piece); ++g) {
      files[layout == bj::Layout::block ? owner : owner % nodes].push_back(g);
    }
  }
  return files;
}

bj::Clusters src_dst_clusters(std::size_t p, std::size_t q) {
  bj::Clusters c;
  for (std::size_t i = 0; i < p; ++i) c.senders.push_back("src" + std::to_string(i));
  for (std::size_t j = 0; j < q; ++j) c.receivers.push_back("dst" + std::to_string(j));
  return c;
}

void check_pattern(const bj::RedistributionPattern& p, std::size_t P, std::size_t Q) {
  const bj::Clusters c = src_dst_clusters(P, Q);
  const auto src = deal(p.from, p.from_block, p.bytes, P);
  const auto want = deal(p.to, p.to_block, p.bytes, Q);
  std::vector<std::vector<std::int64_t>> got(Q);
  for (std::size_t j = 0; j < Q; ++j) got[j].assign(want[j].size(), -1);
  const auto transfers = bj::expand(p, c);
  bj::check_transfers(c, transfers);  // no overlap, known nodes
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
    bj::RedistributionPattern p;
    p.bytes = bytes(rng);
    const std::size_t P = nodes(rng), Q = nodes(rng);
    const bj::Layout layouts[] = {bj::Layout::block, bj::Layout::block_cyclic};
    p.from = layouts[n % 2];
    p.to = layouts[(n / 2) % 2];
    p.from_block = block(rng);
    p.to_block = block(rng);
    BOOST_TEST_CONTEXT("#" << n << " bytes " << p.bytes << " P " << P << " Q " << Q) { check_pattern(p, P, Q); }
  }
}

BOOST_AUTO_TEST_CASE(contiguous_pieces_are_merged) {
  // Block over 2 nodes to block over 4 nodes: each destination gets one transfer.
  bj::RedistributionPattern p{.bytes = 400, .from = bj::Layout::block, .to = bj::Layout::block};
  const auto transfers = bj::expand(p, src_dst_clusters(2, 4));
  BOOST_TEST(transfers.size() == 4u);
  for (const auto& t : transfers) BOOST_TEST(t.length == 100u);
}

BOOST_AUTO_TEST_CASE(the_count_is_the_number_of_transfers_expanded) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<std::uint64_t> bytes(1, 20000), block(1, 700);
  std::uniform_int_distribution<std::size_t> nodes(1, 12);
  const bj::Layout layouts[] = {bj::Layout::block, bj::Layout::block_cyclic};
  for (int n = 0; n < 2000; ++n) {
    bj::RedistributionPattern p{.bytes = bytes(rng),
                                .from = layouts[n % 2],
                                .from_block = block(rng),
                                .to = layouts[(n / 2) % 2],
                                .to_block = block(rng)};
    if (n % 7 == 0) p.to_block = p.from_block * 3;  // common boundaries counted once
    const std::size_t P = nodes(rng), Q = nodes(rng);
    BOOST_TEST_CONTEXT("#" << n << " bytes " << p.bytes << " P " << P << " Q " << Q << " blocks " << p.from_block << "/"
                           << p.to_block) {
      BOOST_TEST(bj::count_transfers(p, P, Q) == bj::expand(p, src_dst_clusters(P, Q)).size());
    }
  }
}

BOOST_AUTO_TEST_CASE(huge_expansions_are_counted_without_building_them) {
  // 256 MiB in 1-byte blocks: every byte its own transfer (the security review's job).
  const bj::RedistributionPattern tiny{.bytes = 256u << 20, .to = bj::Layout::block_cyclic, .to_block = 1};
  BOOST_TEST(bj::count_transfers(tiny, 2, 2) == 268435456u);
  // 1 TiB block → block-cyclic in 1 MiB blocks over 64 × 64 nodes: one transfer per block,
  // and one more where a source's piece ends inside a block (docs/runtime.md, "Limits").
  const bj::RedistributionPattern tebibyte{.bytes = 1ull << 40, .to = bj::Layout::block_cyclic, .to_block = 1u << 20};
  BOOST_TEST(bj::count_transfers(tebibyte, 64, 64) == 1u << 20);        // piece ends fall on block ends
  BOOST_TEST(bj::count_transfers(tebibyte, 3, 64) == (1u << 20) + 2u);  // here they do not
  // The largest array: the count neither overflows nor double-counts common multiples.
  const std::uint64_t max = std::numeric_limits<std::int64_t>::max();
  const bj::RedistributionPattern bytes{
      .bytes = max, .from = bj::Layout::block_cyclic, .from_block = 1, .to = bj::Layout::block_cyclic, .to_block = 3};
  BOOST_TEST(bj::count_transfers(bytes, 2, 2) == max);
  const bj::RedistributionPattern coprime{.bytes = max,
                                          .from = bj::Layout::block_cyclic,
                                          .from_block = max / 2,
                                          .to = bj::Layout::block_cyclic,
                                          .to_block = max / 2 - 1};
  BOOST_TEST(bj::count_transfers(coprime, 2, 2) == 5u);  // cuts at d, s, 2d, 2s
}

BOOST_AUTO_TEST_CASE(block_cyclic_over_one_node_is_one_piece) {
  // 1 GiB in 1-byte blocks on one node each side is one contiguous range: one transfer,
  // found without walking 2^30 blocks.
  const bj::RedistributionPattern p{.bytes = 1u << 30,
                                    .from = bj::Layout::block_cyclic,
                                    .from_block = 1,
                                    .to = bj::Layout::block_cyclic,
                                    .to_block = 1};
  BOOST_TEST(bj::count_transfers(p, 1, 1) == 1u);
  const auto transfers = bj::expand(p, src_dst_clusters(1, 1));
  BOOST_REQUIRE(transfers.size() == 1u);
  BOOST_TEST(transfers[0].length == 1u << 30);
}

BOOST_AUTO_TEST_CASE(bad_patterns_are_refused) {
  BOOST_CHECK_THROW(bj::expand({.bytes = 0}, src_dst_clusters(1, 1)), baton::error::InvalidInput);
  BOOST_CHECK_THROW(bj::expand({.bytes = 10, .to = bj::Layout::block_cyclic, .to_block = 0}, src_dst_clusters(1, 1)),
                    baton::error::InvalidInput);
  BOOST_CHECK_THROW(bj::expand({.bytes = 10}, src_dst_clusters(0, 1)), baton::error::InvalidInput);
  BOOST_CHECK_THROW(bj::count_transfers({.bytes = 0}, 1, 1), baton::error::InvalidInput);
  BOOST_CHECK_THROW(bj::count_transfers({.bytes = 10, .from = bj::Layout::block_cyclic}, 1, 1),
                    baton::error::InvalidInput);
}

BOOST_AUTO_TEST_SUITE_END()

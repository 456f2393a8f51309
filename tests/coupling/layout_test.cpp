// Layouts and the byte ranges of a redistribution (coupling/layout.h), checked element by
// element against the definitions: every element of the array moves exactly once, from
// where the source layout keeps it to where the destination layout wants it.
#include "coupling/layout.h"
#include "coupling/error.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <tuple>

using baton::coupling::Distribution;
using baton::coupling::Errc;
using baton::coupling::Error;
using baton::coupling::Layout;

namespace {

std::vector<std::string> group(const std::string& prefix, std::size_t n) {
  std::vector<std::string> nodes;
  for (std::size_t i = 0; i < n; ++i) nodes.push_back(prefix + std::to_string(i));
  return nodes;
}

// The byte offset of element (i, j) in its owner's part, from the definitions alone.
std::pair<std::size_t, std::uint64_t> where(const Layout& l, std::uint64_t i, std::uint64_t j) {
  const std::uint64_t cut = l.distribution.dim == 0 ? i : j;
  const auto [node, local] = l.owner(cut);
  BOOST_REQUIRE_EQUAL(l.global_index(node, local), cut);
  const auto shape = l.local_shape(node);
  const std::uint64_t row = l.distribution.dim == 0 ? local : i, col = l.distribution.dim == 0 ? j : local;
  return {node, (row * shape[1] + col) * l.element_size};
}

// Every element is moved once, by a piece that reads it where `from` keeps it and writes
// it where `to` wants it; no byte of any destination part is written twice.
void check_moves_every_element_once(const Layout& from, const Layout& to) {
  const auto pieces = redistribution(from, to);
  std::map<std::pair<std::size_t, std::uint64_t>, std::pair<std::size_t, std::uint64_t>> moved;  // dst byte -> src byte
  for (const auto& p : pieces) {
    BOOST_REQUIRE(p.length % from.element_size == 0);
    BOOST_REQUIRE(p.src_offset + p.length <= from.local_bytes(p.src));
    BOOST_REQUIRE(p.dst_offset + p.length <= to.local_bytes(p.dst));
    for (std::uint64_t b = 0; b < p.length; b += from.element_size) {
      BOOST_REQUIRE(moved.emplace(std::pair{p.dst, p.dst_offset + b}, std::pair{p.src, p.src_offset + b}).second);
    }
  }
  BOOST_REQUIRE_EQUAL(moved.size(), from.shape[0] * from.shape[1]);
  for (std::uint64_t i = 0; i < from.shape[0]; ++i) {
    for (std::uint64_t j = 0; j < from.shape[1]; ++j) {
      const auto it = moved.find(where(to, i, j));
      BOOST_REQUIRE(it != moved.end());
      BOOST_REQUIRE(it->second == where(from, i, j));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(layout)

BOOST_AUTO_TEST_CASE(block_parts_are_the_ceiling_and_the_last_one_is_short) {
  const Layout l = Layout::make({10, 7}, 8, group("p", 4), {.dim = 0});
  std::vector<std::uint64_t> counts;
  for (std::size_t p = 0; p < 4; ++p) counts.push_back(l.count(p));
  BOOST_TEST(counts == (std::vector<std::uint64_t>{3, 3, 3, 1}), boost::test_tools::per_element());
  BOOST_TEST(l.local_bytes(3) == 1u * 7 * 8);
  BOOST_TEST(l.global_index(2, 1) == 7u);
  // More nodes than rows: the last nodes hold nothing.
  const Layout thin = Layout::make({2, 5}, 4, group("p", 3), {.dim = 0});
  BOOST_TEST(thin.count(2) == 0u);
}

BOOST_AUTO_TEST_CASE(block_cyclic_parts_follow_scalapack_numroc) {
  const Layout l = Layout::make({4, 11}, 8, group("c", 3), {.dim = 1, .block = 2});
  // Blocks of columns: [0,1] c0, [2,3] c1, [4,5] c2, [6,7] c0, [8,9] c1, [10] c2.
  BOOST_TEST(l.count(0) == 4u);
  BOOST_TEST(l.count(1) == 4u);
  BOOST_TEST(l.count(2) == 3u);
  std::vector<std::uint64_t> c2;
  for (std::uint64_t k = 0; k < l.count(2); ++k) c2.push_back(l.global_index(2, k));
  BOOST_TEST(c2 == (std::vector<std::uint64_t>{4, 5, 10}), boost::test_tools::per_element());
  BOOST_TEST((l.local_shape(2) == std::array<std::uint64_t, 2>{4, 3}));
}

BOOST_AUTO_TEST_CASE(index_ranges_give_each_node_its_count_in_order) {
  const Layout l = Layout::make({10, 4}, 8, group("p", 4), {.dim = 0, .counts = {2, 0, 5, 3}});
  BOOST_TEST(l.count(1) == 0u);
  BOOST_TEST(l.count(2) == 5u);
  BOOST_TEST(l.global_index(2, 0) == 2u);
  BOOST_TEST(l.global_index(3, 2) == 9u);
  BOOST_TEST((l.owner(2) == std::pair<std::size_t, std::uint64_t>{2, 0}));  // not the empty node 1
  BOOST_TEST(l.describe() == "10 x 4 of 8 bytes, rows in ranges (2, 0, 5, 3) over p0, p1, p2, p3");
}

BOOST_AUTO_TEST_CASE(block_rows_to_block_cyclic_columns_moves_every_element_once) {
  check_moves_every_element_once(Layout::make({9, 13}, 8, group("p", 4), {.dim = 0}),
                                 Layout::make({9, 13}, 8, group("c", 3), {.dim = 1, .block = 2}));
}

BOOST_AUTO_TEST_CASE(every_pair_of_distributions_moves_every_element_once) {
  // Over 3 sources and 2 destinations of a 7 x 10 array: index ranges are given per group.
  const std::vector<Distribution> sources = {{.dim = 0},
                                             {.dim = 1},
                                             {.dim = 0, .block = 3},
                                             {.dim = 1, .block = 1},
                                             {.dim = 1, .block = 4},
                                             {.dim = 0, .counts = {4, 0, 3}},
                                             {.dim = 1, .counts = {1, 6, 3}}};
  const std::vector<Distribution> destinations = {{.dim = 0},
                                                  {.dim = 1},
                                                  {.dim = 0, .block = 3},
                                                  {.dim = 1, .block = 1},
                                                  {.dim = 1, .block = 4},
                                                  {.dim = 0, .counts = {2, 5}},
                                                  {.dim = 1, .counts = {10, 0}}};
  for (const Distribution& a : sources) {
    for (const Distribution& b : destinations) {
      const Layout from = Layout::make({7, 10}, 4, group("p", 3), a), to = Layout::make({7, 10}, 4, group("c", 2), b);
      BOOST_TEST_CONTEXT(from.describe() << " to " << to.describe()) { check_moves_every_element_once(from, to); }
    }
  }
}

BOOST_AUTO_TEST_CASE(contiguous_runs_are_merged) {
  // Block rows to block rows over the same count: one piece per node, whole parts.
  const auto pieces = redistribution(Layout::make({8, 5}, 8, group("p", 2), {.dim = 0}),
                                     Layout::make({8, 5}, 8, group("c", 2), {.dim = 0}));
  BOOST_REQUIRE_EQUAL(pieces.size(), 2u);
  BOOST_TEST(pieces[0].length == 4u * 5 * 8);
  // Block rows to block-cyclic columns: one piece per row and column block.
  BOOST_TEST(redistribution(Layout::make({6, 8}, 8, group("p", 2), {.dim = 0}),
                            Layout::make({6, 8}, 8, group("c", 2), {.dim = 1, .block = 2}))
                 .size() == 6u * 4);
}

namespace {

// The pieces `runs` stand for, in the order they come.
std::vector<std::tuple<std::size_t, std::uint64_t, std::uint64_t, std::size_t, std::uint64_t>> expanded(
    const std::vector<baton::coupling::PieceRun>& runs) {
  std::vector<std::tuple<std::size_t, std::uint64_t, std::uint64_t, std::size_t, std::uint64_t>> out;
  for (const auto& r : runs) {
    for (std::uint64_t i = 0; i < r.count; ++i) {
      out.emplace_back(r.first.src, r.first.src_offset + i * r.src_stride, r.first.length, r.first.dst,
                       r.first.dst_offset + i * r.dst_stride);
    }
  }
  std::ranges::sort(out);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(runs_stand_for_every_piece_once) {
  using baton::coupling::piece_runs;
  for (const Distribution& to : {Distribution{.dim = 1, .block = 2}, Distribution{.dim = 1, .block = 3},
                                 Distribution{.dim = 0, .block = 2}, Distribution{.dim = 1, .counts = {3, 0, 8}}}) {
    const Layout a = Layout::make({9, 11}, 8, group("p", 4), {.dim = 0}),
                 b = Layout::make({9, 11}, 8, group("c", 3), to);
    BOOST_TEST_CONTEXT(b.describe()) {
      const auto pieces = redistribution(a, b);
      const auto wanted = expanded([&] {
        std::vector<baton::coupling::PieceRun> single;
        for (const auto& p : pieces) single.push_back({.first = p});
        return single;
      }());
      BOOST_TEST(expanded(piece_runs(pieces, a, b)) == wanted);
    }
  }
  // The benchmark's field (docs/embedding.md): 1448 x 1448 doubles in block rows over 4,
  // block-cyclic columns of 120 over 3: 12 whole blocks and one of 8 columns. Each
  // producer makes a run per block but for consumer 0's first: the short block 12 joins the
  // next row's block 0, so block 0 of a producer's first row and block 12 of its last are
  // runs of their own: 14 runs per producer, 56 for 17 380 pieces.
  const Layout rows = Layout::make({1448, 1448}, 8, group("p", 4), {.dim = 0});
  const Layout cols = Layout::make({1448, 1448}, 8, group("c", 3), {.dim = 1, .block = 120});
  const auto pieces = redistribution(rows, cols);
  BOOST_TEST(pieces.size() == 17380u);
  BOOST_TEST(piece_runs(pieces, rows, cols).size() == 56u);
}

BOOST_AUTO_TEST_CASE(bad_layouts_are_refused_naming_what_is_wrong) {
  auto refused = [](auto make, const std::string& expected) {
    try {
      make();
      BOOST_ERROR("accepted: " << expected);
    } catch (const Error& e) {
      BOOST_TEST((e.code() == Errc::invalid_argument));
      BOOST_TEST(std::string(e.what()).find(expected) != std::string::npos, e.what());
    }
  };
  refused([] { Layout::make({0, 4}, 8, {"a"}, {}); }, "the shape must not be empty");
  refused([] { Layout::make({4, 4}, 0, {"a"}, {}); }, "the element size must be > 0");
  refused([] { Layout::make({4, 4}, 8, {}, {}); }, "the group has no node");
  refused([] { Layout::make({4, 4}, 8, {"a", "a"}, {}); }, "node a is named twice");
  refused([] { Layout::make({4, 4}, 8, {"a"}, {.dim = 2}); }, "must be 0 (rows) or 1 (columns), not 2");
  refused([] { Layout::make({1ull << 40, 1ull << 20}, 1ull << 8, {"a"}, {}); }, "overflow 2^64 bytes");
  refused(
      [] {
        Layout::make({4, 4}, 8, {"a", "b"}, {.dim = 0, .counts = {4}});
      },
      "1 index ranges (counts) for 2 nodes");
  refused(
      [] {
        Layout::make({4, 4}, 8, {"a", "b"}, {.dim = 1, .counts = {1, 2}});
      },
      "the index ranges (counts) add up to 3, not the columns' 4");
  refused([] { Layout::make({4, 4}, 8, {"a", "b"}, {.dim = 0, .counts = {~0ull, 5}}); }, "add up to more than 2^64");
  refused(
      [] {
        Layout::make({4, 4}, 8, {"a"}, {.dim = 0, .block = 2, .counts = {4}});
      },
      "give a block size or index ranges (counts), not both");
  refused(
      [] {
        redistribution(Layout::make({4, 4}, 8, {"a"}, {}), Layout::make({4, 5}, 8, {"b"}, {}));
      },
      "the two layouts describe different arrays");
}

BOOST_AUTO_TEST_SUITE_END()

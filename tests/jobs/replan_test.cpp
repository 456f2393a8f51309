// Re-planning mid-job, checked byte by byte with counts kept in the test: after any number
// of steps done, the steps that ran stay as they were, the new steps move exactly the
// bytes those left (every byte of every transfer once in the whole plan, from and to the
// place its transfer says), the new plan keeps the new k, and nothing is left or doubled.
#include "coordinator/jobs/replan.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <random>
#include <string>

namespace bj = baton::jobs;
namespace kpbs = baton::schedule::kpbs;

namespace {

// A job of random transfers between 4 senders and 5 receivers, several per pair, each a
// range of a file at random offsets; destinations disjoint per receiver.
std::vector<bj::TransferSpec> random_job(std::mt19937& random, const bj::Clusters& clusters) {
  std::uniform_int_distribution<std::uint64_t> length(1, 200'000);
  std::uniform_int_distribution<int> count(0, 3);
  std::vector<bj::TransferSpec> out;
  std::map<std::string, std::uint64_t> written;
  for (const std::string& s : clusters.senders) {
    for (const std::string& r : clusters.receivers) {
      for (int n = count(random); n > 0; --n) {
        const std::uint64_t len = length(random);
        out.push_back({s, "in-" + s, length(random), len, r, "out", written[r]});
        written[r] += len + 17;
      }
    }
  }
  return out;
}

// How often each byte of each transfer is moved by steps [first, last), from the chunks
// alone (the place is checked: a chunk at the same offset into its transfer at both ends).
std::vector<std::vector<std::uint8_t>> moves(const bj::CompiledPlan& plan, std::size_t first, std::size_t last,
                                             const std::vector<bj::TransferSpec>& transfers) {
  std::vector<std::vector<std::uint8_t>> count;
  for (const auto& t : transfers) count.emplace_back(t.length, 0);
  for (std::size_t s = first; s < last; ++s) {
    for (const bj::Flow& f : plan.steps[s].flows) {
      for (const bj::Chunk& c : f.chunks) {
        const bj::TransferSpec& t = transfers.at(c.transfer);
        BOOST_REQUIRE(c.src_offset - t.src_offset == c.dst_offset - t.dst_offset);
        // Inside its transfer, checked once a chunk (not once a byte), without wrapping.
        BOOST_REQUIRE(c.src_offset >= t.src_offset);
        const std::uint64_t from = c.src_offset - t.src_offset;
        BOOST_REQUIRE(from <= t.length);
        BOOST_REQUIRE(c.length <= t.length - from);
        for (std::uint64_t b = from; b < from + c.length; ++b) ++count[c.transfer][b];
      }
    }
  }
  return count;
}

const kpbs::Platform kFast{.sender_rate = 10e6,
                           .receiver_rate = 10e6,
                           .backbone_rate = 30e6,
                           .step_startup = 0.01,
                           .sender_rates = {},
                           .receiver_rates = {}};
const kpbs::Platform kSlow = [] {
  kpbs::Platform slow = kFast;
  slow.backbone_rate = 15e6;
  return slow;
}();

}  // namespace

BOOST_AUTO_TEST_SUITE(replan)

BOOST_AUTO_TEST_CASE(the_rest_is_exact_to_the_byte_after_any_number_of_steps) {
  std::mt19937 random(18);
  const bj::Clusters clusters{{"s0", "s1", "s2", "s3"}, {"r0", "r1", "r2", "r3", "r4"}};
  for (int trial = 0; trial < 12; ++trial) {
    const auto transfers = random_job(random, clusters);
    if (transfers.empty()) continue;
    const auto algorithm = trial % 2 == 0 ? kpbs::Algorithm::oggp : kpbs::Algorithm::ggp;
    const bj::CompiledPlan first = bj::compile_plan(clusters, transfers, kFast, algorithm);
    BOOST_REQUIRE(first.k == 3);
    for (std::size_t done = 0; done < first.steps.size(); done += 1 + first.steps.size() / 5) {
      BOOST_TEST_CONTEXT("trial " << trial << ", after " << done << " of " << first.steps.size() << " steps") {
        const bj::CompiledPlan next = bj::replan(first, done, clusters, transfers, kSlow, algorithm);
        BOOST_TEST(next.k == 1);
        // The steps that ran are the same steps.
        for (std::size_t s = 0; s < done; ++s) {
          BOOST_TEST(next.steps[s].bytes == first.steps[s].bytes);
          BOOST_TEST(next.steps[s].flows.size() == first.steps[s].flows.size());
        }
        // Before and after: each byte once, in the whole plan; the new steps exactly what the
        // done ones had not moved.
        const auto before = moves(first, 0, done, transfers);
        const auto after = moves(next, done, next.steps.size(), transfers);
        std::uint64_t remaining = 0, total = 0;
        std::optional<std::string> not_once;  // the first byte moved twice or never
        for (std::size_t t = 0; t < transfers.size(); ++t) {
          for (std::size_t b = 0; b < transfers[t].length; ++b) {
            const int times = before[t][b] + after[t][b];
            if (times != 1 && !not_once) {
              not_once = "byte " + std::to_string(b) + " of transfer " + std::to_string(t) + " moved " +
                         std::to_string(times) + " times";
            }
            remaining += static_cast<std::uint64_t>(after[t][b]);
          }
          total += transfers[t].length;
        }
        BOOST_REQUIRE_MESSAGE(!not_once, not_once.value_or(""));
        std::uint64_t done_bytes = 0;
        for (std::size_t s = 0; s < done; ++s) done_bytes += first.steps[s].bytes;
        BOOST_TEST(remaining == total - done_bytes);
        for (std::size_t s = done; s < next.steps.size(); ++s) BOOST_TEST(next.steps[s].flows.size() <= 1u);
        BOOST_TEST(!bj::check_moves_every_byte_once(next, clusters, transfers).has_value());
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(remaining_traffic_cuts_each_transfer_around_what_moved) {
  const bj::Clusters clusters{{"s"}, {"r"}};
  const std::vector<bj::TransferSpec> transfers{{"s", "a", 100, 1000, "r", "x", 5000}};
  bj::CompiledPlan plan;
  plan.steps.resize(2);
  plan.steps[0].flows.push_back({0, 0, 300, {{0, 400, 5300, 300}}});  // positions [300, 600) moved first
  plan.steps[1].flows.push_back({0, 0, 700, {{0, 100, 5000, 300}, {0, 700, 5600, 400}}});
  const bj::RemainingTraffic rest = bj::remaining_traffic(plan, 1, transfers);
  BOOST_REQUIRE(rest.transfers.size() == 2u);
  BOOST_TEST(rest.transfers[0].src_offset == 100u);
  BOOST_TEST(rest.transfers[0].dst_offset == 5000u);
  BOOST_TEST(rest.transfers[0].length == 300u);
  BOOST_TEST(rest.transfers[1].src_offset == 700u);
  BOOST_TEST(rest.transfers[1].dst_offset == 5600u);
  BOOST_TEST(rest.transfers[1].length == 400u);
  BOOST_TEST(rest.origin == (std::vector<std::size_t>{0, 0}));
  BOOST_TEST(bj::remaining_traffic(plan, 2, transfers).transfers.empty());
  BOOST_TEST(!bj::check_moves_every_byte_once(plan, clusters, transfers).has_value());
  BOOST_CHECK_THROW(bj::replan(plan, 2, clusters, transfers, kFast, kpbs::Algorithm::oggp), baton::error::InvalidInput);
  BOOST_CHECK_THROW(bj::remaining_traffic(plan, 3, transfers), baton::error::InvalidInput);
}

BOOST_AUTO_TEST_CASE(the_check_names_bytes_moved_twice_never_moved_or_misplaced) {
  const bj::Clusters clusters{{"s"}, {"r"}};
  const std::vector<bj::TransferSpec> transfers{{"s", "a", 0, 1000, "r", "x", 0}};
  bj::CompiledPlan plan;
  plan.steps.resize(1);
  plan.steps[0].flows.push_back({0, 0, 0, {{0, 0, 0, 600}, {0, 500, 500, 500}}});
  BOOST_TEST(bj::check_moves_every_byte_once(plan, clusters, transfers).value_or("").reason ==
             "transfer 0: bytes from 500 moved twice");
  plan.steps[0].flows[0].chunks[1] = {0, 700, 700, 300};
  BOOST_TEST(bj::check_moves_every_byte_once(plan, clusters, transfers).value_or("").reason ==
             "transfer 0: bytes from 600 never moved");
  plan.steps[0].flows[0].chunks[1] = {0, 600, 601, 400};
  BOOST_TEST(
      bj::check_moves_every_byte_once(plan, clusters, transfers).value_or("").reason.find("not at the same place") !=
      std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

#include "agent/plan_check.h"
#include "tests/agent/promptly.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

#include <sys/stat.h>

namespace fs = std::filesystem;
using baton::agent::check_plan;
using baton::agent::DataRoot;
using baton::test::TempDir;
namespace bp = baton::protocol;

namespace {

// A data root with src/x.bin (6000 bytes) and a valid three-step plan: step 0 sends two
// chunks of x.bin, step 2 receives two chunks into y.bin, step 5 (all-at-once) sends and
// receives.
struct PlanCheckFixture {
  TempDir dir;
  DataRoot root;
  bp::Plan plan;

  PlanCheckFixture() : root((dir.write("src/x.bin", std::string(6000, 'x')), dir.path)) {
    plan.set_job("7");
    plan.set_k(2);
    plan.set_job_number(7);
    auto* s0 = add_step(0);
    auto* send = add_flow(s0, true, 1e6);
    add_chunk(send, 1, "src/x.bin", 0, "y.bin", 0, 4096, 0);
    add_chunk(send, 2, "src/x.bin", 4096, "y.bin", 4096, 1904, 4096);
    auto* s2 = add_step(2);
    auto* receive = add_flow(s2, false, 1e6);
    add_chunk(receive, 3, "a.bin", 0, "out/y.bin", 0, 100, 0);
    add_chunk(receive, 4, "a.bin", 100, "out/y.bin", 200, 100, 100);
    auto* s5 = add_step(5);
    add_chunk(add_flow(s5, true, 0), 5, "src/x.bin", 0, "z.bin", 0, 10, 0);
    add_chunk(add_flow(s5, false, 0), 6, "b.bin", 0, "out/y.bin", 100, 100, 0);
  }

  bp::Step* add_step(std::uint32_t index) {
    auto* step = plan.add_steps();
    step->set_index(index);
    return step;
  }
  static bp::Flow* add_flow(bp::Step* step, bool send, double rate) {
    auto* flow = step->add_flows();
    flow->set_send(send);
    flow->set_peer("b0");
    if (send) flow->set_peer_address("127.0.0.1:9000");
    flow->set_rate(rate);
    return flow;
  }
  static bp::Chunk* add_chunk(bp::Flow* flow, std::uint64_t transfer, const std::string& src, std::uint64_t src_offset,
                              const std::string& dst, std::uint64_t dst_offset, std::uint64_t length,
                              std::uint64_t stream_offset) {
    auto* c = flow->add_chunks();
    c->set_transfer(transfer);
    c->set_src_file(src);
    c->set_src_offset(src_offset);
    c->set_dst_file(dst);
    c->set_dst_offset(dst_offset);
    c->set_length(length);
    c->set_stream_offset(stream_offset);
    return c;
  }
  std::string check() const { return check_plan(plan, root).value_or("").reason; }  // "": accepted
  bp::Chunk* chunk(int step, int flow, int c) {
    return plan.mutable_steps(step)->mutable_flows(flow)->mutable_chunks(c);
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(plan_check, PlanCheckFixture)

BOOST_AUTO_TEST_CASE(valid_multi_step_plan_is_accepted) {
  BOOST_TEST(check() == "");
  BOOST_TEST(!fs::exists(dir.path / "y.bin"));  // checking creates nothing
}

BOOST_AUTO_TEST_CASE(empty_job_is_refused) {
  plan.set_job("");
  BOOST_TEST(check() == "plan has no job id");
}

BOOST_AUTO_TEST_CASE(k_below_one_is_refused) {
  plan.set_k(0);
  BOOST_TEST(check() == "plan's k is 0, must be at least 1");
}

BOOST_AUTO_TEST_CASE(repeated_step_index_is_refused) {
  plan.mutable_steps(2)->set_index(2);
  BOOST_TEST(check() == "step 2 (position 2): index does not follow step 2");
}

BOOST_AUTO_TEST_CASE(decreasing_step_index_is_refused) {
  plan.mutable_steps(1)->set_index(9);
  BOOST_TEST(check() == "step 5 (position 2): index does not follow step 9");
}

// The all-at-once baseline starts every flow of a node at once, however many there are
// against k: its step is unpaced and held to neither k nor 1-port.
BOOST_AUTO_TEST_CASE(unpaced_step_may_have_more_flows_than_k) {
  plan.set_k(1);
  BOOST_TEST(check() == "");
}

// A node in both clusters (an in-place job) has a send port and a receive port.
BOOST_AUTO_TEST_CASE(one_send_and_one_receive_in_a_scheduled_step_keep_1_port) {
  plan.mutable_steps(2)->mutable_flows(0)->set_rate(1e6);
  BOOST_TEST(check() == "");
}

BOOST_AUTO_TEST_CASE(two_sends_or_two_receives_in_a_scheduled_step_break_1_port) {
  plan.mutable_steps(2)->mutable_flows(0)->set_rate(1e6);
  plan.mutable_steps(2)->mutable_flows(1)->set_send(true);
  plan.mutable_steps(2)->mutable_flows(1)->set_peer_address("127.0.0.1:9001");
  BOOST_TEST(check() == "step 5: 2 send flows in a scheduled step, 1-port allows one");
  plan.mutable_steps(2)->mutable_flows(0)->set_send(false);
  plan.mutable_steps(2)->mutable_flows(1)->set_send(false);
  BOOST_TEST(check().starts_with("step 5: 2 receive flows in a scheduled step, 1-port allows one"), check());
}

// A fluid redistribution paces each of a node's flows at its share of the node's link, all
// at once: its plan says the links are shared, and 1-port does not hold it.
BOOST_AUTO_TEST_CASE(a_plan_of_shared_links_may_pace_several_flows_of_a_node_at_once) {
  plan.mutable_steps(2)->mutable_flows(0)->set_rate(1e6);
  plan.mutable_steps(2)->mutable_flows(0)->set_send(false);
  plan.mutable_steps(2)->mutable_flows(1)->set_rate(2e6);
  plan.mutable_steps(2)->mutable_flows(1)->mutable_chunks(0)->set_stream_offset(10);  // after flow 0's chunk
  BOOST_TEST(check().starts_with("step 5: 2 receive flows in a scheduled step, 1-port allows one"), check());
  plan.set_shared_links(true);
  BOOST_TEST(check() == "");
}

BOOST_AUTO_TEST_CASE(negative_or_non_finite_rate_is_refused) {
  plan.mutable_steps(1)->mutable_flows(0)->set_rate(-1);
  BOOST_TEST(check().starts_with("step 2, flow 0: bad rate -1"));
  plan.mutable_steps(1)->mutable_flows(0)->set_rate(std::numeric_limits<double>::quiet_NaN());
  BOOST_TEST(check().starts_with("step 2, flow 0: bad rate"));
  plan.mutable_steps(1)->mutable_flows(0)->set_rate(1e6);
  plan.mutable_steps(2)->mutable_flows(1)->set_rate(std::numeric_limits<double>::infinity());
  BOOST_TEST(check().starts_with("step 5, flow 1: bad rate"));
  // Past what a token bucket paces (1e12 bytes/s): refused here, not thrown by the pacer.
  plan.mutable_steps(2)->mutable_flows(1)->set_rate(2e12);
  BOOST_TEST(check().starts_with("step 5, flow 1: bad rate 2"));
}

BOOST_AUTO_TEST_CASE(a_node_rate_that_is_not_a_rate_is_refused) {
  plan.set_node_rate(-5);
  BOOST_TEST(check().starts_with("plan's node_rate: bad rate -5"), check());
  plan.set_node_rate(std::numeric_limits<double>::quiet_NaN());
  BOOST_TEST(check().starts_with("plan's node_rate: bad rate"), check());
  plan.set_node_rate(1e13);
  BOOST_TEST(check().starts_with("plan's node_rate: bad rate"), check());
  plan.set_node_rate(0.5);  // a bucket of 0 bytes/s: the pacer would throw mid-step
  BOOST_TEST(check().starts_with("plan's node_rate: bad rate 0.5"), check());
  plan.set_node_rate(125e6);
  BOOST_TEST(check() == "");
}

BOOST_AUTO_TEST_CASE(send_flow_without_peer_address_is_refused) {
  plan.mutable_steps(2)->mutable_flows(0)->clear_peer_address();
  BOOST_TEST(check() == "step 5, flow 0: send flow to b0 has no peer address");
}

BOOST_AUTO_TEST_CASE(zero_length_chunk_is_refused) {
  chunk(1, 0, 1)->set_length(0);
  BOOST_TEST(check() == "step 2, chunk 1 (transfer 4): length is 0");
}

BOOST_AUTO_TEST_CASE(offset_overflow_is_refused) {
  const auto max = std::numeric_limits<std::uint64_t>::max();
  chunk(1, 0, 0)->set_dst_offset(max - 50);
  BOOST_TEST(check() == "step 2, chunk 0 (transfer 3): destination offset + length overflows 2^64");
  chunk(1, 0, 0)->set_dst_offset(0);
  chunk(1, 0, 1)->set_stream_offset(max);
  BOOST_TEST(check() == "step 2, chunk 1 (transfer 4): stream offset + length overflows 2^64");
  chunk(1, 0, 1)->set_stream_offset(100);
  chunk(0, 0, 1)->set_src_offset(max - 1);
  BOOST_TEST(check() == "step 0, chunk 1 (transfer 2): source offset + length overflows 2^64");
}

BOOST_AUTO_TEST_CASE(escaping_names_are_refused) {
  chunk(0, 0, 1)->set_src_file("../x.bin");
  BOOST_TEST(check() == "step 0, chunk 1 (transfer 2): source: file name ../x.bin contains '..'");
  chunk(0, 0, 1)->set_src_file("src/x.bin");
  chunk(1, 0, 0)->set_dst_file("/etc/passwd");
  BOOST_TEST(check() == "step 2, chunk 0 (transfer 3): destination: absolute file name /etc/passwd");
  chunk(1, 0, 0)->set_dst_file("");
  BOOST_TEST(check() == "step 2, chunk 0 (transfer 3): destination: empty file name");
}

BOOST_AUTO_TEST_CASE(source_symlinked_outside_the_root_is_refused) {
  fs::create_directory_symlink("/etc", dir.path / "etc");
  chunk(2, 0, 0)->set_src_file("etc/passwd");
  const std::string error = check();
  BOOST_TEST(error.starts_with("step 5, chunk 0 (transfer 5): source unusable: etc/passwd: outside the data root"));
}

BOOST_AUTO_TEST_CASE(missing_source_is_refused) {
  chunk(2, 0, 0)->set_src_file("src/missing.bin");
  BOOST_TEST(check().starts_with("step 5, chunk 0 (transfer 5): source unusable: src/missing.bin"));
}

BOOST_AUTO_TEST_CASE(a_fifo_source_is_refused_at_once_naming_it) {
  BOOST_REQUIRE(::mkfifo((dir.path / "src/p").c_str(), 0644) == 0);
  chunk(2, 0, 0)->set_src_file("src/p");
  std::string error;
  const auto thrown = baton::agent::test::error_within([&] { error = check(); }, dir.path / "src/p");
  BOOST_REQUIRE_MESSAGE(thrown == "", "check_plan blocked or threw on a FIFO");
  BOOST_TEST(error == "step 5, chunk 0 (transfer 5): source unusable: src/p is a fifo, not a regular file (under " +
                          dir.path.string() + ")");
}

BOOST_AUTO_TEST_CASE(a_destination_that_exists_and_is_not_a_regular_file_is_refused) {
  fs::create_directory(dir.path / "out");
  BOOST_REQUIRE(::mkfifo((dir.path / "out/y.bin").c_str(), 0644) == 0);
  std::string error;
  const auto thrown = baton::agent::test::error_within([&] { error = check(); }, dir.path / "out/y.bin");
  BOOST_REQUIRE_MESSAGE(thrown == "", "check_plan blocked or threw on a FIFO");
  BOOST_TEST(error ==
             "step 2, chunk 0 (transfer 3): destination unusable: out/y.bin is a fifo, not a regular file (under " +
                 dir.path.string() + ")");
  fs::remove(dir.path / "out/y.bin");
  fs::create_directory(dir.path / "out/y.bin");
  BOOST_TEST(check().starts_with("step 2, chunk 0 (transfer 3): destination unusable: out/y.bin is a directory"));
  fs::remove(dir.path / "out/y.bin");
  BOOST_TEST(check() == "");  // missing is fine: the step creates it
}

BOOST_AUTO_TEST_CASE(source_range_past_the_end_is_refused) {
  chunk(0, 0, 1)->set_length(1905);
  BOOST_TEST(check() == "step 0, chunk 1 (transfer 2): source range [4096, 6001) is outside src/x.bin (6000 bytes)");
}

BOOST_AUTO_TEST_CASE(overlapping_stream_ranges_in_a_step_are_refused) {
  chunk(1, 0, 1)->set_stream_offset(99);
  BOOST_TEST(check() == "step 2, chunk 1 (transfer 4): stream range [99, 199) overlaps chunk 0 of the step");
}

BOOST_AUTO_TEST_CASE(same_stream_offset_in_different_steps_is_fine) {
  // Step 5's incoming chunk also starts at stream offset 0, like step 2's first chunk.
  BOOST_TEST(chunk(2, 1, 0)->stream_offset() == chunk(1, 0, 0)->stream_offset());
  BOOST_TEST(check() == "");
}

BOOST_AUTO_TEST_CASE(overlapping_destinations_in_one_step_are_refused) {
  chunk(1, 0, 1)->set_dst_offset(50);
  BOOST_TEST(check() ==
             "step 2, chunk 1 (transfer 4): destination range [50, 150) of out/y.bin overlaps step 2, chunk 0");
}

BOOST_AUTO_TEST_CASE(overlapping_destinations_across_steps_are_refused) {
  chunk(2, 1, 0)->set_dst_offset(150);
  BOOST_TEST(check() ==
             "step 5, chunk 1 (transfer 6): destination range [150, 250) of out/y.bin overlaps step 2, chunk 1");
}

BOOST_AUTO_TEST_CASE(same_range_of_different_files_is_fine) {
  chunk(2, 1, 0)->set_dst_file("other.bin");
  chunk(2, 1, 0)->set_dst_offset(0);
  BOOST_TEST(check() == "");
}

BOOST_AUTO_TEST_SUITE_END()

// The agent's checks of dataflow plans (docs/collectives.md, "The agent's checks"): a
// valid inner node of a reduction passes, and each rule refuses a plan broken in its way
// with one line naming the step and the task.
#include "agent/dataflow_step_check.h"
#include "agent/plan_check.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <limits>

namespace ba = baton::agent;
namespace bp = baton::protocol;
using baton::test::TempDir;

namespace {

constexpr std::uint64_t L = 4000;  // 1000 f32

// An inner node of a reduction under a data root holding grad.bin (L bytes): it receives
// from a and b into scratch objects, folds grad.bin ⊕ a's ⊕ b's into scratch:out, and
// sends that to the root r.
struct DataflowCheckFixture {
  TempDir dir;
  ba::DataRoot root;
  bp::Plan plan;

  DataflowCheckFixture() : root((dir.write("grad.bin", std::string(L, 'g')), dir.path)) {
    plan.set_job("9");
    plan.set_k(1);
    plan.set_job_number(9);
    plan.set_kind("reduce");
    bp::Step* step = plan.add_steps();
    step->set_index(0);
    receive(0, {}, "a", "scratch:from-a", 0, 0);
    receive(1, {}, "b", "scratch:from-b", 0, L);
    combine(2, {0, 1}, bp::F32, bp::SUM, {{"grad.bin", 0}, {"scratch:from-a", 0}, {"scratch:from-b", 0}},
            {"scratch:out", 0}, L);
    send(3, {2}, "r", "scratch:out", 0);
  }

  bp::Step& step() { return *plan.mutable_steps(0); }
  bp::Task* task(std::uint32_t id, std::vector<std::uint32_t> after) {
    bp::Task* t = step().add_tasks();
    t->set_id(id);
    for (std::uint32_t a : after) t->add_after(a);
    return t;
  }
  static void chunk(bp::Flow* f, const std::string& src, const std::string& dst, std::uint64_t offset,
                    std::uint64_t stream, std::uint64_t length = L) {
    bp::Chunk* c = f->add_chunks();
    c->set_transfer(stream + 1);
    c->set_src_file(src);
    c->set_src_offset(offset);
    c->set_dst_file(dst);
    c->set_dst_offset(offset);
    c->set_length(length);
    c->set_stream_offset(stream);
  }
  void receive(std::uint32_t id, std::vector<std::uint32_t> after, const std::string& peer, const std::string& into,
               std::uint64_t offset, std::uint64_t stream, std::uint64_t length = L) {
    bp::Flow* f = task(id, std::move(after))->mutable_flow();
    f->set_peer(peer);
    chunk(f, "scratch:out", into, offset, stream, length);
  }
  void send(std::uint32_t id, std::vector<std::uint32_t> after, const std::string& peer, const std::string& from,
            std::uint64_t offset, std::uint64_t length = L) {
    bp::Flow* f = task(id, std::move(after))->mutable_flow();
    f->set_send(true);
    f->set_peer(peer);
    f->set_peer_address("127.0.0.1:9");
    f->set_rate(1e6);
    chunk(f, from, "scratch:from-c", offset, 0, length);
  }
  void combine(std::uint32_t id, std::vector<std::uint32_t> after, bp::DataType dtype, bp::ReduceOp op,
               std::vector<std::pair<std::string, std::uint64_t>> inputs, std::pair<std::string, std::uint64_t> output,
               std::uint64_t length) {
    bp::Combine* c = task(id, std::move(after))->mutable_combine();
    c->set_dtype(dtype);
    c->set_op(op);
    for (const auto& [object, offset] : inputs) {
      bp::Region* r = c->add_inputs();
      r->set_object(object);
      r->set_offset(offset);
      r->set_length(length);
    }
    c->mutable_output()->set_object(output.first);
    c->mutable_output()->set_offset(output.second);
    c->mutable_output()->set_length(length);
  }
  bp::Combine& the_combine() { return *step().mutable_tasks(2)->mutable_combine(); }
  std::string check() const { return ba::check_plan(plan, root).value_or("").reason; }  // "": accepted
};

#define REFUSED(words)                                                            \
  do {                                                                            \
    const std::string why = check();                                              \
    BOOST_TEST(why.find(words) != std::string::npos, "refusal: '" << why << "'"); \
  } while (false)

}  // namespace

BOOST_FIXTURE_TEST_SUITE(dataflow_check, DataflowCheckFixture)

BOOST_AUTO_TEST_CASE(an_inner_node_of_a_reduction_is_accepted) {
  BOOST_TEST(check() == "");
  const auto sizes = ba::scratch_sizes(plan);
  BOOST_TEST(sizes.size() == 3u);
  BOOST_TEST(sizes.at("scratch:out") == L);
}

BOOST_AUTO_TEST_CASE(an_unknown_kind_is_refused) {
  plan.set_kind("gather");
  REFUSED("plan's kind 'gather' is not one this agent runs");
}

BOOST_AUTO_TEST_CASE(dataflow_steps_hold_tasks_and_lockstep_steps_flows) {
  step().add_flows()->set_peer("a");
  REFUSED("step 0: a dataflow step lists tasks, not flows");
  step().clear_flows();
  plan.set_kind("redistribution");
  REFUSED("step 0: a lockstep step lists flows, not tasks");
}

BOOST_AUTO_TEST_CASE(task_ids_are_unique) {
  step().mutable_tasks(3)->set_id(1);
  REFUSED("step 0, task 1 (send to r): its id is used by an earlier task of the step");
}

BOOST_AUTO_TEST_CASE(a_task_waits_only_for_earlier_tasks) {
  step().mutable_tasks(0)->add_after(3);  // a later one: a cycle would be possible
  REFUSED("step 0, task 0 (receive from a): waits for task 3, which is not an earlier task of the step");
  step().mutable_tasks(0)->clear_after();
  step().mutable_tasks(1)->add_after(1);  // itself
  REFUSED("task 1 (receive from b): waits for task 1, which is not an earlier task");
}

BOOST_AUTO_TEST_CASE(a_task_without_a_kind_is_refused) {
  task(4, {3});
  REFUSED("step 0, task 4: it has neither a flow nor a combine");
}

BOOST_AUTO_TEST_CASE(a_combine_needs_two_inputs) {
  the_combine().mutable_inputs()->RemoveLast();
  the_combine().mutable_inputs()->RemoveLast();
  REFUSED("task 2 (combine): a combine needs at least two inputs, it has 1");
}

BOOST_AUTO_TEST_CASE(combined_regions_have_one_length) {
  the_combine().mutable_inputs(1)->set_length(L - 4);
  REFUSED("task 2 (combine): input 1 has 3996 bytes, the output 4000");
}

BOOST_AUTO_TEST_CASE(a_combined_length_is_a_multiple_of_the_element_size) {
  the_combine().set_dtype(bp::F64);
  for (auto& r : *the_combine().mutable_inputs()) r.set_length(L - 4);
  the_combine().mutable_output()->set_length(L - 4);
  REFUSED("task 2 (combine): length 3996 is not a positive multiple of f64's 8 bytes");
}

BOOST_AUTO_TEST_CASE(dtype_and_op_must_go_together) {
  the_combine().set_op(bp::BXOR);
  REFUSED("task 2 (combine): bxor does not apply to f32");
  the_combine().set_op(bp::OP_UNSPECIFIED);
  REFUSED("task 2 (combine): unknown op 0");
  the_combine().set_op(bp::SUM);
  the_combine().set_dtype(bp::DTYPE_UNSPECIFIED);
  REFUSED("task 2 (combine): unknown dtype 0");
}

BOOST_AUTO_TEST_CASE(an_output_overlapping_an_input_partly_is_refused_and_the_same_region_is_fine) {
  // grad.bin ⊕ … → grad.bin [4, L + 4): overlaps its input [0, L) partly.
  the_combine().mutable_output()->set_object("grad.bin");
  the_combine().mutable_output()->set_offset(4);
  REFUSED("task 2 (combine): input 0 [0, 4000) of grad.bin overlaps the output [4, 4004) partly");
  // In place, the very region: each chunk is read before it is written.
  the_combine().mutable_output()->set_offset(0);
  step().mutable_tasks(3)->mutable_flow()->mutable_chunks(0)->set_src_file("grad.bin");
  BOOST_TEST(check() == "");
}

BOOST_AUTO_TEST_CASE(receives_into_one_object_do_not_overlap) {
  step().mutable_tasks(1)->mutable_flow()->mutable_chunks(0)->set_dst_file("scratch:from-a");
  step().mutable_tasks(1)->mutable_flow()->mutable_chunks(0)->set_dst_offset(L - 4);
  REFUSED(
      "task 1 (receive from b): chunk 0 (transfer 4001): destination range [3996, 7996) of scratch:from-a "
      "overlaps step 0, task 0");
}

BOOST_AUTO_TEST_CASE(incoming_stream_ranges_do_not_overlap) {
  step().mutable_tasks(1)->mutable_flow()->mutable_chunks(0)->set_stream_offset(L - 1);
  REFUSED("task 1 (receive from b): chunk 0 (transfer 4001): stream range [3999, 7999) overlaps step 0, task 0's");
}

BOOST_AUTO_TEST_CASE(a_scratch_object_is_read_only_after_a_task_it_waits_for_wrote_it) {
  step().mutable_tasks(3)->clear_after();  // the send no longer waits for the combine
  REFUSED(
      "task 3 (send to r): reads [0, 4000) of scratch:out while step 0, task 2 writes into it, and neither "
      "waits for the other");
  step().mutable_tasks(3)->add_after(2);
  step().mutable_tasks(3)->mutable_flow()->mutable_chunks(0)->set_src_file("scratch:nothing");
  REFUSED("task 3 (send to r): reads [0, 4000) of scratch:nothing, which the tasks it waits for do not write whole");
}

BOOST_AUTO_TEST_CASE(a_file_written_while_another_task_reads_it_is_a_race) {
  receive(4, {}, "b", "grad.bin", 0, 2 * L);  // the combine reads grad.bin, unordered with this
  REFUSED(
      "task 2 (combine): reads [0, 4000) of grad.bin while step 0, task 4 writes into it, and neither waits for "
      "the other");
}

BOOST_AUTO_TEST_CASE(a_relay_sends_a_file_it_received_before_it_exists) {
  plan.set_kind("multicast");
  step().clear_tasks();
  receive(0, {}, "a", "model.bin", 0, 0);
  send(1, {0}, "c", "model.bin", 0);  // model.bin is not there yet: it will be
  BOOST_TEST(check() == "");
  step().mutable_tasks(1)->clear_after();
  REFUSED("task 1 (send to c): reads [0, 4000) of model.bin while step 0, task 0 writes into it");
}

BOOST_AUTO_TEST_CASE(reading_past_the_end_of_a_file_is_refused) {
  for (auto& r : *the_combine().mutable_inputs()) r.set_length(2 * L);
  the_combine().mutable_output()->set_length(2 * L);
  step().mutable_tasks(0)->mutable_flow()->mutable_chunks(0)->set_length(2 * L);
  step().mutable_tasks(1)->mutable_flow()->mutable_chunks(0)->set_length(2 * L);
  step().mutable_tasks(1)->mutable_flow()->mutable_chunks(0)->set_stream_offset(2 * L);
  step().mutable_tasks(3)->mutable_flow()->mutable_chunks(0)->set_length(2 * L);
  REFUSED("task 2 (combine): source range [0, 8000) is outside grad.bin (4000 bytes)");
}

BOOST_AUTO_TEST_CASE(scratch_names_cannot_leave_their_directory) {
  for (const char* name : {"scratch:../grad.bin", "scratch:", "scratch:.hidden", "scratch:a/b"}) {
    step().mutable_tasks(0)->mutable_flow()->mutable_chunks(0)->set_dst_file(name);
    REFUSED("is not scratch: and 1 to 128 of A-Z a-z 0-9 . _ - (not starting with .)");
  }
}

BOOST_AUTO_TEST_CASE(files_are_inside_the_data_root_and_outside_the_scratch_directory) {
  the_combine().mutable_inputs(0)->set_object("../grad.bin");
  REFUSED("task 2 (combine): input 0: file name ../grad.bin contains '..'");
  the_combine().mutable_inputs(0)->set_object(".baton-scratch/n1/9.1/out");
  REFUSED("is inside the agent's scratch directory .baton-scratch");
}

BOOST_AUTO_TEST_CASE(flows_of_tasks_are_checked_as_flows) {
  step().mutable_tasks(3)->mutable_flow()->clear_peer_address();
  REFUSED("task 3 (send to r): its send flow has no peer address");
  step().mutable_tasks(3)->mutable_flow()->set_peer_address("127.0.0.1:9");
  step().mutable_tasks(3)->mutable_flow()->set_rate(-1);
  REFUSED("task 3 (send to r): bad rate");
  step().mutable_tasks(3)->mutable_flow()->set_rate(1);
  step().mutable_tasks(3)->mutable_flow()->clear_chunks();
  REFUSED("task 3 (send to r): its flow has no chunk");
}

BOOST_AUTO_TEST_CASE(planned_times_are_finite_and_in_order) {
  step().mutable_tasks(3)->set_planned_start(0.5);
  step().mutable_tasks(3)->set_planned_end(0.75);
  BOOST_TEST(check() == "");
  step().mutable_tasks(3)->set_planned_end(0.25);
  REFUSED("task 3 (send to r): planned times 0.5");
  step().mutable_tasks(3)->set_planned_end(std::numeric_limits<double>::quiet_NaN());
  REFUSED("task 3 (send to r): planned times");
  step().mutable_tasks(3)->set_planned_end(std::numeric_limits<double>::infinity());
  REFUSED("are not 0 <= start <= end <= ");
  step().mutable_tasks(3)->set_planned_end(1.0);
  step().mutable_tasks(3)->set_planned_start(-1.0);
  REFUSED("task 3 (send to r): planned times -1");
}

BOOST_AUTO_TEST_CASE(a_step_holds_a_bounded_number_of_tasks) {
  for (std::uint32_t id = 4; id < ba::max_tasks_per_step + 1; ++id) task(id, {})->mutable_combine();
  REFUSED("step 0: 8193 tasks, more than the 8192 a step may hold");
}

BOOST_AUTO_TEST_CASE(scratch_objects_belong_to_dataflow_steps) {
  bp::Plan lockstep;
  lockstep.set_job("1");
  lockstep.set_k(1);
  bp::Flow* f = lockstep.add_steps()->add_flows();
  f->set_peer("a");
  DataflowCheckFixture::chunk(f, "a.bin", "scratch:x", 0, 0);
  BOOST_TEST(ba::check_plan(lockstep, root)
                 .value_or("")
                 .reason.find("destination: scratch:x: scratch objects belong to dataflow steps") != std::string::npos);
}

// A buffered multicast's round: a node sends one message to several destinations and
// receives several, which KPBS's 1-port refuses in a redistribution.
BOOST_AUTO_TEST_CASE(a_buffered_multicast_round_may_hold_several_flows_a_redistribution_not) {
  bp::Plan rounds;
  rounds.set_job("1");
  rounds.set_k(1);
  rounds.set_kind("buffered-multicast");
  bp::Step* s = rounds.add_steps();
  for (const char* peer : {"b", "c"}) {
    bp::Flow* f = s->add_flows();
    f->set_send(true);
    f->set_peer(peer);
    f->set_peer_address("127.0.0.1:9");
    f->set_rate(1e6);
    DataflowCheckFixture::chunk(f, "grad.bin", "m.bin", 0, 0);
  }
  for (std::uint64_t i = 0; i < 2; ++i) {
    bp::Flow* f = s->add_flows();
    f->set_peer(i == 0 ? "d" : "e");
    f->set_rate(1e6);
    DataflowCheckFixture::chunk(f, "m.bin", "m" + std::to_string(i) + ".bin", 0, i * L);
  }
  BOOST_TEST(ba::check_plan(rounds, root).value_or("").reason == "");
  rounds.set_kind("redistribution");
  BOOST_TEST(ba::check_plan(rounds, root).value_or("").reason ==
             "step 0: 2 send flows in a scheduled step, 1-port allows one");
}

BOOST_AUTO_TEST_SUITE_END()

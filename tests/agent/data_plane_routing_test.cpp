// One data listener, runners of several jobs: each incoming flow goes to the runner of the
// job number its begin frame carries, and a flow of a job the node holds no runner for is
// refused, naming the job.
#include "tests/agent/step_harness.h"

#include <boost/test/unit_test.hpp>

using namespace baton::agent::test;

namespace {

// The one-step plan pair of `one_step`, as job `number` moving region "in" to "out-<number>".
Pair job_step(const TwoAgents& t, std::uint64_t number, std::uint64_t bytes) {
  Pair plan = one_step(t.b.data->address(), 0, {{0, 0, 0, bytes, 0}}, {{0, 0, 0, bytes, 0}});
  for (bp::Plan* p : {&plan.sender, &plan.receiver}) {
    p->set_job("job-" + std::to_string(number));
    p->set_job_number(number);
    p->mutable_steps(0)->mutable_flows(0)->mutable_chunks(0)->set_dst_file("out-" + std::to_string(number));
  }
  return plan;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(data_plane_routing)

BOOST_AUTO_TEST_CASE(each_flow_goes_to_its_jobs_runner_and_an_unheld_jobs_flow_is_refused) {
  TwoAgents t;
  auto& io = t.io;
  auto& a = t.a;
  auto& b = t.b;
  auto in = pattern(50'000, 5);
  std::vector<std::byte> out1(in.size()), out2(in.size()), out3(in.size());
  a.storage.register_region("in", in);
  for (auto [name, region] : {std::pair{"out-1", &out1}, {"out-2", &out2}, {"out-3", &out3}}) {
    b.storage.register_region(name, *region);
  }
  const Pair one = job_step(t, 1, in.size()), two = job_step(t, 2, in.size()), three = job_step(t, 3, in.size());
  ba::StepRunner& receiver1 = b.receiver(one.receiver);
  ba::StepRunner& receiver2 = b.receiver(two.receiver);
  ba::StepRunner sender1(*a.context, a.storage, one.sender, a.identity);
  ba::StepRunner sender2(*a.context, a.storage, two.sender, a.identity);

  const Outcome second = run_step(io, sender2, receiver2);
  const Outcome first = run_step(io, sender1, receiver1);
  BOOST_TEST(first.sender.ok(), first.sender.error());
  BOOST_TEST(first.receiver.ok(), first.receiver.error());
  BOOST_TEST(second.sender.ok(), second.sender.error());
  BOOST_TEST(second.receiver.ok(), second.receiver.error());
  BOOST_TEST((out1 == in));
  BOOST_TEST((out2 == in));

  ba::StepRunner sender3(*a.context, a.storage, three.sender, a.identity);
  const std::optional<bp::StepReport> refused = run_alone(io, sender3);
  BOOST_REQUIRE(refused);
  BOOST_TEST(!refused->ok());
  BOOST_TEST(refused->error().find("no step of job 3 step 0 is running here") != std::string::npos, refused->error());
  BOOST_TEST((std::ranges::all_of(out3, [](std::byte x) { return x == std::byte{0}; })));
}

BOOST_AUTO_TEST_SUITE_END()

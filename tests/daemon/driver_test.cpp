// The job driver against a fake agent directory and a clock moved by hand: a job's phases,
// its retries, timeouts and cancels, checked from the messages the driver sends and the
// journal it writes, with no process, socket or real waiting.
#include "coordinator/daemon/driver.h"
#include "error/refusal.h"

#include "coordinator/daemon/job_spec.h"
#include "tests/daemon/fake_agents.h"
#include "tests/daemon/gated_store.h"
#include "tests/daemon/manual_clock.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <asio/io_context.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bc = baton::coordinator;
namespace bp = baton::protocol;
using namespace std::chrono_literals;

using baton::test::FakeAgents;
using baton::test::GatedStore;
using baton::test::ManualClock;

namespace {

// Two senders, two receivers, 4 MB each way at 1 MB/s with β = 0.5 s: OGGP plans two steps
// of two 2 MB flows (predicted 2.5 s each).
const std::string kJob = R"({"senders": ["s0", "s1"], "receivers": ["r0", "r1"], "algorithm": "oggp",
  "platform": {"sender_rate": 1e6, "receiver_rate": 1e6, "backbone_rate": 2e6, "step_startup": 0.5},
  "transfers": [
    {"src_node": "s0", "src_file": "a", "src_offset": 0, "length": 2000000, "dst_node": "r0", "dst_file": "x", "dst_offset": 0},
    {"src_node": "s0", "src_file": "a", "src_offset": 2000000, "length": 2000000, "dst_node": "r1", "dst_file": "x", "dst_offset": 0},
    {"src_node": "s1", "src_file": "b", "src_offset": 0, "length": 2000000, "dst_node": "r0", "dst_file": "x", "dst_offset": 2000000},
    {"src_node": "s1", "src_file": "b", "src_offset": 2000000, "length": 2000000, "dst_node": "r1", "dst_file": "x", "dst_offset": 2000000}]})";

struct DriverFixture {
  baton::test::TempDir dir{"baton-driver"};
  std::unique_ptr<asio::io_context> io = std::make_unique<asio::io_context>();
  FakeAgents agents{{"s0", "s1", "r0", "r1"}};
  ManualClock clock;
  std::unique_ptr<baton::journal::Journal> journal;
  std::unique_ptr<GatedStore> gate;  // the driver's store: the journal, a step's record held when asked
  std::unique_ptr<bc::Driver> driver;
  std::map<std::string, bp::Plan> plans;  // as each node last received it
  // A coordinator that died (crash()): parked on its own io_context, never run again.
  std::unique_ptr<asio::io_context> dead_io;
  std::unique_ptr<bc::Driver> dead;
  std::optional<baton::error::Refusal> lapsed;  // what the driver's lease_lapsed answers: none, a leader's lease holds

  DriverFixture() {
    journal = std::make_unique<baton::journal::Journal>(dir.path / "journal.sqlite");
    gate = std::make_unique<GatedStore>(*journal);
    driver = std::make_unique<bc::Driver>(*io, agents, *gate, clock, options(), nullptr);
    driver->start();
  }
  bc::DriverOptions options() {
    bc::DriverOptions out = baton::test::per_step_options();
    out.lease_lapsed = [this] { return lapsed; };
    return out;
  }
  ~DriverFixture() {
    driver.reset();
    dead.reset();
  }

  // The coordinator dies where it stands (nothing of it runs again), and a new one starts on
  // the same journal and agents, as a restarted or newly elected one does.
  void crash_and_restart() {
    dead_io = std::move(io);
    dead = std::move(driver);
    io = std::make_unique<asio::io_context>();
    driver = std::make_unique<bc::Driver>(*io, agents, *gate, clock, options(), nullptr);
    driver->start();
  }

  // Runs the driver until `done` holds (the planner runs on a thread of its own, so this
  // also waits in real time, at most 10 s).
  void run_until(const std::function<bool()>& done) {
    const auto limit = std::chrono::steady_clock::now() + 10s;
    while (!done() && std::chrono::steady_clock::now() < limit) {
      io->restart();
      io->run_for(5ms);
    }
    BOOST_REQUIRE(done());
  }
  void settle() {
    run_until([] { return true; }), io->restart(), io->poll();
  }

  // The messages of one kind sent since the last call, by node; the others are kept.
  std::map<std::string, bp::Envelope> take(bp::Envelope::BodyCase kind) {
    std::map<std::string, bp::Envelope> out;
    std::erase_if(agents.sent, [&](auto& entry) {
      if (entry.second.body_case() != kind) return false;
      if (kind == bp::Envelope::kPlan) plans[entry.first] = entry.second.plan();
      out[entry.first] = std::move(entry.second);
      return true;
    });
    return out;
  }
  std::map<std::string, bp::Envelope> await(bp::Envelope::BodyCase kind, std::size_t count) {
    std::map<std::string, bp::Envelope> got;
    run_until([&] {
      got.merge(take(kind));
      return got.size() >= count;
    });
    return got;
  }

  void deliver(const std::string& node, bp::Envelope message) {
    driver->on_message(node, message);
    settle();
  }
  void accept_plans(const std::map<std::string, bp::Envelope>& sent) {
    for (const auto& [node, envelope] : sent) {
      bp::Envelope answer;
      answer.mutable_plan_accepted()->set_job(envelope.plan().job());
      deliver(node, answer);
    }
  }
  // `node`'s report of `step` as an honest agent makes it from its plan: a sender lists the
  // chunks it sent, a receiver the chunks that landed, each with the same digest.
  bp::Envelope report(const std::string& node, std::uint32_t step, bool ok = true, const std::string& error = "") {
    bp::Envelope envelope;
    bp::StepReport& r = *envelope.mutable_step_report();
    const bp::Plan& plan = plans.at(node);
    r.set_job(plan.job());
    r.set_step(step);
    r.set_ok(ok);
    r.set_error(error);
    const bp::Step& planned = plan.steps(static_cast<int>(step));
    std::vector<const bp::Flow*> flows;
    for (const bp::Flow& flow : planned.flows()) flows.push_back(&flow);
    for (const bp::Task& task : planned.tasks()) {
      // A dataflow step: each task ran exactly when the plan predicted.
      bp::TaskTiming& timing = *r.add_tasks();
      timing.set_id(task.id());
      timing.set_start(task.planned_start());
      timing.set_end(task.planned_end());
      if (task.has_flow()) flows.push_back(&task.flow());
    }
    for (const bp::Flow* flow : flows) {
      for (const bp::Chunk& c : flow->chunks()) {
        bp::ChunkDigest& d = flow->send() ? *r.add_sent() : *r.add_digests();
        d.set_transfer(c.transfer());
        d.set_dst_offset(c.dst_offset());
        d.set_length(c.length());
        d.set_xxh3(c.transfer() * 1'000'003 + c.dst_offset());
        r.set_bytes(r.bytes() + c.length());
      }
    }
    r.set_seconds(2.0);
    return envelope;
  }
  void commit_all(std::size_t nodes = 4) {
    for (const auto& [node, envelope] : await(bp::Envelope::kJobEnded, nodes)) {
      bp::Envelope answer;
      answer.mutable_job_committed()->set_job(envelope.job_ended().job());
      deliver(node, answer);
    }
  }
  std::uint64_t submit() { return driver->submit(bc::parse_job_spec(kJob), kJob); }
  std::string state(std::uint64_t id) { return driver->job(id)["state"].get<std::string>(); }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(driver, DriverFixture)

BOOST_AUTO_TEST_CASE(a_job_goes_through_its_phases_to_done) {
  const std::uint64_t id = submit();
  BOOST_TEST(state(id) == "queued");
  accept_plans(await(bp::Envelope::kPlan, 4));
  BOOST_TEST(state(id) == "running");
  BOOST_TEST(driver->job(id)["steps"].get<int>() == 2);
  for (std::uint32_t step = 0; step < 2; ++step) {
    const auto released = await(bp::Envelope::kStepRelease, 4);
    for (const auto& [node, envelope] : released) {
      BOOST_TEST(envelope.step_release().step() == step);
      BOOST_TEST(envelope.step_release().timeout_ms() == 30'000u);  // max(30 s, 4 × 2.5 s)
    }
    clock.advance(2500ms);  // the step takes exactly what the model predicts
    for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, step));
  }
  commit_all();
  run_until([&] { return state(id) == "done"; });
  const auto job = driver->job(id);
  BOOST_TEST(job["bytes_done"].get<std::uint64_t>() == 8'000'000u);
  // Measured on the driver's clock: release to the last report.
  for (const auto& step : job["report"]["steps"]) {
    BOOST_TEST(step["measured_seconds"].get<double>() == 2.5);
    BOOST_TEST(step["predicted_seconds"].get<double>() == 2.5);
    BOOST_TEST(step["attempts"].get<int>() == 1);
    BOOST_TEST(step["nodes"]["s0"]["planned_bytes"].get<std::uint64_t>() == 2'000'000u);
    BOOST_TEST(step["nodes"]["r1"]["seconds"].get<double>() == 2.0);
  }
  BOOST_TEST(job["report"]["steps"][1]["started_seconds"].get<double>() == 2.5);
  // Journaled: the state and both steps.
  BOOST_TEST(journal->job(id)->state == "done");
  BOOST_TEST(journal->steps(id).size() == 2u);
  BOOST_TEST(agents.sent.empty());
}

BOOST_AUTO_TEST_CASE(a_restarted_coordinator_knows_the_jobs_of_its_journal) {
  const std::uint64_t id = submit();
  accept_plans(await(bp::Envelope::kPlan, 4));
  for (std::uint32_t step = 0; step < 2; ++step) {
    await(bp::Envelope::kStepRelease, 4);
    clock.advance(3s);
    for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, step));
  }
  commit_all();
  run_until([&] { return state(id) == "done"; });
  const auto before = driver->job(id);
  const auto list_before = driver->jobs();

  // A new coordinator on the same journal (on an io_context of its own: the first one's
  // coroutines stay parked on theirs).
  asio::io_context io2;
  bc::Driver restarted(io2, agents, *journal, clock, baton::test::per_step_options(), nullptr);
  restarted.start();
  io2.poll();
  BOOST_TEST(restarted.job(id) == before);
  BOOST_TEST(restarted.job(id)["report"]["steps"][1]["measured_seconds"].get<double>() == 3.0);
  BOOST_TEST(restarted.jobs() == list_before);
  BOOST_TEST(restarted.submit(bc::parse_job_spec(kJob), kJob) == id + 1);
}

// A step's record trails its step (docs/journal.md): step 1 is released while step 0's
// record is still being written. The coordinator dies before that write is committed: the
// new one resumes at step 0, runs it again and step 1 after it, and the job ends done with
// both steps journaled once.
BOOST_AUTO_TEST_CASE(a_step_whose_record_was_in_flight_when_its_coordinator_died_runs_again_on_resume) {
  gate->hold(0);
  const std::uint64_t id = submit();
  accept_plans(await(bp::Envelope::kPlan, 4));
  await(bp::Envelope::kStepRelease, 4);
  clock.advance(2500ms);
  for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, 0));
  for (const auto& [node, envelope] : await(bp::Envelope::kStepRelease, 4)) {
    BOOST_TEST(envelope.step_release().step() == 1u);
  }
  run_until([&] { return gate->holding(); });  // released while step 0's record is written
  BOOST_TEST(journal->steps(id).empty());
  clock.advance(2500ms);
  for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, 1));
  // Every step is in the journal before the agents put anything in place.
  BOOST_TEST(take(bp::Envelope::kJobEnded).empty());
  BOOST_TEST(state(id) == "running");

  crash_and_restart();
  gate->open(false);  // the dead coordinator's write never reaches the store
  accept_plans(await(bp::Envelope::kPlan, 4));
  for (std::uint32_t step = 0; step < 2; ++step) {
    for (const auto& [node, envelope] : await(bp::Envelope::kStepRelease, 4)) {
      BOOST_TEST(envelope.step_release().step() == step);
    }
    clock.advance(2500ms);
    for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, step));
  }
  commit_all();
  run_until([&] { return state(id) == "done"; });
  BOOST_TEST(journal->job(id)->state == "done");
  const std::vector<baton::journal::StepRecord> journaled = journal->steps(id);
  BOOST_TEST_REQUIRE(journaled.size() == 2u);
  BOOST_TEST(journaled[0].step == 0u);
  BOOST_TEST(journaled[1].step == 1u);
  BOOST_TEST(driver->job(id)["bytes_done"].get<std::uint64_t>() == 8'000'000u);
}

// A record the store refuses (etcd down, the election key lost, a full disk) stops the job:
// the step released while it was written runs, but the step after it is never released, and
// the job fails naming the write.
BOOST_AUTO_TEST_CASE(a_step_record_that_cannot_be_written_stops_the_releases) {
  std::string one_pair_a_step = kJob;  // backbone = one node's rate: k = 1, four steps
  const std::string backbone = "\"backbone_rate\": 2e6";
  one_pair_a_step.replace(one_pair_a_step.find(backbone), backbone.size(), "\"backbone_rate\": 1e6");
  gate->hold(0);
  const std::uint64_t id = driver->submit(bc::parse_job_spec(one_pair_a_step), one_pair_a_step);
  accept_plans(await(bp::Envelope::kPlan, 4));
  BOOST_TEST_REQUIRE(driver->job(id)["steps"].get<int>() == 4);
  await(bp::Envelope::kStepRelease, 4);
  clock.advance(2500ms);
  for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, 0));
  await(bp::Envelope::kStepRelease, 4);  // step 1, while step 0's record is written
  run_until([&] { return gate->holding(); });
  gate->open(false);
  clock.advance(2500ms);
  for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, 1));
  run_until([&] { return state(id) == "failed"; });
  BOOST_TEST(take(bp::Envelope::kStepRelease).empty());  // no step 2
  BOOST_TEST(driver->job(id)["error"].get<std::string>() == "the record of step 0 was never written");
  BOOST_TEST(journal->job(id)->state == "failed");
  BOOST_TEST(journal->steps(id).empty());
}

// A leader whose lease may have lapsed (etcd granted no renewal within a TTL, or said the
// lease is gone) releases no further step, even with its records journaled: the step after
// the last one it released is never sent, and the job is not failed (its next leader
// resumes it).
BOOST_AUTO_TEST_CASE(a_leader_whose_lease_lapsed_releases_no_further_step) {
  const std::uint64_t id = submit();
  accept_plans(await(bp::Envelope::kPlan, 4));
  await(bp::Envelope::kStepRelease, 4);
  lapsed = "no renewal of the leader lease granted within its TTL (2 s)";
  clock.advance(2500ms);
  for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, 0));
  run_until([&] { return journal->steps(id).size() == 1u; });  // step 0's record is in
  settle();
  BOOST_TEST(take(bp::Envelope::kStepRelease).empty());
  BOOST_TEST(state(id) == "running");
  BOOST_TEST(journal->job(id)->state == "running");
}

// A coupled code hands the same layouts over every time step: the second job of the same
// transfers, platform and algorithm runs the first one's plan (plan_cache.h), says so in its
// report, and runs to done like the first; another platform is planned anew.
BOOST_AUTO_TEST_CASE(a_job_asking_for_the_same_as_an_earlier_one_reuses_its_plan) {
  const auto run = [&](const std::string& spec) {
    const std::uint64_t id = driver->submit(bc::parse_job_spec(spec), spec);
    accept_plans(await(bp::Envelope::kPlan, 4));
    const int steps = driver->job(id)["steps"].get<int>();
    for (std::uint32_t step = 0; step < static_cast<std::uint32_t>(steps); ++step) {
      await(bp::Envelope::kStepRelease, 4);
      clock.advance(2500ms);
      for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, step));
    }
    commit_all();
    run_until([&] { return state(id) == "done"; });
    return driver->job(id);
  };
  const auto first = run(kJob);
  const auto plans_first = plans;
  const auto second = run(kJob);
  BOOST_TEST(!first["report"].contains("plan_reused_from"));
  BOOST_TEST(second["report"].value("plan_reused_from", "") == first["id"].get<std::string>());
  BOOST_TEST(second["report"]["steps"] == first["report"]["steps"]);
  for (const auto& [node, plan] : plans) {
    BOOST_TEST(plan.steps_size() == plans_first.at(node).steps_size());
    BOOST_TEST(plan.job() != plans_first.at(node).job(), node);  // each job its own ids
  }
  std::string slower = kJob;
  const std::string startup = "\"step_startup\": 0.5";
  slower.replace(slower.find(startup), startup.size(), "\"step_startup\": 0.6");
  const auto third = run(slower);
  BOOST_TEST(!third["report"].contains("plan_reused_from"));
}

BOOST_AUTO_TEST_CASE(a_silent_step_times_out_is_cancelled_and_retried) {
  const std::uint64_t id = submit();
  accept_plans(await(bp::Envelope::kPlan, 4));
  const auto first = await(bp::Envelope::kStepRelease, 4);
  deliver("s0", report("s0", 0));
  // No other report: nothing happens until the agents' step timeout, max(30 s, 4 × 2.5 s),
  // and the 5 s the driver waits for their reports of it.
  clock.advance(34s);
  settle();
  BOOST_TEST(take(bp::Envelope::kStepCancel).empty());
  clock.advance(1s);
  settle();
  const auto cancels = take(bp::Envelope::kStepCancel);
  BOOST_TEST(cancels.size() == 3u);  // the nodes that did not report
  BOOST_TEST(!cancels.contains("s0"));
  BOOST_TEST(cancels.at("r0").step_cancel().reason().find("r0 did not report") != std::string::npos);
  for (const std::string node : {"s1", "r0", "r1"}) deliver(node, report(node, 0, false, "cancelled"));
  // The retry waits retry_pause × 1, then releases the step again.
  BOOST_TEST(take(bp::Envelope::kStepRelease).empty());
  clock.advance(500ms);
  const auto retry = await(bp::Envelope::kStepRelease, 4);
  // Each release is numbered, the same for every node, never 0, and the retry's is new:
  // the agents tell its flows from the failed attempt's (docs/runtime.md).
  const std::uint64_t number = first.at("s0").step_release().range();
  BOOST_TEST(number != 0u);
  BOOST_TEST(retry.at("s0").step_release().range() != number);
  for (const std::string node : {"s1", "r0", "r1"}) {
    BOOST_TEST(first.at(node).step_release().range() == number);
    BOOST_TEST(retry.at(node).step_release().range() == retry.at("s0").step_release().range());
  }
  for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, 0));
  await(bp::Envelope::kStepRelease, 4);
  for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, 1));
  commit_all();
  run_until([&] { return state(id) == "done"; });
  BOOST_TEST(driver->job(id)["report"]["steps"][0]["attempts"].get<int>() == 2);
}

BOOST_AUTO_TEST_CASE(a_step_failing_every_attempt_fails_the_job_and_aborts_every_agent) {
  const std::uint64_t id = submit();
  accept_plans(await(bp::Envelope::kPlan, 4));
  for (int attempt = 1; attempt <= 3; ++attempt) {
    await(bp::Envelope::kStepRelease, 4);
    for (const std::string node : {"s0", "s1", "r0", "r1"}) {
      deliver(node, report(node, 0, node != "s1", "source a: No such file or directory"));
    }
    clock.advance(std::chrono::milliseconds(500 * attempt));
  }
  const auto aborts = await(bp::Envelope::kAbort, 4);
  BOOST_TEST(aborts.at("r1").abort().reason() == "step 0 failed");
  run_until([&] { return state(id) == "failed"; });
  BOOST_TEST(driver->job(id)["error"].get<std::string>() ==
             "step 0 failed 3 times: s1: source a: No such file or directory");
  BOOST_TEST(journal->job(id)->state == "failed");
}

BOOST_AUTO_TEST_CASE(a_dead_agent_fails_the_attempt_at_once_and_the_retry_waits_for_it) {
  submit();
  accept_plans(await(bp::Envelope::kPlan, 4));
  await(bp::Envelope::kStepRelease, 4);
  agents.set_alive("r1", false);
  driver->on_message("r1", bp::Envelope{});  // any event; the driver looks at the agents again
  settle();
  // No step timeout waited: the live nodes are told to stop now.
  const auto cancels = take(bp::Envelope::kStepCancel);
  BOOST_TEST(cancels.size() == 3u);
  BOOST_TEST(cancels.at("s0").step_cancel().reason() == "r1 is dead");
  for (const std::string node : {"s0", "s1", "r0"}) deliver(node, report(node, 0, false, "cancelled"));
  clock.advance(500ms);
  settle();
  BOOST_TEST(take(bp::Envelope::kStepRelease).empty());  // r1 is still dead
  // r1 comes back as a new process: it registers, holds no plan, gets it again first.
  agents.set_alive("r1", true);
  bp::Envelope registered;
  registered.mutable_register_()->set_node_id("r1");
  deliver("r1", registered);
  const auto again = await(bp::Envelope::kPlan, 1);
  BOOST_TEST(again.contains("r1"));
  BOOST_TEST(take(bp::Envelope::kStepRelease).empty());  // not before r1 accepted it
  accept_plans(again);
  BOOST_TEST(await(bp::Envelope::kStepRelease, 4).size() == 4u);
}

BOOST_AUTO_TEST_CASE(a_cancel_mid_step_aborts_the_job_on_every_agent) {
  const std::uint64_t id = submit();
  accept_plans(await(bp::Envelope::kPlan, 4));
  await(bp::Envelope::kStepRelease, 4);
  BOOST_TEST(driver->cancel(id)["id"].get<std::string>() == std::to_string(id));
  settle();
  const auto aborts = await(bp::Envelope::kAbort, 4);
  BOOST_TEST(aborts.at("s0").abort().reason() == "cancelled by the operator");
  run_until([&] { return state(id) == "cancelled"; });
  BOOST_TEST(driver->job(id)["error"].get<std::string>() == "cancelled at step 0");
  BOOST_CHECK_THROW(driver->cancel(id), bc::RequestError);
}

BOOST_AUTO_TEST_CASE(mismatched_digests_fail_the_attempt) {
  submit();
  accept_plans(await(bp::Envelope::kPlan, 4));
  await(bp::Envelope::kStepRelease, 4);
  for (const std::string node : {"s0", "s1", "r0"}) deliver(node, report(node, 0));
  bp::Envelope forged = report("r1", 0);
  forged.mutable_step_report()->mutable_digests(0)->set_xxh3(42);
  deliver("r1", forged);
  clock.advance(500ms);
  settle();
  // Not done: the step is released again.
  const auto released = await(bp::Envelope::kStepRelease, 4);
  BOOST_TEST(released.at("r1").step_release().step() == 0u);
}

BOOST_AUTO_TEST_CASE(a_job_naming_an_unknown_node_is_refused_at_submit) {
  const std::string json = R"({"senders": ["s0"], "receivers": ["nobody"], "platform": {"sender_rate": 1e6,
    "receiver_rate": 1e6, "backbone_rate": 1e6, "step_startup": 0}, "transfers": [{"src_node": "s0", "src_file": "a",
    "src_offset": 0, "length": 1, "dst_node": "nobody", "dst_file": "x", "dst_offset": 0}]})";
  try {
    driver->submit(bc::parse_job_spec(json), json);
    BOOST_FAIL("accepted");
  } catch (const bc::RequestError& e) {
    BOOST_TEST((e.failure() == bc::RequestFailure::bad_request));
    BOOST_TEST(std::string(e.what()) == "unknown nodes (no agent ever registered as): nobody");
  }
}

// A reduce over five unequal nodes (docs/collectives.md): one dataflow step, planned on the
// agents' rates and combine speeds, released once, its progress shown while it runs, its
// tasks in the report planned against measured.
BOOST_AUTO_TEST_CASE(a_reduce_job_goes_through_its_phases_to_done) {
  const std::vector<std::string> nodes{"n0", "n1", "n2", "n3", "n4"};
  const double rates[] = {1e6, 4e6, 2e6, 8e6, 3e6};
  for (std::size_t i = 0; i < nodes.size(); ++i) agents.add(nodes[i], rates[i]);
  const std::string json = R"({"kind": "reduce", "nodes": ["n0", "n1", "n2", "n3", "n4"], "root": "n0",
    "data": {"file": "grad.bin", "count": 250000, "dtype": "f32"}, "op": "sum", "result": {"file": "sum.bin"}})";
  const bc::JobSpec spec = bc::parse_job_spec(json);
  const std::uint64_t id = driver->submit(spec, bc::collective_json(spec.collective));
  const auto sent = await(bp::Envelope::kPlan, nodes.size());
  for (const auto& [node, envelope] : sent) {
    const bp::Plan& plan = envelope.plan();
    BOOST_TEST(plan.kind() == "reduce");
    BOOST_TEST(plan.job() == std::to_string(id));
    BOOST_TEST_REQUIRE(plan.steps_size() == 1);
    for (const bp::Task& t : plan.steps(0).tasks()) {
      if (t.has_flow() && t.flow().send()) BOOST_TEST(t.flow().peer_address() == t.flow().peer() + ":9000");
    }
  }
  accept_plans(sent);
  BOOST_TEST(state(id) == "running");
  const auto planned = driver->job(id);
  BOOST_TEST(planned["kind"] == "reduce");
  BOOST_TEST(planned["receivers"] == bc::Driver::Json::array({"n0"}));
  BOOST_TEST(planned["steps"].get<int>() == 1);
  const double predicted = planned["report"]["predicted_seconds"].get<double>();
  BOOST_TEST(predicted > 0);
  // The default, auto: the algorithm it runs is the fastest of those it predicted, and the
  // links' bound is no more than any prediction.
  const auto& candidates = planned["report"]["algorithm_candidates"];
  BOOST_TEST_REQUIRE(candidates.size() > 1u);
  BOOST_TEST(candidates[0]["algorithm"] == planned["report"]["algorithm"]);
  BOOST_TEST(candidates[0]["predicted_seconds"].get<double>() == predicted);
  BOOST_TEST(planned["report"]["bandwidth_bound_seconds"].get<double>() <= predicted);
  for (const auto& [node, envelope] : await(bp::Envelope::kStepRelease, nodes.size())) {
    BOOST_TEST(envelope.step_release().timeout_ms() == 30'000u);  // max(30 s, 4 × a fraction of a second)
  }
  // While the step runs: a node's progress shows in step_bytes_done, never past the total.
  bp::Envelope progress;
  progress.mutable_step_progress()->set_job(std::to_string(id));
  progress.mutable_step_progress()->set_bytes(1'000'000);
  deliver("n1", progress);
  const auto running = driver->job(id);
  BOOST_TEST(running["bytes_done"] == 0u);
  BOOST_TEST(running["step_bytes_done"].get<std::uint64_t>() > 0u);
  BOOST_TEST(running["step_bytes_done"].get<std::uint64_t>() < running["bytes"].get<std::uint64_t>());
  clock.advance(std::chrono::milliseconds(static_cast<long>(predicted * 1000)));
  for (const std::string& node : nodes) deliver(node, report(node, 0));
  commit_all(nodes.size());
  run_until([&] { return state(id) == "done"; });
  const auto done = driver->job(id);
  BOOST_TEST(done["bytes_done"] == done["bytes"]);
  BOOST_TEST(done["step_bytes_done"] == 0u);
  BOOST_TEST(done["bytes"].get<std::uint64_t>() == 4 * 1'000'000u);  // every node but the root sends 1 MB once
  const auto& step = done["report"]["steps"][0];
  const double started = step["started_seconds"].get<double>();
  std::size_t sends = 0, combines = 0;
  std::uint64_t sent_bytes = 0;
  for (const auto& task : step["tasks"]) {
    // Each agent reported its task exactly when planned: measured = planned, on the job's
    // timeline from the step's release.
    BOOST_TEST(task["started_seconds"].get<double>() == started + task["planned_start_seconds"].get<double>(),
               boost::test_tools::tolerance(1e-9));
    BOOST_TEST(task["ended_seconds"].get<double>() == started + task["planned_end_seconds"].get<double>(),
               boost::test_tools::tolerance(1e-9));
    if (task["kind"] == "send") {
      ++sends;
      sent_bytes += task["bytes"].get<std::uint64_t>();
    }
    if (task["kind"] == "combine") {
      ++combines;
      BOOST_TEST(task["folds"][0] == task["node"]);  // its own data first
    }
  }
  // Four senders each send their 1 MB once, whole or in segments (auto may pipeline).
  BOOST_TEST(sent_bytes == 4'000'000u);
  BOOST_TEST(step["flows"].get<std::size_t>() == sends);
  BOOST_TEST(combines >= 1u);
  // Journaled: the spec as accepted and the final report.
  BOOST_TEST(journal->job(id)->spec == bc::collective_json(spec.collective));
  BOOST_TEST(journal->job(id)->state == "done");
  BOOST_TEST(bc::Driver::Json::parse(journal->job(id)->report)["report"]["kind"] == "reduce");
}

BOOST_AUTO_TEST_CASE(a_collective_on_nodes_without_what_its_model_needs_is_refused) {
  agents.add("n0", 0);  // no rate
  agents.add("n1");
  const std::string json = R"({"kind": "allreduce", "nodes": ["n0", "n1"],
    "data": {"file": "g", "count": 8, "dtype": "f32"}, "op": "sum", "result": {"file": "r"}})";
  const auto refusal = [&](const std::string& text) {
    try {
      const bc::JobSpec spec = bc::parse_job_spec(text);
      driver->submit(spec, text);
    } catch (const bc::RequestError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  BOOST_TEST(refusal(json).starts_with("node n0 registered no rate"));
  agents.add("n0").combine_speeds.clear();
  BOOST_TEST(refusal(json) == "node n0 reported no combine speed for f32 sum (an agent that predates collectives?)");
  agents.add("n0").storage_id = "disk-n1";  // one data root for both: both would write r
  BOOST_TEST(refusal(json) == "nodes n0 and n1 share their data root (disk-n1): n0 would write r, which n1 writes too");
  BOOST_TEST(refusal(R"({"kind": "multicast", "nodes": ["n1", "n9"], "multicasts": [{"source": "n1", "file": "m",
    "length": 4, "destinations": ["n9"], "dst_file": "m"}]})") == "unknown nodes (no agent ever registered as): n9");
}

// Issue 27: the plan is on the wire when s0's control session is cut; s0 registers again a
// moment later. It gets its plan again within the same deadline and the job runs to done.
BOOST_AUTO_TEST_CASE(a_control_session_cut_while_the_plan_is_on_the_wire_gets_the_plan_again) {
  const std::uint64_t id = submit();
  auto sent = await(bp::Envelope::kPlan, 4);
  sent.erase("s0");  // lost with s0's session
  accept_plans(sent);
  agents.set_alive("s0", false);
  driver->on_message("s0", bp::Envelope{});
  settle();
  clock.advance(650ms);
  agents.set_alive("s0", true);
  bp::Envelope registered;
  registered.mutable_register_()->set_node_id("s0");
  deliver("s0", registered);
  const auto again = take(bp::Envelope::kPlan);  // at once, well within the 10 s plan timeout
  BOOST_TEST_REQUIRE(again.size() == 1u);
  BOOST_TEST(again.contains("s0"));
  accept_plans(again);
  for (std::uint32_t step = 0; step < 2; ++step) {
    await(bp::Envelope::kStepRelease, 4);
    for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, step));
  }
  commit_all();
  run_until([&] { return state(id) == "done"; });
}

// An agent silent through one plan timeout is offered its plan again (after the retry
// pause) before anything fails; the job then runs.
BOOST_AUTO_TEST_CASE(a_silent_agent_is_offered_its_plan_again_before_the_job_fails) {
  const std::uint64_t id = submit();
  auto sent = await(bp::Envelope::kPlan, 4);
  sent.erase("s0");
  accept_plans(sent);
  clock.advance(10s);
  settle();
  BOOST_TEST(state(id) == "running");
  BOOST_TEST(take(bp::Envelope::kAbort).empty());
  clock.advance(500ms);
  const auto again = await(bp::Envelope::kPlan, 1);
  BOOST_TEST(again.size() == 1u);
  BOOST_TEST(again.contains("s0"));  // only the node that did not answer
  accept_plans(again);
  BOOST_TEST(await(bp::Envelope::kStepRelease, 4).size() == 4u);
}

// Past the offers the step rules allow (step_attempts), the job fails naming the silent
// node and why.
BOOST_AUTO_TEST_CASE(a_plan_timeout_fails_the_job_after_every_offer_naming_the_node) {
  const std::uint64_t id = submit();
  auto sent = await(bp::Envelope::kPlan, 4);
  sent.erase("r1");
  accept_plans(sent);
  for (int offer = 1; offer <= 3; ++offer) {
    if (offer > 1) {
      clock.advance(std::chrono::milliseconds(500 * (offer - 1)));
      BOOST_TEST(await(bp::Envelope::kPlan, 1).contains("r1"));
    }
    BOOST_TEST(state(id) == "running");
    clock.advance(10s);
    settle();
  }
  run_until([&] { return state(id) == "failed"; });
  BOOST_TEST(driver->job(id)["error"].get<std::string>() ==
             "agent r1 did not answer the plan in time (3 offers of 10 s; its agent is connected but silent)");
  BOOST_TEST(await(bp::Envelope::kAbort, 4).size() == 4u);
}

// Jobs at once (docs/runtime.md): a job on s2, s3, r2, r3 runs beside one on s0, s1, r0,
// r1 (both released before either reports), and a third on s0 waits for the first.
BOOST_AUTO_TEST_CASE(jobs_on_disjoint_nodes_run_at_once_and_one_on_a_busy_node_waits) {
  for (const std::string node : {"s2", "s3", "r2", "r3"}) agents.add(node);
  std::string other = kJob;
  for (const auto& [from, to] : {std::pair{"s0", "s2"}, {"s1", "s3"}, {"r0", "r2"}, {"r1", "r3"}}) {
    for (std::size_t at = other.find(from); at != std::string::npos; at = other.find(from, at))
      other.replace(at, 2, to);
  }
  const std::uint64_t first = submit();
  const std::uint64_t second = driver->submit(bc::parse_job_spec(other), other);
  accept_plans(await(bp::Envelope::kPlan, 8));
  BOOST_TEST(await(bp::Envelope::kStepRelease, 8).size() == 8u);  // step 0 of both
  const std::uint64_t third = submit();
  settle();
  BOOST_TEST(driver->status() ==
             "job " + std::to_string(first) + " step 1/2, job " + std::to_string(second) + " step 1/2, 1 queued");
  BOOST_TEST(driver->agents()["agents"][0]["job"].get<std::string>() == std::to_string(first));  // r0
  BOOST_TEST(state(third) == "queued");
  clock.advance(2500ms);
  // The second job's reports finish its step; the first's step still waits for its own.
  for (const std::string node : {"s2", "s3", "r2", "r3"}) deliver(node, report(node, 0));
  BOOST_TEST(await(bp::Envelope::kStepRelease, 4).size() == 4u);  // the second's step 1
  BOOST_TEST(driver->job(first)["step"].get<int>() == 0);
  for (const std::string node : {"s0", "s1", "r0", "r1"}) deliver(node, report(node, 0));
  BOOST_TEST(await(bp::Envelope::kStepRelease, 4).size() == 4u);
  clock.advance(2500ms);
  for (const std::string node : {"s0", "s1", "r0", "r1", "s2", "s3", "r2", "r3"}) deliver(node, report(node, 1));
  commit_all(8);
  run_until([&] { return state(first) == "done" && state(second) == "done"; });
  // The first job's nodes are free: the third starts.
  BOOST_TEST(await(bp::Envelope::kPlan, 4).size() == 4u);
  BOOST_TEST(state(third) != "queued");
}

// The job queue has a cap too (max_queued_jobs): past it a submit is refused as too many.
BOOST_AUTO_TEST_CASE(jobs_past_the_queue_cap_are_refused_naming_it) {
  bc::DriverOptions options;
  options.max_queued_jobs = 2;
  asio::io_context idle;  // never run: every job stays queued
  bc::Driver capped(idle, agents, *journal, clock, options, nullptr);
  capped.submit(bc::parse_job_spec(kJob), kJob);
  capped.submit(bc::parse_job_spec(kJob), kJob);
  try {
    capped.submit(bc::parse_job_spec(kJob), kJob);
    BOOST_FAIL("a third queued job was accepted");
  } catch (const bc::RequestError& e) {
    BOOST_TEST((e.failure() == bc::RequestFailure::too_many));
    BOOST_TEST(std::string(e.what()) ==
               "the job queue is full: 2 jobs queued, at the cap (max_queued_jobs 2), behind 0 running "
               "(max_running_jobs 64); submit again once one has run, or cancel one");
  }
  BOOST_TEST(journal->jobs().size() == 2u);  // the refused one was not journaled
}

BOOST_AUTO_TEST_SUITE_END()

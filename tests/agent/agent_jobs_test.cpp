// Whole agents (agent/agent.h) holding several jobs' plans at once, driven by a fake
// coordinator over their real control sessions: two jobs' steps run side by side on the
// same two nodes, every byte verified at its destination and in the reports; an abort of
// one job leaves the other running; a re-registered agent tells every job it holds; a
// plan beyond max_jobs is refused saying so; each job keeps its lockstep; stop() waits for
// every running step's report.
#include "agent/agent.h"
#include "tests/agent/dataflow_harness.h"
#include "tests/agent/fake_coordinator.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace baton::agent::test;

namespace {

// A whole agent on a node of the step harness, checking plans against its memory regions,
// registered with `coordinator`.
struct AgentNode {
  AgentNode(asio::io_context& io, const std::string& name, FakeCoordinator& coordinator, std::size_t max_jobs)
      : node(io, name), agent(*node.context, *node.data, node.storage,
                              ba::AgentOptions{.node_id = name,
                                               .coordinator = coordinator.address(),
                                               .secret = kSecret,
                                               .max_jobs = max_jobs,
                                               .log = {}},
                              [this](const bp::Plan& plan) { return ba::check_plan(plan, regions_of(node.storage)); }) {
    agent.start();
    coordinator.await_registration(name);
  }
  Node node;
  ba::Agent agent;
};

// Agents "a" and "b" registered with one fake coordinator.
struct Cluster {
  explicit Cluster(std::size_t max_jobs = 16) : a(io, "a", coordinator, max_jobs), b(io, "b", coordinator, max_jobs) {}
  ~Cluster() {
    std::size_t stopped = 0;
    for (AgentNode* n : {&a, &b}) asio::co_spawn(io, n->agent.stop(), [&stopped](std::exception_ptr) { ++stopped; });
    BOOST_TEST(coordinator.run_until([&] { return stopped == 2; }));
    coordinator.close();
    stop_nodes(io, {&a.node, &b.node});
  }
  asio::io_context io;
  FakeCoordinator coordinator{io, kSecret};
  AgentNode a, b;
};

// A job that moves a's region "in-<job>" to b's "out-<job>", `steps` steps of `step_bytes`
// each (step s: transfer s, the s-th slice), paced at `rate` bytes/s (0: unpaced).
struct Job {
  Job(Cluster& c, std::string name, std::uint64_t number, int steps, std::uint64_t step_bytes, double rate)
      : id(std::move(name)), in(pattern(steps * step_bytes, static_cast<unsigned>(number))), out(in.size()) {
    c.a.node.storage.register_region("in-" + id, in);
    c.b.node.storage.register_region("out-" + id, out);
    for (bp::Plan* plan : {&sender, &receiver}) {
      plan->set_job(id);
      plan->set_job_number(number);
      plan->set_k(1);
      for (int s = 0; s < steps; ++s) {
        bp::Step* step = plan->add_steps();
        step->set_index(static_cast<std::uint32_t>(s));
        step->set_predicted_seconds(0.1);
        bp::Flow* flow = step->add_flows();
        flow->set_send(plan == &sender);
        flow->set_peer(plan == &sender ? "b" : "a");
        flow->set_rate(rate);
        if (plan == &sender) flow->set_peer_address(c.b.node.data->address());
        bp::Chunk* chunk = flow->add_chunks();
        chunk->set_transfer(static_cast<std::uint64_t>(s));
        chunk->set_src_file("in-" + id);
        chunk->set_src_offset(s * step_bytes);
        chunk->set_dst_file("out-" + id);
        chunk->set_dst_offset(s * step_bytes);
        chunk->set_length(step_bytes);
        chunk->set_stream_offset(0);
      }
    }
  }
  std::string id;
  std::vector<std::byte> in, out;
  bp::Plan sender, receiver;
};

bp::Envelope plan_message(const bp::Plan& plan) {
  bp::Envelope e;
  *e.mutable_plan() = plan;
  return e;
}

bp::Envelope release(const std::string& job, std::uint32_t step) {
  bp::Envelope e;
  e.mutable_step_release()->set_job(job);
  e.mutable_step_release()->set_step(step);
  e.mutable_step_release()->set_timeout_ms(20'000);
  return e;
}

// Sends the job's plans to a and b; both accept them.
void give_plans(Cluster& c, const Job& job) {
  c.coordinator.send("a", plan_message(job.sender));
  c.coordinator.send("b", plan_message(job.receiver));
  for (const char* node : {"a", "b"}) {
    const bp::Envelope answer = c.coordinator.take(
        node,
        [&](const bp::Envelope& e) {
          return (e.has_plan_accepted() && e.plan_accepted().job() == job.id) ||
                 (e.has_plan_refused() && e.plan_refused().job() == job.id);
        },
        "answer to job " + job.id + "'s plan");
    BOOST_REQUIRE_MESSAGE(answer.has_plan_accepted(),
                          node << " refused job " << job.id << ": " << answer.plan_refused().reason());
  }
}

void release_on_both(Cluster& c, const std::string& job, std::uint32_t step) {
  for (const char* node : {"a", "b"}) c.coordinator.send(node, release(job, step));
}

bp::StepReport report_of(Cluster& c, const std::string& node, const std::string& job, std::uint32_t step) {
  return c.coordinator
      .take(
          node,
          [&](const bp::Envelope& e) {
            return e.has_step_report() && e.step_report().job() == job && e.step_report().step() == step;
          },
          "report of job " + job + " step " + std::to_string(step))
      .step_report();
}

// Both ends reported the step done, with the slice's bytes, and the receiver's digest of
// each chunk is the one the sender's receiver acknowledged.
void check_step_reports(Cluster& c, const Job& job, std::uint32_t step, std::uint64_t step_bytes) {
  const bp::StepReport sent = report_of(c, "a", job.id, step);
  const bp::StepReport received = report_of(c, "b", job.id, step);
  BOOST_TEST(sent.ok(), sent.error());
  BOOST_TEST(received.ok(), received.error());
  BOOST_TEST(sent.bytes() == step_bytes);
  BOOST_TEST(received.bytes() == step_bytes);
  BOOST_REQUIRE(received.digests_size() == 1);
  BOOST_REQUIRE(sent.sent_size() == 1);
  BOOST_TEST(received.digests(0).transfer() == step);
  BOOST_TEST(received.digests(0).xxh3() == sent.sent(0).xxh3());
}

// Waits until `node`'s agent runs a step of every job in `jobs` at once.
bool steps_run_at_once(Cluster& c, AgentNode& node, const std::vector<std::string>& jobs) {
  return c.coordinator.run_until([&] {
    const std::string status = node.agent.status();
    return std::ranges::all_of(
        jobs, [&](const std::string& job) { return status.find("job " + job + " step ") != std::string::npos; });
  });
}

// What agent a showed the moment it ran a step of both jobs.
struct BothRunning {
  std::string status, metrics;
};

// Gives both jobs' plans to a and b, releases step 0 of each on both, and waits until
// each agent runs the two steps at once.
BothRunning run_side_by_side(Cluster& c, const Job& first, const Job& second) {
  give_plans(c, first);
  give_plans(c, second);
  release_on_both(c, first.id, 0);
  release_on_both(c, second.id, 0);
  BOOST_TEST(steps_run_at_once(c, c.a, {first.id, second.id}), c.a.agent.status());
  BothRunning a{c.a.agent.status(), c.a.agent.metrics()};
  BOOST_TEST(steps_run_at_once(c, c.b, {first.id, second.id}), c.b.agent.status());
  return a;
}

// Makes `job`'s plans kept ones (Plan.keep), a and b their members (ranks 0 and 1).
void keep(Cluster& c, Job& job) {
  for (bp::Plan* plan : {&job.sender, &job.receiver}) {
    plan->set_keep(true);
    plan->set_member_count(2);
    std::uint32_t rank = 0;
    for (AgentNode* n : {&c.a, &c.b}) {
      bp::Member* member = plan->add_members();
      member->set_node(n == &c.a ? "a" : "b");
      member->set_data_address(n->node.data->address());
      member->set_rank(rank++);
    }
  }
}

// Ends `job` on both agents, as the coordinator does once every step ran.
void end_job(Cluster& c, const std::string& job) {
  for (const char* node : {"a", "b"}) {
    bp::Envelope ended;
    ended.mutable_job_ended()->set_job(job);
    c.coordinator.send(node, ended);
    c.coordinator.take(
        node, [&](const bp::Envelope& e) { return e.has_job_committed() && e.job_committed().job() == job; },
        "commit of job " + job);
  }
}

// Starts exchange `number` of `job` on both agents at once, as their applications would,
// and waits for both to end.
std::pair<bp::ExchangeReport, bp::ExchangeReport> exchange_on_both(Cluster& c, const std::string& job,
                                                                   std::uint64_t number) {
  std::optional<bp::ExchangeReport> at_a, at_b;
  const auto keep = [](std::optional<bp::ExchangeReport>& at) {
    return [&at](std::exception_ptr thrown, bp::ExchangeReport r) {
      if (thrown) r.set_error("threw");  // exchange() says what failed in its report; it does not throw
      at = r;
    };
  };
  asio::co_spawn(c.io, c.a.agent.exchange(job, number), keep(at_a));
  asio::co_spawn(c.io, c.b.agent.exchange(job, number), keep(at_b));
  BOOST_REQUIRE(c.coordinator.run_until([&] { return at_a && at_b; }));
  return {*at_a, *at_b};
}

const double kRate = 8.0 * (1 << 20);   // bytes/s
const std::uint64_t kSlow = 6 << 20;    // bytes of a step paced at kRate: 0.75 s
const std::uint64_t kQuick = 2 << 20;   // 0.25 s
const std::uint64_t kSmall = 64 << 10;  // unpaced, a moment

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_jobs)

BOOST_AUTO_TEST_CASE(two_jobs_steps_run_side_by_side_on_the_same_agents) {
  Cluster c;
  Job seven(c, "7", 7, 2, kSlow, kRate), nine(c, "9", 9, 2, kQuick, kRate);
  const BothRunning a = run_side_by_side(c, seven, nine);
  BOOST_TEST(a.status == "job 7 step 1/2; job 9 step 1/2");
  BOOST_TEST(a.metrics.find("baton_agent_job_running_step{job=\"7\"} 1") != std::string::npos, a.metrics);
  BOOST_TEST(a.metrics.find("baton_agent_job_running_step{job=\"9\"} 1") != std::string::npos, a.metrics);

  // Each job's lockstep: its next step waits for this one (job 9's step ran beside job 7's).
  c.coordinator.send("a", release("7", 1));
  const bp::StepReport early = report_of(c, "a", "7", 1);
  BOOST_TEST(!early.ok());
  BOOST_TEST(early.error() == "step 0 is still running");

  // Job 9's shorter step ended first: its flows did not wait behind job 7's.
  const bp::Envelope first = c.coordinator.peek(
      "b", [](const bp::Envelope& e) { return e.has_step_report() && e.step_report().step() == 0; },
      "report of a step 0");
  BOOST_TEST(first.step_report().job() == "9");
  check_step_reports(c, nine, 0, kQuick);
  check_step_reports(c, seven, 0, kSlow);
  release_on_both(c, "7", 1);
  release_on_both(c, "9", 1);
  check_step_reports(c, seven, 1, kSlow);
  check_step_reports(c, nine, 1, kQuick);
  BOOST_TEST((seven.out == seven.in));
  BOOST_TEST((nine.out == nine.in));

  for (const auto& job : {"7", "9"}) {
    for (const char* node : {"a", "b"}) {
      bp::Envelope ended;
      ended.mutable_job_ended()->set_job(job);
      c.coordinator.send(node, ended);
      const bp::Envelope committed = c.coordinator.take(
          node, [&](const bp::Envelope& e) { return e.has_job_committed() && e.job_committed().job() == job; },
          std::string("commit of job ") + job);
      BOOST_TEST(committed.job_committed().error() == "");
    }
  }
  const std::vector<ba::Agent::JobProgress> progress = c.b.agent.job_progress();
  BOOST_REQUIRE(progress.size() == 2u);
  BOOST_TEST(progress[0].job == "7");
  BOOST_TEST(progress[1].job == "9");
  for (const ba::Agent::JobProgress& job : progress) {
    BOOST_TEST((job.state == ba::Agent::JobState::done));
    BOOST_TEST(job.steps_done == 2u);
  }
  const std::string metrics = c.b.agent.metrics();
  BOOST_TEST(metrics.find("baton_agent_jobs_held 2") != std::string::npos, metrics);
  BOOST_TEST(metrics.find("baton_agent_job_steps_done{job=\"7\",state=\"done\"} 2") != std::string::npos, metrics);
  BOOST_TEST(metrics.find("baton_agent_job_steps_done{job=\"9\",state=\"done\"} 2") != std::string::npos, metrics);
  BOOST_TEST(metrics.find("baton_agent_steps_total{result=\"ok\"} 4") != std::string::npos, metrics);
}

BOOST_AUTO_TEST_CASE(an_abort_of_one_job_leaves_the_other_running_to_its_end) {
  Cluster c;
  Job seven(c, "7", 7, 1, 2 * kSlow, kRate), nine(c, "9", 9, 1, kQuick, kRate);
  run_side_by_side(c, seven, nine);
  for (const char* node : {"a", "b"}) {
    bp::Envelope abort;
    abort.mutable_abort()->set_job("7");
    abort.mutable_abort()->set_reason("cancelled by the test");
    c.coordinator.send(node, abort);
  }
  for (const char* node : {"a", "b"}) {
    const bp::StepReport aborted = report_of(c, node, "7", 0);
    BOOST_TEST(!aborted.ok());
    const bp::Envelope status = c.coordinator.take(
        node, [](const bp::Envelope& e) { return e.has_job_status() && e.job_status().job() == "7"; },
        "status of job 7");
    BOOST_TEST(status.job_status().state() == bp::JobStatus::ABORTED);
  }
  check_step_reports(c, nine, 0, kQuick);
  BOOST_TEST((nine.out == nine.in));
  c.coordinator.send("a", release("7", 0));
  BOOST_TEST(report_of(c, "a", "7", 0).error() == "this agent holds no plan for job 7");
  BOOST_TEST(c.a.agent.status() == "job 7 aborted (0/1 steps); job 9 done (1/1 steps)");
}

BOOST_AUTO_TEST_CASE(a_re_registered_agent_tells_the_status_of_every_job_it_holds) {
  Cluster c;
  Job seven(c, "7", 7, 1, kSmall, 0), nine(c, "9", 9, 1, kSmall, 0);
  give_plans(c, seven);
  give_plans(c, nine);
  release_on_both(c, "7", 0);
  check_step_reports(c, seven, 0, kSmall);

  c.coordinator.drop("a");
  c.coordinator.await_registration("a", 2);
  std::map<std::string, bp::JobStatus> told;
  for (int i = 0; i < 2; ++i) {
    const bp::JobStatus status = c.coordinator
                                     .take(
                                         "a", [](const bp::Envelope& e) { return e.has_job_status(); }, "job status")
                                     .job_status();
    told[status.job()] = status;
  }
  BOOST_REQUIRE(told.size() == 2u);
  BOOST_TEST(told["7"].state() == bp::JobStatus::DONE);
  BOOST_TEST(told["7"].steps_done() == 1u);
  BOOST_TEST(told["9"].state() == bp::JobStatus::RUNNING);
  BOOST_TEST(told["9"].steps_done() == 0u);

  // Both plans survived the new session: job 9 runs now.
  release_on_both(c, "9", 0);
  check_step_reports(c, nine, 0, kSmall);
  BOOST_TEST((nine.out == nine.in));
}

BOOST_AUTO_TEST_CASE(a_plan_beyond_max_jobs_is_refused_until_a_held_job_ends) {
  Cluster c(2);
  Job one(c, "1", 1, 1, kSmall, 0), two(c, "2", 2, 1, kSmall, 0), three(c, "3", 3, 1, kSmall, 0);
  give_plans(c, one);
  give_plans(c, two);
  c.coordinator.send("a", plan_message(three.sender));
  const bp::Envelope refused = c.coordinator.take(
      "a", [](const bp::Envelope& e) { return e.has_plan_refused() || e.has_plan_accepted(); }, "answer to job 3");
  BOOST_REQUIRE(refused.has_plan_refused());
  BOOST_TEST(refused.plan_refused().reason() == "this agent holds 2 jobs' plans, its max_jobs, and runs every one");

  // Flows name their job by number: a job of a held job's number is refused too.
  bp::Plan same_number = three.sender;
  same_number.set_job("4");
  same_number.set_job_number(2);
  c.coordinator.send("a", plan_message(same_number));
  const bp::Envelope clash = c.coordinator.take(
      "a", [](const bp::Envelope& e) { return e.has_plan_refused() || e.has_plan_accepted(); }, "answer to job 4");
  BOOST_REQUIRE(clash.has_plan_refused());
  BOOST_TEST(clash.plan_refused().reason() == "job number 2 is job 2's, which this agent still runs");

  // Job 1 ends: its place goes to job 3.
  for (const char* node : {"a", "b"}) {
    bp::Envelope ended;
    ended.mutable_job_ended()->set_job("1");
    c.coordinator.send(node, ended);
    c.coordinator.take(
        node, [](const bp::Envelope& e) { return e.has_job_committed(); }, "commit of job 1");
  }
  give_plans(c, three);
  std::vector<std::string> held;
  for (const ba::Agent::JobProgress& job : c.a.agent.job_progress()) held.push_back(job.job);
  BOOST_TEST((held == std::vector<std::string>{"2", "3"}));
  release_on_both(c, "3", 0);
  check_step_reports(c, three, 0, kSmall);
  BOOST_TEST((three.out == three.in));
}

BOOST_AUTO_TEST_CASE(a_kept_plan_runs_again_when_its_members_start_an_exchange) {
  Cluster c;
  Job job(c, "5", 5, 2, kSmall, 0);
  keep(c, job);
  give_plans(c, job);
  BOOST_TEST(c.a.agent.why_no_exchange("5")->reason == "job 5 has not ended at the coordinator");
  for (std::uint32_t step = 0; step < 2; ++step) {
    release_on_both(c, "5", step);
    check_step_reports(c, job, step, kSmall);
  }
  end_job(c, "5");
  BOOST_TEST(!c.a.agent.why_no_exchange("5"), c.a.agent.why_no_exchange("5")->reason);

  // Each exchange moves the sender's bytes as they are now, every step of the plan, with
  // nothing from the coordinator; both ends tell it afterwards.
  for (std::uint64_t exchange : {41u, 42u}) {
    std::ranges::fill(job.in, std::byte{static_cast<unsigned char>(exchange)});
    std::ranges::fill(job.out, std::byte{0});
    const auto [sent, received] = exchange_on_both(c, "5", exchange);
    BOOST_TEST(sent.ok(), sent.error());
    BOOST_TEST(received.ok(), received.error());
    BOOST_TEST(sent.bytes() == 2 * kSmall);
    BOOST_TEST(received.bytes() == 2 * kSmall);
    BOOST_TEST((job.out == job.in));
    for (const char* node : {"a", "b"}) {
      const bp::Envelope told = c.coordinator.take(
          node, [](const bp::Envelope& e) { return e.has_exchange_report(); }, "exchange report");
      BOOST_TEST(told.exchange_report().job() == "5");
      BOOST_TEST(told.exchange_report().range() == exchange);
      BOOST_TEST(told.exchange_report().ok());
    }
  }
  BOOST_TEST(c.b.agent.metrics().find("baton_agent_exchanges_total{result=\"done\"} 2") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_exchange_a_member_does_not_join_fails_at_the_step_timeout_and_the_next_one_runs) {
  Cluster c;
  Job job(c, "11", 11, 1, kSmall, 0);
  keep(c, job);
  give_plans(c, job);
  for (const char* node : {"a", "b"}) {
    bp::Envelope quick = release("11", 0);
    quick.mutable_step_release()->set_timeout_ms(300);  // the exchanges' step timeout from now on
    c.coordinator.send(node, quick);
  }
  check_step_reports(c, job, 0, kSmall);
  end_job(c, "11");

  // Only a's application starts exchange 7: its flow waits for b, which never runs it.
  std::optional<bp::ExchangeReport> alone;
  asio::co_spawn(c.io, c.a.agent.exchange("11", 7), [&](std::exception_ptr, bp::ExchangeReport r) { alone = r; });
  BOOST_REQUIRE(c.coordinator.run_until([&] { return alone.has_value(); }));
  BOOST_TEST(!alone->ok());
  BOOST_TEST(alone->error().starts_with("step 0: "), alone->error());
  const bp::Envelope told = c.coordinator.take(
      "a", [](const bp::Envelope& e) { return e.has_exchange_report(); }, "exchange report");
  BOOST_TEST(!told.exchange_report().ok());
  BOOST_TEST(c.a.agent.metrics().find("baton_agent_exchanges_total{result=\"failed\"} 1") != std::string::npos);

  // The plan is still kept: both start the next exchange, which runs (once b refused a's
  // early flow of exchange 7, after 9/10 of the frame timeout: the test takes about 5 s).
  std::ranges::fill(job.in, std::byte{8});
  const auto [sent, received] = exchange_on_both(c, "11", 8);
  BOOST_TEST(sent.ok(), sent.error());
  BOOST_TEST(received.ok(), received.error());
  BOOST_TEST((job.out == job.in));
}

BOOST_AUTO_TEST_CASE(an_exchange_is_refused_saying_why_before_any_byte_moves) {
  Cluster c;
  Job plain(c, "6", 6, 1, kSmall, 0), kept(c, "8", 8, 1, kSmall, 0);
  keep(c, kept);
  for (Job* job : {&plain, &kept}) {
    give_plans(c, *job);
    release_on_both(c, job->id, 0);
    check_step_reports(c, *job, 0, kSmall);
    end_job(c, job->id);
  }
  BOOST_TEST(c.a.agent.why_no_exchange("3")->reason == "this agent holds no plan for job 3");
  BOOST_TEST(c.a.agent.why_no_exchange("6")->reason == "job 6's plan is not a kept one");
  // The application registered its region anew, smaller than the plan reads.
  c.a.node.storage.register_region("in-8", std::span(kept.in).first(kSmall / 2));
  BOOST_TEST(c.a.agent.why_no_exchange("8")->reason.starts_with("job 8's plan: "),
             c.a.agent.why_no_exchange("8")->reason);
  c.a.node.storage.register_region("in-8", kept.in);
  std::ranges::fill(kept.out, std::byte{0});
  const auto [sent, received] = exchange_on_both(c, "8", 0);
  BOOST_TEST(!sent.ok());
  BOOST_TEST(sent.error() == "exchange number 0 is not within [1, 2^32)");
  BOOST_TEST(received.error() == "exchange number 0 is not within [1, 2^32)");
  BOOST_TEST(std::ranges::all_of(kept.out, [](std::byte b) { return b == std::byte{0}; }));
}

BOOST_AUTO_TEST_CASE(stop_ends_after_every_running_step_is_reported) {
  Cluster c;
  Job seven(c, "7", 7, 1, kSlow, kRate), nine(c, "9", 9, 1, kQuick, kRate);
  run_side_by_side(c, seven, nine);
  bool stopped = false;
  asio::co_spawn(c.io, c.a.agent.stop(), [&stopped](std::exception_ptr) { stopped = true; });
  BOOST_TEST(c.coordinator.run_until([&] { return stopped; }));
  BOOST_TEST(c.coordinator.closed("a"));
  // Both reports came before the session closed.
  check_step_reports(c, seven, 0, kSlow);
  check_step_reports(c, nine, 0, kQuick);
}

BOOST_AUTO_TEST_SUITE_END()

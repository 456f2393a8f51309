// Calibration and drift in the job driver, against fake agents on a network computed in
// the test (the fluid model of tests/calibration/fluid_network.h) and a clock moved by hand:
// a calibration's probe steps run as one-step jobs and find the network's figures; a job
// without "platform" is planned on them (and one with nothing to go on is refused, saying
// how to calibrate); a job whose backbone halves mid-run is re-planned from the step after
// the drift, its agents get the new plan, the report and the journal say so, and a
// restarted coordinator rebuilds the same plan; a trial of a wider backbone is re-planned
// back when the backbone did not grow (also by a coordinator restarted during it), and
// kept when it did.
#include "coordinator/daemon/driver.h"
#include "coordinator/daemon/job_spec.h"
#include "tests/calibration/fluid_network.h"
#include "tests/daemon/fake_agents.h"
#include "tests/daemon/manual_clock.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <asio/io_context.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace bc = baton::coordinator;
namespace bp = baton::protocol;
using baton::calibration::test::FluidFlow;
using baton::calibration::test::FluidNetwork;
using baton::test::FakeAgents;
using baton::test::ManualClock;
using namespace std::chrono_literals;

namespace {

const std::vector<std::string> kSenders{"s0", "s1", "s2", "s3"}, kReceivers{"r0", "r1", "r2", "r3"};

// Four senders and four receivers at 1 MB/s each, a backbone of 3 MB/s, β = 20 ms.
FluidNetwork network() { return FluidNetwork{std::vector<double>(4, 1e6), std::vector<double>(4, 1e6), 3e6, 0.02}; }

std::size_t index_of(const std::vector<std::string>& nodes, const std::string& node) {
  return static_cast<std::size_t>(std::ranges::find(nodes, node) - nodes.begin());
}

// Agents that run whatever plan they get on `net`: they accept every plan, and when a step
// is released the clock moves by the step's time on the network, then every node of the
// step reports it (its flows' bytes, its time, the chunks' digests), and every node
// confirms a job's end.
struct CalibrationFixture {
  baton::test::TempDir dir{"baton-driver-calibration"};
  asio::io_context io;
  FakeAgents agents{[] {
    std::vector<std::string> all = kSenders;
    all.insert(all.end(), kReceivers.begin(), kReceivers.end());
    return all;
  }()};
  ManualClock clock;
  std::unique_ptr<baton::journal::Journal> journal;
  std::unique_ptr<bc::Driver> driver;
  // A second coordinator on the same journal (restart_coordinator), the first left idle.
  std::unique_ptr<asio::io_context> second_io;
  std::unique_ptr<bc::Driver> second_coordinator;
  FluidNetwork net = network();
  // Added to a step of this many flows beyond its fluid time: a retransmission timeout
  // when more flows than the backbone carries share it.
  std::function<double(std::size_t)> lost_seconds = [](std::size_t) { return 0.0; };
  std::map<std::string, bp::Plan> plans;  // as each node last received it
  std::map<std::string, int> plans_received;

  explicit CalibrationFixture(const bc::DriverOptions& options = baton::test::per_step_options()) {
    journal = std::make_unique<baton::journal::Journal>(dir.path / "journal.sqlite");
    driver = std::make_unique<bc::Driver>(io, agents, *journal, clock, options, nullptr);
    driver->start();
  }
  ~CalibrationFixture() {
    second_coordinator.reset();
    driver.reset();
  }

  // The coordinator the agents talk to: the restarted one once there is one.
  bc::Driver& coordinator() { return second_coordinator ? *second_coordinator : *driver; }

  // As if the coordinator were killed and started again: a new driver on the same journal
  // resumes the unfinished job; the old one is never run again.
  void restart_coordinator(const bc::DriverOptions& options) {
    second_io = std::make_unique<asio::io_context>();
    second_coordinator = std::make_unique<bc::Driver>(*second_io, agents, *journal, clock, options, nullptr);
    second_coordinator->start();
  }

  void poll() {
    asio::io_context& live = second_io ? *second_io : io;
    live.restart();
    live.run_for(2ms);
  }

  // Plays the agents' part until `done` holds (at most 20 s of real time), checked after the
  // driver has run and before the agents answer it: a step released then has not run yet.
  void run_agents_until(const std::function<bool()>& done) {
    const auto limit = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < limit) {
      poll();
      if (done()) return;  // before the agents answer what the driver just sent
      std::vector<std::pair<std::string, bp::Envelope>> sent;
      sent.swap(agents.sent);
      std::map<std::string, std::uint32_t> released;
      for (auto& [node, message] : sent) {
        bp::Envelope answer;
        switch (message.body_case()) {
          case bp::Envelope::kPlan:
            plans[node] = message.plan();
            ++plans_received[node];
            answer.mutable_plan_accepted()->set_job(message.plan().job());
            coordinator().on_message(node, answer);
            break;
          case bp::Envelope::kStepRelease: released[node] = message.step_release().step(); break;
          case bp::Envelope::kJobEnded:
            answer.mutable_job_committed()->set_job(message.job_ended().job());
            coordinator().on_message(node, answer);
            break;
          default: break;
        }
      }
      if (!released.empty()) run_step(released.begin()->second, released);
    }
    BOOST_REQUIRE(done());
  }

  // Every released node's step on `net`: the clock moves by its time, then each reports.
  void run_step(std::uint32_t step, const std::map<std::string, std::uint32_t>& released) {
    std::vector<FluidFlow> flows;
    for (const auto& [node, s] : released) {
      for (const bp::Flow& f : plans.at(node).steps(static_cast<int>(step)).flows()) {
        if (!f.send()) continue;
        double bytes = 0;
        for (const bp::Chunk& c : f.chunks()) bytes += static_cast<double>(c.length());
        flows.push_back({index_of(kSenders, node), index_of(kReceivers, f.peer()), bytes});
      }
    }
    const double seconds = net.step_seconds(flows) + lost_seconds(flows.size());
    clock.advance(std::chrono::duration_cast<bc::Clock::duration>(std::chrono::duration<double>(seconds)));
    for (const auto& [node, s] : released) {
      bp::Envelope envelope;
      bp::StepReport& r = *envelope.mutable_step_report();
      r.set_job(plans.at(node).job());
      r.set_step(step);
      r.set_ok(true);
      for (const bp::Flow& flow : plans.at(node).steps(static_cast<int>(step)).flows()) {
        for (const bp::Chunk& c : flow.chunks()) {
          bp::ChunkDigest& d = flow.send() ? *r.add_sent() : *r.add_digests();
          d.set_transfer(c.transfer());
          d.set_dst_offset(c.dst_offset());
          d.set_length(c.length());
          d.set_xxh3(c.transfer() * 1'000'003 + c.dst_offset());
          r.set_bytes(r.bytes() + c.length());
        }
      }
      r.set_seconds(seconds - net.beta);
      coordinator().on_message(node, envelope);
    }
  }

  std::string calibration_state(std::uint64_t id) {
    return coordinator().calibrator().calibration(id)["state"].get<std::string>();
  }
  std::string job_state(std::uint64_t id) { return coordinator().job(id)["state"].get<std::string>(); }

  std::uint64_t calibrate() {
    const std::string json = R"({"senders": ["s0", "s1", "s2", "s3"], "receivers": ["r0", "r1", "r2", "r3"]})";
    const std::uint64_t id = coordinator().calibrator().calibrate(bc::parse_calibration_request(json), json);
    run_agents_until([&] { return calibration_state(id) == "done" || calibration_state(id) == "failed"; });
    return id;
  }
};

// Every sender owes every receiver `bytes`, in the file "in" → "out".
std::string job_without_platform(std::uint64_t bytes, const std::string& extra = "") {
  std::string transfers;
  for (std::size_t s = 0; s < kSenders.size(); ++s) {
    for (std::size_t r = 0; r < kReceivers.size(); ++r) {
      transfers += std::string(transfers.empty() ? "" : ", ") + R"({"src_node": ")" + kSenders[s] +
                   R"(", "src_file": "in", "src_offset": )" + std::to_string(r * bytes) + R"(, "length": )" +
                   std::to_string(bytes) + R"(, "dst_node": ")" + kReceivers[r] +
                   R"(", "dst_file": "out", "dst_offset": )" + std::to_string(s * bytes) + "}";
    }
  }
  return R"({"senders": ["s0", "s1", "s2", "s3"], "receivers": ["r0", "r1", "r2", "r3"], "algorithm": "oggp", )" +
         extra + R"("transfers": [)" + transfers + "]}";
}

}  // namespace

// Trials of a wider backbone off (the tests of drift), and after every step on the model,
// so that the 16 pairs leave room to judge one.
struct NoTrials : CalibrationFixture {
  NoTrials() : CalibrationFixture(with_widen_after(0)) {}
  static bc::DriverOptions with_widen_after(int steps) {
    bc::DriverOptions options = baton::test::per_step_options();
    options.drift.widen_after = steps;
    return options;
  }
};
struct TrialsAfterOneStep : CalibrationFixture {
  TrialsAfterOneStep() : CalibrationFixture(NoTrials::with_widen_after(1)) {}
};

BOOST_FIXTURE_TEST_SUITE(driver_calibration, CalibrationFixture)

BOOST_AUTO_TEST_CASE(a_calibration_runs_its_probe_steps_and_finds_the_networks_figures) {
  const std::uint64_t id = calibrate();
  const auto c = driver->calibrator().calibration(id);
  BOOST_TEST(c["state"].get<std::string>() == "done", c.dump());
  BOOST_TEST(c["d"].get<double>() == 1e6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(c["D"].get<double>() == 3e6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(c["beta"].get<double>() == 0.02, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(c["k"].get<int>() == 3);
  // It took what its probe steps took on the network, on the driver's clock.
  BOOST_TEST(c["seconds"].get<double>() > 1.0);
  BOOST_TEST(c["seconds"].get<double>() < 10.0);
  // Every probe was its own job, reading the agents' random source into their sink.
  for (const auto& [node, plan] : plans) {
    BOOST_TEST(std::stoull(plan.job()) > 1'000'000'000'000u);
    for (const bp::Flow& f : plan.steps(0).flows()) {
      BOOST_TEST(f.rate() == 0.0);
      BOOST_TEST(f.chunks(0).src_file() == "probe:random");
      BOOST_TEST(f.chunks(0).dst_file() == "probe:discard");
    }
  }
  // Journaled with its result and dates; a restarted coordinator knows it.
  const auto records = journal->calibrations();
  BOOST_REQUIRE(records.size() == 1u);
  BOOST_TEST((records[0].state == baton::journal::CalibrationState::done));
  asio::io_context io2;
  bc::Driver restarted(io2, agents, *journal, clock, baton::test::per_step_options(), nullptr);
  restarted.start();
  BOOST_TEST(restarted.calibrator().calibration(id)["k"].get<int>() == 3);
  BOOST_TEST_REQUIRE(restarted.calibrator().latest().has_value());
  BOOST_TEST(restarted.calibrator().latest()->id == std::to_string(id));
}

BOOST_FIXTURE_TEST_CASE(a_job_without_platform_is_planned_on_the_calibration_or_refused_with_how_to_get_one, NoTrials) {
  const std::string json = job_without_platform(1'000'000);
  try {
    driver->submit(bc::parse_job_spec(json), json);
    BOOST_FAIL("accepted without platform or calibration");
  } catch (const bc::RequestError& e) {
    BOOST_TEST((e.failure() == bc::RequestFailure::bad_request));
    BOOST_TEST(std::string(e.what()).find("batonctl calibrate --senders s0,s1,s2,s3 --receivers r0,r1,r2,r3") !=
               std::string::npos);
  }
  const std::uint64_t calibration = calibrate();
  const std::uint64_t id = driver->submit(bc::parse_job_spec(json), json);
  run_agents_until([&] { return job_state(id) == "done"; });
  const auto report = driver->job(id)["report"];
  BOOST_TEST(report["k"].get<int>() == 3);
  BOOST_TEST(report["platform"]["source"].get<std::string>() == "calibration");
  BOOST_TEST(report["platform"]["calibration"].get<std::string>() == std::to_string(calibration));
  BOOST_TEST(report["platform"]["step_startup"].get<double>() == 0.02, boost::test_tools::tolerance(1e-6));
  // Journaled with the platform it was planned on.
  const auto spec = bc::parse_job_spec(journal->job(id)->spec);
  BOOST_TEST(spec.platform_given);
  BOOST_TEST(spec.calibration == std::to_string(calibration));
  // The network did not drift: no re-plan.
  BOOST_TEST(report["replans"].empty(), report["replans"].dump());
}

BOOST_AUTO_TEST_CASE(a_backbone_halved_mid_job_is_followed_by_a_re_plan_of_the_rest) {
  calibrate();
  // 16 pairs of 1 MB at k = 3: OGGP plans steps of three 1 MB flows (1.02 s each).
  const std::string json = job_without_platform(1'000'000);
  const std::uint64_t id = driver->submit(bc::parse_job_spec(json), json);
  run_agents_until([&] { return driver->job(id)["step"].get<int>() >= 1; });
  net.backbone = 1.5e6;  // from step 1 on: three flows share half the backbone
  run_agents_until([&] { return job_state(id) == "done"; });
  const auto job = driver->job(id);
  BOOST_TEST(job["bytes_done"].get<std::uint64_t>() == 16'000'000u);
  const auto& replans = job["report"]["replans"];
  BOOST_REQUIRE(replans.size() == 1u);
  const auto& r = replans[0];
  BOOST_TEST(r["at_step"].get<int>() == 4);  // steps 1, 2 and 3 ran slow: a run of three
  BOOST_TEST(r["cause"].get<std::string>() == "backbone");
  BOOST_TEST(r["old"]["k"].get<int>() == 3);
  // D = 1.5 d: one flow at d would leave a third of the backbone idle; two flows paced at
  // D/2 move the 1 MB pairs 50 % faster (calibration::fullest_platform), so k = 2.
  BOOST_TEST(r["new"]["k"].get<int>() == 2);
  BOOST_TEST(r["new"]["D"].get<double>() == 1.5e6, boost::test_tools::tolerance(0.01));
  BOOST_TEST(r["new"]["d"].get<double>() == 0.75e6, boost::test_tools::tolerance(0.01));
  // The new plan: two 1 MB flows per step at D/2, each step 0.02 + 1/0.75 s.
  BOOST_TEST(r["predicted_remaining_seconds_after"].get<double>() == r["steps_after"].get<double>() * (0.02 + 1 / 0.75),
             boost::test_tools::tolerance(1e-3));
  BOOST_TEST(r["predicted_remaining_seconds_before"].get<double>() > 0);
  BOOST_TEST(job["report"]["k"].get<int>() == 2);
  // The steps after the re-plan hold two flows each; the ones before kept their three.
  const auto& steps = job["report"]["steps"];
  BOOST_TEST(steps[0]["flows"].get<int>() == 3);
  for (std::size_t s = 4; s < steps.size(); ++s) BOOST_TEST(steps[s]["flows"].get<int>() == 2);
  // Every agent was given the new plan once more, listing the old steps and the new.
  for (const std::string& node : kSenders) {
    BOOST_TEST(plans.at(node).steps_size() == static_cast<int>(steps.size()));
  }
  // Journaled: a restarted coordinator that resumed it would rebuild this plan.
  BOOST_REQUIRE(journal->replans(id).size() == 1u);
  BOOST_TEST(journal->replans(id)[0].at_step == 4u);
}

BOOST_AUTO_TEST_CASE(a_job_told_not_to_re_plan_keeps_its_plan_through_the_drift) {
  calibrate();
  const std::string json = job_without_platform(1'000'000, R"("replan": false, )");
  const std::uint64_t id = driver->submit(bc::parse_job_spec(json), json);
  run_agents_until([&] { return driver->job(id)["step"].get<int>() >= 1; });
  net.backbone = 1.5e6;
  run_agents_until([&] { return job_state(id) == "done"; });
  const auto report = driver->job(id)["report"];
  BOOST_TEST(report["replans"].empty());
  BOOST_TEST(report["k"].get<int>() == 3);
  BOOST_TEST(report["platform"]["replan_on_drift"].get<bool>() == false);
}

BOOST_AUTO_TEST_CASE(a_resumed_job_rebuilds_the_plan_its_re_plans_made) {
  calibrate();
  const std::string json = job_without_platform(1'000'000);
  const std::uint64_t id = driver->submit(bc::parse_job_spec(json), json);
  net.backbone = 1.5e6;  // slow from the start: re-planned after step 2
  run_agents_until([&] { return driver->job(id)["report"]["replans"].size() == 1u; });
  const auto before = driver->job(id)["report"];
  // A new coordinator on the same journal, the first one's job left unfinished.
  restart_coordinator(baton::test::per_step_options());
  const auto limit = std::chrono::steady_clock::now() + 10s;
  while (coordinator().job(id)["steps"].get<int>() == 0 && std::chrono::steady_clock::now() < limit) poll();
  const auto resumed = coordinator().job(id)["report"];
  BOOST_TEST(resumed["steps"].size() == before["steps"].size());
  for (std::size_t s = 0; s < before["steps"].size(); ++s) {
    BOOST_TEST(resumed["steps"][s]["bytes"] == before["steps"][s]["bytes"]);
    BOOST_TEST(resumed["steps"][s]["flows"] == before["steps"][s]["flows"]);
  }
  BOOST_TEST(resumed["replans"] == before["replans"]);
  BOOST_TEST(resumed["k"] == before["k"]);
}

BOOST_FIXTURE_TEST_CASE(a_trial_of_a_wider_backbone_that_runs_slow_is_re_planned_back, TrialsAfterOneStep) {
  net.backbone = 2e6;  // k = 2: a trial on 4 MB/s would halve the steps
  calibrate();
  const std::string json = job_without_platform(1'000'000);
  const std::uint64_t id = driver->submit(bc::parse_job_spec(json), json);
  run_agents_until([&] { return job_state(id) == "done"; });
  const auto job = driver->job(id);
  BOOST_TEST(job["bytes_done"].get<std::uint64_t>() == 16'000'000u);
  const auto& replans = job["report"]["replans"];
  BOOST_TEST_REQUIRE(replans.size() >= 3u, replans.dump(1));
  // After step 0 ran on the model: the rest on a backbone of 2 × 2 MB/s, up to four flows a
  // step.
  const auto& trial = replans[0];
  BOOST_TEST(trial["cause"].get<std::string>() == "wider backbone trial");
  BOOST_TEST(trial["why"].get<std::string>() == "1 step on the model: trying a backbone of 4 MB/s (2x) for the rest");
  BOOST_TEST(trial["at_step"].get<int>() == 1);
  BOOST_TEST(trial["old"]["k"].get<int>() == 2);
  BOOST_TEST(trial["new"]["k"].get<int>() == 4);
  BOOST_TEST(trial["new"]["D"].get<double>() == 4e6, boost::test_tools::tolerance(1e-6));
  // Three or four 1 MB flows share 2 MB/s: the trial's first step takes 1.52 s or 2.02 s
  // where its model said 1.02 s, and the rest is planned on the backbone as it was.
  const auto& steps = job["report"]["steps"];
  const int flows = steps[1]["flows"].get<int>();
  BOOST_TEST(flows > 2);
  BOOST_TEST(steps[1]["measured_seconds"].get<double>() == 0.02 + flows / 2.0, boost::test_tools::tolerance(1e-6));
  const auto& back = replans[1];
  BOOST_TEST(back["cause"].get<std::string>() == "wider backbone trial failed");
  BOOST_TEST(back["at_step"].get<int>() == 2);
  const std::string why = back["why"].get<std::string>();
  BOOST_TEST(why.find("the trial's step 1 ran") != std::string::npos, why);
  BOOST_TEST(why.find("the backbone carries 2 MB/s, not 4; planning on 2 MB/s") != std::string::npos, why);
  BOOST_TEST(back["new"]["k"].get<int>() == 2);
  BOOST_TEST(back["new"]["D"].get<double>() == trial["old"]["D"].get<double>());
  // Its flows shared the whole backbone: the step took what the plan before would have.
  BOOST_TEST(back["cost_seconds"].get<double>() == 0.0, boost::test_tools::tolerance(1e-6));
  // The failed trial doubled the wait: the next one after two steps on the model.
  BOOST_TEST(steps[2]["flows"].get<int>() <= 2);
  BOOST_TEST(steps[3]["flows"].get<int>() <= 2);
  BOOST_TEST(replans[2]["cause"].get<std::string>() == "wider backbone trial");
  BOOST_TEST(replans[2]["at_step"].get<int>() == 4);
  BOOST_TEST(replans[2]["why"].get<std::string>().starts_with("2 steps on the model"));
  BOOST_TEST(journal->replans(id).size() == replans.size());
}

// The coordinator killed after it started a trial, before the trial's first step: the
// resumed job judges the trial as the first coordinator would have (without the trial
// restored, drift needed three slow steps to find the backbone as it was).
BOOST_FIXTURE_TEST_CASE(a_coordinator_restarted_during_a_trial_judges_it_after_one_step, TrialsAfterOneStep) {
  net.backbone = 2e6;  // k = 2: the trial on 4 MB/s runs slow
  calibrate();
  const std::string json = job_without_platform(1'000'000);
  const std::uint64_t id = driver->submit(bc::parse_job_spec(json), json);
  run_agents_until([&] { return driver->job(id)["report"]["replans"].size() == 1u; });
  BOOST_TEST_REQUIRE(driver->job(id)["report"]["replans"][0]["cause"].get<std::string>() == "wider backbone trial");
  restart_coordinator(NoTrials::with_widen_after(1));
  run_agents_until([&] { return job_state(id) == "done"; });
  const auto job = coordinator().job(id);
  BOOST_TEST(job["bytes_done"].get<std::uint64_t>() == 16'000'000u);
  const auto& replans = job["report"]["replans"];
  BOOST_TEST_REQUIRE(replans.size() >= 2u, replans.dump(1));
  BOOST_TEST(replans[1]["cause"].get<std::string>() == "wider backbone trial failed", replans.dump(1));
  BOOST_TEST(replans[1]["at_step"].get<int>() == 2);
  BOOST_TEST(replans[1]["new"]["k"].get<int>() == 2);
}

// As on the Fig. 16 cluster at k = 3, where a trial's steps lost a retransmission timeout:
// here half a second on every step of more flows than the 2 MB/s backbone carries at 1 MB/s
// each. The first failed trial costs 0.5 s, more than 5 % of the job's 8 s: no second one
// (the test above, on the same job without the timeouts, tries again at step 4), not even
// from a coordinator restarted after it (the cost is journaled with the re-plan).
BOOST_FIXTURE_TEST_CASE(failed_trials_that_cost_more_than_their_budget_end_the_trials, TrialsAfterOneStep) {
  net.backbone = 2e6;  // k = 2
  calibrate();
  lost_seconds = [](std::size_t flows) { return flows > 2 ? 0.5 : 0.0; };
  const std::string json = job_without_platform(1'000'000);
  const std::uint64_t id = driver->submit(bc::parse_job_spec(json), json);
  run_agents_until([&] { return driver->job(id)["report"]["replans"].size() == 2u; });
  const auto failed = driver->job(id)["report"]["replans"][1];
  BOOST_TEST(failed["cause"].get<std::string>() == "wider backbone trial failed");
  BOOST_TEST(failed["cost_seconds"].get<double>() == 0.5, boost::test_tools::tolerance(1e-6));
  restart_coordinator(NoTrials::with_widen_after(1));
  run_agents_until([&] { return job_state(id) == "done"; });
  const auto job = coordinator().job(id);
  BOOST_TEST(job["bytes_done"].get<std::uint64_t>() == 16'000'000u);
  BOOST_TEST(job["report"]["replans"].size() == 2u, job["report"]["replans"].dump(1));
  // Step 1 was the trial's; every step after it back at two flows.
  const auto& steps = job["report"]["steps"];
  for (std::size_t s = 2; s < steps.size(); ++s) BOOST_TEST(steps[s]["flows"].get<int>() <= 2, "step " << s);
}

BOOST_FIXTURE_TEST_CASE(a_trial_of_a_wider_backbone_is_kept_when_the_backbone_grew, TrialsAfterOneStep) {
  net.backbone = 2e6;  // k = 2
  calibrate();
  const std::string json = job_without_platform(1'000'000);
  const std::uint64_t id = driver->submit(bc::parse_job_spec(json), json);
  run_agents_until([&] { return driver->job(id)["step"].get<int>() >= 1; });
  net.backbone = 4e6;  // from step 1 on: room for all four pairs at once
  run_agents_until([&] { return job_state(id) == "done"; });
  const auto job = driver->job(id);
  BOOST_TEST(job["bytes_done"].get<std::uint64_t>() == 16'000'000u);
  const auto& replans = job["report"]["replans"];
  BOOST_TEST_REQUIRE(replans.size() == 1u, replans.dump());
  BOOST_TEST(replans[0]["cause"].get<std::string>() == "wider backbone trial");
  BOOST_TEST(job["report"]["k"].get<int>() == 4);
  // Step 0 at three flows, then four steps of four: 13 pairs in four steps, each 1.02 s.
  const auto& steps = job["report"]["steps"];
  BOOST_TEST(steps.size() == 5u);
  for (std::size_t s = 1; s < steps.size(); ++s) {
    BOOST_TEST(steps[s]["measured_seconds"].get<double>() == 1.02, boost::test_tools::tolerance(1e-6));
  }
}

BOOST_FIXTURE_TEST_CASE(a_backbone_found_narrower_waits_longer_for_a_trial, TrialsAfterOneStep) {
  calibrate();
  net.backbone = 1.5e6;  // from the start: steps 0-2 run slow, and drift re-plans at step 3
  const std::string json = job_without_platform(1'000'000);
  const std::uint64_t id = driver->submit(bc::parse_job_spec(json), json);
  run_agents_until([&] { return job_state(id) == "done"; });
  const auto job = driver->job(id);
  const auto& replans = job["report"]["replans"];
  BOOST_TEST_REQUIRE(replans.size() >= 1u, replans.dump(1));
  BOOST_TEST(replans[0]["cause"].get<std::string>() == "backbone");
  BOOST_TEST(replans[0]["at_step"].get<int>() == 3);
  // One step on the model after it would have made a trial due at step 4 (its plan of two
  // steps of three flows promising 2.04 s for 4.06); the wait is two steps now, and at step
  // 5 too few steps are left to judge one.
  BOOST_TEST(replans.size() == 1u, replans.dump(1));
}

// Issue 27: the calibration queue has a cap (max_queued_calibrations); past it a request
// is refused as too many (429), naming the cap.
BOOST_AUTO_TEST_CASE(calibrations_past_the_queue_cap_are_refused_naming_it) {
  const std::string json = R"({"senders": ["s0"], "receivers": ["r0"]})";
  for (int i = 0; i < 4; ++i) driver->calibrator().calibrate(bc::parse_calibration_request(json), json);  // not run yet
  try {
    driver->calibrator().calibrate(bc::parse_calibration_request(json), json);
    BOOST_FAIL("a fifth queued calibration was accepted");
  } catch (const bc::RequestError& e) {
    BOOST_TEST((e.failure() == bc::RequestFailure::too_many));
    BOOST_TEST(bc::http_status(e.failure()) == 429);
    BOOST_TEST(std::string(e.what()) ==
               "the calibration queue is full: 4 calibrations queued, at the cap (max_queued_calibrations 4); "
               "calibrate again once one has run, or cancel one (DELETE /v1/calibrations/ID)");
  }
  BOOST_TEST(driver->calibrator().calibrations()["calibrations"].size() == 4u);
}

// A queued calibration cancelled never runs; a running one ends at once, its probe step
// aborted on the agents; an ended one cannot be cancelled.
BOOST_AUTO_TEST_CASE(a_calibration_is_cancelled_queued_or_running) {
  const std::string json = R"({"senders": ["s0", "s1"], "receivers": ["r0", "r1"]})";
  const std::uint64_t running = driver->calibrator().calibrate(bc::parse_calibration_request(json), json);
  const std::uint64_t queued = driver->calibrator().calibrate(bc::parse_calibration_request(json), json);
  BOOST_TEST(driver->calibrator().cancel(queued)["state"] == "cancelled");
  BOOST_TEST((journal->calibrations().back().state == baton::journal::CalibrationState::cancelled));
  poll();  // the first starts: its first probe step's plans go out
  BOOST_TEST(calibration_state(running) == "running");
  BOOST_TEST(!agents.sent.empty());
  agents.sent.clear();
  driver->calibrator().cancel(running);
  poll();
  BOOST_TEST(calibration_state(running) == "cancelled");
  BOOST_TEST(driver->calibrator().calibration(running)["error"].get<std::string>().starts_with(
      "cancelled by the operator during its"));
  std::set<std::string> aborted;
  for (const auto& [node, message] : agents.sent) {
    if (message.body_case() == bp::Envelope::kAbort) aborted.insert(node);
  }
  BOOST_TEST(aborted == (std::set<std::string>{"s0", "r0"}));  // the first probe step: one pair
  BOOST_TEST(calibration_state(queued) == "cancelled");        // never ran
  try {
    driver->calibrator().cancel(running);
    BOOST_FAIL("an ended calibration was cancelled");
  } catch (const bc::RequestError& e) {
    BOOST_TEST((e.failure() == bc::RequestFailure::conflict));
  }
  BOOST_CHECK_THROW(driver->calibrator().cancel(99), bc::RequestError);
}

// Calibrations do not starve jobs: a job queued behind two calibrations runs after the
// first, before the second.
BOOST_AUTO_TEST_CASE(a_job_runs_between_two_queued_calibrations) {
  const std::string calibration = R"({"senders": ["s0", "s1", "s2", "s3"], "receivers": ["r0", "r1", "r2", "r3"]})";
  const std::uint64_t first = driver->calibrator().calibrate(bc::parse_calibration_request(calibration), calibration);
  const std::uint64_t second = driver->calibrator().calibrate(bc::parse_calibration_request(calibration), calibration);
  const std::string job = job_without_platform(
      100'000,
      R"("platform": {"sender_rate": 1e6, "receiver_rate": 1e6, "backbone_rate": 3e6, "step_startup": 0.02}, )");
  const std::uint64_t id = driver->submit(bc::parse_job_spec(job), job);
  run_agents_until([&] { return job_state(id) == "done"; });
  BOOST_TEST(calibration_state(first) == "done");
  BOOST_TEST(calibration_state(second) != "done");
  run_agents_until([&] { return calibration_state(second) == "done"; });
}

BOOST_AUTO_TEST_SUITE_END()

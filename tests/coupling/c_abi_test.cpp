// The C ABI (include/baton/baton.h) against a real coordinator on loopback, the sessions'
// embedded agents in this process: handoffs by a coupler and collective ones (two threads
// agreeing as two codes would through MPI), every byte checked; and every error path:
// unknown names, regions too small, a coordinator that is not there or dies, bad options.
#include "baton/baton.h"
#include "tests/integration/cluster.h"
#include "tests/support/ports.h"

#include <httplib.h>
#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

using baton::test::Cluster;

namespace {

struct SessionDeleter {
  void operator()(baton_session* s) const { baton_session_destroy(s); }
};
struct LayoutDeleter {
  void operator()(baton_layout* l) const { baton_layout_destroy(l); }
};
using SessionPtr = std::unique_ptr<baton_session, SessionDeleter>;
using LayoutPtr = std::unique_ptr<baton_layout, LayoutDeleter>;

std::string contains(const char* text, const std::string& part) {
  return std::string(text).find(part) != std::string::npos ? std::string() : std::string(text);
}
#define BOOST_TEST_CONTAINS(text, part) \
  BOOST_TEST(contains((text), (part)).empty(), "\"" << (text) << "\" lacks \"" << (part) << "\"")

// A session for `node` (empty: a coupler) of the cluster's coordinator, not started.
SessionPtr configured(const Cluster& cluster, const std::string& node) {
  baton_session* s = nullptr;
  BOOST_REQUIRE_EQUAL(baton_session_create(&s), BATON_OK);
  SessionPtr session(s);
  if (!node.empty()) {
    BOOST_REQUIRE_EQUAL(baton_session_set(s, "node_id", node.c_str()), BATON_OK);
    BOOST_REQUIRE_EQUAL(baton_session_set(s, "coordinator", cluster.agents_address().c_str()), BATON_OK);
    BOOST_REQUIRE_EQUAL(baton_session_set(s, "secret_file", (cluster.dir() / "secret").c_str()), BATON_OK);
  }
  BOOST_REQUIRE_EQUAL(baton_session_set(s, "api", cluster.api_address().c_str()), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_session_set(s, "rate", "200e6"), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_session_set(s, "timeout", "60"), BATON_OK);
  return session;
}

SessionPtr started(const Cluster& cluster, const std::string& node) {
  SessionPtr s = configured(cluster, node);
  BOOST_REQUIRE_MESSAGE(baton_session_start(s.get()) == BATON_OK, baton_session_error(s.get()));
  return s;
}

LayoutPtr make_layout(std::uint64_t rows, std::uint64_t cols, const std::vector<std::string>& nodes, int dim,
                      std::uint64_t block) {
  baton_layout* l = nullptr;
  BOOST_REQUIRE_EQUAL(baton_layout_create(&l, rows, cols, sizeof(double)), BATON_OK);
  LayoutPtr owned(l);
  for (const std::string& node : nodes) BOOST_REQUIRE_EQUAL(baton_layout_add_node(l, node.c_str()), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_layout_distribute(l, dim, block), BATON_OK);
  return owned;
}

// The field of the tests: element (i, j) of step t.
double field(std::uint64_t i, std::uint64_t j, int t) { return t * 1e6 + static_cast<double>(i * 1000 + j); }

// A node's part of `l`, filled with the field of step t (or zero).
std::vector<double> part(baton_layout* l, const std::string& node, int t, bool fill) {
  std::uint64_t rows = 0, cols = 0;
  BOOST_REQUIRE_EQUAL(baton_layout_local_shape(l, node.c_str(), &rows, &cols), BATON_OK);
  std::vector<double> data(rows * cols, 0.0);
  if (!fill) return data;
  for (std::uint64_t i = 0; i < rows; ++i) {
    std::uint64_t global = 0;
    BOOST_REQUIRE_EQUAL(baton_layout_global_index(l, node.c_str(), i, &global), BATON_OK);  // rows are cut
    for (std::uint64_t j = 0; j < cols; ++j) data[i * cols + j] = field(global, j, t);
  }
  return data;
}

// Whether a part of the block-cyclic-columns layout `l` holds the field of step t.
bool holds_field(baton_layout* l, const std::string& node, const std::vector<double>& data, std::uint64_t rows, int t) {
  const std::uint64_t cols = data.size() / rows;
  for (std::uint64_t k = 0; k < cols; ++k) {
    std::uint64_t global = 0;
    if (baton_layout_global_index(l, node.c_str(), k, &global) != BATON_OK) return false;
    for (std::uint64_t i = 0; i < rows; ++i) {
      if (data[i * cols + k] != field(i, global, t)) return false;
    }
  }
  return true;
}

// agree() for threads standing in for the processes of two codes: each round returns the
// largest value given, once every thread has given one.
class Rendezvous {
 public:
  explicit Rendezvous(std::size_t threads) : threads_(threads) {}
  static std::uint64_t agree(std::uint64_t value, void* self) { return static_cast<Rendezvous*>(self)->round(value); }
  // Returns once some thread has given its value for the round after the last one ended.
  void await_next_round() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return arrived_ > 0; });
  }

 private:
  std::uint64_t round(std::uint64_t value) {
    std::unique_lock lock(mutex_);
    largest_ = std::max(largest_, value);
    const std::uint64_t mine = rounds_;
    if (++arrived_ == threads_) {
      result_ = largest_;
      largest_ = 0;
      arrived_ = 0;
      ++rounds_;
    }
    changed_.notify_all();  // also an arrival, for await_next_round
    changed_.wait(lock, [&] { return rounds_ != mine; });
    return result_;
  }
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t threads_, arrived_ = 0;
  std::uint64_t rounds_ = 0, largest_ = 0, result_ = 0;
};

const std::vector<std::string> kProducers = {"p0", "p1"};
const std::vector<std::string> kConsumers = {"c0", "c1"};
constexpr std::uint64_t kRows = 24, kCols = 20;

// The job's "exchanges" in GET /v1/jobs/{id}, once its `count` reached `at_least` (the
// agents tell the coordinator after the exchange) or 20 s passed.
nlohmann::json exchanges_told(Cluster& cluster, const std::string& job, const std::string& count, int at_least) {
  const auto told = [&] { return cluster.get("/v1/jobs/" + job).second.value("exchanges", nlohmann::json::object()); };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  nlohmann::json exchanges = told();
  while (exchanges.value(count, 0) < at_least && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    exchanges = told();
  }
  return exchanges;
}

// A collective handoff of step t's field from p0's `source` (of `from`) to c0's `received`
// (of `to`), both calling at once, every element checked: whether it was an exchange of a
// kept plan, and the job's id.
std::pair<bool, std::string> hand_off_p0_to_c0(baton_session* p0, baton_session* c0, baton_layout* from,
                                               baton_layout* to, std::vector<double>& source,
                                               std::vector<double>& received, int t) {
  const std::vector<double> step = part(from, "p0", t, true);
  std::copy(step.begin(), step.end(), source.begin());
  std::ranges::fill(received, -1.0);
  baton_status consumer_status = BATON_INTERNAL;
  std::thread consumer([&] { consumer_status = baton_handoff(c0, "field", from, to, nullptr); });
  const baton_status producer_status = baton_handoff(p0, "field", from, to, nullptr);
  consumer.join();
  BOOST_REQUIRE_MESSAGE(producer_status == BATON_OK, baton_session_error(p0));
  BOOST_REQUIRE_MESSAGE(consumer_status == BATON_OK, baton_session_error(c0));
  BOOST_TEST(holds_field(to, "c0", received, kRows, t), "step " << t);
  const nlohmann::json answer = nlohmann::json::parse(baton_report_json(p0));
  return {answer.contains("exchange"), answer.at("id").get<std::string>()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(c_abi)

BOOST_AUTO_TEST_CASE(a_coupler_hands_block_rows_to_block_cyclic_columns_and_reuses_the_job_spec) {
  Cluster cluster;
  LayoutPtr from = make_layout(kRows, kCols, kProducers, 0, 0), to = make_layout(kRows, kCols, kConsumers, 1, 3);
  std::vector<std::vector<double>> parts;  // declared first: goes after the sessions
  std::vector<SessionPtr> nodes;
  for (const auto& n : kProducers) nodes.push_back(started(cluster, n)), parts.push_back(part(from.get(), n, 0, true));
  for (const auto& n : kConsumers) nodes.push_back(started(cluster, n)), parts.push_back(part(to.get(), n, 0, false));
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    BOOST_REQUIRE_EQUAL(baton_share(nodes[k].get(), "field", k < 2 ? from.get() : to.get(), parts[k].data(),
                                    parts[k].size() * sizeof(double)),
                        BATON_OK);
  }
  SessionPtr coupler = started(cluster, "");
  for (int t = 0; t < 2; ++t) {
    for (std::size_t k = 0; k < 2; ++k) {  // into the shared memory, which must stay where it is
      const std::vector<double> step = part(from.get(), kProducers[k], t, true);
      std::copy(step.begin(), step.end(), parts[k].begin());
    }
    baton_report report{};
    BOOST_REQUIRE_MESSAGE(baton_handoff(coupler.get(), "field", from.get(), to.get(), &report) == BATON_OK,
                          baton_session_error(coupler.get()));
    BOOST_TEST(report.state == BATON_JOB_DONE);
    BOOST_TEST(report.reused_spec == (t == 1 ? 1 : 0));
    BOOST_TEST(report.bytes == kRows * kCols * sizeof(double));
    BOOST_TEST(report.steps >= 1u);
    BOOST_TEST(report.measured_seconds > 0);
    BOOST_TEST_CONTAINS(baton_report_json(coupler.get()), "\"state\":\"done\"");
    // The C report keeps its layout; the coordinator's reuse of the first plan is in the JSON.
    BOOST_TEST((std::string(baton_report_json(coupler.get())).find("\"plan_reused_from\"") != std::string::npos) ==
               (t == 1));
    for (std::size_t q = 0; q < 2; ++q) {
      BOOST_TEST(holds_field(to.get(), kConsumers[q], parts[2 + q], kRows, t), "consumer " << q << " step " << t);
    }
  }
}

// Columns dealt one at a time: every element of a producer's row is a byte range of its
// own (480 ranges of 8 B, 120 per pair), which the agents pack into a few flows per pair
// (docs/runtime.md, "Packed flows"); every element still lands where the layout says.
BOOST_AUTO_TEST_CASE(a_handoff_of_single_element_ranges_lands_every_element) {
  Cluster cluster;
  LayoutPtr from = make_layout(kRows, kCols, kProducers, 0, 0), to = make_layout(kRows, kCols, kConsumers, 1, 1);
  std::vector<std::vector<double>> parts;  // declared first: goes after the sessions
  std::vector<SessionPtr> nodes;
  for (const auto& n : kProducers) nodes.push_back(started(cluster, n)), parts.push_back(part(from.get(), n, 3, true));
  for (const auto& n : kConsumers) nodes.push_back(started(cluster, n)), parts.push_back(part(to.get(), n, 0, false));
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    BOOST_REQUIRE_EQUAL(baton_share(nodes[k].get(), "field", k < 2 ? from.get() : to.get(), parts[k].data(),
                                    parts[k].size() * sizeof(double)),
                        BATON_OK);
  }
  SessionPtr coupler = started(cluster, "");
  baton_report report{};
  BOOST_REQUIRE_MESSAGE(baton_handoff(coupler.get(), "field", from.get(), to.get(), &report) == BATON_OK,
                        baton_session_error(coupler.get()));
  BOOST_TEST(report.state == BATON_JOB_DONE);
  BOOST_TEST(report.bytes == kRows * kCols * sizeof(double));
  for (std::size_t q = 0; q < 2; ++q)
    BOOST_TEST(holds_field(to.get(), kConsumers[q], parts[2 + q], kRows, 3), "consumer " << q);
}

BOOST_AUTO_TEST_CASE(a_collective_handoff_is_called_by_every_node_and_agrees_on_one_job) {
  Cluster cluster;
  LayoutPtr from = make_layout(kRows, kCols, {"p0"}, 0, 0), to = make_layout(kRows, kCols, {"c0"}, 1, 4);
  std::vector<double> source = part(from.get(), "p0", 5, true), received = part(to.get(), "c0", 0, false);
  SessionPtr p0 = started(cluster, "p0"), c0 = started(cluster, "c0");
  BOOST_REQUIRE_EQUAL(baton_share(p0.get(), "field", from.get(), source.data(), source.size() * 8), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_share(c0.get(), "field", to.get(), received.data(), received.size() * 8), BATON_OK);
  Rendezvous rendezvous(2);
  for (baton_session* s : {p0.get(), c0.get()}) {
    BOOST_REQUIRE_EQUAL(baton_session_set_agree(s, &Rendezvous::agree, &rendezvous), BATON_OK);
  }
  baton_report at_consumer{};
  baton_status consumer_status = BATON_INTERNAL;
  std::thread consumer([&] { consumer_status = baton_handoff(c0.get(), "field", from.get(), to.get(), &at_consumer); });
  baton_report at_producer{};
  const baton_status producer_status = baton_handoff(p0.get(), "field", from.get(), to.get(), &at_producer);
  consumer.join();
  BOOST_REQUIRE_MESSAGE(producer_status == BATON_OK, baton_session_error(p0.get()));
  BOOST_REQUIRE_MESSAGE(consumer_status == BATON_OK, baton_session_error(c0.get()));
  BOOST_TEST(at_producer.job == at_consumer.job);
  BOOST_TEST(at_consumer.state == BATON_JOB_DONE);
  BOOST_TEST(holds_field(to.get(), "c0", received, kRows, 5));
}

// Persistent handoffs (docs/embedding.md): the first collective handoff of a layout is a
// job whose plan the agents keep; the next ones exchange it among the nodes, no job
// submitted, every element landing; a changed layout is a job again, kept in its turn.
BOOST_AUTO_TEST_CASE(a_collective_handoff_again_exchanges_the_kept_plan_and_a_new_layout_plans_anew) {
  Cluster cluster;
  LayoutPtr from = make_layout(kRows, kCols, kProducers, 0, 0), to = make_layout(kRows, kCols, kConsumers, 1, 3),
            wider = make_layout(kRows, kCols, kConsumers, 1, 5);
  std::vector<std::vector<double>> parts;  // declared first: goes after the sessions
  std::vector<SessionPtr> nodes;
  for (const auto& n : kProducers) nodes.push_back(started(cluster, n)), parts.push_back(part(from.get(), n, 0, true));
  for (const auto& n : kConsumers) nodes.push_back(started(cluster, n)), parts.push_back(part(to.get(), n, 0, false));
  const auto share_all = [&](baton_layout* consumers) {
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      if (k >= 2) parts[k] = part(consumers, kConsumers[k - 2], 0, false);
      BOOST_REQUIRE_EQUAL(baton_share(nodes[k].get(), "field", k < 2 ? from.get() : consumers, parts[k].data(),
                                      parts[k].size() * sizeof(double)),
                          BATON_OK);
    }
  };
  share_all(to.get());
  Rendezvous rendezvous(nodes.size());
  for (const SessionPtr& s : nodes)
    BOOST_REQUIRE_EQUAL(baton_session_set_agree(s.get(), &Rendezvous::agree, &rendezvous), BATON_OK);
  // Hands step t's field over to `consumers` from every node at once; the producers' JSON.
  const auto hand_off = [&](baton_layout* consumers, int t) {
    for (std::size_t k = 0; k < 2; ++k) {
      const std::vector<double> step = part(from.get(), kProducers[k], t, true);
      std::copy(step.begin(), step.end(), parts[k].begin());
    }
    for (std::size_t k = 2; k < nodes.size(); ++k) std::ranges::fill(parts[k], -1.0);
    std::vector<baton_status> status(nodes.size(), BATON_INTERNAL);
    std::vector<std::thread> others;
    for (std::size_t k = 1; k < nodes.size(); ++k) {
      others.emplace_back(
          [&, k] { status[k] = baton_handoff(nodes[k].get(), "field", from.get(), consumers, nullptr); });
    }
    status[0] = baton_handoff(nodes[0].get(), "field", from.get(), consumers, nullptr);
    for (std::thread& other : others) other.join();
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      BOOST_REQUIRE_MESSAGE(status[k] == BATON_OK, baton_session_error(nodes[k].get()));
    }
    for (std::size_t q = 0; q < 2; ++q) {
      BOOST_TEST(holds_field(consumers, kConsumers[q], parts[2 + q], kRows, t), "consumer " << q << " step " << t);
    }
    return nlohmann::json::parse(baton_report_json(nodes[0].get()));
  };
  const nlohmann::json first = hand_off(to.get(), 1);
  BOOST_TEST(!first.contains("exchange"));
  const std::string kept_job = first.at("id").get<std::string>();
  for (int t = 2; t <= 3; ++t) {
    const nlohmann::json again = hand_off(to.get(), t);
    BOOST_TEST(again.at("id").get<std::string>() == kept_job);
    BOOST_REQUIRE(again.contains("exchange"));
    BOOST_TEST(again.at("exchange").at("bytes").get<std::uint64_t>() > 0u);
  }
  BOOST_TEST(cluster.get("/v1/jobs").second.at("jobs").size() == 1u);
  // The agents tell the coordinator afterwards: both exchanges, once every node told.
  const nlohmann::json told = exchanges_told(cluster, kept_job, "done", 2);
  BOOST_TEST(told.value("done", 0) == 2);
  BOOST_TEST(told.value("failed", 1) == 0);
  httplib::Client api("http://" + cluster.api_address());
  const auto metrics = api.Get("/metrics");
  BOOST_REQUIRE(metrics);
  BOOST_TEST(metrics->body.find("baton_exchanges_total{result=\"done\"} 2\n") != std::string::npos, metrics->body);

  // The consumers now hold wider column blocks: a new plan, then its exchange.
  share_all(wider.get());
  const nlohmann::json replanned = hand_off(wider.get(), 4);
  BOOST_TEST(!replanned.contains("exchange"));
  BOOST_TEST(replanned.at("id").get<std::string>() != kept_job);
  const nlohmann::json exchanged = hand_off(wider.get(), 5);
  BOOST_TEST(exchanged.contains("exchange"));
  BOOST_TEST(cluster.get("/v1/jobs").second.at("jobs").size() == 2u);
}

// A process that started again (its agent holds no kept plan) makes the next handoff a job
// for every process; the exchanges resume after it.
BOOST_AUTO_TEST_CASE(a_node_that_lost_the_kept_plan_makes_the_handoff_a_job_again) {
  Cluster cluster;
  LayoutPtr from = make_layout(kRows, kCols, {"p0"}, 0, 0), to = make_layout(kRows, kCols, {"c0"}, 1, 4);
  std::vector<double> source = part(from.get(), "p0", 0, true), received = part(to.get(), "c0", 0, false);
  SessionPtr p0 = started(cluster, "p0"), c0;
  Rendezvous rendezvous(2);
  const auto start_consumer = [&] {
    c0.reset();  // its agent stops; the new one registers as c0 again
    c0 = started(cluster, "c0");
    BOOST_REQUIRE_EQUAL(baton_share(c0.get(), "field", to.get(), received.data(), received.size() * 8), BATON_OK);
    BOOST_REQUIRE_EQUAL(baton_session_set_agree(c0.get(), &Rendezvous::agree, &rendezvous), BATON_OK);
  };
  BOOST_REQUIRE_EQUAL(baton_share(p0.get(), "field", from.get(), source.data(), source.size() * 8), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_session_set_agree(p0.get(), &Rendezvous::agree, &rendezvous), BATON_OK);
  start_consumer();
  const auto hand_off = [&](int t) {
    return hand_off_p0_to_c0(p0.get(), c0.get(), from.get(), to.get(), source, received, t);
  };
  const auto [first_exchanged, first_job] = hand_off(1);
  BOOST_TEST(!first_exchanged);
  BOOST_TEST(hand_off(2).first);
  start_consumer();
  const auto [again_exchanged, again_job] = hand_off(3);
  BOOST_TEST(!again_exchanged);
  BOOST_TEST(again_job != first_job);
  BOOST_TEST((hand_off(4) == std::pair(true, again_job)));
}

// One process's agree: once armed, its next round (the first of a handoff, the one that
// answers an exchange) returns only after another process began the round after it, that
// is after that process's exchange ended: it gave up waiting for this one at its step
// timeout. So this process's exchange starts when its partner's is over, and fails too.
struct LateToTheExchange {
  Rendezvous* rendezvous;
  bool armed = false;
  static std::uint64_t agree(std::uint64_t value, void* self) {
    auto* late = static_cast<LateToTheExchange*>(self);
    const std::uint64_t agreed = Rendezvous::agree(value, late->rendezvous);
    if (late->armed) {
      late->armed = false;
      late->rendezvous->await_next_round();
    }
    return agreed;
  }
};

// An exchange that the agents start but that fails (a member too late for its partner, who
// gave up at the step timeout) makes the handoff a job for every process, every byte where
// it belongs; the coordinator counts the failed exchange, naming a node, and the new job's
// plan is exchanged at the next handoff.
BOOST_AUTO_TEST_CASE(an_exchange_that_fails_makes_the_handoff_a_job_for_every_process) {
  Cluster cluster({}, "min_step_timeout_seconds = 2");  // the exchange's timeout: the kept plan's step timeout
  LayoutPtr from = make_layout(kRows, kCols, {"p0"}, 0, 0), to = make_layout(kRows, kCols, {"c0"}, 1, 4);
  std::vector<double> source = part(from.get(), "p0", 0, true), received = part(to.get(), "c0", 0, false);
  SessionPtr p0 = started(cluster, "p0"), c0 = started(cluster, "c0");
  BOOST_REQUIRE_EQUAL(baton_share(p0.get(), "field", from.get(), source.data(), source.size() * 8), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_share(c0.get(), "field", to.get(), received.data(), received.size() * 8), BATON_OK);
  Rendezvous rendezvous(2);
  LateToTheExchange late{&rendezvous};
  BOOST_REQUIRE_EQUAL(baton_session_set_agree(p0.get(), &Rendezvous::agree, &rendezvous), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_session_set_agree(c0.get(), &LateToTheExchange::agree, &late), BATON_OK);
  const auto hand_off = [&](int t) {
    return hand_off_p0_to_c0(p0.get(), c0.get(), from.get(), to.get(), source, received, t);
  };
  const auto [first_exchanged, kept_job] = hand_off(1);
  BOOST_TEST(!first_exchanged);
  late.armed = true;
  const auto [failed_exchanged, fallback_job] = hand_off(2);
  BOOST_TEST(!failed_exchanged);
  BOOST_TEST(fallback_job != kept_job);
  BOOST_TEST((hand_off(3) == std::pair(true, fallback_job)));
  // Both agents told the coordinator of the failed exchange of the first job's plan.
  const nlohmann::json told = exchanges_told(cluster, kept_job, "failed", 1);
  BOOST_TEST(told.value("failed", 0) == 1);
  BOOST_TEST(told.value("done", 1) == 0);
  BOOST_TEST_CONTAINS(told.value("last_error", std::string()).c_str(), "node ");
}

BOOST_AUTO_TEST_CASE(a_collective_handoff_that_one_node_cannot_make_fails_everywhere_without_a_job) {
  Cluster cluster;
  LayoutPtr from = make_layout(4, 4, {"p0"}, 0, 0), to = make_layout(4, 4, {"c0"}, 1, 0);
  SessionPtr p0 = started(cluster, "p0"), c0 = started(cluster, "c0");
  std::vector<double> source(16, 1.0);
  BOOST_REQUIRE_EQUAL(baton_share(p0.get(), "field", from.get(), source.data(), 128), BATON_OK);  // c0 shares nothing
  Rendezvous rendezvous(2);
  for (baton_session* s : {p0.get(), c0.get()}) baton_session_set_agree(s, &Rendezvous::agree, &rendezvous);
  baton_status consumer_status = BATON_OK;
  std::thread consumer([&] { consumer_status = baton_handoff(c0.get(), "field", from.get(), to.get(), nullptr); });
  const baton_status producer_status = baton_handoff(p0.get(), "field", from.get(), to.get(), nullptr);
  consumer.join();
  BOOST_TEST(consumer_status == BATON_UNKNOWN_NAME);
  BOOST_TEST_CONTAINS(baton_session_error(c0.get()), "node c0 shared no array named field");
  BOOST_TEST(producer_status == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_session_error(p0.get()), "another process of the handoff could not take part");
  BOOST_TEST(cluster.get("/v1/jobs").second.at("jobs").empty());
}

BOOST_AUTO_TEST_CASE(an_unknown_name_is_refused_naming_it) {
  Cluster cluster;
  SessionPtr p0 = started(cluster, "p0");
  LayoutPtr from = make_layout(4, 4, {"p0"}, 0, 0), to = make_layout(4, 4, {"c0"}, 1, 0);
  BOOST_TEST(baton_handoff(p0.get(), "nothing", from.get(), to.get(), nullptr) == BATON_UNKNOWN_NAME);
  BOOST_TEST_CONTAINS(baton_session_error(p0.get()), "node p0 shared no array named nothing");
  BOOST_TEST(baton_unshare(p0.get(), "nothing") == BATON_UNKNOWN_NAME);
  BOOST_TEST_CONTAINS(baton_session_error(p0.get()), "no array named nothing was shared");
  std::uint64_t rows = 0, cols = 0;
  BOOST_TEST(baton_layout_local_shape(from.get(), "c9", &rows, &cols) == BATON_UNKNOWN_NAME);
  BOOST_TEST_CONTAINS(baton_layout_error(from.get()), "node c9 is not in the layout's group");
}

BOOST_AUTO_TEST_CASE(a_region_smaller_than_the_nodes_part_is_refused_with_both_sizes) {
  Cluster cluster;
  SessionPtr p0 = started(cluster, "p0");
  LayoutPtr rows = make_layout(10, 7, {"p0", "p1"}, 0, 0);  // p0 holds 5 x 7 doubles: 280 bytes
  std::vector<double> small(30);
  BOOST_TEST(baton_share(p0.get(), "field", rows.get(), small.data(), small.size() * sizeof(double)) ==
             BATON_REGION_TOO_SMALL);
  BOOST_TEST_CONTAINS(baton_session_error(p0.get()),
                      "node p0's part is 5 x 7 elements of 8 bytes = 280 bytes, the memory given holds 240 bytes");
  // Nothing was shared: the name stays unknown.
  BOOST_TEST(baton_unshare(p0.get(), "field") == BATON_UNKNOWN_NAME);
}

BOOST_AUTO_TEST_CASE(a_coordinator_that_is_not_there_does_not_register_the_node) {
  const std::string nowhere = "127.0.0.1:" + std::to_string(baton::test::unused_loopback_port());
  baton_session* raw = nullptr;
  BOOST_REQUIRE_EQUAL(baton_session_create(&raw), BATON_OK);
  SessionPtr s(raw);
  for (const auto& [key, value] :
       {std::pair{"node_id", "p0"}, std::pair{"coordinator", nowhere.c_str()}, std::pair{"api", nowhere.c_str()},
        std::pair{"secret", "some-secret"}, std::pair{"timeout", "0.5"}}) {
    BOOST_REQUIRE_EQUAL(baton_session_set(s.get(), key, value), BATON_OK);
  }
  BOOST_TEST(baton_session_start(s.get()) == BATON_UNREACHABLE);
  BOOST_TEST_CONTAINS(baton_session_error(s.get()),
                      "node p0: the coordinator at " + nowhere + " did not register it within 500 ms");
  // Without a node nothing waits for the agent listener: the API is tried at the handoff.
  BOOST_REQUIRE_EQUAL(baton_session_create(&raw), BATON_OK);
  SessionPtr coupler(raw);
  BOOST_REQUIRE_EQUAL(baton_session_set(coupler.get(), "api", nowhere.c_str()), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_session_start(coupler.get()), BATON_OK);
  LayoutPtr from = make_layout(4, 4, {"p0"}, 0, 0), to = make_layout(4, 4, {"c0"}, 1, 0);
  BOOST_TEST(baton_handoff(coupler.get(), "field", from.get(), to.get(), nullptr) == BATON_UNREACHABLE);
  BOOST_TEST_CONTAINS(baton_session_error(coupler.get()), "cannot reach the coordinator's API at " + nowhere);
}

BOOST_AUTO_TEST_CASE(a_coordinator_that_died_fails_the_handoff_as_unreachable) {
  Cluster cluster;
  SessionPtr p0 = started(cluster, "p0");
  LayoutPtr from = make_layout(4, 4, {"p0"}, 0, 0), to = make_layout(4, 4, {"c0"}, 1, 0);
  std::vector<double> source(16, 2.0);
  BOOST_REQUIRE_EQUAL(baton_share(p0.get(), "field", from.get(), source.data(), 128), BATON_OK);
  ::kill(cluster.coordinator_pid(), SIGKILL);
  BOOST_TEST(baton_handoff(p0.get(), "field", from.get(), to.get(), nullptr) == BATON_UNREACHABLE);
  BOOST_TEST_CONTAINS(baton_session_error(p0.get()), "cannot reach the coordinator's API at " + cluster.api_address());
}

BOOST_AUTO_TEST_CASE(a_job_the_coordinator_refuses_is_a_failed_job_with_its_reason) {
  Cluster cluster;
  SessionPtr p0 = started(cluster, "p0");  // c0 never registers
  LayoutPtr from = make_layout(4, 4, {"p0"}, 0, 0), to = make_layout(4, 4, {"c0"}, 1, 0);
  std::vector<double> source(16, 3.0);
  BOOST_REQUIRE_EQUAL(baton_share(p0.get(), "field", from.get(), source.data(), 128), BATON_OK);
  BOOST_TEST(baton_handoff(p0.get(), "field", from.get(), to.get(), nullptr) == BATON_JOB_FAILED);
  BOOST_TEST_CONTAINS(baton_session_error(p0.get()), "the coordinator refused it");
  BOOST_TEST_CONTAINS(baton_session_error(p0.get()), "c0");
}

BOOST_AUTO_TEST_CASE(a_job_that_runs_and_fails_is_a_typed_result_with_the_coordinators_error) {
  Cluster cluster;
  SessionPtr p0 = started(cluster, "p0"), c0 = started(cluster, "c0");  // c0 shares nothing
  LayoutPtr from = make_layout(4, 4, {"p0"}, 0, 0), to = make_layout(4, 4, {"c0"}, 1, 0);
  std::vector<double> source(16, 4.0);
  BOOST_REQUIRE_EQUAL(baton_share(p0.get(), "field", from.get(), source.data(), 128), BATON_OK);
  SessionPtr coupler = started(cluster, "");  // checks nothing of c0's: its agent refuses the plan
  baton_report report{};
  BOOST_TEST(baton_handoff(coupler.get(), "field", from.get(), to.get(), &report) == BATON_JOB_FAILED);
  BOOST_TEST(report.state == BATON_JOB_FAILED_STATE);
  BOOST_TEST(report.job >= 1u);
  BOOST_TEST_CONTAINS(baton_session_error(coupler.get()), "failed: ");
  BOOST_TEST_CONTAINS(baton_session_error(coupler.get()), "agent c0 refused the plan");
  BOOST_TEST_CONTAINS(baton_report_json(coupler.get()), "\"state\":\"failed\"");
}

BOOST_AUTO_TEST_CASE(a_handoff_that_does_not_end_in_time_is_cancelled_and_says_so) {
  Cluster cluster;
  // 1 MiB at the 100 kB/s its job declares takes 10 s: far more than p0's 1 s. The memory
  // outlives the sessions, whose agents stop before it goes.
  std::vector<double> source(4 * 32768, 5.0), received(4 * 32768);
  SessionPtr p0 = configured(cluster, "p0");
  BOOST_REQUIRE_EQUAL(baton_session_set(p0.get(), "timeout", "1"), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_session_set(p0.get(), "rate", "1e5"), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_session_start(p0.get()), BATON_OK);
  SessionPtr c0 = started(cluster, "c0");
  LayoutPtr from = make_layout(4, 32768, {"p0"}, 0, 0), to = make_layout(4, 32768, {"c0"}, 1, 0);
  BOOST_REQUIRE_EQUAL(baton_share(p0.get(), "field", from.get(), source.data(), source.size() * 8), BATON_OK);
  BOOST_REQUIRE_EQUAL(baton_share(c0.get(), "field", to.get(), received.data(), received.size() * 8), BATON_OK);
  BOOST_TEST(baton_handoff(p0.get(), "field", from.get(), to.get(), nullptr) == BATON_TIMEOUT);
  BOOST_TEST_CONTAINS(baton_session_error(p0.get()), "job 1 did not end within 1000 ms");
  BOOST_TEST(cluster.wait_job("1").value("state", "") == "cancelled");
}

BOOST_AUTO_TEST_CASE(bad_options_and_calls_are_refused_naming_what_is_wrong) {
  Cluster cluster;
  SessionPtr s = configured(cluster, "p0");
  BOOST_TEST(baton_session_set(s.get(), "colour", "blue") == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_session_error(s.get()), "unknown option \"colour\"");
  BOOST_TEST(baton_session_set(s.get(), "rate", "fast") == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_session_error(s.get()), "rate: \"fast\" is not a positive number");
  BOOST_TEST(baton_session_set(s.get(), "same_host_memory", "yes") == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_session_error(s.get()), "same_host_memory: \"yes\" is neither on nor off");
  BOOST_TEST(baton_session_set(s.get(), "secret_file", "/nonexistent/secret") == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_session_error(s.get()), "secret_file: cannot read /nonexistent/secret");
  BOOST_TEST(baton_session_set(s.get(), nullptr, "x") == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_session_error(s.get()), "key is NULL");
  std::vector<double> data(16);
  LayoutPtr rows = make_layout(4, 4, {"p0"}, 0, 0);
  BOOST_TEST(baton_share(s.get(), "field", rows.get(), data.data(), 128) == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_session_error(s.get()), "the session is not started");
  BOOST_REQUIRE_EQUAL(baton_session_start(s.get()), BATON_OK);
  BOOST_TEST(std::string(baton_session_error(s.get())).empty());
  BOOST_TEST(baton_session_set(s.get(), "rate", "1e6") == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_session_error(s.get()), "rate: the session is started already");
  LayoutPtr elsewhere = make_layout(4, 4, {"p1"}, 0, 0);
  BOOST_TEST(baton_share(s.get(), "field", elsewhere.get(), data.data(), 128) == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_session_error(s.get()), "node p0 is not in the layout's group");
  BOOST_TEST(baton_layout_distribute(rows.get(), 2, 0) == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_layout_error(rows.get()), "dim must be 0 (rows) or 1 (columns), not 2");
  LayoutPtr other = make_layout(4, 5, {"c0"}, 1, 0);
  BOOST_REQUIRE_EQUAL(baton_share(s.get(), "field", rows.get(), data.data(), 128), BATON_OK);
  BOOST_TEST(baton_handoff(s.get(), "field", rows.get(), other.get(), nullptr) == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_session_error(s.get()), "the two layouts describe different arrays");
  BOOST_TEST(std::string(baton_status_name(BATON_REGION_TOO_SMALL)) == "BATON_REGION_TOO_SMALL");
  const std::uint64_t counts[] = {3, 1};
  LayoutPtr uneven = make_layout(4, 4, {"a", "b"}, 0, 0);
  BOOST_REQUIRE_EQUAL(baton_layout_distribute_ranges(uneven.get(), 0, counts, 2), BATON_OK);
  std::uint64_t local_rows = 0, local_cols = 0, global = 0;
  BOOST_REQUIRE_EQUAL(baton_layout_local_shape(uneven.get(), "a", &local_rows, &local_cols), BATON_OK);
  BOOST_TEST((local_rows == 3 && local_cols == 4));
  BOOST_REQUIRE_EQUAL(baton_layout_global_index(uneven.get(), "b", 0, &global), BATON_OK);
  BOOST_TEST(global == 3u);
  BOOST_REQUIRE_EQUAL(baton_layout_distribute_ranges(uneven.get(), 0, counts, 1), BATON_OK);  // checked when used
  BOOST_TEST(baton_layout_local_shape(uneven.get(), "a", &local_rows, &local_cols) == BATON_INVALID_ARGUMENT);
  BOOST_TEST_CONTAINS(baton_layout_error(uneven.get()), "1 index ranges (counts) for 2 nodes");
}

BOOST_AUTO_TEST_SUITE_END()

// The journal's latency and the leadership on /metrics (docs/metrics.md): every call of the
// store goes through MeasuredStore into baton_journal_{write,read}_seconds, labelled by the
// store's kind; baton_leader says whether the coordinator leads.
#include "coordinator/daemon/driver_metrics.h"
#include "coordinator/daemon/measured_store.h"
#include "coordinator/journal/journal.h"
#include "error/error.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

using baton::coordinator::DriverMetrics;
using baton::coordinator::MeasuredStore;

namespace {

bool has(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_CASE(each_journal_call_is_timed_as_a_write_or_a_read_of_its_store) {
  baton::test::TempDir dir{"baton-journal-metrics"};
  baton::journal::Journal journal(dir.path / "journal.sqlite");
  DriverMetrics metrics;
  MeasuredStore store(journal,
                      [&](bool write, double seconds) { metrics.journal_call(journal.kind(), write, seconds); });
  BOOST_TEST(store.kind() == "sqlite");

  const std::uint64_t id = store.add_job(R"({"transfers":[]})");
  store.set_state(id, "running");
  store.record_step(id, {.step = 0, .attempts = 1, .predicted = 1, .measured = 1, .bytes = 1, .finished = "x"});
  BOOST_TEST(store.jobs().size() == 1u);
  BOOST_TEST(store.steps(id).size() == 1u);
  BOOST_CHECK_THROW(store.set_state(99, "running"), baton::error::InvalidInput);  // a failed write is timed too

  const std::string text = metrics.render(0, 0, 0, 0, 0, 0, 0);
  BOOST_TEST(has(text, R"(baton_journal_write_seconds_count{store="sqlite"} 4)"), text);
  BOOST_TEST(has(text, R"(baton_journal_read_seconds_count{store="sqlite"} 2)"), text);
  const std::string sum = R"(baton_journal_write_seconds_sum{store="sqlite"} )";
  BOOST_REQUIRE(text.find(sum) != std::string::npos);
  BOOST_TEST(std::stod(text.substr(text.find(sum) + sum.size())) > 0.0);  // SQLite's fsyncs take time
}

BOOST_AUTO_TEST_CASE(each_running_jobs_share_of_each_node_is_shown_and_an_ended_jobs_goes) {
  DriverMetrics metrics;
  const auto both = baton::coordinator::node_shares(
      {{.id = 7, .weight = 3, .nodes = {"s0", "r0"}}, {.id = 9, .weight = 1, .nodes = {"s0"}}});
  metrics.node_shares(both);
  std::string text = metrics.render(0, 0, 0, 0, 0, 0, 0);
  BOOST_TEST(has(text, R"(baton_job_node_share{job="7",node="s0"} 0.75)"), text);
  BOOST_TEST(has(text, R"(baton_job_node_share{job="7",node="r0"} 1)"), text);
  BOOST_TEST(has(text, R"(baton_job_node_share{job="9",node="s0"} 0.25)"), text);
  metrics.node_shares(baton::coordinator::node_shares({{.id = 7, .weight = 3, .nodes = {"s0", "r0"}}}));
  text = metrics.render(0, 0, 0, 0, 0, 0, 0);
  BOOST_TEST(has(text, R"(baton_job_node_share{job="7",node="s0"} 1)"), text);
  BOOST_TEST(text.find(R"(job="9")") == std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(baton_leader_says_whether_it_leads) {
  DriverMetrics metrics;
  metrics.leading(false);
  BOOST_TEST(has(metrics.render(0, 0, 0, 0, 0, 0, 0), "baton_leader 0"));
  metrics.leading(true);
  BOOST_TEST(has(metrics.render(0, 0, 0, 0, 0, 0, 0), "baton_leader 1"));
}

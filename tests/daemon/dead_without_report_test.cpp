// The waits' two questions on every wake (coordinator/daemon/dead_without_report.h,
// StepReports::record): whether a node is dead without its report, asked of the
// directory again only after it counted a death; and whether a report failed, counted as
// reports are recorded, replaced and cleared.
#include "coordinator/daemon/dead_without_report.h"

#include <boost/test/unit_test.hpp>

#include <set>

namespace bc = baton::coordinator;
namespace bp = baton::protocol;

namespace {

// Alive unless listed dead; counts the liveness questions it is asked.
class CountingDirectory final : public bc::AgentDirectory {
 public:
  bool send(const std::string&, bp::Envelope) override { return true; }
  std::vector<bc::AgentInfo> agents() const override { return {}; }
  std::optional<bc::AgentInfo> find(const std::string&) const override { return std::nullopt; }
  bool alive(const std::string& node) const override {
    ++questions;
    return !dead.contains(node);
  }
  std::uint64_t deaths() const override { return dead_count; }
  void kill(const std::string& node) {
    dead.insert(node);
    ++dead_count;
  }

  mutable int questions = 0;

 private:
  std::set<std::string> dead;
  std::uint64_t dead_count = 0;
};

bp::StepReport report(bool ok) {
  bp::StepReport r;
  r.set_ok(ok);
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dead_without_report)

BOOST_AUTO_TEST_CASE(the_nodes_are_asked_again_only_after_a_death) {
  CountingDirectory agents;
  const std::map<std::string, bp::Plan> plans{{"a", {}}, {"b", {}}, {"c", {}}};
  bc::StepExchange run;
  bc::DeadWithoutReport dead(agents, plans, run);
  BOOST_TEST(!dead());
  BOOST_TEST(agents.questions == 3);
  for (int wake = 0; wake < 100; ++wake) BOOST_TEST(!dead());
  BOOST_TEST(agents.questions == 3);  // a wake without a death asks nobody

  agents.kill("b");
  BOOST_TEST(dead());
  run.reports.record("b", report(true));  // its report came before it died
  BOOST_TEST(!dead());
  const int asked = agents.questions;
  BOOST_TEST(!dead());
  BOOST_TEST(agents.questions == asked);
}

BOOST_AUTO_TEST_CASE(a_node_dead_from_the_start_is_found_at_once) {
  CountingDirectory agents;
  agents.kill("c");
  const std::map<std::string, bp::Plan> plans{{"a", {}}, {"c", {}}};
  bc::StepExchange run;
  bc::DeadWithoutReport dead(agents, plans, run);
  BOOST_TEST(dead());
}

BOOST_AUTO_TEST_CASE(failed_reports_are_counted_as_recorded_replaced_and_cleared) {
  bc::StepExchange run;
  run.reports.record("a", report(true));
  BOOST_TEST(run.reports.failed() == 0u);
  run.reports.record("b", report(false));
  BOOST_TEST(run.reports.failed() == 1u);
  run.reports.record("b", report(false));  // the same node again
  BOOST_TEST(run.reports.failed() == 1u);
  run.reports.record("b", report(true));
  BOOST_TEST(run.reports.failed() == 0u);
  run.reports.record("a", report(false));
  BOOST_TEST(run.reports.failed() == 1u);
  BOOST_TEST(run.reports.size() == 2u);
  run.reports.clear();
  BOOST_TEST(run.reports.failed() == 0u);
  BOOST_TEST(run.reports.size() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

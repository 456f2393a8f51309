// The text format, validated by promtool and read back by the Python client's parser
// (both from the Prometheus project, independent of our code), and the registry's refusals.
#include "metrics/registry.h"
#include "error/error.h"
#include "tests/metrics/exposition_check.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <thread>
#include <vector>

using baton::metrics::Registry;
using baton::metrics::Type;
using baton::test::check_with_promtool;
using baton::test::parse_exposition;

BOOST_AUTO_TEST_SUITE(registry)

BOOST_AUTO_TEST_CASE(promtool_refuses_what_prometheus_would) {
  // The validator itself: it must not accept everything.
  for (const char* bad : {"# HELP x X.\n# TYPE x counter\nx 1\n",  // counter without _total
                          "# HELP x_total X.\n# TYPE x_total counter\nx_total{a=\"b\"c\"} 1\n",  // unescaped quote
                          "# TYPE x_total counter\nx_total 1\n"}) {                              // no HELP
    const auto checked = baton::test::promtool_check(bad);
    BOOST_TEST(!checked.ok, "promtool accepted\n" << bad);
  }
}

BOOST_AUTO_TEST_CASE(counters_gauges_and_histograms_parse_back_to_what_was_recorded) {
  Registry r;
  r.declare("baton_bytes_total", Type::counter, "Bytes moved.");
  r.declare("baton_flows_active", Type::gauge, "Flows now.");
  r.declare("baton_step_seconds", Type::histogram, "Step durations.", {0.1, 1, 10});
  r.add("baton_bytes_total", {{"direction", "sent"}}, 1000);
  r.add("baton_bytes_total", {{"direction", "sent"}}, 24);
  r.add("baton_bytes_total", {{"direction", "received"}}, 5e12);
  r.adjust("baton_flows_active", {}, 3);
  r.adjust("baton_flows_active", {}, -1);
  for (const double v : {0.05, 0.1, 0.5, 2.0, 20.0}) r.observe("baton_step_seconds", {}, v);

  const std::string text = r.render();
  check_with_promtool(text);
  const std::string parsed = parse_exposition(text);
  BOOST_TEST(parsed.find("error") == std::string::npos, parsed);
  for (const char* expected : {
           "counter baton_bytes_total{direction=sent} 1024\n",
           "counter baton_bytes_total{direction=received} 5000000000000\n",
           "gauge baton_flows_active{} 2\n",
           // Buckets are cumulative; le=0.1 holds 0.05 and 0.1 itself (upper bounds are inclusive).
           "histogram baton_step_seconds_bucket{le=0.1} 2\n",
           "histogram baton_step_seconds_bucket{le=1} 3\n",
           "histogram baton_step_seconds_bucket{le=10} 4\n",
           "histogram baton_step_seconds_bucket{le=+Inf} 5\n",
           "histogram baton_step_seconds_count{} 5\n",
           "histogram baton_step_seconds_sum{} 22.65\n",
       }) {
    BOOST_TEST(parsed.find(expected) != std::string::npos, "missing " << expected << "in\n" << parsed);
  }
}

BOOST_AUTO_TEST_CASE(histograms_with_labels_keep_one_set_of_buckets_per_series) {
  Registry r;
  r.declare("baton_flow_seconds", Type::histogram, "Flow durations.", {0.5, 1.5});
  r.observe("baton_flow_seconds", {{"direction", "sent"}}, 1);
  r.observe("baton_flow_seconds", {{"direction", "received"}}, 0.25);
  r.observe("baton_flow_seconds", {{"direction", "received"}}, 2);
  const std::string text = r.render();
  check_with_promtool(text);
  const std::string parsed = parse_exposition(text);
  for (const char* expected : {
           "histogram baton_flow_seconds_bucket{direction=sent,le=0.5} 0\n",
           "histogram baton_flow_seconds_bucket{direction=sent,le=1.5} 1\n",
           "histogram baton_flow_seconds_bucket{direction=received,le=0.5} 1\n",
           "histogram baton_flow_seconds_bucket{direction=received,le=1.5} 1\n",
           "histogram baton_flow_seconds_bucket{direction=received,le=+Inf} 2\n",
           "histogram baton_flow_seconds_sum{direction=received} 2.25\n",
       }) {
    BOOST_TEST(parsed.find(expected) != std::string::npos, "missing " << expected << "in\n" << parsed);
  }
}

BOOST_AUTO_TEST_CASE(label_values_and_help_text_are_escaped) {
  Registry r;
  r.declare("baton_errors_total", Type::counter, "Errors, with a back\\slash\nand a new line.");
  r.add("baton_errors_total", {{"error", "peer said \"no\"\\nothing\nmore"}});
  const std::string text = r.render();
  BOOST_TEST(
      text.find("# HELP baton_errors_total Errors, with a back\\\\slash\\nand a new line.\n") != std::string::npos,
      text);
  check_with_promtool(text);
  const std::string parsed = parse_exposition(text);
  BOOST_TEST(parsed == "counter baton_errors_total{error=peer said \"no\"\\nothing\nmore} 1\n", parsed);
}

BOOST_AUTO_TEST_CASE(special_values_are_written_as_prometheus_spells_them) {
  Registry r;
  r.declare("baton_odd", Type::gauge, "Odd values.");
  r.set("baton_odd", {{"v", "inf"}}, std::numeric_limits<double>::infinity());
  r.set("baton_odd", {{"v", "nan"}}, std::nan(""));
  const std::string text = r.render();
  BOOST_TEST(text.find("baton_odd{v=\"inf\"} +Inf\n") != std::string::npos, text);
  // prometheus-cpp 1.0 spells it "Nan"; Prometheus reads NaN in any case (Go's ParseFloat).
  BOOST_TEST(text.find("baton_odd{v=\"nan\"} Nan\n") != std::string::npos, text);
  check_with_promtool(text);
  BOOST_TEST(parse_exposition(text).find("error") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_declarations_and_misuse_are_refused) {
  Registry r;
  BOOST_CHECK_THROW(r.declare("9starts_with_digit", Type::gauge, "x"), baton::error::InvalidInput);
  BOOST_CHECK_THROW(r.declare("has-dash", Type::gauge, "x"), baton::error::InvalidInput);
  BOOST_CHECK_THROW(r.declare("baton_bytes", Type::counter, "x"), baton::error::InvalidInput);  // no _total
  BOOST_CHECK_THROW(r.declare("baton_quiet", Type::gauge, ""), baton::error::InvalidInput);     // no help
  BOOST_CHECK_THROW(r.declare("baton_h", Type::histogram, "x", {}), baton::error::InvalidInput);
  BOOST_CHECK_THROW(r.declare("baton_h", Type::histogram, "x", {1, 0.5}), baton::error::InvalidInput);
  r.declare("baton_x_total", Type::counter, "x");
  BOOST_CHECK_THROW(r.declare("baton_x_total", Type::counter, "again"), baton::error::InvalidInput);
  BOOST_CHECK_THROW(r.add("baton_x_total", {}, -1), baton::error::Bug);
  BOOST_CHECK_THROW(r.add("baton_unknown_total"), baton::error::Bug);
  BOOST_CHECK_THROW(r.set("baton_x_total", {}, 1), baton::error::Bug);  // not a gauge
}

BOOST_AUTO_TEST_CASE(a_declared_family_without_samples_is_left_out) {
  Registry r;
  r.declare("baton_steps_total", Type::counter, "Steps.");
  r.declare("baton_agents", Type::gauge, "Agents.");
  r.set("baton_agents", {}, 2);
  const std::string text = r.render();
  BOOST_TEST(text == "# HELP baton_agents Agents.\n# TYPE baton_agents gauge\nbaton_agents 2\n");
  check_with_promtool(text);
  BOOST_TEST(parse_exposition(text).find("error") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(threads_counting_while_another_renders_lose_nothing) {
  Registry r;
  r.declare("baton_events_total", Type::counter, "Events.");
  r.declare("baton_busy", Type::gauge, "Busy.");
  r.declare("baton_wait_seconds", Type::histogram, "Waits.", {1});
  constexpr int threads = 4, each = 5000;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&r, t] {
      const baton::metrics::Labels labels{{"thread", std::to_string(t % 2)}};
      for (int i = 0; i < each; ++i) {
        r.add("baton_events_total", labels);
        r.adjust("baton_busy", {}, 1);
        r.observe("baton_wait_seconds", {}, 0.5);
        r.adjust("baton_busy", {}, -1);
      }
    });
  }
  // Renders while they count: whole lines of our families only (a family appears with its
  // first sample, so an early render may be empty).
  bool whole_lines = true;
  for (int i = 0; i < 50; ++i) {
    const std::string text = r.render();
    whole_lines = whole_lines && (text.empty() || text.ends_with('\n'));
    for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
      whole_lines = whole_lines && (text.compare(at, 2, "# ") == 0 || text.compare(at, 6, "baton_") == 0);
    }
  }
  for (std::thread& w : workers) w.join();
  BOOST_TEST(whole_lines);
  const std::string parsed = parse_exposition(r.render());
  const std::vector<std::string> lines{
      "counter baton_events_total{thread=0} " + std::to_string(2 * each) + "\n",
      "counter baton_events_total{thread=1} " + std::to_string(2 * each) + "\n", "gauge baton_busy{} 0\n",
      "histogram baton_wait_seconds_count{} " + std::to_string(threads * each) + "\n",
      "histogram baton_wait_seconds_bucket{le=1} " + std::to_string(threads * each) + "\n"};
  for (const std::string& expected : lines) {
    BOOST_TEST(parsed.find(expected) != std::string::npos, "missing " << expected << "in\n" << parsed);
  }
}

BOOST_AUTO_TEST_SUITE_END()

// The text format, read back by the Prometheus project's own parser (an independent
// implementation of the format), and the registry's refusals.
#include "metrics/registry.h"
#include "tests/metrics/exposition_check.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

using baton::metrics::Registry;
using baton::metrics::Type;
using baton::test::parse_exposition;

BOOST_AUTO_TEST_SUITE(registry)

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

  const std::string parsed = parse_exposition(r.render());
  BOOST_TEST(parsed.find("error") == std::string::npos, parsed);
  for (const char* expected : {
           "counter baton_bytes_total{direction=sent} 1024\n",
           "counter baton_bytes_total{direction=received} 5e+12\n",
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

BOOST_AUTO_TEST_CASE(label_values_and_help_text_are_escaped) {
  Registry r;
  r.declare("baton_errors_total", Type::counter, "Errors, with a back\\slash\nand a new line.");
  r.add("baton_errors_total", {{"error", "peer said \"no\"\\nothing\nmore"}});
  const std::string text = r.render();
  BOOST_TEST(text.find("# HELP baton_errors_total Errors, with a back\\\\slash\\nand a new line.\n") != std::string::npos, text);
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
  BOOST_TEST(text.find("baton_odd{v=\"nan\"} NaN\n") != std::string::npos, text);
  BOOST_TEST(parse_exposition(text).find("error") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_declarations_and_misuse_are_refused) {
  Registry r;
  BOOST_CHECK_THROW(r.declare("9starts_with_digit", Type::gauge, ""), std::invalid_argument);
  BOOST_CHECK_THROW(r.declare("has-dash", Type::gauge, ""), std::invalid_argument);
  BOOST_CHECK_THROW(r.declare("baton_bytes", Type::counter, ""), std::invalid_argument);  // no _total
  BOOST_CHECK_THROW(r.declare("baton_h", Type::histogram, "", {}), std::invalid_argument);
  BOOST_CHECK_THROW(r.declare("baton_h", Type::histogram, "", {1, 0.5}), std::invalid_argument);
  r.declare("baton_x_total", Type::counter, "x");
  BOOST_CHECK_THROW(r.declare("baton_x_total", Type::counter, "again"), std::invalid_argument);
  BOOST_CHECK_THROW(r.add("baton_x_total", {}, -1), std::logic_error);
  BOOST_CHECK_THROW(r.add("baton_unknown_total"), std::logic_error);
  BOOST_CHECK_THROW(r.set("baton_x_total", {}, 1), std::logic_error);  // not a gauge
}

BOOST_AUTO_TEST_CASE(a_declared_family_without_samples_still_parses) {
  Registry r;
  r.declare("baton_steps_total", Type::counter, "Steps.");
  const std::string text = r.render();
  BOOST_TEST(text == "# HELP baton_steps_total Steps.\n# TYPE baton_steps_total counter\n");
  BOOST_TEST(parse_exposition(text).find("error") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

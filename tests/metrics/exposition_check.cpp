#include "tests/metrics/exposition_check.h"

#include "tests/support/run_process.h"
#include "tests/support/tools.h"

#include <boost/test/unit_test.hpp>

namespace baton::test {

PromtoolResult promtool_check(const std::string& text) {
  const auto result = run_process({tool_path("promtool"), "check", "metrics"}, text);
  // Exit 0: clean; 3: lint problems; 1: the text does not parse.
  return {.ok = result.exit_code == 0, .problems = result.err + result.out};
}

void check_with_promtool(const std::string& text) {
  const PromtoolResult checked = promtool_check(text);
  BOOST_TEST(checked.ok, "promtool check metrics: " << checked.problems << "on\n" << text);
}

std::string parse_exposition(const std::string& text) {
  static const char* script = R"(
import sys
from prometheus_client.parser import text_string_to_metric_families
try:
    for family in text_string_to_metric_families(sys.stdin.read()):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            value = repr(s.value).removesuffix(".0")  # shortest exact: 1024, 5000000000000, 22.65
            print(f"{family.type} {s.name}{{{labels}}} {value}")
except Exception as e:
    print(f"error: {e}")
)";
  // Debian's python3, the one with python3-prometheus-client (scripts/setup.sh), whatever
  // python3 comes first on PATH.
  const auto result = run_process({"/usr/bin/python3", "-c", script}, text);
  if (result.exit_code != 0) return "error: python3 failed: " + result.err;
  return result.out;
}

}  // namespace baton::test

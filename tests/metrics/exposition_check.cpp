#include "tests/metrics/exposition_check.h"

#include "tests/support/run_process.h"

namespace baton::test {

std::string parse_exposition(const std::string& text) {
  static const char* script = R"(
import sys
from prometheus_client.parser import text_string_to_metric_families
try:
    for family in text_string_to_metric_families(sys.stdin.read()):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            print(f"{family.type} {s.name}{{{labels}}} {s.value:g}")
except Exception as e:
    print(f"error: {e}")
)";
  const auto result = run_process({"/usr/bin/python3", "-c", script}, text);
  if (result.exit_code != 0) return "error: python3 failed: " + result.err;
  return result.out;
}

}  // namespace baton::test

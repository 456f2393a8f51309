// Two independent readers of an exposition, both from the Prometheus project:
// - promtool (Debian's prometheus package), the validator: `promtool check metrics` parses
//   the text with Prometheus' own Go parser and lints it (HELP present, counters end in
//   _total, base units, ...);
// - the official Python client's parser (python3-prometheus-client), which gives the
//   values back, so tests compare what was recorded with what a scraper reads.
// Both run as separate processes.
#pragma once

#include <string>

namespace baton::test {

// Both from PATH (tests/support/tools.h): CMake's NEEDS skips a test without them.
struct PromtoolResult {
  bool ok = false;       // parsed, and no lint problem
  std::string problems;  // promtool's complaints
};

PromtoolResult promtool_check(const std::string& text);

// Boost.Test check that promtool accepts `text`.
void check_with_promtool(const std::string& text);

// One line per sample, "type name{label=value,...} value" with labels sorted and the value
// exact (Python's shortest repr, without a trailing ".0"), or "error: ...".
std::string parse_exposition(const std::string& text);

}  // namespace baton::test

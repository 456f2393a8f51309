// Shared by the `batonctl plan` targets: an input is an optional first line naming the
// algorithm (one of the problem's --algo values; CLI11 refuses any other before planning,
// so the target skips it), then the JSON document, both as batonctl reads them
// (coordinator/batonctl/plan_command.cpp). InputError is the documented outcome of bad
// input; any other exception, including a plan that fails its own validation, is a finding.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "coordinator/batonctl/plan_problems.h"
#include "coordinator/json/input.h"

namespace baton::fuzz {

inline void plan_from_input(const batonctl::PlanProblem& problem, const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string algorithm = problem.default_algorithm;
  if (const auto newline = text.find('\n'); newline != std::string_view::npos && !text.starts_with('{')) {
    algorithm = text.substr(0, newline);
    text.remove_prefix(newline + 1);
  }
  if (std::find(problem.algorithms.begin(), problem.algorithms.end(), algorithm) == problem.algorithms.end()) return;
  try {
    (void)problem.plan(json::parse_document(text), algorithm, 1);
  } catch (const json::InputError&) {
  }
}

}  // namespace baton::fuzz

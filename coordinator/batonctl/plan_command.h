// `batonctl plan PROBLEM FILE [--algo NAME]`: the offline face of the schedulers.
// The contract of every problem's input and output is docs/formats.md.
#pragma once

#include "coordinator/json/input.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace baton::batonctl {

// One problem `batonctl plan` can solve. `plan` reads the parsed input document and returns
// the output document; it throws InputError for bad input.
struct PlanProblem {
  std::string name;                     // the subcommand: "redistribution"
  std::string summary;                  // one line for `batonctl plan --help`
  std::string details;                  // input format and examples, shown by --help
  std::vector<std::string> algorithms;  // accepted --algo values
  std::string default_algorithm;
  bool takes_seed = false;  // accepts --seed N
  std::function<json::Json(const json::Json& input, const std::string& algorithm, std::uint64_t seed)> plan;
};

// The problems batonctl knows, in the order `--help` lists them.
std::vector<PlanProblem> plan_problems();

// Runs one planning request: reads FILE ("-" = stdin), plans, prints the JSON document on
// `out`. Returns the process exit code: 0, or 2 with one line on `err` for bad input.
int run_plan(const PlanProblem& problem, const std::string& file, const std::string& algorithm, std::uint64_t seed,
             std::ostream& out, std::ostream& err);

// Adds `plan` and its per-problem subcommands to the application. The exit code of the
// command that ran is written to *exit_code.
void add_plan_command(CLI::App& app, int* exit_code);

}  // namespace baton::batonctl

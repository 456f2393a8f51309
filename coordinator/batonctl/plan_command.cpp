#include "coordinator/batonctl/plan_command.h"

#include "cli/command_line.h"
#include "coordinator/batonctl/plan_problems.h"

#include <exception>
#include <iostream>
#include <memory>
#include <ostream>

namespace baton::batonctl {

using json::InputError;
using json::Json;
using json::parse_document;
using json::read_input;

std::vector<PlanProblem> plan_problems() {
  return {redistribution_plan_problem(), reduction_plan_problem(), allreduce_plan_problem(), multicast_plan_problem(),
          buffered_multicast_plan_problem()};
}

int run_plan(const PlanProblem& problem, const std::string& file, const std::string& algorithm, std::uint64_t seed,
             std::ostream& out, std::ostream& err) {
  Json result;
  try {
    const Json input = parse_document(read_input(file));
    result = problem.plan(input, algorithm, seed);
  } catch (const InputError& e) {
    err << "batonctl plan " << problem.name << ": " << e.what() << '\n';
    return 2;
  }
  out << result.dump(1) << '\n';
  return 0;
}

void add_plan_command(CLI::App& app, int* exit_code) {
  CLI::App* plan =
      app.add_subcommand("plan", "Compute a schedule offline: read a problem as JSON, print the plan as JSON");
  plan->require_subcommand(1);
  plan->footer(
      "FILE is a path, or - for standard input. Exit status: 0 on success, 2 for bad input\n"
      "(one line on stderr names the field), 1 for an internal error.\n"
      "The formats are a stable contract, described in docs/formats.md.");
  for (PlanProblem& p : plan_problems()) {
    auto problem = std::make_shared<PlanProblem>(std::move(p));
    CLI::App* sub = plan->add_subcommand(problem->name, problem->summary);
    sub->footer(problem->details +  // ends with examples
                "\nExit status: 0 success; 2 bad input (one line on stderr names the field); 1 internal error.");
    auto file = std::make_shared<std::string>();
    auto algorithm = std::make_shared<std::string>(problem->default_algorithm);
    auto seed = std::make_shared<std::uint64_t>(1);
    sub->add_option("FILE", *file, "problem as JSON (- for stdin)")->required();
    sub->add_option("--algo", *algorithm, "algorithm")->check(cli::one_of(problem->algorithms))->capture_default_str();
    if (problem->takes_seed) {
      sub->add_option("--seed", *seed, "seed for the algorithm's random choices")
          ->check(CLI::NonNegativeNumber)  // CLI11 would wrap -1 to 2^64 - 1
          ->capture_default_str();
    }
    sub->callback([=] { *exit_code = run_plan(*problem, *file, *algorithm, *seed, std::cout, std::cerr); });
  }
}

}  // namespace baton::batonctl

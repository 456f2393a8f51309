// batonctl: the operators' command line for Baton.
#include "cli/command_line.h"
#include "coordinator/batonctl/calibrate_command.h"
#include "coordinator/batonctl/completion.h"
#include "coordinator/batonctl/job_commands.h"
#include "coordinator/batonctl/plan_command.h"

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{"batonctl: plan and drive data movement between cluster nodes"};
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  batonctl plan redistribution problem.json            # OGGP schedule as JSON\n"
      "  batonctl plan redistribution - --algo ggp < p.json   # read the problem from stdin\n"
      "  batonctl submit job.json --algo ggp --wait            # run a job, print its report\n"
      "  batonctl jobs --coordinator http://10.0.0.1:7070\n"
      "  batonctl report 7 --svg gantt.svg                    # plan against measured, per node\n"
      "  batonctl calibrate --senders s1,s2 --receivers r1,r2  # measure d, D, beta and k\n"
      "  source <(batonctl completion bash)                   # tab completion in bash\n"
      "Every command has --help with its own examples. Output: -o table (default) or -o json.\n"
      "Coordinator: --coordinator URL, else env BATON_COORDINATOR, else http://127.0.0.1:7070;\n"
      "token: read from --token-file FILE, else the token itself from env BATON_API_TOKEN.\n"
      "See docs/batonctl.md.\n"
      "Exit status: 0 success; 1 the job failed or was cancelled, the coordinator answered\n"
      "an error, or an internal error; 2 bad input or usage; 3 cannot reach the coordinator.");
  baton::cli::add_version_flag(app, "batonctl");
  int exit_code = 0;
  baton::batonctl::add_plan_command(app, &exit_code);
  baton::batonctl::add_job_commands(app, &exit_code);
  baton::batonctl::add_calibrate_commands(app, &exit_code);
  baton::batonctl::add_completion_command(app, &exit_code);
  try {
    if (const auto status = baton::cli::parse_command_line(app, "batonctl", argc, argv, std::cout, std::cerr)) {
      return *status;
    }
  } catch (const std::exception& e) {
    std::cerr << "batonctl: internal error: " << e.what() << '\n';
    return 1;
  }
  return exit_code;
}

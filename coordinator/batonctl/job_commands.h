// The commands that talk to a running coordinator: submit, status, jobs, agents, cancel,
// watch, report (tables, JSON, or the Gantt chart as SVG). Exit codes: 0 ok, 1 job
// failed/cancelled or the server answered an error, 2 bad input or usage, 3 the
// coordinator cannot be reached.
#pragma once

#include <CLI/CLI.hpp>

namespace baton::batonctl {

// Adds the job subcommands to the application; the exit code of the command that ran is
// written to *exit_code.
void add_job_commands(CLI::App& app, int* exit_code);

}  // namespace baton::batonctl

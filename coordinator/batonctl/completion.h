// `batonctl completion bash`: a bash completion script generated from the command tree
// itself (subcommands, options, positionals), so it never lags behind the CLI. Values it
// completes: -o/--output (table, json), --algo (the command's algorithms), file names for
// JOB, FILE, --token-file and --svg, and job ids for ID (from `batonctl jobs`, asking the
// coordinator given on the command line or in the environment, for at most 2 s).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace baton::batonctl {

// The script for the command tree `app`; defines _batonctl and registers it for batonctl.
std::string bash_completion(const CLI::App& app);

// Adds `completion SHELL`; it prints the script for the whole application `app`.
void add_completion_command(CLI::App& app, int* exit_code);

}  // namespace baton::batonctl

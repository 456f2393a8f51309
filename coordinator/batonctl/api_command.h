// What every batonctl subcommand that talks to the coordinator's API shares: its options
// (--coordinator, --token-file, --output), the client they make, and one exit code per
// kind of error (docs/batonctl.md: 1 the coordinator said no, 2 bad input or usage, 3 the
// coordinator cannot be reached).
#pragma once

#include "coordinator/batonctl/api_client.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace baton::batonctl {

struct ApiOptions {
  std::string coordinator;  // default: env BATON_COORDINATOR, else http://127.0.0.1:7070
  std::string token_file;   // without it: env BATON_API_TOKEN
  std::string output = "table";
};

// Adds --coordinator and --token-file to `sub`, and --output (table or json) when `output`.
// `options` must outlive the parse (the subcommands keep theirs in a shared_ptr).
void add_api_options(CLI::App* sub, ApiOptions& options, bool output = true);

// The client for `options`: the token read from its file (trailing newline and spaces
// dropped; an empty file is an InputError) or taken from the environment.
ApiClient client_of(const ApiOptions& options);

// Runs a command body, mapping the typed errors to one stderr line and an exit code.
int guarded(const std::function<int()>& body);

}  // namespace baton::batonctl

#include "coordinator/batonctl/api_command.h"

#include "cli/command_line.h"
#include "coordinator/json/input.h"

#include <cstdlib>
#include <iostream>

namespace baton::batonctl {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : fallback;
}

}  // namespace

void add_api_options(CLI::App* sub, ApiOptions& options, bool output) {
  options.coordinator = env_or("BATON_COORDINATOR", "http://127.0.0.1:7070");
  sub->add_option("--coordinator", options.coordinator,
                  "coordinator API URL, or several comma-separated: the one that answers (env BATON_COORDINATOR)")
      ->capture_default_str();
  sub->add_option("--token-file", options.token_file,
                  "file holding the API token; without it, the token itself from env BATON_API_TOKEN");
  if (output) {
    sub->add_option("--output,-o", options.output, "table or json")
        ->check(cli::one_of({"table", "json"}))
        ->capture_default_str();
  }
}

ApiClient client_of(const ApiOptions& options) {
  std::string token;
  if (!options.token_file.empty()) {
    token = json::read_input(options.token_file);
    while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' ')) token.pop_back();
    if (token.empty()) throw json::InputError(options.token_file + ": the token file is empty");
  } else {
    token = env_or("BATON_API_TOKEN", "");
  }
  return ApiClient(options.coordinator, token);
}

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const json::InputError& e) {
    std::cerr << "batonctl: " << e.what() << '\n';
    return 2;
  } catch (const ApiError& e) {
    std::cerr << "batonctl: " << e.what() << '\n';
    return 1;
  } catch (const ConnectionError& e) {
    std::cerr << "batonctl: " << e.what() << '\n';
    return 3;
  }
}

}  // namespace baton::batonctl

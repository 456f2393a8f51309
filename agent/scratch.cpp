#include "agent/scratch.h"

#include <algorithm>

namespace baton::agent {

std::optional<error::Refusal> check_scratch_name(std::string_view name) {
  const std::string_view rest = name.substr(std::min(name.size(), scratch_prefix.size()));
  if (!is_scratch(name) || rest.empty() || rest.size() > max_scratch_name || rest.front() == '.' ||
      !std::all_of(rest.begin(), rest.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
               c == '-';
      })) {
    return "scratch name '" + std::string(name.substr(0, 200)) + "' is not scratch: and 1 to " +
           std::to_string(max_scratch_name) + " of A-Z a-z 0-9 . _ - (not starting with .)";
  }
  return {};
}

}  // namespace baton::agent

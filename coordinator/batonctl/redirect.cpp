#include "coordinator/batonctl/redirect.h"

#include "coordinator/json/input.h"
#include "error/error.h"

#include <string_view>

namespace baton::batonctl {

Redirect parse_redirect(const std::string& location) {
  constexpr std::string_view scheme = "http://";
  const std::size_t slash = location.find('/', scheme.size());
  if (!location.starts_with(scheme) || slash == std::string::npos) {
    throw error::InvalidInput("a redirect to '" + location + "', not an http:// URL with a path");
  }
  Redirect redirect{.coordinator = {}, .target = location.substr(slash)};
  try {
    redirect.coordinator = parse_coordinator_url(location.substr(0, slash));
  } catch (const json::InputError& e) {
    throw error::InvalidInput("a redirect to '" + location + "': " + e.what());
  }
  return redirect;
}

}  // namespace baton::batonctl

#include "coordinator/batonctl/redirect.h"

#include "coordinator/json/input.h"

#include <stdexcept>
#include <string_view>

namespace baton::batonctl {

Redirect parse_redirect(const std::string& location) {
  constexpr std::string_view scheme = "http://";
  const std::size_t slash = location.find('/', scheme.size());
  if (!location.starts_with(scheme) || slash == std::string::npos) {
    throw std::invalid_argument("a redirect to '" + location + "', not an http:// URL with a path");
  }
  Redirect redirect{.coordinator = {}, .target = location.substr(slash)};
  try {
    redirect.coordinator = parse_coordinator_url(location.substr(0, slash));
  } catch (const json::InputError& e) {
    throw std::invalid_argument("a redirect to '" + location + "': " + e.what());
  }
  return redirect;
}

}  // namespace baton::batonctl

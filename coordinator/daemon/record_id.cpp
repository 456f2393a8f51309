#include "coordinator/daemon/record_id.h"

#include <charconv>

namespace baton::coordinator {

std::optional<std::uint64_t> parse_record_id(std::string_view text) {
  if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;  // from_chars takes no sign
  std::uint64_t id = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return id;
}

}  // namespace baton::coordinator

#include "security/sequence_mac.h"

#include "error/error.h"

#include <array>

namespace baton::security {

Mac SequenceMac::next(std::string_view message, std::string_view more) {
  if (sequence_ == UINT64_MAX) throw error::Bug("an authenticated session ran out of sequence numbers");
  std::array<char, 8> number{};
  for (std::size_t i = 0; i < number.size(); ++i) number[i] = static_cast<char>(sequence_ >> (56 - 8 * i));
  ++sequence_;
  return context_.compute({std::string_view(number.data(), number.size()), message, more});
}

}  // namespace baton::security

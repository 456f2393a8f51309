// Byte ranges a plan claims, for the plan checks (agent/plan_check.h): which chunk or task
// wrote [begin, end) of an object, and which claims a range overlaps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace baton::agent {

// A byte range [begin, end) and who claimed it: a chunk of a lockstep step, or a task of
// a dataflow step (both numbered within their step).
struct Claim {
  std::uint64_t begin;
  std::uint64_t end;
  std::uint32_t step;
  std::size_t who;
};

// Disjoint claims on one object (or one step's stream).
class Ranges {
 public:
  // Records `claim` unless it overlaps one already recorded: then returns that one.
  std::optional<Claim> claim(const Claim& claim) {
    auto next = claims_.lower_bound(claim.begin);
    if (next != claims_.end() && next->second.begin < claim.end) return next->second;
    if (next != claims_.begin()) {
      auto previous = std::prev(next);
      if (previous->second.end > claim.begin) return previous->second;
    }
    claims_.emplace(claim.begin, claim);
    return std::nullopt;
  }

  // The recorded claims overlapping [begin, end), in order.
  std::vector<Claim> overlapping(std::uint64_t begin, std::uint64_t end) const {
    std::vector<Claim> found;
    auto at = claims_.lower_bound(begin);
    if (at != claims_.begin() && std::prev(at)->second.end > begin) --at;
    for (; at != claims_.end() && at->second.begin < end; ++at) found.push_back(at->second);
    return found;
  }

  // The end of the furthest claim (0 when there is none).
  std::uint64_t extent() const { return claims_.empty() ? 0 : claims_.rbegin()->second.end; }

 private:
  std::map<std::uint64_t, Claim> claims_;
};

inline bool overflows(std::uint64_t offset, std::uint64_t length) {
  return offset > std::numeric_limits<std::uint64_t>::max() - length;
}

// "[begin, end)".
// Appended piece by piece: GCC 12's "literal" + std::string&& at -O3 warns -Wrestrict
// (a false positive, GCC bug 105329).
inline std::string range_text(std::uint64_t begin, std::uint64_t length) {
  std::string text = "[";
  text += std::to_string(begin);
  text += ", ";
  text += std::to_string(begin + length);
  text += ")";
  return text;
}

}  // namespace baton::agent

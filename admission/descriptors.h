// Open-file descriptors, which every connection costs (docs/security.md, "Before
// authentication"): the daemons raise their soft limit to the hard one at start, and an
// accept loop that finds descriptors exhausted waits a moment instead of spinning.
#pragma once

#include "error/refusal.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <system_error>

namespace baton::admission {

struct DescriptorLimit {
  std::uint64_t soft = 0;  // in force now
  std::uint64_t hard = 0;
  std::optional<error::Refusal> not_raised;  // why it could not be raised (nothing when it was, or already was)
};

// Raises the soft RLIMIT_NOFILE to the hard limit (an unlimited hard limit: to the
// kernel's fs.nr_open) and says what is in force.
DescriptorLimit raise_descriptor_limit();

// The soft RLIMIT_NOFILE now in force.
std::uint64_t descriptor_limit();

// Whether an accept failed for want of descriptors or kernel memory (EMFILE, ENFILE,
// ENOBUFS, ENOMEM): the pending connection stays in the kernel's queue, so accepting
// again at once would fail again at once.
bool descriptors_exhausted(std::error_code error);

// How long an accept loop waits after such a failure before it accepts again: short
// enough that a legitimate peer barely notices, long enough that the loop costs nothing.
inline constexpr std::chrono::milliseconds accept_backoff{100};

}  // namespace baton::admission

// The 1-port rule shared by both validators: no node in two overlapping transfers.
#pragma once

#include "coordinator/schedule/reduction/schedule.h"
#include "error/refusal.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace baton::schedule::reduction {

// Transfers that only touch ([a, b) then [b, c)) do not overlap; `tolerance` absorbs
// rounding in times read back from JSON. Returns a description of the first node found in
// two overlapping transfers. src and dst must be < node_count.
std::optional<error::Refusal> find_port_conflict(std::size_t node_count, std::span<const Transfer> transfers,
                                                 double tolerance);

}  // namespace baton::schedule::reduction

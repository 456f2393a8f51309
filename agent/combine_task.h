// A combine task of a dataflow step (docs/collectives.md, "Tasks"): output = inputs[0] ⊕
// inputs[1] ⊕ …, element by element, folded left in the plan's order (so a floating-point
// result is the same bits in every run of the plan), chunk by chunk through two buffers:
// one accumulates, the next input is read into the other. Synchronous: the step runner
// calls it on its worker thread, never on the io thread.
#pragma once

#include "error/refusal.h"
#include "protocol/baton.pb.h"
#include "transport/source.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace baton::agent {

// The two buffers of a combine, each `bytes` (rounded down to 8) long and aligned for
// every dtype: the fixed memory a node's combines take beside its pool.
class CombineBuffers {
 public:
  explicit CombineBuffers(std::size_t bytes) : words_(2 * (bytes / 8)) {}
  std::size_t size() const noexcept { return words_.size() / 2 * 8; }
  std::span<std::byte> accumulator() { return std::as_writable_bytes(std::span(words_)).first(size()); }
  std::span<std::byte> input() { return std::as_writable_bytes(std::span(words_)).subspan(size(), size()); }

 private:
  std::vector<std::uint64_t> words_;
};

// Runs `combine` (checked by the plan check) reading each input region from `inputs` (one
// source per input, in order) and writing the output region into `output`. Returns nothing
// or what failed, naming the region; stops between chunks once `cancelled` is set.
std::optional<error::Refusal> run_combine(const protocol::Combine& combine,
                                          const std::vector<const transport::Source*>& inputs, transport::Sink& output,
                                          CombineBuffers& buffers, const std::atomic<bool>& cancelled);

}  // namespace baton::agent

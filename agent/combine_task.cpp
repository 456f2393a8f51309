#include "agent/combine_task.h"

#include "combine/kernels.h"

#include <algorithm>

namespace baton::agent {
namespace {

std::string region_text(const protocol::Region& r, std::uint64_t at, std::uint64_t length) {
  return r.object() + " [" + std::to_string(r.offset() + at) + ", " + std::to_string(r.offset() + at + length) + ")";
}

}  // namespace

std::optional<error::Refusal> run_combine(const protocol::Combine& combine,
                                          const std::vector<const transport::Source*>& inputs, transport::Sink& output,
                                          CombineBuffers& buffers, const std::atomic<bool>& cancelled) {
  const auto dtype = combine::dtype_from_number(combine.dtype());
  const auto op = combine::op_from_number(combine.op());
  if (!dtype || !op || inputs.size() != static_cast<std::size_t>(combine.inputs_size()) || inputs.size() < 2)
    return "a combine the plan check should have refused";
  const std::uint64_t length = combine.output().length();
  const std::size_t chunk = buffers.size() - buffers.size() % combine::element_size(*dtype);
  for (std::uint64_t at = 0; at < length; at += chunk) {
    if (cancelled.load(std::memory_order_relaxed)) return "cancelled";
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, length - at));
    const std::span<std::byte> sum = buffers.accumulator().first(n), next = buffers.input().first(n);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const protocol::Region& in = combine.inputs(static_cast<int>(i));
      if (const std::error_code error = inputs[i]->read(in.offset() + at, i == 0 ? sum : next))
        return "reading " + region_text(in, at, n) + ": " + error.message();
      try {
        if (i > 0) combine::apply(*dtype, *op, sum, sum, next);  // ((in0 ⊕ in1) ⊕ in2) ⊕ …
      } catch (const std::exception& e) {
        return e.what();
      }
    }
    if (const std::error_code error = output.write(combine.output().offset() + at, sum))
      return "writing " + region_text(combine.output(), at, n) + ": " + error.message();
  }
  return std::nullopt;
}

}  // namespace baton::agent

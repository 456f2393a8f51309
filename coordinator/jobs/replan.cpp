#include "coordinator/jobs/replan.h"

#include "error/error.h"

#include <algorithm>
#include <utility>

namespace baton::jobs {
namespace {

// [begin, end) positions within a transfer.
using Range = std::pair<std::uint64_t, std::uint64_t>;

// The ranges each transfer's chunks cover in steps [first, last) of `plan`, by transfer.
std::vector<std::vector<Range>> covered(const CompiledPlan& plan, std::size_t first, std::size_t last,
                                        const std::vector<TransferSpec>& transfers) {
  std::vector<std::vector<Range>> out(transfers.size());
  for (std::size_t s = first; s < last; ++s) {
    for (const Flow& flow : plan.steps[s].flows) {
      for (const Chunk& c : flow.chunks) {
        const std::uint64_t at = c.src_offset - transfers.at(c.transfer).src_offset;
        out[c.transfer].emplace_back(at, at + c.length);
      }
    }
  }
  for (auto& ranges : out) std::ranges::sort(ranges);
  return out;
}

}  // namespace

RemainingTraffic remaining_traffic(const CompiledPlan& plan, std::size_t done,
                                   const std::vector<TransferSpec>& transfers) {
  if (done > plan.steps.size()) {
    throw error::InvalidInput("re-plan after step " + std::to_string(done) + " of a plan of " +
                              std::to_string(plan.steps.size()) + " steps");
  }
  RemainingTraffic out;
  const auto moved = covered(plan, 0, done, transfers);
  for (std::size_t t = 0; t < transfers.size(); ++t) {
    std::uint64_t next = 0;  // the first position not known to be moved
    const auto keep = [&](std::uint64_t begin, std::uint64_t end) {
      if (begin >= end) return;
      TransferSpec piece = transfers[t];
      piece.src_offset += begin;
      piece.dst_offset += begin;
      piece.length = end - begin;
      out.transfers.push_back(std::move(piece));
      out.origin.push_back(t);
    };
    for (const auto& [begin, end] : moved[t]) {
      keep(next, begin);
      next = std::max(next, end);
    }
    keep(next, transfers[t].length);
  }
  return out;
}

CompiledPlan replan(const CompiledPlan& plan, std::size_t done, const Clusters& clusters,
                    const std::vector<TransferSpec>& transfers, const schedule::kpbs::Platform& platform,
                    schedule::kpbs::Algorithm algorithm) {
  const RemainingTraffic rest = remaining_traffic(plan, done, transfers);
  if (rest.transfers.empty())
    throw error::InvalidInput("nothing remains to re-plan after step " + std::to_string(done));
  CompiledPlan fresh = compile_plan(clusters, rest.transfers, platform, algorithm);
  CompiledPlan out = fresh;
  out.steps.assign(plan.steps.begin(), plan.steps.begin() + static_cast<std::ptrdiff_t>(done));
  double done_seconds = 0;
  for (const StepPlan& s : out.steps) done_seconds += s.predicted_seconds;
  for (StepPlan& step : fresh.steps) {
    for (Flow& flow : step.flows) {
      for (Chunk& c : flow.chunks) c.transfer = rest.origin.at(c.transfer);
    }
    out.steps.push_back(std::move(step));
  }
  out.predicted_seconds = done_seconds + fresh.predicted_seconds;
  out.lower_bound_seconds = done_seconds + fresh.lower_bound_seconds.value_or(0);  // compile_plan always sets it
  out.model_seconds = out.predicted_seconds;  // a redistribution's model time is its prediction
  if (const std::optional<error::Refusal> wrong = check_moves_every_byte_once(out, clusters, transfers))
    throw error::Bug("re-plan: " + wrong->reason);
  return out;
}

std::optional<error::Refusal> check_moves_every_byte_once(const CompiledPlan& plan, const Clusters& clusters,
                                                          const std::vector<TransferSpec>& transfers) {
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    for (const Flow& flow : plan.steps[s].flows) {
      for (const Chunk& c : flow.chunks) {
        const std::string where = "step " + std::to_string(s) + ", transfer " + std::to_string(c.transfer) + ": ";
        if (c.transfer >= transfers.size()) return where + "no such transfer";
        const TransferSpec& t = transfers[c.transfer];
        if (clusters.senders.at(flow.sender) != t.src_node || clusters.receivers.at(flow.receiver) != t.dst_node)
          return where + "a chunk in a flow between other nodes";
        if (c.length == 0 || c.src_offset < t.src_offset || c.dst_offset < t.dst_offset ||
            c.src_offset - t.src_offset != c.dst_offset - t.dst_offset || c.length > t.length ||
            c.src_offset - t.src_offset > t.length - c.length)
          return where + "a chunk outside the transfer, or not at the same place at both ends";
      }
    }
  }
  const auto moved = covered(plan, 0, plan.steps.size(), transfers);
  for (std::size_t t = 0; t < transfers.size(); ++t) {
    std::uint64_t next = 0;
    for (const auto& [begin, end] : moved[t]) {
      if (begin < next)
        return "transfer " + std::to_string(t) + ": bytes from " + std::to_string(begin) + " moved twice";
      if (begin > next)
        return "transfer " + std::to_string(t) + ": bytes from " + std::to_string(next) + " never moved";
      next = end;
    }
    if (next != transfers[t].length)
      return "transfer " + std::to_string(t) + ": bytes from " + std::to_string(next) + " never moved";
  }
  return std::nullopt;
}

}  // namespace baton::jobs

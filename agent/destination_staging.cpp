#include "agent/destination_staging.h"

#include <algorithm>

namespace baton::agent {

ByteRanges written_ranges(const protocol::Plan& plan, const std::string& staging) {
  ByteRanges ranges;
  const auto received = [&](const protocol::Flow& flow) {
    if (flow.send()) return;
    for (const protocol::Chunk& chunk : flow.chunks()) {
      if (chunk.dst_file() == staging) ranges.emplace_back(chunk.dst_offset(), chunk.dst_offset() + chunk.length());
    }
  };
  for (const protocol::Step& step : plan.steps()) {
    for (const protocol::Flow& flow : step.flows()) received(flow);
    for (const protocol::Task& task : step.tasks()) {
      if (task.has_flow()) received(task.flow());
      const protocol::Region& out = task.combine().output();
      if (task.has_combine() && out.object() == staging) ranges.emplace_back(out.offset(), out.offset() + out.length());
    }
  }
  std::sort(ranges.begin(), ranges.end());
  ByteRanges merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, r.second);
    else merged.push_back(r);
  }
  return merged;
}

}  // namespace baton::agent

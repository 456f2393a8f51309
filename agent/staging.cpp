#include "agent/staging.h"

#include <algorithm>

namespace baton::agent {

ByteRanges written_ranges(const protocol::Plan& plan, const std::string& staging) {
  ByteRanges ranges;
  for (const protocol::Step& step : plan.steps()) {
    for (const protocol::Flow& flow : step.flows()) {
      if (flow.send()) continue;
      for (const protocol::Chunk& chunk : flow.chunks()) {
        if (chunk.dst_file() == staging) ranges.emplace_back(chunk.dst_offset(), chunk.dst_offset() + chunk.length());
      }
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

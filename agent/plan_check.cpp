#include "agent/plan_check.h"

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <system_error>

namespace baton::agent {
namespace {

using std::to_string;

// A byte range [begin, end) and the chunk that claimed it.
struct Claim {
  std::uint64_t end;
  std::uint32_t step;
  std::size_t chunk;
};

// Ranges claimed so far; returns the claim overlapping [begin, end), if any, else records it.
class Ranges {
 public:
  std::optional<Claim> claim(std::uint64_t begin, const Claim& claim) {
    auto next = claims_.lower_bound(begin);
    if (next != claims_.end() && next->first < claim.end) return next->second;
    if (next != claims_.begin()) {
      auto previous = std::prev(next);
      if (previous->second.end > begin) return previous->second;
    }
    claims_.emplace(begin, claim);
    return std::nullopt;
  }

 private:
  std::map<std::uint64_t, Claim> claims_;
};

bool overflows(std::uint64_t offset, std::uint64_t length) {
  return offset > std::numeric_limits<std::uint64_t>::max() - length;
}

// Appended piece by piece: GCC 12's "literal" + std::string&& at -O3 warns -Wrestrict
// (a false positive, GCC bug 105329).
std::string range(std::uint64_t begin, std::uint64_t length) {
  std::string text = "[";
  text += to_string(begin);
  text += ", ";
  text += to_string(begin + length);
  text += ")";
  return text;
}

// Checks one chunk; "" or the problem without its step/chunk prefix.
std::string check_chunk(const protocol::Chunk& c, bool send, const PlanObjects& objects,
                        std::map<std::string, std::uint64_t>& sizes, std::map<std::string, std::uint64_t>& limits) {
  if (c.length() == 0) return "length is 0";
  if (overflows(c.src_offset(), c.length())) return "source offset + length overflows 2^64";
  if (overflows(c.dst_offset(), c.length())) return "destination offset + length overflows 2^64";
  if (overflows(c.stream_offset(), c.length())) return "stream offset + length overflows 2^64";
  // Both names are checked: neither may be valid anywhere if it escapes.
  if (auto error = objects.check_name(c.src_file()); !error.empty()) return "source: " + error;
  if (auto error = objects.check_name(c.dst_file()); !error.empty()) return "destination: " + error;
  if (!send) {
    auto limit = limits.find(c.dst_file());
    if (limit == limits.end()) {
      try {
        limit = limits.emplace(c.dst_file(), objects.destination_limit(c.dst_file())).first;
      } catch (const std::exception& e) {
        return std::string("destination unusable: ") + e.what();
      }
    }
    if (c.dst_offset() + c.length() > limit->second)
      return "destination range " + range(c.dst_offset(), c.length()) + " is outside " + c.dst_file() + " (" +
             to_string(limit->second) + " bytes)";
    return {};
  }
  auto size = sizes.find(c.src_file());
  if (size == sizes.end()) {
    try {
      size = sizes.emplace(c.src_file(), objects.source_size(c.src_file())).first;
    } catch (const std::exception& e) {
      return std::string("source unusable: ") + e.what();
    }
  }
  if (c.src_offset() + c.length() > size->second)
    return "source range " + range(c.src_offset(), c.length()) + " is outside " + c.src_file() + " (" +
           to_string(size->second) + " bytes)";
  return {};
}

}  // namespace

PlanObjects data_root_objects(const DataRoot& root) {
  return PlanObjects{
      .check_name = [](const std::string& name) { return check_name(name); },
      .source_size = [&root](const std::string& name) { return root.file_size(name); },
      // A destination may be missing (it is created), but one that exists must be a
      // regular file: a FIFO would hang the step.
      .destination_limit =
          [&root](const std::string& name) {
            root.check_destination(name);
            return std::numeric_limits<std::uint64_t>::max();
          },
  };
}

std::string check_plan(const protocol::Plan& plan, const DataRoot& root) {
  return check_plan(plan, data_root_objects(root));
}

std::string check_plan(const protocol::Plan& plan, const PlanObjects& objects) {
  if (plan.job().empty()) return "plan has no job id";
  if (plan.k() < 1) return "plan's k is " + to_string(plan.k()) + ", must be at least 1";

  std::map<std::string, std::uint64_t> sizes;   // source files already looked at
  std::map<std::string, std::uint64_t> limits;  // destinations already looked at
  // Destination ranges are checked across the whole plan, per file: different steps may
  // write different parts of one file, but no byte may be written by two chunks (the
  // result would depend on step order and a re-released step could clobber another's).
  std::map<std::string, Ranges> destinations;
  std::optional<std::uint32_t> previous;
  for (int s = 0; s < plan.steps_size(); ++s) {
    const auto& step = plan.steps(s);
    const std::string at = "step " + to_string(step.index());
    if (previous && step.index() <= *previous)
      return at + " (position " + to_string(s) + "): index does not follow step " + to_string(*previous);
    previous = step.index();

    bool scheduled = false;
    for (int f = 0; f < step.flows_size(); ++f) {
      const double rate = step.flows(f).rate();
      if (!std::isfinite(rate) || rate < 0) return at + ", flow " + to_string(f) + ": bad rate " + to_string(rate);
      if (rate > 0) scheduled = true;
    }
    // 1-port: in a paced (scheduled) step this agent sends to one peer and receives from
    // one, which also keeps the step within k as far as it can see (its plan holds only its
    // own flows). A node in both clusters (an in-place job) is a sender and a receiver of
    // the model, with a port each. Rate 0 (the all-at-once baseline) is exempt from both.
    const auto sends = std::count_if(step.flows().begin(), step.flows().end(), [](const auto& f) { return f.send(); });
    const auto receives = step.flows_size() - sends;
    if (scheduled && (sends > 1 || receives > 1)) {
      return at + ": " + to_string(sends > 1 ? sends : receives) + (sends > 1 ? " send" : " receive") +
             " flows in a scheduled step, 1-port allows one";
    }

    Ranges stream;  // this step's incoming chunks, in stream_offset space
    std::size_t chunk = 0;
    for (int f = 0; f < step.flows_size(); ++f) {
      const auto& flow = step.flows(f);
      if (flow.send() && flow.peer_address().empty())
        return at + ", flow " + to_string(f) + ": send flow to " + flow.peer() + " has no peer address";
      for (const auto& c : flow.chunks()) {
        const std::string where = at + ", chunk " + to_string(chunk) + " (transfer " + to_string(c.transfer()) + "): ";
        if (auto error = check_chunk(c, flow.send(), objects, sizes, limits); !error.empty()) return where + error;
        if (!flow.send()) {
          const Claim claim{c.stream_offset() + c.length(), step.index(), chunk};
          if (auto other = stream.claim(c.stream_offset(), claim))
            return where + "stream range " + range(c.stream_offset(), c.length()) + " overlaps chunk " +
                   to_string(other->chunk) + " of the step";
          const Claim written{c.dst_offset() + c.length(), step.index(), chunk};
          if (auto other = destinations[c.dst_file()].claim(c.dst_offset(), written))
            return where + "destination range " + range(c.dst_offset(), c.length()) + " of " + c.dst_file() +
                   " overlaps step " + to_string(other->step) + ", chunk " + to_string(other->chunk);
        }
        ++chunk;
      }
    }
  }
  return {};
}

}  // namespace baton::agent

// The exchanges of a job's kept plan (Plan.keep; docs/embedding.md, "Persistent handoffs")
// as its agents tell them afterwards (ExchangeReport): the coordinator released nothing, so
// this is all it learns of them. An exchange is done once every node of the job reported it
// ok, and failed at its first report that is not.
#pragma once

#include "protocol/baton.pb.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace baton::coordinator {

class ExchangeTally {
 public:
  // The most exchanges waiting for their last report (a node that never reports one, being
  // gone, leaves it waiting): beyond it, the oldest is forgotten.
  static constexpr std::size_t kMaxPending = 64;

  // What a report made of its exchange.
  enum class Outcome { pending, done, failed, not_a_member };
  // Node `node`'s report of an exchange: `done` when it was the last ok report of an
  // exchange every node reported ok, `failed` when it was the first that was not,
  // `not_a_member` (nothing counted) when the node is not one of the job's, else `pending`.
  // `members` gives the job's nodes; it is asked once, at the first report.
  Outcome record(const std::string& node, const protocol::ExchangeReport& report,
                 const std::function<std::vector<std::string>()>& members);

  std::uint64_t done() const noexcept { return done_; }
  std::uint64_t failed() const noexcept { return failed_; }
  // The last exchange done: its slowest node's seconds; none before one.
  std::optional<double> last_seconds() const noexcept { return last_seconds_; }
  // The last failure a node reported, naming the node; empty before one.
  const std::string& last_error() const noexcept { return last_error_; }

 private:
  struct Pending {
    std::set<std::string> reported;
    bool failed = false;
    double seconds = 0;
  };
  std::set<std::string> members_;             // the job's nodes, from the first report on
  std::map<std::uint64_t, Pending> pending_;  // by exchange number
  std::deque<std::uint64_t> order_;           // pending_'s numbers, oldest first
  std::uint64_t done_ = 0, failed_ = 0;
  std::optional<double> last_seconds_;
  std::string last_error_;
};

}  // namespace baton::coordinator

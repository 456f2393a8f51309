// Connections that have not authenticated yet, capped per daemon and per source address
// (docs/security.md, "Before authentication"). A new connection is always admitted; when
// it would exceed a cap, the OLDEST pending connection (of the same address when that
// address is over its share, else of all) is dropped to make room. Decision: an idle
// connection costs an attacker nothing to hold, while a legitimate peer completes its
// handshake within a few round trips of connecting; closing new connections instead
// would let whoever holds the cap lock every agent out until its connections time out.
// Per-address shares keep one address's churn from evicting other addresses' handshakes.
//
// Threading: use from one thread (the daemon's io_context).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace baton::admission {

struct PendingLimits {
  std::size_t total = 512;       // pending connections per daemon (per listener)
  std::size_t per_address = 64;  // of which from one source address
};

// The limits for a process that may hold `descriptors` open files: at most a quarter of
// them pending (so unauthenticated peers alone can never exhaust descriptors), and one
// address at most a quarter of those; never more than the defaults above.
PendingLimits limits_for(std::uint64_t descriptors);

class PendingConnections {
  struct Table;

 public:
  // Holds a connection's place until it authenticates or ends (release, or destruction).
  class Ticket {
   public:
    Ticket() = default;
    Ticket(Ticket&& other) noexcept;
    Ticket& operator=(Ticket&& other) noexcept;
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket() { release(); }

    // The connection no longer counts as pending (it authenticated, or it ended).
    void release() noexcept;

   private:
    friend class PendingConnections;
    Ticket(std::weak_ptr<Table> table, std::uint64_t id) : table_(std::move(table)), id_(id) {}
    std::weak_ptr<Table> table_;
    std::uint64_t id_ = 0;
  };

  explicit PendingConnections(PendingLimits limits);
  ~PendingConnections();
  PendingConnections(const PendingConnections&) = delete;
  PendingConnections& operator=(const PendingConnections&) = delete;

  // Admits a connection from `address` (its IP, no port). `drop` closes it should it be
  // evicted later; it is called at most once, and never after its ticket is released.
  // The evicted connection's ticket stays valid (releasing it does nothing).
  Ticket admit(const std::string& address, std::function<void()> drop);

  std::size_t size() const noexcept;
  // How many pending connections were dropped to make room, since the start.
  std::uint64_t dropped() const noexcept;
  const PendingLimits& limits() const noexcept { return limits_; }

 private:
  PendingLimits limits_;
  std::shared_ptr<Table> table_;
};

}  // namespace baton::admission

#include "admission/pending_connections.h"

#include <algorithm>
#include <list>
#include <map>
#include <utility>

namespace baton::admission {

struct PendingConnections::Table {
  struct Entry {
    std::uint64_t id;
    std::string address;
    std::function<void()> drop;
  };
  std::list<Entry> entries;  // oldest first
  std::map<std::string, std::size_t> per_address;
  std::uint64_t next_id = 1;
  std::uint64_t dropped = 0;

  // Removes an entry; its `drop` is returned (to call, or to discard).
  std::function<void()> remove(std::list<Entry>::iterator at) {
    std::function<void()> drop = std::move(at->drop);
    if (const auto count = per_address.find(at->address); count != per_address.end() && --count->second == 0) {
      per_address.erase(count);
    }
    entries.erase(at);
    return drop;
  }
};

PendingLimits limits_for(std::uint64_t descriptors) {
  const PendingLimits defaults;
  const std::size_t total = static_cast<std::size_t>(std::clamp<std::uint64_t>(descriptors / 4, 1, defaults.total));
  return {.total = total, .per_address = std::clamp<std::size_t>(total / 4, 1, defaults.per_address)};
}

PendingConnections::PendingConnections(PendingLimits limits)
    : limits_{.total = std::max<std::size_t>(limits.total, 1),
              .per_address = std::max<std::size_t>(limits.per_address, 1)},
      table_(std::make_shared<Table>()) {}

PendingConnections::~PendingConnections() = default;

PendingConnections::Ticket PendingConnections::admit(const std::string& address, std::function<void()> drop) {
  Table& table = *table_;
  const auto over_address = [&] {
    const auto count = table.per_address.find(address);
    return count != table.per_address.end() && count->second >= limits_.per_address;
  };
  while (over_address() || table.entries.size() >= limits_.total) {
    auto oldest = table.entries.begin();
    if (over_address()) {
      oldest = std::find_if(table.entries.begin(), table.entries.end(),
                            [&](const Table::Entry& e) { return e.address == address; });
    }
    std::function<void()> close = table.remove(oldest);
    ++table.dropped;
    if (close) close();
  }
  const std::uint64_t id = table.next_id++;
  table.entries.push_back({id, address, std::move(drop)});
  ++table.per_address[address];
  return Ticket(table_, id);
}

std::size_t PendingConnections::size() const noexcept { return table_->entries.size(); }

std::uint64_t PendingConnections::dropped() const noexcept { return table_->dropped; }

PendingConnections::Ticket::Ticket(Ticket&& other) noexcept
    : table_(std::move(other.table_)), id_(std::exchange(other.id_, 0)) {}

PendingConnections::Ticket& PendingConnections::Ticket::operator=(Ticket&& other) noexcept {
  if (this != &other) {
    release();
    table_ = std::move(other.table_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void PendingConnections::Ticket::release() noexcept {
  const std::shared_ptr<Table> table = table_.lock();
  table_.reset();
  if (!table || id_ == 0) return;
  const auto at =
      std::find_if(table->entries.begin(), table->entries.end(), [&](const Table::Entry& e) { return e.id == id_; });
  id_ = 0;
  if (at != table->entries.end()) table->remove(at);  // its drop is discarded, not called
}

}  // namespace baton::admission

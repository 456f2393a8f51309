#include "agent/peer_links.h"

#include "agent/data_plane.h"
#include "agent/same_host.h"

#include <algorithm>

namespace baton::agent {

struct Link::Pool {
  struct Idle {
    std::unique_ptr<transport::Connection> connection;
    bool through_memory;
    std::chrono::steady_clock::time_point since;
  };
  std::map<std::pair<std::string, std::string>, std::vector<Idle>> idle;
  std::uint64_t opened = 0;
  std::uint64_t opened_through_memory = 0;

  // Closes the connections idle for longer than PeerLinks::idle_limit.
  void expire(std::chrono::steady_clock::time_point now) {
    for (auto it = idle.begin(); it != idle.end();) {
      std::erase_if(it->second, [&](const Idle& i) { return now - i.since > PeerLinks::idle_limit; });
      it = it->second.empty() ? idle.erase(it) : std::next(it);
    }
  }
};

Link::Link(std::weak_ptr<Pool> pool, std::pair<std::string, std::string> key,
           std::unique_ptr<transport::Connection> connection, bool reused, bool through_memory)
    : pool_(std::move(pool)), key_(std::move(key)), connection_(std::move(connection)), reused_(reused),
      through_memory_(through_memory) {}

Link& Link::operator=(Link&&) noexcept = default;

Link::~Link() = default;

void Link::keep() noexcept {
  const std::shared_ptr<Pool> pool = pool_.lock();
  if (pool && connection_ && connection_->reusable()) {
    try {
      pool->idle[key_].push_back({std::move(connection_), through_memory_, std::chrono::steady_clock::now()});
    } catch (...) {  // out of memory: the connection is closed below, the next send opens one
    }
  }
  connection_.reset();
}

PeerLinks::PeerLinks(transport::Context& context, transport::NodeIdentity self, SameHostPath same_host)
    : context_(context), self_(std::move(self)), same_host_(std::move(same_host)),
      pool_(std::make_shared<Link::Pool>()) {}

PeerLinks::~PeerLinks() = default;

asio::awaitable<error::Result<Link>> PeerLinks::acquire(std::string peer, std::string address) {
  pool_->expire(std::chrono::steady_clock::now());
  std::pair<std::string, std::string> key{std::move(peer), std::move(address)};
  // The most recently used first: the likeliest to be alive.
  if (const auto found = pool_->idle.find(key); found != pool_->idle.end()) {
    std::vector<Link::Pool::Idle>& idle = found->second;
    while (!idle.empty()) {
      Link::Pool::Idle kept = std::move(idle.back());
      idle.pop_back();
      if (kept.connection->reusable()) {
        co_return error::Result<Link>{{}, {}, Link(pool_, key, std::move(kept.connection), true, kept.through_memory)};
      }
    }
  }
  std::string malformed;  // a bad memory part leaves the network part usable
  const PeerAddress where = split_peer_address(key.second, malformed);
  bool through_memory = same_host_.context != nullptr && !same_host_.host.empty() && where.host == same_host_.host;
  transport::Context* via = through_memory ? same_host_.context : &context_;
  error::Result<std::unique_ptr<transport::Connection>> connected =
      co_await via->connect(through_memory ? where.memory : where.network);
  if (connected.error && through_memory) {
    through_memory = false;
    via = &context_;
    connected = co_await via->connect(where.network);
  }
  if (connected.error) {
    co_return error::Result<Link>{
        connected.error, "cannot connect: " + connected.describe() + (malformed.empty() ? "" : "; " + malformed), {}};
  }
  ++pool_->opened;
  if (through_memory) ++pool_->opened_through_memory;
  const transport::Authentication receiver = co_await transport::authenticate_as_sender(
      *connected.value, self_, key.first, std::max(via->options().frame_timeout, DataPlane::handshake_deadline));
  if (!receiver.ok()) co_return error::Result<Link>{receiver.error, "authentication: " + receiver.describe(), {}};
  co_return error::Result<Link>{{}, {}, Link(pool_, std::move(key), std::move(connected.value), false, through_memory)};
}

void PeerLinks::close_idle() noexcept { pool_->idle.clear(); }

std::uint64_t PeerLinks::opened() const noexcept { return pool_->opened; }

std::uint64_t PeerLinks::opened_through_memory() const noexcept { return pool_->opened_through_memory; }

std::size_t PeerLinks::idle() const noexcept {
  std::size_t n = 0;
  for (const auto& [key, connections] : pool_->idle) n += connections.size();
  return n;
}

}  // namespace baton::agent

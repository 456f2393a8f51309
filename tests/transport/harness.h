// The conformance harness: the same flows over every transport this build and machine have.
//
// Each test opens two contexts (a sending node and a receiving node) on one io_context,
// links them through a listener and runs both ends as coroutines on one thread, as an
// agent would. A transport whose provider is missing is skipped with a warning naming it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <asio/io_context.hpp>

#include "transport/async.h"
#include "transport/context.h"
#include "transport/flow.h"
#include "transport/open.h"

namespace baton::transport::test {

// "tcp", then "fabric/<provider>" for each provider the conformance suite covers.
std::vector<std::string> transport_labels();

// Options every test starts from: small timeouts so failures are quick to observe.
ContextOptions test_options();

struct Link {
  std::unique_ptr<Connection> sender;    // the sending node's end
  std::unique_ptr<Connection> receiver;  // the receiving node's end
};

class Harness {
 public:
  // Opens both nodes. If the transport is unavailable, ready() is false and skip_reason() says why.
  Harness(const std::string& label, ContextOptions options);
  // Lets anything still running finish (every wait in the transport is bounded) before the
  // contexts and the io_context go.
  ~Harness();
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;
  bool ready() const { return sender_ != nullptr; }
  const std::string& skip_reason() const { return skip_reason_; }

  asio::io_context& io() { return io_; }
  Context& sender_node() { return *sender_; }
  Context& receiver_node() { return *receiver_; }

  // Makes `count` links (connect + accept) between the two nodes.
  std::vector<Link> links(std::size_t count);

  // Runs the io_context until `done` returns true; fails the test after `limit`.
  void run_until(const std::function<bool()>& done, std::chrono::seconds limit);

  SendOptions send_options() const;
  ReceiveOptions receive_options() const;

 private:
  asio::io_context io_;
  std::unique_ptr<Context> sender_;
  std::unique_ptr<Context> receiver_;
  std::unique_ptr<Listener> listener_;  // made on first use; a fabric context has only one
  std::string skip_reason_;
};

struct Transfer {
  FlowReport sent;
  FlowReport received;
};

// Streams `flow` from `source` to `sink` over one new link, both ends on the harness thread.
Transfer transfer(Harness& harness, const FlowSpec& flow, const Source& source, Sink& sink,
                  std::chrono::seconds limit = std::chrono::seconds(60));

// Deterministic test bytes: byte o of object `seed` (independent of any transport code).
// Inline so that loops over it vectorize: the 1 GiB stream test makes and checks every byte.
inline std::byte pattern_byte(std::uint64_t offset, std::uint64_t seed) {
  const std::uint64_t x = offset + seed * 0x9E3779B97F4A7C15ULL;
  return static_cast<std::byte>((x * 131 + (x >> 12) + (x >> 24)) & 0xFF);
}
std::vector<std::byte> pattern(std::size_t size, std::uint64_t seed);

// Whether this is a sanitizer build (large streams are shortened there, and say so).
// GCC says so with __SANITIZE_ADDRESS__, Clang through __has_feature.
constexpr bool sanitized_build() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
  return __has_feature(address_sanitizer);
#else
  return false;
#endif
}

}  // namespace baton::transport::test

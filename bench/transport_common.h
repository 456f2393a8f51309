// Shared by the transport benchmarks: a sending node and a receiving node, each on its own
// thread and io_context, linked by N flows on loopback. Each flow sends `bytes_per_flow` as
// a series of ranges (each at most one source region) over its connection.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "transport/context.h"
#include "transport/flow.h"
#include "transport/open.h"
#include "transport/source.h"

namespace baton::bench {

struct Arrival {
  std::chrono::steady_clock::time_point at;
  std::uint64_t bytes;  // bytes verified in this chunk
};

struct FlowRunOptions {
  std::string transport = "tcp";  // "tcp" or "fabric/<provider>"
  std::size_t flows = 1;
  std::uint64_t bytes_per_flow = 1ULL << 30;
  std::uint64_t rate_per_flow = 0;  // bytes/s, 0 = unpaced
  transport::ContextOptions context{};
  bool record_arrivals = false;
  // Run the data-plane handshake on every connection first, so frames are sealed with
  // HMAC-SHA256 as between agents (transport/authenticate.h); false keeps XXH3 seals.
  bool authenticated = true;
};

struct FlowRunResult {
  bool ok = false;
  std::string error;
  double seconds = 0;  // first byte sent to last ack received
  std::uint64_t bytes = 0;
  std::chrono::steady_clock::time_point start;
  std::vector<std::vector<Arrival>> arrivals;  // per flow, if recorded
};

FlowRunResult run_flows(const FlowRunOptions& options);

transport::TransportConfig config_for(const std::string& transport, const transport::ContextOptions& context);

// Peak resident memory of this process (VmHWM), in bytes.
std::uint64_t peak_resident_bytes();

// A JSON string literal (quotes and escapes) for `text`.
std::string json_string(const std::string& text);

}  // namespace baton::bench

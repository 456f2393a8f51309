// Opening a transport from configuration: TCP, or libfabric with a named provider.
//
// When the requested libfabric provider is missing (or this build has no libfabric), the
// result says so plainly. Only if `fall_back_to_tcp` is set does it open TCP instead, and
// then it says that too, as a warning through `log` (stderr without one). Never silently.
#pragma once

#include <memory>
#include <string>

#include <asio/any_io_executor.hpp>

#include "error/result.h"
#include "log/log.h"
#include "transport/context.h"

namespace baton::transport {

struct TransportConfig {
  std::string kind = "tcp";               // "tcp" or "fabric"
  std::string provider = "tcp;ofi_rxm";   // libfabric provider name, as `fi_info -l` prints it
  std::string fabric_node = "127.0.0.1";  // local address the endpoint binds; "" = provider default
  bool fall_back_to_tcp = false;
  ContextOptions context{};
  // Where a fallback is announced (what was asked for and what was opened instead); stderr
  // when empty.
  log::Sink log;
};

// On error, `detail` says what is missing and what there is.
error::Result<std::unique_ptr<Context>> open_context(asio::any_io_executor executor, const TransportConfig& config);

// Whether this build includes the libfabric transport.
bool fabric_built() noexcept;

}  // namespace baton::transport

#include "transport/open.h"

#include <iostream>

#include "error/error.h"
#include "transport/errors.h"
#include "transport/tcp/context.h"
#ifdef BATON_WITH_FABRIC
#include "transport/fabric/context.h"
#endif

namespace baton::transport {
namespace {

using Opened = error::Result<std::unique_ptr<Context>>;

Opened open_fabric(asio::any_io_executor executor, const TransportConfig& config) {
#ifdef BATON_WITH_FABRIC
  // shm names an endpoint after the node it is given (and its index in the process), so two
  // processes given the same node would claim one name; left to itself it picks a unique one.
  const std::string node = config.provider == "shm" ? std::string() : config.fabric_node;
  auto made = fabric::Context::open(std::move(executor), {.provider = config.provider, .node = node}, config.context);
  return {.error = made.error, .detail = std::move(made.detail), .value = std::move(made.value)};
#else
  (void)executor;
  return {.error = errc::provider_unavailable,
          .detail = "libfabric provider '" + config.provider +
                    "' is not available: this build has no libfabric "
                    "transport (configure with -DBATON_WITH_FABRIC=ON)",
          .value = {}};
#endif
}

void announce(const TransportConfig& config, const std::string& notice) {
  if (config.log) {
    config.log(log::Level::warning, notice);
  } else {
    std::cerr << "baton transport: " << notice << '\n';
  }
}

Opened open_checked(asio::any_io_executor executor, const TransportConfig& config) {
  if (config.kind == "tcp") {
    return {.error = {}, .detail = {}, .value = std::make_unique<tcp::Context>(std::move(executor), config.context)};
  }
  if (config.kind != "fabric") {
    return {.error = std::make_error_code(std::errc::invalid_argument),
            .detail = "transport kind '" + config.kind + "' is neither 'tcp' nor 'fabric'",
            .value = {}};
  }
  Opened opened = open_fabric(executor, config);
  if (opened.error != errc::provider_unavailable || !config.fall_back_to_tcp) return opened;
  announce(config, opened.detail + "; falling back to TCP as configured (fall_back_to_tcp)");
  return {.error = {}, .detail = {}, .value = std::make_unique<tcp::Context>(std::move(executor), config.context)};
}

}  // namespace

bool fabric_built() noexcept {
#ifdef BATON_WITH_FABRIC
  return true;
#else
  return false;
#endif
}

error::Result<std::unique_ptr<Context>> open_context(asio::any_io_executor executor, const TransportConfig& config) {
  try {
    return open_checked(std::move(executor), config);
  } catch (const error::InvalidInput& error) {
    return {.error = std::make_error_code(std::errc::invalid_argument), .detail = error.what(), .value = {}};
  }
}

}  // namespace baton::transport

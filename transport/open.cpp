#include "transport/open.h"

#include <iostream>
#include <stdexcept>

#include "transport/errors.h"
#include "transport/tcp/context.h"
#ifdef BATON_WITH_FABRIC
#include "transport/fabric/context.h"
#endif

namespace baton::transport {
namespace {

Opened open_fabric(asio::any_io_executor executor, const TransportConfig& config) {
#ifdef BATON_WITH_FABRIC
  auto made = fabric::Context::open(std::move(executor), {.provider = config.provider, .node = config.fabric_node},
                                    config.context);
  return {.context = std::move(made.context), .error = made.error, .detail = std::move(made.detail), .notice = {}};
#else
  (void)executor;
  return {.context = nullptr,
          .error = errc::provider_unavailable,
          .detail = "libfabric provider '" + config.provider +
                    "' is not available: this build has no libfabric "
                    "transport (configure with -DBATON_WITH_FABRIC=ON)",
          .notice = {}};
#endif
}

void announce(const TransportConfig& config, const std::string& notice) {
  if (config.log) {
    config.log(notice);
  } else {
    std::cerr << "baton transport: " << notice << '\n';
  }
}

Opened open_checked(asio::any_io_executor executor, const TransportConfig& config) {
  if (config.kind == "tcp") {
    return {.context = std::make_unique<tcp::Context>(std::move(executor), config.context),
            .error = {},
            .detail = {},
            .notice = {}};
  }
  if (config.kind != "fabric") {
    return {.context = nullptr,
            .error = std::make_error_code(std::errc::invalid_argument),
            .detail = "transport kind '" + config.kind + "' is neither 'tcp' nor 'fabric'",
            .notice = {}};
  }
  Opened opened = open_fabric(executor, config);
  if (opened.error != errc::provider_unavailable || !config.fall_back_to_tcp) return opened;
  Opened fallback{.context = std::make_unique<tcp::Context>(std::move(executor), config.context),
                  .error = {},
                  .detail = {},
                  .notice = opened.detail + "; falling back to TCP as configured (fall_back_to_tcp)"};
  announce(config, fallback.notice);
  return fallback;
}

}  // namespace

bool fabric_built() noexcept {
#ifdef BATON_WITH_FABRIC
  return true;
#else
  return false;
#endif
}

Opened open_context(asio::any_io_executor executor, const TransportConfig& config) {
  try {
    return open_checked(std::move(executor), config);
  } catch (const std::invalid_argument& error) {
    return {.context = nullptr,
            .error = std::make_error_code(std::errc::invalid_argument),
            .detail = error.what(),
            .notice = {}};
  }
}

}  // namespace baton::transport

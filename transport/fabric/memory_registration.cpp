#include "transport/fabric/memory_registration.h"

#include <atomic>
#include <string>
#include <system_error>

#include <rdma/fi_domain.h>
#include <rdma/fi_errno.h>

#include "error/error.h"
#include "transport/fabric/fid.h"

namespace baton::transport::fabric {

RegisterMemory domain_registration(fid_domain* domain) {
  return [domain](std::span<std::byte> region) {
    // Keys must be unique per domain when the provider does not choose them (no FI_MR_PROV_KEY).
    static std::atomic<std::uint64_t> next_key{1};
    fid_mr* raw = nullptr;
    const int rc = fi_mr_reg(domain, region.data(), region.size(), FI_SEND | FI_RECV, 0, next_key++, 0, &raw, nullptr);
    if (rc != 0) {
      throw error::SystemError(std::error_code(-rc, std::generic_category()),
                               "fi_mr_reg of " + std::to_string(region.size()) + " bytes failed: " + fi_strerror(-rc) +
                                   " (did you run into the locked memory limit? see `ulimit -l`)");
    }
    std::shared_ptr<fid_mr> mr(raw, FidCloser<fid_mr>{});
    return MemoryRegistration{.descriptor = fi_mr_desc(raw), .key = fi_mr_key(raw), .handle = std::move(mr)};
  };
}

}  // namespace baton::transport::fabric

#include "transport/fabric/rxm_defaults.h"

#include <cstdlib>
#include <mutex>

namespace baton::transport::fabric {

void apply_rxm_memory_defaults() {
  static std::once_flag once;
  std::call_once(once, [] {
    ::setenv("FI_OFI_RXM_BUFFER_SIZE", "4096", /*overwrite=*/0);
    ::setenv("FI_OFI_RXM_USE_SRX", "0", /*overwrite=*/0);
  });
}

}  // namespace baton::transport::fabric

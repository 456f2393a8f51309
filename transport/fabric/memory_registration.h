// Registered memory for libfabric: the pool's region is registered once with the domain.
#pragma once

#include <rdma/fabric.h>

#include "transport/buffer.h"

namespace baton::transport::fabric {

// A RegisterMemory that calls fi_mr_reg on `domain` for send and receive access. The
// domain must outlive every registration. Throws error::SystemError on failure, with a
// hint at the usual cause (the locked memory limit, `ulimit -l`).
RegisterMemory domain_registration(fid_domain* domain);

}  // namespace baton::transport::fabric

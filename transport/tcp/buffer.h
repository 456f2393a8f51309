// TCP moves bytes through the kernel: pool memory needs no registration.
#pragma once

#include "transport/buffer.h"

namespace baton::transport::tcp {

// The RegisterMemory of a TCP context: none (an empty function).
inline RegisterMemory host_memory() { return {}; }

}  // namespace baton::transport::tcp

// Bytes from the system's cryptographic random source.
#pragma once

#include <cstddef>
#include <string>

namespace baton::security {

// `count` random bytes. Throws error::SystemError if the system has none to give.
std::string random_bytes(std::size_t count);

}  // namespace baton::security

#include "security/random.h"

#include <openssl/rand.h>

#include <stdexcept>

namespace baton::security {

std::string random_bytes(std::size_t count) {
  std::string bytes(count, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(bytes.size())) != 1) {
    throw std::runtime_error("no random bytes from the system for an authentication nonce");
  }
  return bytes;
}

}  // namespace baton::security

#include "security/random.h"

#include "error/error.h"

#include <openssl/rand.h>

namespace baton::security {

std::string random_bytes(std::size_t count) {
  std::string bytes(count, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(bytes.size())) != 1) {
    throw error::SystemError("no random bytes from the system for an authentication nonce");
  }
  return bytes;
}

}  // namespace baton::security

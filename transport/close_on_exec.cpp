#include "transport/close_on_exec.h"

#include <fcntl.h>

namespace baton::transport {

void close_on_exec(int descriptor) noexcept {
  const int flags = ::fcntl(descriptor, F_GETFD);
  if (flags >= 0 && (flags & FD_CLOEXEC) == 0) (void)::fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC);
}

}  // namespace baton::transport

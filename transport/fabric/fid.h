// Ownership of libfabric objects: every fid lives in a unique_ptr whose deleter calls
// fi_close, and every fi_info in one that calls fi_freeinfo. Members declared in the order
// fabric, domain, ..., endpoint are destroyed endpoint first, as libfabric requires.
#pragma once

#include <memory>

#include <rdma/fabric.h>

namespace baton::transport::fabric {

template <class T>
struct FidCloser {
  void operator()(T* object) const noexcept {
    if (object != nullptr) fi_close(&object->fid);
  }
};

template <class T>
using FidPtr = std::unique_ptr<T, FidCloser<T>>;

struct InfoDeleter {
  void operator()(fi_info* info) const noexcept { fi_freeinfo(info); }
};

using InfoPtr = std::unique_ptr<fi_info, InfoDeleter>;

}  // namespace baton::transport::fabric

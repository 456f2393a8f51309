#include "transport/checksum.h"

#include <new>

#include <xxhash.h>
#if defined(__x86_64__)
#include <xxh_x86dispatch.h>
#endif

namespace baton::transport {
namespace {

// On x86-64 the _dispatch entry points pick the widest vector unit the CPU has at run time
// (AVX2 where present) instead of the SSE2 baseline the library is compiled for.
XXH64_hash_t hash(const void* data, std::size_t size) noexcept {
#if defined(__x86_64__)
  return XXH3_64bits_dispatch(data, size);
#else
  return XXH3_64bits(data, size);
#endif
}

void hash_update(XXH3_state_t* state, const void* data, std::size_t size) noexcept {
#if defined(__x86_64__)
  XXH3_64bits_update_dispatch(state, data, size);
#else
  XXH3_64bits_update(state, data, size);
#endif
}

}  // namespace

std::uint64_t xxh3_64(std::span<const std::byte> bytes) noexcept { return hash(bytes.data(), bytes.size()); }

struct RangeChecksum::State {
  XXH3_state_t* xxh = XXH3_createState();
  State() {
    if (xxh == nullptr) throw std::bad_alloc();
    XXH3_64bits_reset(xxh);
  }
  ~State() { XXH3_freeState(xxh); }
  State(const State&) = delete;
  State& operator=(const State&) = delete;
};

RangeChecksum::RangeChecksum() : state_(std::make_unique<State>()) {}
RangeChecksum::~RangeChecksum() = default;
RangeChecksum::RangeChecksum(RangeChecksum&&) noexcept = default;
RangeChecksum& RangeChecksum::operator=(RangeChecksum&&) noexcept = default;

void RangeChecksum::update(std::span<const std::byte> bytes) noexcept {
  hash_update(state_->xxh, bytes.data(), bytes.size());
}

std::uint64_t RangeChecksum::value() const noexcept { return XXH3_64bits_digest(state_->xxh); }

void RangeChecksum::reset() noexcept { XXH3_64bits_reset(state_->xxh); }

}  // namespace baton::transport

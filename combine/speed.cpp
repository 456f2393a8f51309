#include "combine/speed.h"

#include "combine/kernels.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>

namespace baton::combine {
namespace {

// Small positive values (floats 1 to 1.75, integers 1 to 97): no infinities, no
// subnormals, which would time the processor's slow paths instead of the loop.
template <class T>
void fill(std::span<std::byte> bytes, unsigned seed) {
  T* values = reinterpret_cast<T*>(bytes.data());
  for (std::size_t i = 0; i < bytes.size() / sizeof(T); ++i) {
    const auto k = static_cast<T>((i * 7 + seed) % 97);
    values[i] = std::is_floating_point_v<T> ? 1 + k / 128 : 1 + k;
  }
}

void fill(DType dtype, std::span<std::byte> bytes, unsigned seed) {
  switch (dtype) {
    case DType::f32: return fill<float>(bytes, seed);
    case DType::f64: return fill<double>(bytes, seed);
    case DType::i32: return fill<std::int32_t>(bytes, seed);
    case DType::i64: return fill<std::int64_t>(bytes, seed);
    case DType::u32: return fill<std::uint32_t>(bytes, seed);
    case DType::u64: return fill<std::uint64_t>(bytes, seed);
  }
}

}  // namespace

std::vector<Speed> measure_speeds(std::size_t array_bytes, std::chrono::microseconds per_pair, const SpeedClock& now) {
  using clock = std::chrono::steady_clock;
  array_bytes -= array_bytes % 8;
  // uint64_t storage: aligned for every dtype.
  std::vector<std::uint64_t> a(array_bytes / 8), b(array_bytes / 8), out(array_bytes / 8);
  const auto bytes = [](std::vector<std::uint64_t>& v) { return std::as_writable_bytes(std::span(v)); };
  std::vector<Speed> speeds;
  for (DType dtype : all_dtypes) {
    fill(dtype, bytes(a), 1);
    fill(dtype, bytes(b), 2);
    for (Op op : all_ops) {
      if (!valid(dtype, op)) continue;
      apply(dtype, op, bytes(out), bytes(a), bytes(b));  // warm-up: pages and caches
      // The fastest of the rounds: a round the scheduler interrupted (other processes on
      // the node) says nothing of the loop, and one of 1 MiB takes well under a time slice.
      const auto start = now();
      auto fastest = clock::duration::max();
      int rounds = 0;
      for (auto round_start = start; rounds < max_rounds && (rounds < min_rounds || round_start - start < per_pair);
           ++rounds) {
        apply(dtype, op, bytes(out), bytes(a), bytes(b));
        const auto round_end = now();
        fastest = std::min(fastest, round_end - round_start);
        round_start = round_end;
      }
      const double seconds = std::max(std::chrono::duration<double>(fastest).count(), 1e-9);
      speeds.push_back({dtype, op, static_cast<double>(array_bytes) / seconds});
    }
  }
  return speeds;
}

}  // namespace baton::combine

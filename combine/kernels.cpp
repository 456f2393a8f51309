#include "combine/kernels.h"

#include "error/error.h"

#include <cstdint>
#include <string>
#include <type_traits>

namespace baton::combine {
namespace {

// The loop every kernel is: one operation per element, no dependence between elements.
template <class T, class F>
void each(std::byte* out, const std::byte* a, const std::byte* b, std::size_t count, F f) {
  T* o = reinterpret_cast<T*>(out);
  const T* x = reinterpret_cast<const T*>(a);
  const T* y = reinterpret_cast<const T*>(b);
  for (std::size_t i = 0; i < count; ++i) o[i] = f(x[i], y[i]);
}

// Sum, prod and the bitwise ops of a signed type are those of its unsigned twin on the same
// bits (two's complement): wrapping, never undefined behaviour.
template <class T>
void wrapping(Op op, std::byte* out, const std::byte* a, const std::byte* b, std::size_t count) {
  using U = std::make_unsigned_t<T>;
  switch (op) {
    case Op::sum: return each<U>(out, a, b, count, [](U x, U y) { return static_cast<U>(x + y); });
    case Op::prod: return each<U>(out, a, b, count, [](U x, U y) { return static_cast<U>(x * y); });
    case Op::band: return each<U>(out, a, b, count, [](U x, U y) { return static_cast<U>(x & y); });
    case Op::bor: return each<U>(out, a, b, count, [](U x, U y) { return static_cast<U>(x | y); });
    case Op::bxor: return each<U>(out, a, b, count, [](U x, U y) { return static_cast<U>(x ^ y); });
    case Op::min: return each<T>(out, a, b, count, [](T x, T y) { return y < x ? y : x; });
    case Op::max: return each<T>(out, a, b, count, [](T x, T y) { return x < y ? y : x; });
  }
}

template <class T>
void floating(Op op, std::byte* out, const std::byte* a, const std::byte* b, std::size_t count) {
  switch (op) {
    case Op::sum: return each<T>(out, a, b, count, [](T x, T y) { return x + y; });
    case Op::prod: return each<T>(out, a, b, count, [](T x, T y) { return x * y; });
    case Op::min: return each<T>(out, a, b, count, [](T x, T y) { return y < x ? y : x; });
    case Op::max: return each<T>(out, a, b, count, [](T x, T y) { return x < y ? y : x; });
    case Op::band:
    case Op::bor:
    case Op::bxor: return;  // refused by apply()
  }
}

bool overlap(const std::byte* p, const std::byte* q, std::size_t n) { return p < q + n && q < p + n; }

void require(bool condition, const char* what) {
  if (!condition) throw error::InvalidInput(std::string("combine: ") + what);
}

}  // namespace

void apply(DType dtype, Op op, std::span<std::byte> out, std::span<const std::byte> a, std::span<const std::byte> b) {
  const std::size_t size = element_size(dtype);
  require(valid(dtype, op), "band, bor and bxor apply to integer dtypes only");
  require(out.size() == a.size() && out.size() == b.size(), "the arrays differ in length");
  require(out.size() % size == 0, "the length is not a multiple of the element size");
  for (const std::byte* p : {static_cast<const std::byte*>(out.data()), a.data(), b.data()}) {
    require(reinterpret_cast<std::uintptr_t>(p) % size == 0, "an array is not aligned to its element size");
  }
  for (const std::byte* input : {a.data(), b.data()}) {
    require(out.data() == input || !overlap(out.data(), input, out.size()), "the output overlaps an input partly");
  }
  const std::size_t count = out.size() / size;
  switch (dtype) {
    case DType::f32: return floating<float>(op, out.data(), a.data(), b.data(), count);
    case DType::f64: return floating<double>(op, out.data(), a.data(), b.data(), count);
    case DType::i32: return wrapping<std::int32_t>(op, out.data(), a.data(), b.data(), count);
    case DType::i64: return wrapping<std::int64_t>(op, out.data(), a.data(), b.data(), count);
    case DType::u32: return wrapping<std::uint32_t>(op, out.data(), a.data(), b.data(), count);
    case DType::u64: return wrapping<std::uint64_t>(op, out.data(), a.data(), b.data(), count);
  }
}

}  // namespace baton::combine

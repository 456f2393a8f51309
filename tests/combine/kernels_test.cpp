// The combine kernels against an independent scalar computation: integers in a wider type
// then reduced modulo 2^32 or 2^64 (the documented wrap), f32 in double then rounded once
// (exact for one + or ×: double has more than twice f32's precision), f64 element by
// element. Every dtype and op, element counts around and between vector widths, in place
// and not.
#include "combine/kernels.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace bc = baton::combine;

namespace {

__extension__ using i128 = __int128;
__extension__ using u128 = unsigned __int128;

const std::vector<std::size_t> counts{0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 65, 1000, 4097};

// The expected result of one element, computed without the kernels' code.
template <class T>
T expected(bc::Op op, T x, T y) {
  using bc::Op;
  if constexpr (std::is_same_v<T, float>) {
    const double a = x, b = y;
    switch (op) {
      case Op::sum: return static_cast<float>(a + b);
      case Op::prod: return static_cast<float>(a * b);
      case Op::min: return b < a ? y : x;
      case Op::max: return a < b ? y : x;
      default: break;
    }
  } else if constexpr (std::is_same_v<T, double>) {
    switch (op) {
      case Op::sum: return x + y;
      case Op::prod: return x * y;
      case Op::min: return y < x ? y : x;
      case Op::max: return x < y ? y : x;
      default: break;
    }
  } else {
    // Exact in 128 bits, then reduced modulo 2^(8 sizeof T): the wrap the kernels promise.
    const i128 a = x, b = y;
    const auto wrap = [](i128 v) { return static_cast<T>(static_cast<u128>(v) & ((u128{1} << (8 * sizeof(T))) - 1)); };
    switch (op) {
      case Op::sum: return wrap(a + b);
      case Op::prod: return wrap(static_cast<i128>(static_cast<u128>(a) * static_cast<u128>(b)));
      case Op::min: return a <= b ? x : y;
      case Op::max: return a >= b ? x : y;
      case Op::band: return wrap(a & b);
      case Op::bor: return wrap(a | b);
      case Op::bxor: return wrap(a ^ b);
    }
  }
  BOOST_FAIL("no expected value for this op");
  return T{};
}

template <class T>
std::vector<T> random_values(std::size_t n, std::mt19937_64& rng) {
  std::vector<T> v(n);
  for (T& x : v) {
    if constexpr (std::is_floating_point_v<T>) x = std::uniform_real_distribution<T>(-1000, 1000)(rng);
    else x = static_cast<T>(rng());  // the whole range: sums and products wrap
  }
  return v;
}

template <class T>
std::span<std::byte> bytes(std::vector<T>& v) {
  return std::as_writable_bytes(std::span(v));
}

template <class T>
void check_every_op(bc::DType dtype) {
  std::mt19937_64 rng(static_cast<unsigned>(dtype) * 7919);
  for (bc::Op op : bc::all_ops) {
    if (!bc::valid(dtype, op)) continue;
    for (std::size_t n : counts) {
      std::vector<T> a = random_values<T>(n, rng), b = random_values<T>(n, rng), out(n);
      bc::apply(dtype, op, bytes(out), bytes(a), bytes(b));
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const T want = expected<T>(op, a[i], b[i]);
        if (std::memcmp(&out[i], &want, sizeof(T)) != 0) ++wrong;
      }
      BOOST_TEST(wrong == 0u, bc::name(dtype)
                                  << " " << bc::name(op) << " over " << n << " elements: " << wrong << " differ");
      // In place: the accumulator is the output, as a combine folds its inputs.
      std::vector<T> acc = a;
      bc::apply(dtype, op, bytes(acc), bytes(acc), bytes(b));
      // (memcmp's pointers must not be null, even for 0 bytes: an empty vector's may be.)
      BOOST_TEST((n == 0 || std::memcmp(acc.data(), out.data(), n * sizeof(T)) == 0), bc::name(dtype)
                                                                                          << " " << bc::name(op));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(combine_kernels)

BOOST_AUTO_TEST_CASE(f32_matches_double_arithmetic_rounded_once) { check_every_op<float>(bc::DType::f32); }
BOOST_AUTO_TEST_CASE(f64_matches_scalar_arithmetic) { check_every_op<double>(bc::DType::f64); }
BOOST_AUTO_TEST_CASE(i32_wraps_modulo_2_to_the_32) { check_every_op<std::int32_t>(bc::DType::i32); }
BOOST_AUTO_TEST_CASE(i64_wraps_modulo_2_to_the_64) { check_every_op<std::int64_t>(bc::DType::i64); }
BOOST_AUTO_TEST_CASE(u32_wraps_modulo_2_to_the_32) { check_every_op<std::uint32_t>(bc::DType::u32); }
BOOST_AUTO_TEST_CASE(u64_wraps_modulo_2_to_the_64) { check_every_op<std::uint64_t>(bc::DType::u64); }

BOOST_AUTO_TEST_CASE(wrapping_at_the_edges_is_exact) {
  std::vector<std::int32_t> a{std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min(), -1};
  std::vector<std::int32_t> b{1, -1, std::numeric_limits<std::int32_t>::min()}, out(3);
  bc::apply(bc::DType::i32, bc::Op::sum, bytes(out), bytes(a), bytes(b));
  BOOST_TEST(out == (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(),
                                               std::numeric_limits<std::int32_t>::max(),
                                               std::numeric_limits<std::int32_t>::max()}));
  std::vector<std::uint64_t> x{~std::uint64_t{0}, std::uint64_t{1} << 63}, y{~std::uint64_t{0}, 2}, z(2);
  bc::apply(bc::DType::u64, bc::Op::prod, bytes(z), bytes(x), bytes(y));
  BOOST_TEST(z == (std::vector<std::uint64_t>{1, 0}));  // (2^64 - 1)^2 = 1, 2^63 · 2 = 0 (mod 2^64)
}

// min(a, b) = b < a ? b : a, as std::min: a NaN in the first array stays, one in the second
// is dropped; the vectorised body and the scalar tail agree (17 elements).
BOOST_AUTO_TEST_CASE(float_min_and_max_treat_nan_as_std_min_and_max) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> a(17, 1.0f), b(17, 2.0f), lo(17), hi(17);
  for (std::size_t i : {0u, 5u, 16u}) a[i] = nan;
  for (std::size_t i : {1u, 6u, 15u}) b[i] = nan;
  bc::apply(bc::DType::f32, bc::Op::min, bytes(lo), bytes(a), bytes(b));
  bc::apply(bc::DType::f32, bc::Op::max, bytes(hi), bytes(a), bytes(b));
  for (std::size_t i = 0; i < 17; ++i) {
    const bool a_nan = i == 0 || i == 5 || i == 16;
    BOOST_TEST(std::isnan(lo[i]) == a_nan, "element " << i);
    BOOST_TEST(std::isnan(hi[i]) == a_nan, "element " << i);
    if (!a_nan) BOOST_TEST(lo[i] == 1.0f, "element " << i);
    if (!a_nan && !(i == 1 || i == 6 || i == 15)) BOOST_TEST(hi[i] == 2.0f, "element " << i);
  }
}

BOOST_AUTO_TEST_CASE(misuse_is_refused_naming_the_requirement) {
  std::vector<std::uint64_t> a(8), b(8), out(8);
  const auto refused = [](auto call, const std::string& words) {
    try {
      call();
    } catch (const baton::error::InvalidInput& e) {
      BOOST_TEST(std::string(e.what()).find(words) != std::string::npos, e.what());
      return;
    }
    BOOST_FAIL("not refused: " + words);
  };
  refused([&] { bc::apply(bc::DType::f32, bc::Op::band, bytes(out), bytes(a), bytes(b)); }, "integer dtypes only");
  refused([&] { bc::apply(bc::DType::u64, bc::Op::sum, bytes(out).first(8), bytes(a), bytes(b)); }, "differ in length");
  refused([&] { bc::apply(bc::DType::u64, bc::Op::sum, bytes(out).first(12), bytes(a).first(12), bytes(b).first(12)); },
          "multiple of the element size");
  refused(
      [&] { bc::apply(bc::DType::u32, bc::Op::sum, bytes(out).subspan(2, 8), bytes(a).first(8), bytes(b).first(8)); },
      "not aligned");
  refused(
      [&] { bc::apply(bc::DType::u32, bc::Op::sum, bytes(a).subspan(4, 32), bytes(a).first(32), bytes(b).first(32)); },
      "overlaps an input partly");
}

BOOST_AUTO_TEST_CASE(names_and_numbers_round_trip) {
  for (bc::DType d : bc::all_dtypes) {
    BOOST_TEST((bc::parse_dtype(bc::name(d)) == d));
    BOOST_TEST((bc::dtype_from_number(static_cast<int>(d)) == d));
  }
  for (bc::Op o : bc::all_ops) {
    BOOST_TEST((bc::parse_op(bc::name(o)) == o));
    BOOST_TEST((bc::op_from_number(static_cast<int>(o)) == o));
  }
  BOOST_TEST(!bc::parse_dtype("f16"));
  BOOST_TEST(!bc::dtype_from_number(0));
  BOOST_TEST(!bc::op_from_number(8));
  BOOST_TEST(bc::element_size(bc::DType::i32) == 4u);
  BOOST_TEST(bc::element_size(bc::DType::f64) == 8u);
}

BOOST_AUTO_TEST_SUITE_END()

#include "tests/integration/collective_arrays.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace baton::test {
namespace {

// Calls f.template operator()<T>() with T the C++ type of `dtype`.
template <typename F>
auto with_dtype(const std::string& dtype, F&& f) {
  if (dtype == "f32") return f.template operator()<float>();
  if (dtype == "f64") return f.template operator()<double>();
  if (dtype == "i32") return f.template operator()<std::int32_t>();
  if (dtype == "i64") return f.template operator()<std::int64_t>();
  if (dtype == "u32") return f.template operator()<std::uint32_t>();
  if (dtype == "u64") return f.template operator()<std::uint64_t>();
  throw std::invalid_argument("unknown dtype " + dtype);
}

template <typename T>
T element(const std::string& bytes, std::size_t i) {
  T value;
  std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
T fold(const std::string& op, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (op == "sum") return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    if (op == "prod") return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
    if (op == "band") return a & b;
    if (op == "bor") return a | b;
    if (op == "bxor") return a ^ b;
  } else {
    if (op == "sum") return a + b;
    if (op == "prod") return a * b;
  }
  if (op == "min") return b < a ? b : a;
  if (op == "max") return a < b ? b : a;
  throw std::invalid_argument("op " + op + " is not defined for this dtype");
}

}  // namespace

std::size_t element_size(const std::string& dtype) {
  return with_dtype(dtype, []<typename T>() { return sizeof(T); });
}

bool integer_dtype(const std::string& dtype) {
  return with_dtype(dtype, []<typename T>() { return std::is_integral_v<T>; });
}

std::string make_array(const std::string& dtype, const std::string& op, std::size_t count, unsigned seed) {
  return with_dtype(dtype, [&]<typename T>() {
    std::mt19937_64 random(seed);
    std::string bytes(count * sizeof(T), '\0');
    for (std::size_t i = 0; i < count; ++i) {
      T value;
      if constexpr (std::is_floating_point_v<T>) {
        value = op == "prod" ? static_cast<T>(std::uniform_real_distribution<double>(0.5, 2)(random))
                             : static_cast<T>(std::uniform_real_distribution<double>(-1, 1)(random));
      } else {
        value = static_cast<T>(random());
      }
      std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
    }
    return bytes;
  });
}

std::string fold_in_order(const std::string& dtype, const std::string& op, const std::vector<std::string>& inputs) {
  return with_dtype(dtype, [&]<typename T>() {
    std::string out = inputs.at(0);
    for (std::size_t k = 1; k < inputs.size(); ++k) {
      if (inputs[k].size() != out.size()) throw std::invalid_argument("inputs of different sizes");
      for (std::size_t i = 0; i < out.size() / sizeof(T); ++i) {
        const T value = fold(op, element<T>(out, i), element<T>(inputs[k], i));
        std::memcpy(out.data() + i * sizeof(T), &value, sizeof(T));
      }
    }
    return out;
  });
}

std::size_t count_outside_error_bound(const std::string& dtype, const std::string& op, const std::string& result,
                                      const std::vector<std::string>& inputs, std::string* first) {
  return with_dtype(dtype, [&]<typename T>() -> std::size_t {
    if constexpr (std::is_integral_v<T>) {
      throw std::invalid_argument("an error bound is for floating-point dtypes");
    } else {
      if (result.size() != inputs.at(0).size()) {
        *first = "the result holds " + std::to_string(result.size()) + " bytes, the inputs " +
                 std::to_string(inputs.at(0).size());
        return inputs.at(0).size() / sizeof(T);
      }
      const long double n = static_cast<long double>(inputs.size());
      const long double u = std::numeric_limits<T>::epsilon() / 2;
      const long double gamma = (n - 1) * u / (1 - (n - 1) * u);
      // The reference's own rounding (long double), counted against the bound too.
      const long double reference_u = std::numeric_limits<long double>::epsilon() / 2;
      std::size_t outside = 0;
      for (std::size_t i = 0; i < result.size() / sizeof(T); ++i) {
        long double exact = element<T>(inputs[0], i), magnitude = std::fabs(exact);
        for (std::size_t k = 1; k < inputs.size(); ++k) {
          const long double x = element<T>(inputs[k], i);
          if (op == "sum") exact += x;
          else if (op == "min") exact = std::min(exact, x);
          else if (op == "max") exact = std::max(exact, x);
          else throw std::invalid_argument("an error bound for " + op + " is not written here");
          magnitude += std::fabs(x);
        }
        const long double got = element<T>(result, i);
        const long double bound = op == "sum" ? (gamma + (n - 1) * reference_u) * magnitude : 0;
        if (std::fabs(got - exact) <= bound) continue;
        if (outside++ == 0) {
          std::ostringstream text;
          text.precision(std::numeric_limits<T>::max_digits10);
          text << "element " << i << ": got " << got << ", exact " << exact << ", bound " << bound;
          *first = text.str();
        }
      }
      return outside;
    }
  });
}

std::string first_difference(const std::string& dtype, const std::string& got, const std::string& expected) {
  if (got.size() != expected.size()) {
    return "holds " + std::to_string(got.size()) + " bytes, expected " + std::to_string(expected.size());
  }
  return with_dtype(dtype, [&]<typename T>() -> std::string {
    for (std::size_t i = 0; i < got.size() / sizeof(T); ++i) {
      if (std::memcmp(got.data() + i * sizeof(T), expected.data() + i * sizeof(T), sizeof(T)) == 0) continue;
      std::ostringstream text;
      text.precision(std::numeric_limits<T>::max_digits10);
      text << "element " << i << ": got " << +element<T>(got, i) << ", expected " << +element<T>(expected, i);
      return text.str();
    }
    return "";
  });
}

}  // namespace baton::test

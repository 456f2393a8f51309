#include "combine/types.h"

namespace baton::combine {

std::size_t element_size(DType dtype) noexcept {
  switch (dtype) {
    case DType::f32:
    case DType::i32:
    case DType::u32: return 4;
    case DType::f64:
    case DType::i64:
    case DType::u64: return 8;
  }
  return 0;
}

bool is_integer(DType dtype) noexcept { return dtype != DType::f32 && dtype != DType::f64; }

bool valid(DType dtype, Op op) noexcept {
  const bool bitwise = op == Op::band || op == Op::bor || op == Op::bxor;
  return !bitwise || is_integer(dtype);
}

std::string_view name(DType dtype) noexcept {
  switch (dtype) {
    case DType::f32: return "f32";
    case DType::f64: return "f64";
    case DType::i32: return "i32";
    case DType::i64: return "i64";
    case DType::u32: return "u32";
    case DType::u64: return "u64";
  }
  return "?";
}

std::string_view name(Op op) noexcept {
  switch (op) {
    case Op::sum: return "sum";
    case Op::prod: return "prod";
    case Op::min: return "min";
    case Op::max: return "max";
    case Op::band: return "band";
    case Op::bor: return "bor";
    case Op::bxor: return "bxor";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view text) noexcept {
  for (DType dtype : all_dtypes) {
    if (name(dtype) == text) return dtype;
  }
  return std::nullopt;
}

std::optional<Op> parse_op(std::string_view text) noexcept {
  for (Op op : all_ops) {
    if (name(op) == text) return op;
  }
  return std::nullopt;
}

std::optional<DType> dtype_from_number(int number) noexcept {
  for (DType dtype : all_dtypes) {
    if (static_cast<int>(dtype) == number) return dtype;
  }
  return std::nullopt;
}

std::optional<Op> op_from_number(int number) noexcept {
  for (Op op : all_ops) {
    if (static_cast<int>(op) == number) return op;
  }
  return std::nullopt;
}

}  // namespace baton::combine

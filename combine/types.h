// The element types and operations of reductions (docs/collectives.md), shared by the
// agents (which combine arrays) and the coordinator (which sizes them and checks a job's
// dtype and op). The numbers are baton.proto's DataType and ReduceOp values.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace baton::combine {

enum class DType { f32 = 1, f64 = 2, i32 = 3, i64 = 4, u32 = 5, u64 = 6 };
enum class Op { sum = 1, prod = 2, min = 3, max = 4, band = 5, bor = 6, bxor = 7 };

inline constexpr DType all_dtypes[] = {DType::f32, DType::f64, DType::i32, DType::i64, DType::u32, DType::u64};
inline constexpr Op all_ops[] = {Op::sum, Op::prod, Op::min, Op::max, Op::band, Op::bor, Op::bxor};

// Bytes of one element: 4 or 8.
std::size_t element_size(DType dtype) noexcept;
bool is_integer(DType dtype) noexcept;
// Whether `op` applies to `dtype`: every op on integers, all but band/bor/bxor on floats.
bool valid(DType dtype, Op op) noexcept;

// "f32", "sum", ...: the names of the job API (docs/collectives.md, "Jobs").
std::string_view name(DType dtype) noexcept;
std::string_view name(Op op) noexcept;
std::optional<DType> parse_dtype(std::string_view text) noexcept;
std::optional<Op> parse_op(std::string_view text) noexcept;

// The enums from baton.proto's numbers; nullopt for 0 (unspecified) or an unknown number.
std::optional<DType> dtype_from_number(int number) noexcept;
std::optional<Op> op_from_number(int number) noexcept;

}  // namespace baton::combine

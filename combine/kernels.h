// Element-wise combination of two arrays, out = a ⊕ b: the local step of every reduction
// (docs/collectives.md, "Tasks"). Plain loops the compiler vectorises (combine/CMakeLists.txt
// builds this file with -O3; docs/collectives.md, "Measured", says which loops it vectorises).
//
// Integer sum and prod wrap modulo 2^32 or 2^64, for signed types too (two's complement,
// computed in unsigned arithmetic: never undefined behaviour). Floating-point min and max
// are std::min and std::max: min(a, b) = b < a ? b : a, so a NaN in `a` is kept and a NaN
// in `b` is dropped. Nothing is reordered: every element is one operation, so a result
// depends only on the order in which arrays are folded, never on vectorisation.
#pragma once

#include "combine/types.h"

#include <cstddef>
#include <span>

namespace baton::combine {

// out[i] = a[i] ⊕ b[i] for every element of `dtype` in the spans. Requires: valid(dtype,
// op); three spans of one size, a multiple of element_size(dtype), each aligned to it;
// `out` is `a` or `b` itself, or overlaps neither. Throws error::InvalidInput naming the
// requirement broken.
void apply(DType dtype, Op op, std::span<std::byte> out, std::span<const std::byte> a, std::span<const std::byte> b);

}  // namespace baton::combine

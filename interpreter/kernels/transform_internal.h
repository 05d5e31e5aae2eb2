// Shared by the §3.5 transform kernels (transform*.cpp): registration of each part and the
// small helpers they all use. Data-movement kernels copy elements by their byte width, so
// one instantiation per width serves every dtype of that size.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "interpreter/kernels/kernel.h"
#include "interpreter/kernels/kernel_util.h"

namespace relay::rt {

void register_transform_init_kernels(KernelTable& table);    // casts, full, arange, ...
void register_transform_shape_kernels(KernelTable& table);   // reshape, transpose, concat, ...
void register_transform_layout_kernels(KernelTable& table);  // layout transforms, broadcast, tile
void register_transform_slice_kernels(KernelTable& table);   // strided_slice and friends
void register_transform_index_kernels(KernelTable& table);   // take, gather, scatter, ...
void register_transform_sparse_kernels(KernelTable& table);  // sparse_*, unique, argwhere
void register_transform_signal_kernels(KernelTable& table);  // scans, stft, dft, einsum

namespace transform {

// "`op`: message".
[[noreturn]] void fail(const KernelCall& call, const std::string& message);

// The unsigned type of a byte width, for copies that do not look at values.
template <class F>
decltype(auto) dispatch_width(DataType t, F&& f) {
  switch (dtype_bytes(t)) {
    case 1: return f(TypeTag<uint8_t>{});
    case 2: return f(TypeTag<uint16_t>{});
    case 4: return f(TypeTag<uint32_t>{});
    case 8: return f(TypeTag<uint64_t>{});
  }
  throw RuntimeError("no kernel for dtype `" + dtype_name(t) + "`");
}

// out[i] = in[src[i]] for every output element; src holds flat input indices.
void gather_elements(const NDArray& in, const NDArray& out, const std::vector<int64_t>& src);

// A copy of `in` laid out as `shape` read through `strides` (element strides into `in`,
// 0 along broadcast dims): transposes, broadcasts and strided views in one loop. Written
// into `into`'s destination when it has that shape and dtype (KernelCall::output).
NDArray strided_copy(const NDArray& in, const Shape& shape, const std::vector<int64_t>& strides,
                     int64_t offset = 0, const KernelCall* into = nullptr);

// The type sums are accumulated in: double for floats, bool (logical or) for bool, and the
// 64-bit unsigned integers for integers, so that overflow wraps (the low bits are those of
// TVM's wrapping arithmetic in the narrower type) instead of being undefined behaviour.
template <class T> auto accumulator_of() {
  if constexpr (is_floating_v<T>) return double{};
  else if constexpr (std::is_same_v<T, bool>) return bool{};
  else return uint64_t{};
}
template <class T> using Acc = decltype(accumulator_of<T>());

// Integer tensor contents as int64 (indices, shapes, lengths).
std::vector<int64_t> int_values(const NDArray& t);

// A shape as text for messages.
inline std::string str(const Shape& s) { return shape_to_string(s); }

// The normalised axis attribute `name` ([-rank, rank) wraps).
int64_t axis_attr(const KernelCall& call, std::string_view name, size_t rank);

// Whether every input of an integer operand is an integer dtype.
void require_integer(const KernelCall& call, const NDArray& t, std::string_view what);

}  // namespace transform
}  // namespace relay::rt

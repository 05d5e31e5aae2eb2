// Shared by the elementwise family's files (elementwise*.cpp): registration of each part
// and the arithmetic helpers that give integer overflow and float16 rounding the meaning
// TVM's generated code has.
#pragma once

#include <string>
#include <type_traits>

#include "interpreter/kernels/kernel_util.h"

namespace relay::rt {

void register_unary_kernels(KernelTable& table);   // §3.2 math and predicates
// §3.3, by family (elementwise_binary.h)
void register_arithmetic_kernels(KernelTable& table);
void register_division_kernels(KernelTable& table);
void register_logical_kernels(KernelTable& table);
void register_comparison_kernels(KernelTable& table);

namespace ew {

template <class T> constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <class T> constexpr bool is_int_v = std::is_integral_v<T> && !is_bool_v<T>;

// The unsigned type integer arithmetic on T is done in, so that overflow wraps (as it
// does in TVM's LLVM code) instead of being undefined; at least `unsigned` so that small
// types do not promote to a signed int that could overflow.
template <class T, bool = is_int_v<T>> struct WideOf { using type = void; };
template <class T> struct WideOf<T, true> {
  using type = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
};
template <class T> using Wide = typename WideOf<T>::type;

template <class T> T wrap_add(T a, T b) { return static_cast<T>(Wide<T>(a) + Wide<T>(b)); }
template <class T> T wrap_sub(T a, T b) { return static_cast<T>(Wide<T>(a) - Wide<T>(b)); }
template <class T> T wrap_mul(T a, T b) { return static_cast<T>(Wide<T>(a) * Wide<T>(b)); }
template <class T> T wrap_neg(T a) { return static_cast<T>(Wide<T>(0) - Wide<T>(a)); }

// A float16/bfloat16 intermediate is rounded to its storage type after every operation,
// as the per-operation half arithmetic of TVM's kernels does; identity for float/double.
template <class T> Compute<T> rnd(Compute<T> x) { return static_cast<Compute<T>>(static_cast<T>(x)); }

template <class T> bool truthy(T x) { return static_cast<Compute<T>>(x) != Compute<T>(0); }

inline std::string quoted(const KernelCall& call) { return "`" + std::string(call.op.name) + "`"; }

}  // namespace ew
}  // namespace relay::rt

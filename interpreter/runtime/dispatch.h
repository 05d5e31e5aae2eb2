// Dtype dispatch for kernels: calls a generic lambda with the C++ storage type of a
// runtime dtype, so a kernel is written once as a template.
//
//   dispatch_dtype(t, [&]<class T>(TypeTag<T>) { ... T* p = a.data<T>(); ... });
//
// float16 and bfloat16 are storage types that convert through float (float16.h);
// `Compute<T>` names the type arithmetic on T is done in.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "interpreter/runtime/float16.h"
#include "interpreter/runtime/ndarray.h"
#include "lang/base/dtype.h"

namespace relay::rt {

template <class T> struct TypeTag { using type = T; };

template <class T> struct ComputeType { using type = T; };
template <> struct ComputeType<float16> { using type = float; };
template <> struct ComputeType<bfloat16> { using type = float; };
template <class T> using Compute = typename ComputeType<T>::type;

template <class T> constexpr bool is_floating_v = std::is_floating_point_v<T> || std::is_same_v<T, float16> ||
                                                  std::is_same_v<T, bfloat16>;

// Converts a double to T the way a C cast would, but defined for every input: NaN
// becomes 0 and out-of-range values saturate for integer targets (a C cast there is
// undefined behaviour; TVM's LLVM code gives an unspecified value).
template <class T> T cast_to(double v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_integral_v<T>) {
    if (std::isnan(v)) return 0;
    if (v <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  } else {
    return static_cast<T>(static_cast<Compute<T>>(v));
  }
}

template <class F>
decltype(auto) dispatch_dtype(DataType t, F&& f) {
  if (t.lanes == 1) {
    if (t.is_bool()) return f(TypeTag<bool>{});
    switch (t.code) {
      case DataType::Int:
        switch (t.bits) {
          case 8: return f(TypeTag<int8_t>{});
          case 16: return f(TypeTag<int16_t>{});
          case 32: return f(TypeTag<int32_t>{});
          case 64: return f(TypeTag<int64_t>{});
        }
        break;
      case DataType::UInt:
        switch (t.bits) {
          case 8: return f(TypeTag<uint8_t>{});
          case 16: return f(TypeTag<uint16_t>{});
          case 32: return f(TypeTag<uint32_t>{});
          case 64: return f(TypeTag<uint64_t>{});
        }
        break;
      case DataType::Float:
        switch (t.bits) {
          case 16: return f(TypeTag<float16>{});
          case 32: return f(TypeTag<float>{});
          case 64: return f(TypeTag<double>{});
        }
        break;
      case DataType::BFloat:
        if (t.bits == 16) return f(TypeTag<bfloat16>{});
        break;
      default: break;
    }
  }
  throw RuntimeError("no kernel for dtype `" + dtype_name(t) + "`");
}

// The DataType of a C++ storage type.
template <class T> DataType dtype_of() {
  if constexpr (std::is_same_v<T, bool>) return DataType::bool_();
  else if constexpr (std::is_same_v<T, float16>) return DataType::float_(16);
  else if constexpr (std::is_same_v<T, bfloat16>) return DataType{DataType::BFloat, 16, 1};
  else if constexpr (std::is_floating_point_v<T>) return DataType::float_(sizeof(T) * 8);
  else if constexpr (std::is_signed_v<T>) return DataType::int_(sizeof(T) * 8);
  else return DataType::uint_(sizeof(T) * 8);
}

}  // namespace relay::rt

// TVM's 2-D window attributes of a convolution or pool call, read once for every kernel
// that takes them (the GPU's direct convolution, oneDNN's convolutions, the pools' index
// programs): `strides` and `dilation` as 1 or 2 values (none: 1), `padding` as 1 value
// (every side), 2 (both sides of each axis) or 4 (top, left, bottom, right).
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "lang/types/call_attrs.h"

namespace relay::compiler {

struct WindowAttrs {
  std::array<int64_t, 2> strides{1, 1}, dilation{1, 1};
  std::array<int64_t, 2> pad_before{0, 0}, pad_after{0, 0};  // top, left; bottom, right
};

// Nullopt when an attribute has another number of values.
std::optional<WindowAttrs> window_attrs_2d(const CallAttrs& a);

}  // namespace relay::compiler

// nn.conv2d (NCHW data, OIHW weights, any groups, strides, dilation and padding; float32)
// as a direct convolution in the GPU loop shape: one parallel iteration per output element
// (a thread each on the GPU, consecutive threads along the output's rows), each folding its
// C/groups x KH x KW window serially into a float32 accumulator; taps that fall in the
// padding are skipped. This is the GPU's first convolution kernel: correct for every
// convolution the reference computes in these layouts, untiled (no shared memory, no
// matrix units), so it runs at a fraction of the chip's rate (docs/compiler.md, "GPU").
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "compiler/loops/ir.h"

namespace relay::loops {

struct Conv2dProgram {
  int64_t batch = 1, channels = 1, height = 1, width = 1;  // data [N, C, H, W]
  int64_t out_channels = 1, kernel_h = 1, kernel_w = 1;    // weight [O, C / groups, KH, KW]
  int64_t out_h = 1, out_w = 1;                            // output [N, O, OH, OW]
  int64_t groups = 1;
  std::array<int64_t, 2> strides{1, 1}, dilation{1, 1};
  std::array<int64_t, 2> pad_begin{0, 0};  // top, left (the bottom/right padding only shapes OH, OW)
};

// Buffers [data, weight, out]; output_buffer 2, no status. An error (in `error`) when the
// program's extents disagree (channels not divisible by groups, an empty window).
LoweredKernel lower_direct_conv2d(const Conv2dProgram& p, std::string name);

}  // namespace relay::loops

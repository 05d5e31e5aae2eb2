// What the matrix-product lowerings (matmul_lower.cpp, matmul_block_lower.cpp) share:
// the program's checks and the kernel's buffers.
#pragma once

#include <optional>
#include <string>

#include "compiler/loops/matmul.h"

namespace relay::loops {

struct MatmulBuffers {
  int a = -1, b = -1, out = -1;
};

// Checks that p's extents agree and its dtype is supported (else sets r.error and gives
// nullopt), then names r's kernel and adds its buffers [a, b, out] of p.dtype
// (r.output_buffer is out). With `partials` > 0, out is instead that many float32 partial
// sums of a product split along k (block_gemm.h, BlockGemm::splits).
std::optional<MatmulBuffers> begin_matmul_kernel(const MatmulProgram& p, std::string name, LoweredKernel& r,
                                                 int64_t partials = 0);

// A block tile (on the float32 units) or the tensor cores' (matmul_block_lower.cpp).
LoweredKernel lower_block_tile(const MatmulProgram& p, std::string name, const MatmulTile& tile);

}  // namespace relay::loops

// The loop IR as text (`relay compile --emit=loops`): one statement per line, C-like,
// stable for golden tests.
//
//   kernel add_exp(b0: float32[3, 4] strides [4, 1], b1: float32[3, 4] strides [4, 1]) {
//     parallel for i0 in [0, 3) {
//       vectorizable for i1 in [0, 4) {
//         let v2: float32 = exp(b0[i0 * 4 + i1]);
//         b1[i0 * 4 + i1] = v2;
//       }
//     }
//   }
#pragma once

#include <string>

#include "compiler/loops/ir.h"

namespace relay::loops {

std::string print_kernel(const Kernel& k);
std::string print_expr(const Kernel& k, const Expr& e);

}  // namespace relay::loops

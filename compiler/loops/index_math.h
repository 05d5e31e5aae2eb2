// Index arithmetic for lowerings: int64 expressions that fold the trivial cases (0 + x,
// x * 1, x * 0, x / 1), so printed kernels stay readable. Shared by every lowering
// (element-wise, reductions, index programs, the GPU's convolution and matrix product).
#pragma once

#include <cstdint>
#include <initializer_list>

#include "compiler/loops/ir.h"

namespace relay::loops {

inline Expr index_add(Expr a, Expr b) {
  if (a->kind == ExprKind::IntImm && a->int_value == 0) return b;
  if (b->kind == ExprKind::IntImm && b->int_value == 0) return a;
  return binary(BinaryOp::Add, std::move(a), std::move(b));
}
inline Expr index_add(Expr a, int64_t b) { return index_add(std::move(a), int_imm(b)); }
inline Expr index_scale(Expr v, int64_t s) {
  if (s == 0) return int_imm(0);
  if (s == 1) return v;
  return binary(BinaryOp::Mul, std::move(v), int_imm(s));
}
// terms[0] + terms[1] + ..., left to right, the zero terms folded away.
inline Expr index_sum(std::initializer_list<Expr> terms) {
  Expr sum = int_imm(0);
  for (const Expr& t : terms) sum = index_add(sum, t);
  return sum;
}
inline Expr index_div(Expr v, int64_t d) { return d == 1 ? v : binary(BinaryOp::Div, std::move(v), int_imm(d)); }
inline Expr index_rem(Expr v, int64_t d) { return binary(BinaryOp::Rem, std::move(v), int_imm(d)); }

}  // namespace relay::loops

// Mma and FragmentStore on the CPU (codegen_internal.h): the warp's 16 x 16 tile as loop
// IR over the fragment's slots, emitted like the kernel's own statements. Element (m, n)
// of a fragment lives in lane (16 m + n) / 8 of the warp, at place (16 m + n) % 8 of the
// fragment; the GPU's layout is the hardware's, which no kernel can observe (ir.h).
// Each element folds its 16 products in k order with fused multiply-adds.
#include <stdexcept>

#include "compiler/llvm/codegen_internal.h"
#include "compiler/loops/index_math.h"

namespace relay::compiler::cg {

using namespace loops;

void Emitter::matrix_statement(const Stmt& s) {
  if (!warp_) throw std::logic_error("internal error: a matrix statement outside a Warps loop");
  constexpr int64_t kTile = 16;
  auto scratch = [&](const char* name) { return Var{--scratch_vars_ - 1000000, name, i64()}; };
  const Buffer& acc = k_.buffer(s.buffer);
  const MmaOperands& o = s.mma;
  const Var m = scratch("m"), n = scratch("n"), element = scratch("element"), at = scratch("at");
  // the accumulator's element (m, n): lane warp * 32 + element / 8 of the team
  Block per_element{
      let(element, index_add(index_scale(var_ref(m), kTile), var_ref(n))),
      let(at, index_sum({index_scale(index_add(index_scale(var_ref(*warp_), kWarpLanes), index_div(var_ref(element), kFragment)),
                                     acc.thread_slot),
                         s.index, index_rem(var_ref(element), kFragment)}))};
  if (s.kind == StmtKind::Mma) {
    const Var k = scratch("k");
    const Expr a = loops::cast(f32(), load(k_.buffer(o.a), index_sum({o.a_offset, index_scale(var_ref(m), o.a_stride), var_ref(k)})));
    const Expr b = loops::cast(f32(), load(k_.buffer(o.b), index_sum({o.b_offset, index_scale(var_ref(n), o.b_stride), var_ref(k)})));
    per_element.push_back(for_loop(k, int_imm(kTile), LoopKind::Reduction,
                                   Block{store(acc, var_ref(at), call(MathFn::Fma, {a, b, load(acc, var_ref(at))}))}));
  } else {
    per_element.push_back(store(k_.buffer(o.a), index_sum({o.a_offset, index_scale(var_ref(m), o.a_stride), var_ref(n)}),
                                load(acc, var_ref(at))));
  }
  block(Block{for_loop(m, int_imm(kTile), LoopKind::Serial,
                       Block{for_loop(n, int_imm(kTile), LoopKind::Serial, std::move(per_element))})});
}

}  // namespace relay::compiler::cg

// A whole element-wise program: typing its steps, emitting it at one element, and the
// broadcast loop nest it runs in. Shared by lower_elementwise (the program is the kernel)
// and lower_reduction (the program is the prologue evaluated per reduced element), so both
// kernels compute the same values the same way.
#include "compiler/loops/elementwise_internal.h"

namespace relay::loops::ew {

CheckedProgram check_program(const ElementwiseProgram& p) {
  CheckedProgram c;
  if (p.steps.empty()) {
    c.error = "the program has no steps";
    return c;
  }
  for (size_t s = 0; s < p.steps.size(); ++s) {
    std::vector<DataType> types;
    for (const EwOperand& o : p.steps[s].operands) {
      const bool ok = o.kind == EwOperand::Input ? o.index >= 0 && static_cast<size_t>(o.index) < p.inputs.size()
                                                 : o.index >= 0 && static_cast<size_t>(o.index) < s;
      if (!ok) {
        c.error = "step " + std::to_string(s) + " refers to a missing operand";
        return c;
      }
      types.push_back(o.kind == EwOperand::Input ? p.inputs[static_cast<size_t>(o.index)].dtype
                                                 : c.step_types[static_cast<size_t>(o.index)]);
    }
    Typing typing = type_step(p.steps[s], types);
    if (!typing.error.empty()) {
      c.error = typing.error;
      return c;
    }
    c.step_types.push_back(typing.result);
    c.can_fail = c.can_fail || step_can_fail(p.steps[s], types[0]);
  }
  if (c.step_types.back() != p.out_dtype) c.error = "the last step's dtype differs from the output's";
  return c;
}

Expr emit_program(Emitter& em, const ElementwiseProgram& p, const std::function<Expr(int)>& load_input) {
  std::vector<Expr> loaded(p.inputs.size());
  std::vector<Expr> values;
  auto operand = [&](const EwOperand& o) -> Expr {
    if (o.kind == EwOperand::Step) return values[static_cast<size_t>(o.index)];
    Expr& slot = loaded[static_cast<size_t>(o.index)];
    if (!slot) slot = em.bind(load_input(o.index), "x");
    return slot;
  };
  for (const EwStep& s : p.steps) {
    std::vector<Expr> args;
    for (const EwOperand& o : s.operands) args.push_back(operand(o));
    values.push_back(em.bind(emit_step(em, s, args), "v"));
  }
  return values.back();
}

void record_failures(Block& block, const Kernel& k, int flag, const std::vector<Expr>& failures) {
  if (failures.empty()) return;
  Expr any = failures[0];
  for (size_t f = 1; f < failures.size(); ++f) any = binary(BinaryOp::Or, any, failures[f]);
  block.push_back(store(k.buffer(flag), int_imm(0), binary(BinaryOp::Or, load(k.buffer(flag), int_imm(0)), any)));
}

Strides contiguous(const std::vector<int64_t>& shape) {
  Strides s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

bool broadcast_strides(const std::vector<int64_t>& shape, const std::vector<int64_t>& out, Strides& result) {
  if (shape.size() > out.size()) return false;
  const Strides own = contiguous(shape);
  result.assign(out.size(), 0);
  const size_t offset = out.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == out[d + offset]) result[d + offset] = shape[d] == 1 ? 0 : own[d];
    else if (shape[d] != 1) return false;
  }
  return true;
}

Nest collapse(const std::vector<int64_t>& shape, const std::vector<Strides>& operands, const std::vector<int>* classes) {
  Nest n;
  n.strides.resize(operands.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const int cls = classes ? (*classes)[d] : 0;
    bool merge = !n.dims.empty() && n.classes.back() == cls;
    for (size_t o = 0; merge && o < operands.size(); ++o)
      merge = n.strides[o].back() == operands[o][d] * shape[d];
    if (merge) {
      n.dims.back() *= shape[d];
      for (size_t o = 0; o < operands.size(); ++o) n.strides[o].back() = operands[o][d];
    } else {
      n.dims.push_back(shape[d]);
      n.classes.push_back(cls);
      for (size_t o = 0; o < operands.size(); ++o) n.strides[o].push_back(operands[o][d]);
    }
  }
  if (n.dims.empty()) {  // a scalar, or every dim 1: one element
    n.dims.push_back(1);
    n.classes.push_back(0);
    for (auto& s : n.strides) s.push_back(0);
  }
  return n;
}

}  // namespace relay::loops::ew

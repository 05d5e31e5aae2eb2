// lower_elementwise: the loop nest over the output, numpy broadcasting as zero strides,
// and the status flag for programs that can fail.
//
// The output's dimensions are collapsed first (dimensions of extent 1 dropped, adjacent
// dimensions merged where every operand's strides allow), so (3, 1) x (1, 4) stays 2-D
// while a plain contiguous chain becomes one long dimension. The nest is then
//   parallel for o      (the first collapsed dimension, or chunks of kElementwiseChunk
//                        elements when there is only one)
//     serial for ...    (middle dimensions)
//       vectorizable for i   (the last dimension: unit or zero strides, so it vectorises)
// and each input is loaded once per element, each step bound to a let.
#include <algorithm>

#include "compiler/loops/elementwise_internal.h"
#include "compiler/loops/verify.h"

namespace relay::loops {
namespace {

using Strides = std::vector<int64_t>;

Strides contiguous(const std::vector<int64_t>& shape) {
  Strides s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

// Strides of `shape` read at the index of `out` (right-aligned; broadcast dims stride 0).
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

struct Nest {
  std::vector<int64_t> dims;
  std::vector<Strides> strides;  // per operand (output first), per dim
};

Nest collapse(const std::vector<int64_t>& out, const std::vector<Strides>& operands) {
  Nest n;
  n.strides.resize(operands.size());
  for (size_t d = 0; d < out.size(); ++d) {
    if (out[d] == 1) continue;
    bool merge = !n.dims.empty();
    for (size_t o = 0; merge && o < operands.size(); ++o)
      merge = n.strides[o].back() == operands[o][d] * out[d];
    if (merge) {
      n.dims.back() *= out[d];
      for (size_t o = 0; o < operands.size(); ++o) n.strides[o].back() = operands[o][d];
    } else {
      n.dims.push_back(out[d]);
      for (size_t o = 0; o < operands.size(); ++o) n.strides[o].push_back(operands[o][d]);
    }
  }
  if (n.dims.empty()) {  // a scalar, or every dim 1: one element
    n.dims.push_back(1);
    for (auto& s : n.strides) s.push_back(0);
  }
  return n;
}

Expr add(Expr a, Expr b) {
  if (a->kind == ExprKind::IntImm && a->int_value == 0) return b;
  if (b->kind == ExprKind::IntImm && b->int_value == 0) return a;
  return binary(BinaryOp::Add, std::move(a), std::move(b));
}
Expr scale(Expr v, int64_t s) {
  if (s == 0) return int_imm(0);
  if (s == 1) return v;
  return binary(BinaryOp::Mul, std::move(v), int_imm(s));
}

}  // namespace

LoweredElementwise lower_elementwise(const ElementwiseProgram& p, std::string name) {
  LoweredElementwise r;
  auto fail = [&](std::string m) {
    r.error = std::move(m);
    r.kernel = Kernel{};
    return r;
  };
  if (p.steps.empty()) return fail("the program has no steps");
  for (int64_t d : p.out_shape)
    if (d < 0) return fail("negative output dimension");

  // Types of every step, checked against the operators' rules.
  std::vector<DataType> step_types;
  bool can_fail = false;
  for (size_t s = 0; s < p.steps.size(); ++s) {
    std::vector<DataType> types;
    for (const EwOperand& o : p.steps[s].operands) {
      const bool ok = o.kind == EwOperand::Input ? o.index >= 0 && static_cast<size_t>(o.index) < p.inputs.size()
                                                 : o.index >= 0 && static_cast<size_t>(o.index) < s;
      if (!ok) return fail("step " + std::to_string(s) + " refers to a missing operand");
      types.push_back(o.kind == EwOperand::Input ? p.inputs[static_cast<size_t>(o.index)].dtype
                                                 : step_types[static_cast<size_t>(o.index)]);
    }
    ew::Typing typing = ew::type_step(p.steps[s], types);
    if (!typing.error.empty()) return fail(typing.error);
    step_types.push_back(typing.result);
    can_fail = can_fail || ew::step_can_fail(p.steps[s], types[0]);
  }
  if (step_types.back() != p.out_dtype) return fail("the last step's dtype differs from the output's");

  // Buffers: inputs, output, status.
  Kernel& k = r.kernel;
  k.name = std::move(name);
  std::vector<Strides> operand_strides{contiguous(p.out_shape)};
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const EwInput& in = p.inputs[i];
    Strides s;
    if (!broadcast_strides(in.shape, p.out_shape, s))
      return fail("input " + std::to_string(i) + " does not broadcast to the output shape");
    operand_strides.push_back(std::move(s));
    add_param(k, "in" + std::to_string(i), in.dtype, in.shape, contiguous(in.shape));
  }
  r.output_buffer = add_param(k, "out", p.out_dtype, p.out_shape, contiguous(p.out_shape));
  if (can_fail) r.status_buffer = add_param(k, "status", DataType::int_(32), {}, {});
  const int flag = can_fail ? add_local(k, "flag", boolean(), 1) : -1;

  const Nest nest = collapse(p.out_shape, operand_strides);
  const size_t rank = nest.dims.size();
  for (int64_t d : p.out_shape)
    if (d == 0) return r;  // nothing to compute: an empty body

  // Loop variables and the index of the first element of the innermost row.
  Block outer_body;
  Block* body = &outer_body;
  std::vector<Expr> index(nest.strides.size(), int_imm(0));
  const Var outer = new_var(k, "o", i64());
  const bool chunked = rank == 1 && nest.dims[0] > kElementwiseChunk;
  Expr outer_extent, inner_extent;
  Var inner = outer;
  if (chunked) {
    const int64_t n = nest.dims[0];
    outer_extent = int_imm((n + kElementwiseChunk - 1) / kElementwiseChunk);
    inner = new_var(k, "i", i64());
    // min(chunk, n - o * chunk): the last chunk is shorter
    inner_extent = binary(BinaryOp::Min, int_imm(kElementwiseChunk),
                          binary(BinaryOp::Sub, int_imm(n), scale(var_ref(outer), kElementwiseChunk)));
    for (size_t o = 0; o < index.size(); ++o)
      index[o] = scale(add(scale(var_ref(outer), kElementwiseChunk), var_ref(inner)), nest.strides[o][0]);
  } else if (rank == 1) {
    outer_extent = int_imm(1);
    inner = new_var(k, "i", i64());
    inner_extent = int_imm(nest.dims[0]);
    for (size_t o = 0; o < index.size(); ++o) index[o] = scale(var_ref(inner), nest.strides[o][0]);
  } else {
    outer_extent = int_imm(nest.dims[0]);
    inner = new_var(k, "i", i64());
    inner_extent = int_imm(nest.dims[rank - 1]);
    for (size_t o = 0; o < index.size(); ++o) index[o] = scale(var_ref(outer), nest.strides[o][0]);
  }

  if (flag >= 0) {
    outer_body.push_back(alloc(k.buffer(flag)));
    outer_body.push_back(store(k.buffer(flag), int_imm(0), int_imm(0, boolean())));
  }

  // Middle dimensions: serial loops nested inside the parallel one.
  for (size_t d = 1; d + 1 < rank; ++d) {
    const Var v = new_var(k, "j", i64());
    body->push_back(for_loop(v, int_imm(nest.dims[d]), LoopKind::Serial, {}));
    body = &body->back().body;
    for (size_t o = 0; o < index.size(); ++o) index[o] = add(index[o], scale(var_ref(v), nest.strides[o][d]));
  }
  if (!chunked && rank >= 2)
    for (size_t o = 0; o < index.size(); ++o) index[o] = add(index[o], scale(var_ref(inner), nest.strides[o][rank - 1]));

  // The innermost body: loads, steps, the store, failure accumulation.
  Block inner_body;
  ew::Emitter em{k, inner_body, {}};
  std::vector<Expr> loaded(p.inputs.size());
  std::vector<Expr> values;
  auto operand = [&](const EwOperand& o) -> Expr {
    if (o.kind == EwOperand::Step) return values[static_cast<size_t>(o.index)];
    Expr& slot = loaded[static_cast<size_t>(o.index)];
    if (!slot) slot = em.bind(load(k.buffer(o.index), index[static_cast<size_t>(o.index) + 1]), "x");
    return slot;
  };
  for (const EwStep& s : p.steps) {
    std::vector<Expr> args;
    for (const EwOperand& o : s.operands) args.push_back(operand(o));
    values.push_back(em.bind(ew::emit_step(em, s, args), "v"));
  }
  inner_body.push_back(store(k.buffer(r.output_buffer), index[0], values.back()));
  if (flag >= 0 && !em.failures.empty()) {
    Expr any = em.failures[0];
    for (size_t f = 1; f < em.failures.size(); ++f) any = binary(BinaryOp::Or, any, em.failures[f]);
    inner_body.push_back(
        store(k.buffer(flag), int_imm(0), binary(BinaryOp::Or, load(k.buffer(flag), int_imm(0)), any)));
  }
  body->push_back(for_loop(inner, inner_extent, LoopKind::Vectorizable, std::move(inner_body)));

  if (flag >= 0)
    outer_body.push_back(if_then(load(k.buffer(flag), int_imm(0)),
                                 {store(k.buffer(r.status_buffer), int_imm(0), int_imm(1, DataType::int_(32)))}));
  k.body.push_back(for_loop(outer, outer_extent, LoopKind::Parallel, std::move(outer_body)));

  std::vector<std::string> problems = verify(k);
  if (!problems.empty()) return fail("internal error: the lowered kernel does not verify: " + problems[0]);
  return r;
}

}  // namespace relay::loops

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
// and each input is loaded once per element, each step bound to a let. The GPU shape is
//   parallel for t      (kGpuVector consecutive elements of the collapsed output, in
//                        row-major order, where they divide it; else one)
// with each collapsed dimension's index (e / inner) % extent of each element e.
#include "compiler/loops/elementwise_internal.h"
#include "compiler/loops/verify.h"

namespace relay::loops {

using ew::contiguous;
using ew::Strides;

namespace {

// Each operand's element offset at flat output element `t` of the collapsed nest: `t`
// itself for an operand laid out like the output, else the sum over dimensions of
// ((t / inner) % extent) * stride.
std::vector<Expr> flat_indices(const ew::Nest& nest, const Var& t) {
  const Strides row_major = contiguous(nest.dims);
  std::vector<Expr> index(nest.strides.size(), int_imm(0));
  int64_t inner = 1;
  for (size_t d = nest.dims.size(); d-- > 0;) {
    Expr coordinate = inner == 1 ? var_ref(t) : binary(BinaryOp::Div, var_ref(t), int_imm(inner));
    if (d > 0) coordinate = binary(BinaryOp::Rem, coordinate, int_imm(nest.dims[d]));
    for (size_t o = 0; o < index.size(); ++o)
      if (nest.strides[o] != row_major)
        index[o] = ew::index_add(index[o], ew::index_scale(coordinate, nest.strides[o][d]));
    inner *= nest.dims[d];
  }
  for (size_t o = 0; o < index.size(); ++o)
    if (nest.strides[o] == row_major) index[o] = var_ref(t);
  return index;
}

}  // namespace

LoweredElementwise lower_elementwise(const ElementwiseProgram& p, std::string name, LoopShape shape) {
  LoweredElementwise r;
  auto fail = [&](std::string m) {
    r.error = std::move(m);
    r.kernel = Kernel{};
    return r;
  };
  for (int64_t d : p.out_shape)
    if (d < 0) return fail("negative output dimension");
  const ew::CheckedProgram checked = ew::check_program(p);
  if (!checked.error.empty()) return fail(checked.error);
  const bool can_fail = checked.can_fail;

  // Buffers: inputs, output, status.
  Kernel& k = r.kernel;
  k.name = std::move(name);
  std::vector<Strides> operand_strides{contiguous(p.out_shape)};
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const EwInput& in = p.inputs[i];
    Strides s;
    if (!ew::broadcast_strides(in.shape, p.out_shape, s))
      return fail("input " + std::to_string(i) + " does not broadcast to the output shape");
    operand_strides.push_back(std::move(s));
    add_param(k, "in" + std::to_string(i), in.dtype, in.shape, contiguous(in.shape));
  }
  r.output_buffer = add_param(k, "out", p.out_dtype, p.out_shape, contiguous(p.out_shape));
  if (can_fail) r.status_buffer = add_param(k, "status", DataType::int_(32), {}, {});
  const int flag = can_fail ? add_local(k, "flag", boolean(), 1) : -1;

  const ew::Nest nest = ew::collapse(p.out_shape, operand_strides);
  const size_t rank = nest.dims.size();
  for (int64_t d : p.out_shape)
    if (d == 0) return r;  // nothing to compute: an empty body

  if (shape == LoopShape::Gpu) {
    int64_t n = 1;
    for (int64_t d : nest.dims) n *= d;
    // kGpuVector consecutive elements a thread where they divide the output: an operand
    // laid out like the output is read at consecutive addresses, which the GPU backend
    // merges into vector loads (its buffers are 16-byte aligned, nvptx.h)
    const int64_t per_thread = n % kGpuVector == 0 ? kGpuVector : 1;
    const Var t = new_var(k, "t", i64());
    Block body;
    if (flag >= 0) {
      body.push_back(alloc(k.buffer(flag)));
      body.push_back(store(k.buffer(flag), int_imm(0), int_imm(0, boolean())));
    }
    for (int64_t c = 0; c < per_thread; ++c) {
      Var element = t;
      if (per_thread > 1) {
        element = new_var(k, "e", i64());
        body.push_back(let(element, ew::index_add(ew::index_scale(var_ref(t), per_thread), int_imm(c))));
      }
      const std::vector<Expr> index = flat_indices(nest, element);
      ew::Emitter em{k, body, {}};
      const Expr value = ew::emit_program(
          em, p, [&](int i) { return load(k.buffer(i), index[static_cast<size_t>(i) + 1]); });
      body.push_back(store(k.buffer(r.output_buffer), index[0], value));
      if (flag >= 0) ew::record_failures(body, k, flag, em.failures);
    }
    if (flag >= 0)
      body.push_back(if_then(load(k.buffer(flag), int_imm(0)),
                             {store(k.buffer(r.status_buffer), int_imm(0), int_imm(1, DataType::int_(32)))}));
    k.body.push_back(for_loop(t, int_imm(n / per_thread), LoopKind::Parallel, std::move(body)));
    std::vector<std::string> problems = verify(k);
    if (!problems.empty()) return fail("internal error: the lowered kernel does not verify: " + problems[0]);
    return r;
  }

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
                          binary(BinaryOp::Sub, int_imm(n), ew::index_scale(var_ref(outer), kElementwiseChunk)));
    for (size_t o = 0; o < index.size(); ++o)
      index[o] = ew::index_scale(ew::index_add(ew::index_scale(var_ref(outer), kElementwiseChunk), var_ref(inner)), nest.strides[o][0]);
  } else if (rank == 1) {
    outer_extent = int_imm(1);
    inner = new_var(k, "i", i64());
    inner_extent = int_imm(nest.dims[0]);
    for (size_t o = 0; o < index.size(); ++o) index[o] = ew::index_scale(var_ref(inner), nest.strides[o][0]);
  } else {
    outer_extent = int_imm(nest.dims[0]);
    inner = new_var(k, "i", i64());
    inner_extent = int_imm(nest.dims[rank - 1]);
    for (size_t o = 0; o < index.size(); ++o) index[o] = ew::index_scale(var_ref(outer), nest.strides[o][0]);
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
    for (size_t o = 0; o < index.size(); ++o) index[o] = ew::index_add(index[o], ew::index_scale(var_ref(v), nest.strides[o][d]));
  }
  if (!chunked && rank >= 2)
    for (size_t o = 0; o < index.size(); ++o) index[o] = ew::index_add(index[o], ew::index_scale(var_ref(inner), nest.strides[o][rank - 1]));

  // The innermost body: loads, steps, the store, failure accumulation.
  Block inner_body;
  ew::Emitter em{k, inner_body, {}};
  const Expr value = ew::emit_program(
      em, p, [&](int i) { return load(k.buffer(i), index[static_cast<size_t>(i) + 1]); });
  inner_body.push_back(store(k.buffer(r.output_buffer), index[0], value));
  if (flag >= 0) ew::record_failures(inner_body, k, flag, em.failures);
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

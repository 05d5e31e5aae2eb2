// lower_reduction: the loop nest of a reduction with an element-wise prologue.
//
// The reduced tensor's dimensions are collapsed as for element-wise kernels, but a kept
// and a reduced dimension never merge. Kept dimensions are the outer loops (the first is
// the parallel one), reduced dimensions the inner `reduction` loops in row-major order, so
// every output folds its elements in exactly the reference kernel's order:
//
//   reduced innermost (sum over the last axis, layer_norm's statistics):
//     parallel for o / serial for kept... / rows of kInterleavedOutputs outputs {
//       vectorizable for c { acc[c] = identity }
//       reduction for r... { vectorizable for c { prologue; acc[c] = fold(acc[c], value) } }
//       vectorizable for c { out[...c] = finish(acc[c]) } }
//   Each output's fold is a serial chain, never vectorised along r (that would
//   reassociate float sums); the 8 outputs of a row are independent chains side by side.
//
//   kept innermost (sum over axis 0, mean over the batch):
//     parallel for o / serial for kept... / chunks of the last kept dimension {
//       vectorizable for c { acc[c] = identity }
//       reduction for r... { vectorizable for c { prologue; acc[c] = fold(acc[c], value) } }
//       vectorizable for c { out[...c] = finish(acc[c]) } }
//   A row of independent accumulators: each output still folds in the reference's order,
//   and the c loop vectorises without reassociating anything.
//
//   the GPU shape: one parallel iteration (a thread) per output, the kept dimensions'
//   positions recovered by division, each output folded serially in the same order:
//     parallel for o { acc = identity; reduction for r... { ... }; out[...] = finish(acc) }
//   Neighbouring threads read neighbouring elements when the kept dimensions are the
//   inner ones (a reduction over the batch or the channels). A few long reductions (a
//   sum over a whole tensor: one thread would fold it all) take a warp per output instead:
//     parallel for o { threads for lane { acc[lane] = identity;
//       reduction for step { element lane + 32 step, row-major; fold } }
//       lane_reduce acc; out[...] = finish(acc[0]) }
//   exact for integer sums, maxima and minima; a float32 sum in the lanes' order. The
//   fewest longest (a sum over a whole large tensor) take a block of 256 threads instead,
//   their partial results combined by a tree through shared memory in the same order.
//   Fewer still and longer (lower_split_reduction) spread each output over many blocks,
//   a block per chunk of its elements writing the chunk's partial result, and a second
//   kernel folds an output's partials in chunk order.
#include <algorithm>
#include <optional>

#include "compiler/loops/reduction_internal.h"
#include "compiler/loops/verify.h"

namespace relay::loops {

namespace {

using ew::Strides;

bool is_arg(ReduceOp op) { return op == ReduceOp::ArgMax || op == ReduceOp::ArgMin; }

// How a warp's lanes combine their partial results (LaneReduce), for the reductions a warp
// may share: float32/int32 sums and means, int32 maxima and minima (a float maximum keeps
// the reference's NaN rule only folded in order).
std::optional<BinaryOp> lane_combine(ReduceOp op, DataType t) {
  const bool f = t == f32(), i = t == DataType::int_(32);
  if ((op == ReduceOp::Sum || op == ReduceOp::Mean) && (f || i)) return BinaryOp::Add;
  if (op == ReduceOp::Max && i) return BinaryOp::Max;
  if (op == ReduceOp::Min && i) return BinaryOp::Min;
  return std::nullopt;
}

// Relay's reduced axes: none listed means every axis (exclude ignored); else the listed
// ones, complemented by exclude. Empty error on success.
std::string reduced_axes(const ReductionProgram& p, size_t rank, std::vector<bool>& reduced) {
  reduced.assign(rank, p.axes.empty());
  for (int64_t a : p.axes) {
    const int64_t d = a < 0 ? a + static_cast<int64_t>(rank) : a;
    if (d < 0 || d >= static_cast<int64_t>(rank))
      return "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank);
    if (reduced[static_cast<size_t>(d)]) return "axis " + std::to_string(a) + " is listed twice";
    reduced[static_cast<size_t>(d)] = true;
  }
  if (!p.axes.empty() && p.exclude) reduced.flip();
  return {};
}

}  // namespace

namespace {

// The output count and reduced element count of `p` (false when its axes are invalid).
bool extents(const ReductionProgram& p, int64_t& outputs, int64_t& count) {
  std::vector<bool> reduced;
  if (!reduced_axes(p, p.prologue.out_shape.size(), reduced).empty()) return false;
  outputs = count = 1;
  for (size_t d = 0; d < reduced.size(); ++d) (reduced[d] ? count : outputs) *= p.prologue.out_shape[d];
  return true;
}

// `split` > 1: the GPU's first kernel of a split reduction: an iteration (a block) per
// output and chunk of `split`, writing the chunk's unfinished result to `partials`.
LoweredReduction lower(const ReductionProgram& p, std::string name, LoopShape shape_for, int64_t split) {
  LoweredReduction r;
  auto fail = [&](std::string m) {
    r.error = std::move(m);
    r.kernel = Kernel{};
    return r;
  };
  const ElementwiseProgram& pro = p.prologue;
  const std::vector<int64_t>& shape = pro.out_shape;
  const size_t rank = shape.size();
  for (int64_t d : shape)
    if (d < 0) return fail("negative dimension");
  const ew::CheckedProgram checked = ew::check_program(pro);
  if (!checked.error.empty()) return fail(checked.error);
  const DataType t = pro.out_dtype;
  const std::string op_name(reduce_op_name(p.op));
  if (!reduction_supports(p.op, t)) return fail("`" + op_name + "` on " + dtype_name(t) + " has no lowering");
  if (is_arg(p.op)) {
    if (rank == 0) return fail("`" + op_name + "` needs a tensor of rank at least 1");
    if (!p.out_dtype.is_int() && !p.out_dtype.is_uint()) return fail("`" + op_name + "` gives an integer dtype");
  } else if (p.out_dtype != t) {
    return fail("the output dtype differs from the reduced tensor's");
  }

  // Which dimensions reduce; the output's stride along each input dimension (0 where
  // reduced) and the position among the reduced elements (what argmax returns).
  std::vector<bool> reduced;
  if (std::string e = reduced_axes(p, rank, reduced); !e.empty()) return fail(e);
  Strides out_strides(rank, 0), position_strides(rank, 0);
  std::vector<int64_t> out_shape;
  int64_t count = 1, out_stride = 1, position = 1, outputs = 1;
  for (size_t d = rank; d-- > 0;) {
    if (reduced[d]) {
      position_strides[d] = position;
      position *= shape[d];
      count *= shape[d];
    } else {
      out_strides[d] = out_stride;
      out_stride *= shape[d];
    }
  }
  for (size_t d = 0; d < rank; ++d) {
    if (!reduced[d]) out_shape.push_back(shape[d]), outputs *= shape[d];
    else if (p.keepdims) out_shape.push_back(1);
  }
  if (out_shape != p.out_shape) return fail("the output shape differs from what the axes give");
  count -= p.count_offset;  // the divisor of a mean (an unbiased variance's count - 1)
  if (p.op == ReduceOp::Mean && (t.is_int() || t.is_uint()) && outputs > 0 && red::wrapped_count(t, count) == 0)
    return fail("the reference fails: integer division by zero in `mean` (" + std::to_string(count) +
                " elements as " + dtype_name(t) + ")");

  // Buffers: prologue inputs, output, status; operands of the nest: the output, the
  // reduced position, then the inputs (broadcast to the reduced tensor's shape).
  Kernel& k = r.kernel;
  k.name = std::move(name);
  std::vector<Strides> operands{out_strides, position_strides};
  for (size_t i = 0; i < pro.inputs.size(); ++i) {
    Strides s;
    if (!ew::broadcast_strides(pro.inputs[i].shape, shape, s))
      return fail("input " + std::to_string(i) + " does not broadcast to the reduced shape");
    operands.push_back(std::move(s));
    add_param(k, "in" + std::to_string(i), pro.inputs[i].dtype, pro.inputs[i].shape, ew::contiguous(pro.inputs[i].shape));
  }
  const DataType acc_t = red::acc_dtype(p.op, t);
  r.output_buffer = split > 1 ? add_param(k, "partials", acc_t, {outputs * split}, {1})
                              : add_param(k, "out", p.out_dtype, p.out_shape, ew::contiguous(p.out_shape));
  if (checked.can_fail) r.status_buffer = add_param(k, "status", DataType::int_(32), {}, {});
  if (outputs == 0) return r;  // nothing to compute: an empty body

  std::vector<int> classes(rank);
  for (size_t d = 0; d < rank; ++d) classes[d] = reduced[d] ? 1 : 0;
  const ew::Nest nest = ew::collapse(shape, operands, &classes);
  std::vector<size_t> kept, red_dims;
  for (size_t d = 0; d < nest.dims.size(); ++d) (nest.classes[d] ? red_dims : kept).push_back(d);
  const bool gpu = shape_for == LoopShape::Gpu;
  // Reduced innermost on the CPU: the last kept dimension still becomes a row, of a few
  // outputs (kInterleavedOutputs) folded side by side, each in its own order: independent
  // chains the core overlaps, where one output at a time waits on every add's latency.
  const bool row = !gpu && !kept.empty() && !red_dims.empty();
  const bool reduced_innermost = row && nest.classes.back() == 1;
  int64_t reduced_elements = 1;
  for (size_t d : red_dims) reduced_elements *= nest.dims[d];
  const std::optional<BinaryOp> combine = lane_combine(p.op, t);
  // a team per output: a block for the few longest, else a warp (reduction.h); a block
  // per chunk of an output when split
  const bool block = (gpu && combine && outputs < kBlockReductionOutputs && reduced_elements >= kBlockReductionCount) ||
                     split > 1;
  const bool lanes = block || (gpu && combine && outputs < kLaneReductionOutputs && reduced_elements >= kLaneReductionCount);
  const int64_t team = block ? kBlockReductionThreads : kWarpLanes;

  // The accumulator row: the last kept dimension in chunks (one chunk per parallel
  // iteration when it is the only kept dimension, so the threads share it).
  const int64_t last = row ? nest.dims[kept.back()] : 1;
  int64_t chunk = 1;
  if (row && reduced_innermost) {
    chunk = std::min(kInterleavedOutputs, last);
  } else if (row) {
    chunk = std::min(kReductionRow, last);
    if (kept.size() == 1) chunk = std::min(chunk, std::max<int64_t>(64, (last / 16 + 15) / 16 * 16));
  }
  const int64_t chunks = (last + chunk - 1) / chunk;

  const int acc = lanes ? add_thread_local(k, "acc", acc_t, team, 1) : add_local(k, "acc", acc_t, chunk);
  const int partial = block ? add_shared(k, "partial", acc_t, team) : -1;  // the block's tree
  const int acc_index = is_arg(p.op) ? add_local(k, "best_index", i64(), chunk) : -1;
  const int flag = checked.can_fail ? add_local(k, "flag", boolean(), 1) : -1;

  // Loop variables and each nest dimension's position expression.
  std::vector<Expr> pos(nest.dims.size(), int_imm(0));
  const Var outer = new_var(k, "o", i64());
  int64_t outer_extent = 1;
  std::vector<Var> serial_kept;  // kept dims inside the parallel loop (not the row)
  std::vector<size_t> serial_kept_dims;
  Expr row_base = int_imm(0);  // the chunk's first element along the row dimension
  std::optional<Var> chunk_var;
  const size_t plain_kept = row ? kept.size() - 1 : kept.size();  // kept dims looped one by one
  // split: the output of iteration `outer`, and the first of its chunk's elements (chunks
  // of `span`: the last may be shorter, never empty, as split <= reduced / span)
  const Expr output_of = split > 1 ? binary(BinaryOp::Div, var_ref(outer), int_imm(split)) : var_ref(outer);
  const int64_t span = split > 1 ? (reduced_elements + split - 1) / split : reduced_elements;
  const Expr chunk_begin = split > 1 ? ew::index_scale(binary(BinaryOp::Rem, var_ref(outer), int_imm(split)), span) : int_imm(0);
  if (gpu) {  // every output (or chunk of one) a parallel iteration
    int64_t inner = 1;
    for (size_t j = kept.size(); j-- > 0;) {
      Expr coordinate = inner == 1 ? output_of : binary(BinaryOp::Div, output_of, int_imm(inner));
      if (j > 0) coordinate = binary(BinaryOp::Rem, coordinate, int_imm(nest.dims[kept[j]]));
      pos[kept[j]] = coordinate;
      inner *= nest.dims[kept[j]];
    }
    outer_extent = inner * std::max<int64_t>(split, 1);
  } else if (row && plain_kept == 0) {  // the row is the only kept dim: its chunks are parallel
    outer_extent = chunks;
    row_base = ew::index_scale(var_ref(outer), chunk);
  } else if (plain_kept > 0) {
    outer_extent = nest.dims[kept[0]];
    pos[kept[0]] = var_ref(outer);
    for (size_t j = 1; j < plain_kept; ++j) {
      serial_kept.push_back(new_var(k, "j", i64()));
      serial_kept_dims.push_back(kept[j]);
      pos[kept[j]] = var_ref(serial_kept.back());
    }
    if (row && chunks > 1) {
      chunk_var = new_var(k, "ch", i64());
      row_base = ew::index_scale(var_ref(*chunk_var), chunk);
    }
  }
  std::vector<Var> red_vars;  // the serial fold's loops (a warp's lanes walk a flat index instead)
  if (!lanes) {
    for (size_t d : red_dims) {
      red_vars.push_back(new_var(k, "r", i64()));
      pos[d] = var_ref(red_vars.back());
    }
  }
  // The row loop's extent: min(chunk, last - base) (a shorter last chunk).
  // A constant when every chunk is whole, so the backend can keep the row in registers.
  const Expr row_extent = chunks > 1 && last % chunk != 0
                              ? binary(BinaryOp::Min, int_imm(chunk), binary(BinaryOp::Sub, int_imm(last), row_base))
                              : int_imm(std::min(chunk, last));
  auto index_of = [&](size_t operand) {
    Expr e = int_imm(0);
    for (size_t d = 0; d < nest.dims.size(); ++d) e = ew::index_add(e, ew::index_scale(pos[d], nest.strides[operand][d]));
    return e;
  };
  // A row loop over c: sets the row dimension's position to base + c while `make` builds
  // its body.
  auto row_loop = [&](auto make) {
    const Var c = new_var(k, "c", i64());
    pos[kept.back()] = ew::index_add(row_base, var_ref(c));
    Block body = make(var_ref(c));
    return for_loop(c, row_extent, LoopKind::Vectorizable, std::move(body));
  };
  const Expr zero = int_imm(0);

  // Innermost: the prologue at one element folded into the accumulator at `slot`.
  auto fold_body = [&](const Expr& slot) {
    Block b;
    ew::Emitter em{k, b, {}};
    const Expr value = ew::emit_program(
        em, pro, [&](int i) { return load(k.buffer(i), index_of(static_cast<size_t>(i) + 2)); });
    const Expr current = em.bind(load(k.buffer(acc), slot), "acc");
    if (is_arg(p.op)) {
      const Expr current_index = em.bind(load(k.buffer(acc_index), slot), "idx");
      const red::ArgState next = red::arg_fold(em, p.op == ReduceOp::ArgMax, p.select_last_index, current,
                                               current_index, value, index_of(1));
      b.push_back(store(k.buffer(acc), slot, next.best));
      b.push_back(store(k.buffer(acc_index), slot, next.index));
    } else {
      b.push_back(store(k.buffer(acc), slot, red::fold(em, p.op, t, current, value)));
    }
    if (flag >= 0) ew::record_failures(b, k, flag, em.failures);
    return b;
  };
  auto init_body = [&](const Expr& slot) {
    Block b{store(k.buffer(acc), slot, red::identity(p.op, t))};
    if (acc_index >= 0) b.push_back(store(k.buffer(acc_index), slot, int_imm(-1)));
    return b;
  };
  // the output from the accumulator at `slot` (of `from`: acc, or a block's shared partials)
  auto finish_body = [&](const Expr& slot, const Buffer* from = nullptr) {
    const Expr result = is_arg(p.op) ? cast(p.out_dtype, load(k.buffer(acc_index), slot))
                                     : red::finish(p.op, t, p.out_dtype, load(from ? *from : k.buffer(acc), slot), count);
    return Block{store(k.buffer(r.output_buffer), index_of(0), result)};
  };

  // One output (or row of outputs): init, the reduction loops, finish.
  Block per_output{alloc(k.buffer(acc))};
  if (acc_index >= 0) per_output.push_back(alloc(k.buffer(acc_index)));
  Block inner;
  if (lanes) {
    // a team per output: thread l folds the reduced elements l, l + T, ... (row-major), then
    // a tree combines the T partial results (a warp's shuffles, or a block's shared memory)
    const Var lane = new_var(k, "lane", i64()), step = new_var(k, "step", i64()), flat = new_var(k, "flat", i64());
    const Expr mine = thread_slot_index(lane, k.buffer(acc), zero);
    Block fold{let(flat, ew::index_add(chunk_begin, ew::index_add(var_ref(lane), ew::index_scale(var_ref(step), team))))};
    int64_t below = 1;
    for (size_t j = red_dims.size(); j-- > 0;) {
      Expr coordinate = below == 1 ? var_ref(flat) : binary(BinaryOp::Div, var_ref(flat), int_imm(below));
      if (j > 0) coordinate = binary(BinaryOp::Rem, coordinate, int_imm(nest.dims[red_dims[j]]));
      pos[red_dims[j]] = coordinate;
      below *= nest.dims[red_dims[j]];
    }
    for (Stmt& st : fold_body(mine)) fold.push_back(std::move(st));
    Block lane_body = init_body(mine);
    // the chunk's elements (all of them unsplit): min(span, reduced - begin)
    const Expr extent = split > 1 ? binary(BinaryOp::Min, int_imm(span),
                                           binary(BinaryOp::Sub, int_imm(reduced_elements), chunk_begin))
                                  : int_imm(reduced_elements);
    Expr share = binary(BinaryOp::Div,
                        binary(BinaryOp::Add, binary(BinaryOp::Sub, extent, var_ref(lane)), int_imm(team - 1)),
                        int_imm(team));
    lane_body.push_back(for_loop(step, std::move(share), LoopKind::Reduction, std::move(fold)));
    if (!block) {
      per_output.push_back(for_loop(lane, int_imm(kWarpLanes), LoopKind::Threads, std::move(lane_body)));
      per_output.push_back(lane_reduce(k.buffer(acc), *combine));
      for (Stmt& st : finish_body(zero)) per_output.push_back(std::move(st));
    } else {
      // each thread's partial into shared memory; then for s = T/2 .. 1 the threads below s
      // combine slot l with slot l + s (the LaneReduce order, one barrier a level)
      const Buffer& shared = k.buffer(partial);
      per_output.push_back(alloc(shared));
      lane_body.push_back(store(shared, var_ref(lane), load(k.buffer(acc), mine)));
      per_output.push_back(for_loop(lane, int_imm(team), LoopKind::Threads, std::move(lane_body)));
      for (int64_t half = team / 2; half >= 1; half /= 2)
        per_output.push_back(counted_loop(k, "thread", team, LoopKind::Threads, [&](const Var& thread) {
          const Expr other = load(shared, ew::index_add(var_ref(thread), half));
          return Block{if_then(compare(CmpOp::Lt, var_ref(thread), int_imm(half)),
                               {store(shared, var_ref(thread), binary(*combine, load(shared, var_ref(thread)), other))})};
        }));
      if (split > 1)  // the chunk's result, unfinished
        per_output.push_back(store(k.buffer(r.output_buffer), var_ref(outer), load(shared, zero)));
      else
        for (Stmt& st : finish_body(zero, &shared)) per_output.push_back(std::move(st));
    }
  } else if (row) {
    per_output.push_back(row_loop(init_body));
    inner.push_back(row_loop(fold_body));
  } else {
    for (const Stmt& s : init_body(zero)) per_output.push_back(s);
    inner = fold_body(zero);
  }
  if (!lanes) {
    for (size_t j = red_vars.size(); j-- > 0;) {
      Stmt loop = for_loop(red_vars[j], int_imm(nest.dims[red_dims[j]]), LoopKind::Reduction, std::move(inner));
      inner = Block{std::move(loop)};
    }
    for (Stmt& s : inner) per_output.push_back(std::move(s));
    if (row) per_output.push_back(row_loop([&](const Expr& slot) { return finish_body(slot); }));
    else
      for (Stmt& s : finish_body(zero)) per_output.push_back(std::move(s));
  }

  // The kept loops around it, innermost first: the row's chunks, then the serial kept dims.
  Block body = std::move(per_output);
  if (chunk_var) body = Block{for_loop(*chunk_var, int_imm(chunks), LoopKind::Serial, std::move(body))};
  for (size_t j = serial_kept.size(); j-- > 0;)
    body = Block{for_loop(serial_kept[j], int_imm(nest.dims[serial_kept_dims[j]]), LoopKind::Serial, std::move(body))};
  if (flag >= 0) {
    Block with_flag{alloc(k.buffer(flag)), store(k.buffer(flag), zero, int_imm(0, boolean()))};
    for (Stmt& s : body) with_flag.push_back(std::move(s));
    with_flag.push_back(if_then(load(k.buffer(flag), zero),
                                {store(k.buffer(r.status_buffer), zero, int_imm(1, DataType::int_(32)))}));
    body = std::move(with_flag);
  }
  k.body.push_back(for_loop(outer, int_imm(outer_extent), LoopKind::Parallel, std::move(body)));

  std::vector<std::string> problems = verify(k);
  if (!problems.empty()) return fail("internal error: the lowered kernel does not verify: " + problems[0]);
  return r;
}

// The second kernel: per output, its `split` partials folded in chunk order, finished.
LoweredKernel lower_finish(const ReductionProgram& p, const std::string& name, int64_t outputs, int64_t count,
                           int64_t split) {
  LoweredKernel r;
  Kernel& k = r.kernel;
  k.name = name + "_finish";
  const DataType t = p.prologue.out_dtype, acc_t = red::acc_dtype(p.op, t);
  const int partials = add_param(k, "partials", acc_t, {outputs * split}, {1});
  r.output_buffer = add_param(k, "out", p.out_dtype, p.out_shape, ew::contiguous(p.out_shape));
  const int acc = add_local(k, "acc", acc_t, 1);
  const BinaryOp combine = *lane_combine(p.op, t);
  const Var o = new_var(k, "o", i64()), c = new_var(k, "c", i64());
  const Expr zero = int_imm(0);
  const Expr slot = ew::index_add(ew::index_scale(var_ref(o), split), var_ref(c));
  Block fold{store(k.buffer(acc), zero, binary(combine, load(k.buffer(acc), zero), load(k.buffer(partials), slot)))};
  Block per_output{alloc(k.buffer(acc)), store(k.buffer(acc), zero, red::identity(p.op, t)),
                   for_loop(c, int_imm(split), LoopKind::Reduction, std::move(fold)),
                   store(k.buffer(r.output_buffer), var_ref(o),
                         red::finish(p.op, t, p.out_dtype, load(k.buffer(acc), zero), count - p.count_offset))};
  k.body.push_back(for_loop(o, int_imm(outputs), LoopKind::Parallel, std::move(per_output)));
  if (std::vector<std::string> problems = verify(k); !problems.empty()) {
    r.error = "internal error: the lowered kernel does not verify: " + problems[0];
    r.kernel = Kernel{};
  }
  return r;
}

}  // namespace

LoweredReduction lower_reduction(const ReductionProgram& p, std::string name, LoopShape shape_for) {
  return lower(p, std::move(name), shape_for, 1);
}

// The chunks per output of p's split (1: not split), with its output and element counts.
static int64_t split_chunks(const ReductionProgram& p, int64_t& outputs, int64_t& count) {
  if (!lane_combine(p.op, p.prologue.out_dtype) || !extents(p, outputs, count)) return 1;
  if (outputs < 1 || outputs >= kSplitReductionOutputs || count < kSplitReductionCount) return 1;
  const int64_t split = std::min((kSplitReductionBlocks + outputs - 1) / outputs, count / kSplitReductionChunk);
  return std::max<int64_t>(split, 1);
}

int64_t reduction_split(const ReductionProgram& p) {
  int64_t outputs = 0, count = 0;
  return split_chunks(p, outputs, count);
}

std::optional<LoweredSplitReduction> lower_split_reduction(const ReductionProgram& p, const std::string& name) {
  int64_t outputs = 0, count = 0;
  const int64_t split = split_chunks(p, outputs, count);
  if (split < 2) return std::nullopt;
  LoweredSplitReduction r;
  r.chunks = split;
  r.partial = lower(p, name, LoopShape::Gpu, split);
  if (!r.partial.ok()) return r;
  r.finish = lower_finish(p, name, outputs, count, split);
  r.partial_bytes = static_cast<size_t>(outputs * split) * static_cast<size_t>(red::acc_dtype(p.op, p.prologue.out_dtype).bits / 8);
  return r;
}

}  // namespace relay::loops

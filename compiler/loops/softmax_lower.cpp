// lower_softmax: one parallel loop over the rows before `axis`; inside it, the reference
// kernel's loops (see softmax.h). On the GPU a parallel iteration per row along the axis
// instead (the rows before it times the positions after it: a row's elements are `inner`
// apart, and neighbouring threads read neighbouring positions), or a warp's per row
// (softmax_uses_team). Rows are independent, so the parallel split changes no result; the
// folds are `reduction` loops so their order stays the reference's.
#include "compiler/loops/softmax.h"

#include "compiler/loops/elementwise_internal.h"
#include "compiler/loops/index_math.h"
#include "compiler/loops/verify.h"

namespace relay::loops {

namespace {
Expr c(int64_t v) { return int_imm(v); }
Expr add(Expr a, Expr b) { return ew::index_add(std::move(a), std::move(b)); }
Expr max_of(const Expr& m, const Expr& x) { return select(compare(CmpOp::Lt, m, x), x, m); }  // std::max(m, x)

// A Threads loop (its variable `name`) of `team` threads sharing a row of `n`: thread t
// runs body(i) for each of its elements i = t + team * step.
template <class Body>
Stmt row_threads(Kernel& k, const char* name, int64_t team, int64_t n, Body body) {
  return counted_loop(k, name, team, LoopKind::Threads, [&](const Var& thread) {
    const Var step = new_var(k, "step", i64()), i = new_var(k, "i", i64());
    Expr share = index_div(add(ew::index_scale(var_ref(thread), -1), c(n + team - 1)), team);
    Block per_element{let(i, add(var_ref(thread), ew::index_scale(var_ref(step), team)))};
    for (Stmt& st : body(var_ref(i))) per_element.push_back(std::move(st));
    return Block{for_loop(step, std::move(share), LoopKind::Serial, std::move(per_element))};
  });
}

// The team shape (softmax_uses_team): `outer` rows of `n`, buffers [in, out] already added.
void build_team_softmax(const SoftmaxProgram& p, Kernel& k, int64_t outer, int64_t n) {
  const DataType t = p.dtype, f = f32();
  const int xs = add_shared(k, "x_row", f, n), es = add_shared(k, "e_row", f, n);
  const int acc = add_local(k, "acc", f, 1);
  const Buffer I = k.buffer(0), O = k.buffer(1), X = k.buffer(xs), E = k.buffer(es), A = k.buffer(acc);

  const Var o = new_var(k, "o", i64());
  const Expr base = ew::index_scale(var_ref(o), n);
  auto lanes = [&](auto body) { return row_threads(k, "lane", kWarpLanes, n, body); };
  // every thread folds a shared row in order into acc (from `first`, over elements from `from`)
  auto fold = [&](Block& at, const Buffer& row, Expr first, int64_t from, auto combine) {
    at.push_back(store(A, c(0), std::move(first)));
    const Var i = new_var(k, "i", i64());
    at.push_back(for_loop(i, c(n - from), LoopKind::Reduction,
                          {store(A, c(0), combine(load(A, c(0)), load(row, add(var_ref(i), c(from)))))}));
  };

  Block row{alloc(X), alloc(E), alloc(A)};
  row.push_back(lanes([&](const Expr& i) { return Block{store(X, i, cast(f, load(I, add(base, i))))}; }));
  fold(row, X, load(X, c(0)), 1, max_of);
  const Var m = new_var(k, "m", f);
  row.push_back(let(m, load(A, c(0))));
  row.push_back(lanes([&](const Expr& i) {
    return Block{store(E, i, call(MathFn::Exp, {binary(BinaryOp::Sub, load(X, i), var_ref(m))}))};
  }));
  fold(row, E, float_imm(0), 0, [](Expr a, Expr b) { return binary(BinaryOp::Add, std::move(a), std::move(b)); });
  const Var sum = new_var(k, "sum", f);
  row.push_back(let(sum, load(A, c(0))));
  if (p.log) {
    const Var ls = new_var(k, "ls", f);
    row.push_back(let(ls, call(MathFn::Log, {var_ref(sum)})));
    row.push_back(lanes([&](const Expr& i) {
      return Block{store(O, add(base, i),
                         cast(t, binary(BinaryOp::Sub, binary(BinaryOp::Sub, load(X, i), var_ref(m)), var_ref(ls))))};
    }));
  } else if (p.divide) {
    row.push_back(lanes([&](const Expr& i) {
      return Block{store(O, add(base, i), cast(t, binary(BinaryOp::Div, load(E, i), var_ref(sum))))};
    }));
  } else {
    // the reference stores e (rounded to the dtype), then scales it by 1 / sum
    const Var inv = new_var(k, "inv", f);
    row.push_back(let(inv, binary(BinaryOp::Div, float_imm(1), var_ref(sum))));
    row.push_back(lanes([&](const Expr& i) {
      return Block{store(O, add(base, i), cast(t, binary(BinaryOp::Mul, cast(f, cast(t, load(E, i))), var_ref(inv))))};
    }));
  }
  k.body.push_back(for_loop(o, c(outer), LoopKind::Parallel, std::move(row)));
}

// The long rows' shape (softmax_uses_block): a block of kSoftmaxBlockThreads per float32
// row of `n`, buffers [in, out] already added. Thread 0 folds the maximum in row order
// and leaves it in shared memory; the threads write e = exp(x - m) into the output row
// (the row does not fit in shared memory, and float32 e is what the output keeps);
// after the barrier thread 0 folds the output row's e in order into the sum; the threads
// write the outputs from e (e * (1 / sum), or e / sum) or from x (x - m - log(sum)).
// The folds are the reference's, so are the bits; the exponentials, loads and stores are
// spread over the block, where a thread per row does all of them itself.
void build_block_softmax(const SoftmaxProgram& p, Kernel& k, int64_t outer, int64_t n) {
  const DataType f = f32();
  const int acc = add_local(k, "acc", f, 1), totals = add_shared(k, "totals", f, 2);
  const Buffer I = k.buffer(0), O = k.buffer(1), A = k.buffer(acc), T = k.buffer(totals);
  const Var o = new_var(k, "o", i64());
  const Expr base = ew::index_scale(var_ref(o), n);
  const int64_t team = kSoftmaxBlockThreads;
  auto threads = [&](auto body) { return row_threads(k, "thread", team, n, body); };
  // thread 0 folds the row of `row_at` in order into totals[slot] (from `first`, over the
  // elements from `from`)
  auto first_thread_folds = [&](int64_t slot, auto row_at, Expr first, int64_t from, auto combine) {
    return counted_loop(k, "thread", team, LoopKind::Threads, [&](const Var& thread) {
      const Var i = new_var(k, "i", i64());
      return Block{if_then(compare(CmpOp::Lt, var_ref(thread), c(1)),
                           {store(A, c(0), std::move(first)),
                            for_loop(i, c(n - from), LoopKind::Reduction,
                                     {store(A, c(0), combine(load(A, c(0)), row_at(add(var_ref(i), c(from)))))}),
                            store(T, c(slot), load(A, c(0)))})};
    });
  };
  auto x_at = [&](const Expr& i) { return load(I, add(base, i)); };
  auto e_at = [&](const Expr& i) { return load(O, add(base, i)); };

  Block row{alloc(A), alloc(T)};
  row.push_back(first_thread_folds(0, x_at, x_at(c(0)), 1, max_of));
  const Var m = new_var(k, "m", f);
  row.push_back(let(m, load(T, c(0))));
  row.push_back(threads([&](const Expr& i) {
    return Block{store(O, add(base, i), call(MathFn::Exp, {binary(BinaryOp::Sub, x_at(i), var_ref(m))}))};
  }));
  row.push_back(first_thread_folds(1, e_at, float_imm(0), 0,
                                   [](Expr a, Expr b) { return binary(BinaryOp::Add, std::move(a), std::move(b)); }));
  const Var sum = new_var(k, "sum", f);
  row.push_back(let(sum, load(T, c(1))));
  if (p.log) {
    const Var ls = new_var(k, "ls", f);
    row.push_back(let(ls, call(MathFn::Log, {var_ref(sum)})));
    row.push_back(threads([&](const Expr& i) {
      return Block{store(O, add(base, i), binary(BinaryOp::Sub, binary(BinaryOp::Sub, x_at(i), var_ref(m)), var_ref(ls)))};
    }));
  } else if (p.divide) {
    row.push_back(threads([&](const Expr& i) {
      return Block{store(O, add(base, i), binary(BinaryOp::Div, e_at(i), var_ref(sum)))};
    }));
  } else {
    const Var inv = new_var(k, "inv", f);
    row.push_back(let(inv, binary(BinaryOp::Div, float_imm(1), var_ref(sum))));
    row.push_back(threads([&](const Expr& i) {
      return Block{store(O, add(base, i), binary(BinaryOp::Mul, e_at(i), var_ref(inv)))};
    }));
  }
  k.body.push_back(for_loop(o, c(outer), LoopKind::Parallel, std::move(row)));
}

}  // namespace

bool softmax_uses_block(const SoftmaxProgram& p, LoopShape shape) {
  if (shape != LoopShape::Gpu || p.shape.empty() || p.dtype != f32()) return false;
  const int64_t rank = static_cast<int64_t>(p.shape.size());
  const int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  return axis == rank - 1 && p.shape.back() > kSoftmaxTeamMax;
}

bool softmax_uses_team(const SoftmaxProgram& p, LoopShape shape) {
  if (shape != LoopShape::Gpu || p.shape.empty() || (p.dtype != f32() && !is_storage_only(p.dtype))) return false;
  const int64_t rank = static_cast<int64_t>(p.shape.size());
  const int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  if (axis != rank - 1) return false;
  const int64_t n = p.shape.back();
  return n >= kSoftmaxTeamMin && n <= kSoftmaxTeamMax;
}

LoweredSoftmax lower_softmax(const SoftmaxProgram& p, std::string name, LoopShape shape) {
  LoweredSoftmax r;
  r.output_buffer = 1;
  auto fail = [&](std::string m) {
    r.error = std::move(m);
    r.kernel = Kernel{};
    return r;
  };
  const DataType t = p.dtype;
  if (t != DataType::float_(32) && t != DataType::float_(64) && !is_storage_only(t))
    return fail("softmax over " + dtype_name(t) + " has no lowering");
  // the reference's Compute<T>: float16/bfloat16 are computed in float32 and rounded where
  // it stores them
  const DataType ct = is_storage_only(t) ? f32() : t;
  const int64_t rank = static_cast<int64_t>(p.shape.size());
  const int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  if (axis < 0 || axis >= rank) return fail("softmax axis out of range");
  int64_t outer = 1, n = p.shape[static_cast<size_t>(axis)], inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= p.shape[static_cast<size_t>(d)];
  for (int64_t d = axis + 1; d < rank; ++d) inner *= p.shape[static_cast<size_t>(d)];
  // A thread per row, its elements `inner` apart: the CPU's along the innermost axis, the
  // GPU's along any (no per-thread array of the positions after the axis).
  const bool strided = inner == 1 || shape == LoopShape::Gpu;
  if (!strided && inner > kSoftmaxInner)
    return fail("softmax with more than " + std::to_string(kSoftmaxInner) + " elements after its axis");

  Kernel& k = r.kernel;
  k.name = std::move(name);
  const int in = add_param(k, "in", t, p.shape, ew::contiguous(p.shape));
  const int out = add_param(k, "out", t, p.shape, ew::contiguous(p.shape));
  if (outer * n * inner == 0) return r;
  if (softmax_uses_team(p, shape) || softmax_uses_block(p, shape)) {
    if (softmax_uses_team(p, shape)) build_team_softmax(p, k, outer, n);
    else build_block_softmax(p, k, outer, n);
    std::vector<std::string> problems = verify(k);
    if (!problems.empty()) return fail("internal error: the lowered kernel does not verify: " + problems[0]);
    return r;
  }
  const int mx = add_local(k, "mx", ct, strided ? 1 : inner), sm = add_local(k, "sum", ct, strided ? 1 : inner);
  // copies: add_local above may have moved the buffers
  const Buffer I = k.buffer(in), O = k.buffer(out), M = k.buffer(mx), S = k.buffer(sm);
  auto in_at = [&](const Expr& index) { return cast(ct, load(I, index)); };
  auto out_at = [&](const Expr& index) { return cast(ct, load(O, index)); };
  auto store_out = [&](const Expr& index, const Expr& value) { return store(O, index, cast(t, value)); };

  const Var o = new_var(k, "o", i64());  // the row before the axis (strided: and the position after it)
  Block row;
  row.push_back(alloc(M));
  row.push_back(alloc(S));
  const Expr base = strided && inner > 1
                        ? add(ew::index_scale(index_div(var_ref(o), inner), n * inner), index_rem(var_ref(o), inner))
                        : ew::index_scale(var_ref(o), n * inner);
  auto at = [&](const Expr& i, const Expr& j) { return add(add(base, ew::index_scale(i, inner)), j); };
  const Expr zero = const_of(0, ct);

  if (strided) {
    // element i of the thread's row
    auto at_row = [&](const Expr& i) { return add(base, ew::index_scale(i, inner)); };
    // off the innermost axis the reference divides exp(x - m) by the sum
    const bool divide = p.divide || inner > 1;
    row.push_back(store(M, c(0), in_at(at_row(c(0)))));
    {
      const Var i = new_var(k, "i", i64());
      row.push_back(for_loop(i, c(n - 1), LoopKind::Reduction,
                             {store(M, c(0), max_of(load(M, c(0)), in_at(at_row(add(var_ref(i), c(1))))))}));
    }
    const Var m = new_var(k, "m", ct);
    row.push_back(let(m, load(M, c(0))));
    row.push_back(store(S, c(0), zero));
    const Var i = new_var(k, "i", i64()), e = new_var(k, "e", ct);
    Block fold{let(e, call(MathFn::Exp, {binary(BinaryOp::Sub, in_at(at_row(var_ref(i))), var_ref(m))}))};
    fold.push_back(store(S, c(0), binary(BinaryOp::Add, load(S, c(0)), var_ref(e))));
    if (!p.log && !divide) fold.push_back(store_out(at_row(var_ref(i)), var_ref(e)));
    row.push_back(for_loop(i, c(n), LoopKind::Reduction, std::move(fold)));
    const Var i2 = new_var(k, "i", i64());
    if (divide && !p.log) {
      const Expr x = in_at(at_row(var_ref(i2)));
      row.push_back(for_loop(i2, c(n), LoopKind::Vectorizable,
                             {store_out(at_row(var_ref(i2)),
                                        binary(BinaryOp::Div, call(MathFn::Exp, {binary(BinaryOp::Sub, x, var_ref(m))}),
                                               load(S, c(0))))}));
    } else if (!p.log) {
      const Var inv = new_var(k, "inv", ct);
      row.push_back(let(inv, binary(BinaryOp::Div, const_of(1, ct), load(S, c(0)))));
      // the stored exponential (rounded to the dtype) times 1 / sum
      row.push_back(for_loop(i2, c(n), LoopKind::Vectorizable,
                             {store_out(at_row(var_ref(i2)), binary(BinaryOp::Mul, out_at(at_row(var_ref(i2))), var_ref(inv)))}));
    } else {
      const Var ls = new_var(k, "ls", ct);
      row.push_back(let(ls, call(MathFn::Log, {load(S, c(0))})));
      row.push_back(for_loop(
          i2, c(n), LoopKind::Vectorizable,
          {store_out(at_row(var_ref(i2)),
                     binary(BinaryOp::Sub, binary(BinaryOp::Sub, in_at(at_row(var_ref(i2))), var_ref(m)), var_ref(ls)))}));
    }
  } else {
    // mx[j] = x[0, j]; sum[j] = 0
    {
      const Var j = new_var(k, "j", i64());
      row.push_back(for_loop(j, c(inner), LoopKind::Vectorizable,
                             {store(M, var_ref(j), in_at(at(c(0), var_ref(j)))), store(S, var_ref(j), zero)}));
    }
    {
      const Var i = new_var(k, "i", i64()), j = new_var(k, "j", i64());
      row.push_back(for_loop(
          i, c(n - 1), LoopKind::Reduction,
          {for_loop(j, c(inner), LoopKind::Vectorizable,
                    {store(M, var_ref(j), max_of(load(M, var_ref(j)), in_at(at(add(var_ref(i), c(1)), var_ref(j)))))})}));
    }
    {
      const Var i = new_var(k, "i", i64()), j = new_var(k, "j", i64());
      Expr e = call(MathFn::Exp, {binary(BinaryOp::Sub, in_at(at(var_ref(i), var_ref(j))), load(M, var_ref(j)))});
      row.push_back(for_loop(i, c(n), LoopKind::Reduction,
                             {for_loop(j, c(inner), LoopKind::Vectorizable,
                                       {store(S, var_ref(j), binary(BinaryOp::Add, load(S, var_ref(j)), e))})}));
    }
    {
      const Var i = new_var(k, "i", i64()), j = new_var(k, "j", i64()), d = new_var(k, "d", ct);
      Block body{let(d, binary(BinaryOp::Sub, in_at(at(var_ref(i), var_ref(j))), load(M, var_ref(j))))};
      Expr v = p.log ? binary(BinaryOp::Sub, var_ref(d), call(MathFn::Log, {load(S, var_ref(j))}))
                     : binary(BinaryOp::Div, call(MathFn::Exp, {var_ref(d)}), load(S, var_ref(j)));
      body.push_back(store_out(at(var_ref(i), var_ref(j)), v));
      row.push_back(for_loop(i, c(n), LoopKind::Serial, {for_loop(j, c(inner), LoopKind::Vectorizable, std::move(body))}));
    }
  }
  k.body.push_back(for_loop(o, c(strided ? outer * inner : outer), LoopKind::Parallel, std::move(row)));
  std::vector<std::string> problems = verify(k);
  if (!problems.empty()) return fail("internal error: the lowered kernel does not verify: " + problems[0]);
  return r;
}

const std::vector<std::string_view>& lowered_softmax_ops() {
  static const std::vector<std::string_view> ops = {"nn.softmax", "nn.fast_softmax", "nn.log_softmax"};
  return ops;
}

}  // namespace relay::loops

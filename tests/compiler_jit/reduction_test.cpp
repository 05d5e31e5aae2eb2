// Every lowered reduction (sum mean max min prod all any argmax argmin), for every dtype it
// is defined for and across axes/keepdims/exclude, compiled and compared with the
// interpreter's reference kernel, bitwise: the kernel folds each output in the reference's
// order and accumulator type, so even float sums agree to the bit (NaN compares equal to
// any NaN). Prologues (element-wise producers), broadcasting inputs, the status flag,
// empty and scalar shapes, the row form's chunks and threads.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "compiler/loops/print.h"
#include "compiler/loops/reduction.h"
#include "compiler/runtime/thread_pool.h"
#include "interpreter/kernels/kernel.h"
#include "lang/ops/op_schema.h"
#include "tests/compiler_jit/support.h"

using namespace relay;
using namespace relay::test;
using relay::loops::ReduceOp;
using relay::loops::ReductionProgram;
using relay::rt::NDArray;

namespace {

ReductionProgram reduction(ReduceOp op, DataType t, const rt::Shape& shape, std::vector<int64_t> axes, bool keepdims,
                           bool exclude, bool last = false) {
  ReductionProgram p;
  p.prologue = unary_program("copy", t, t, shape);
  p.op = op;
  p.axes = std::move(axes);
  p.keepdims = keepdims;
  p.exclude = exclude;
  p.select_last_index = last;
  p.out_dtype = (op == ReduceOp::ArgMax || op == ReduceOp::ArgMin) ? DataType::int_(32) : t;
  // The output shape by Relay's rule (the lowering checks it against its own).
  std::vector<bool> reduced(shape.size(), p.axes.empty());
  for (int64_t a : p.axes) reduced[static_cast<size_t>(a < 0 ? a + static_cast<int64_t>(shape.size()) : a)] = true;
  if (!p.axes.empty() && exclude) reduced.flip();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) p.out_shape.push_back(shape[d]);
    else if (keepdims) p.out_shape.push_back(1);
  }
  return p;
}

AttrVal int_attr(int64_t v) {
  AttrVal a;
  a.kind = AttrVal::Kind::Int;
  a.int_value = v;
  return a;
}
AttrVal bool_attr(bool v) {
  AttrVal a;
  a.kind = AttrVal::Kind::Bool;
  a.int_value = v;
  return a;
}

// The prologue through the reference kernels, then the reduction's reference kernel.
std::optional<NDArray> reference(const ReductionProgram& p, const std::vector<NDArray>& inputs, std::string& error) {
  std::optional<NDArray> x = run_reference(p.prologue, inputs, error);
  if (!x) return std::nullopt;
  const std::string name(loops::reduce_op_name(p.op));
  const OpInfo* op = find_op(name);
  std::vector<std::pair<std::string, AttrVal>> values;
  if (!p.axes.empty()) {
    AttrVal axes;
    axes.kind = AttrVal::Kind::Array;
    for (int64_t a : p.axes) axes.items.push_back(int_attr(a));
    values.emplace_back("axis", axes);
  }
  values.emplace_back("keepdims", bool_attr(p.keepdims));
  values.emplace_back("exclude", bool_attr(p.exclude));
  if (p.op == ReduceOp::ArgMax || p.op == ReduceOp::ArgMin) values.emplace_back("select_last_index", bool_attr(p.select_last_index));
  const CallAttrs attrs = CallAttrs::from_values(op->attrs, std::move(values));
  std::vector<rt::Value> args{rt::Value(*x)};
  try {
    return rt::find_kernel(name)(rt::KernelCall{*op, args, attrs, nullptr}).tensor();
  } catch (const rt::RuntimeError& e) {
    error = e.what();
    return std::nullopt;
  }
}

struct Compiled {
  loops::LoweredReduction lowered;
  compiler::CompiledKernel kernel;
};

Compiled compile(const ReductionProgram& p, loops::LoopShape shape = loops::LoopShape::Cpu) {
  Compiled c;
  c.lowered = loops::lower_reduction(p, "red", shape);
  if (!c.lowered.ok()) throw std::runtime_error("not lowered: " + c.lowered.error);
  c.kernel = compiler::Jit::instance().compile(c.lowered.kernel);
  return c;
}

JitResult run(const Compiled& c, const ReductionProgram& p, const std::vector<NDArray>& inputs, unsigned threads = 0) {
  JitResult r;
  r.out = NDArray::empty(p.out_shape, p.out_dtype);
  int32_t status = 0;
  std::vector<void*> buffers;
  for (const NDArray& in : inputs) buffers.push_back(in.raw());
  buffers.push_back(r.out.raw());
  if (c.lowered.status_buffer >= 0) buffers.push_back(&status);
  if (threads > 0) {
    compiler::ThreadPool pool(threads);
    compiler::run_kernel(c.kernel, buffers.data(), &pool);
  } else {
    compiler::run_kernel(c.kernel, buffers.data(), nullptr);
  }
  r.failed = status != 0;
  return r;
}

// Compiles once per loop shape (the GPU's runs on the CPU JIT too: one parallel iteration
// per output), then runs on three random inputs (the second with small values, so sums
// and products stay finite and ties are common) against the reference.
void check(const ReductionProgram& p, const std::string& label, unsigned threads = 0) {
  for (loops::LoopShape shape : {loops::LoopShape::Cpu, loops::LoopShape::Gpu}) {
    INFO(label << (shape == loops::LoopShape::Gpu ? " (GPU loop shape)" : ""));
    const Compiled c = compile(p, shape);
    std::mt19937_64 rng(std::hash<std::string>{}(label));
    for (int trial = 0; trial < 3; ++trial) {
      INFO("trial " << trial);
      std::vector<NDArray> inputs;
      for (const loops::EwInput& in : p.prologue.inputs) inputs.push_back(random_tensor(in.dtype, in.shape, rng, trial == 1));
      std::string error;
      const std::optional<NDArray> expected = reference(p, inputs, error);
      const JitResult actual = run(c, p, inputs, threads);
      if (!expected) {
        INFO("the reference failed: " << error);
        CHECK(actual.failed);
        continue;
      }
      CHECK_FALSE(actual.failed);
      CHECK(bitwise(*expected, actual.out) == "");
    }
  }
}

std::string describe(ReduceOp op, DataType t, const rt::Shape& shape, const std::vector<int64_t>& axes, bool keepdims,
                     bool exclude) {
  std::string s = std::string(loops::reduce_op_name(op)) + " " + dtype_name(t) + " " + rt::shape_to_string(shape) + " axis [";
  for (int64_t a : axes) s += std::to_string(a) + ",";
  return s + "]" + (keepdims ? " keepdims" : "") + (exclude ? " exclude" : "");
}

const ReduceOp kOps[] = {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max,    ReduceOp::Min,   ReduceOp::Prod,
                         ReduceOp::All, ReduceOp::Any,  ReduceOp::ArgMax, ReduceOp::ArgMin};

}  // namespace

TEST_CASE("every lowered reduction matches its reference kernel bitwise for every dtype", "[jit][reduce]") {
  int programs = 0;
  for (ReduceOp op : kOps)
    for (DataType t : all_dtypes()) {
      if (!loops::reduction_supports(op, t)) continue;
      // the reduced axis innermost (a serial fold per output), 67 elements per output
      check(reduction(op, t, {3, 67}, {1}, false, false), describe(op, t, {3, 67}, {1}, false, false));
      // the kept axis innermost (a vectorised row of accumulators), 37 outputs per row
      check(reduction(op, t, {9, 37}, {0}, true, false), describe(op, t, {9, 37}, {0}, true, false));
      programs += 2;
    }
  CHECK(programs == 2 * (9 * 13 - 1));  // all but mean over bool
  CHECK_FALSE(loops::reduction_supports(ReduceOp::Mean, DataType::bool_()));
}

TEST_CASE("axes, keepdims and exclude follow Relay's rules", "[jit][reduce]") {
  const rt::Shape shape = {3, 4, 5, 6};
  const std::vector<std::vector<int64_t>> axes = {{}, {0}, {1}, {-1}, {0, 2}, {1, 3}, {1, 2}, {3, 0, 1}};
  int n = 0;
  for (const auto& a : axes)
    for (bool keepdims : {false, true})
      for (bool exclude : {false, true}) {
        if (a.empty() && exclude) continue;  // exclude is ignored without axes
        // sum over float32 (the order of a float sum) and argmax over int8 (ties, indices)
        // everywhere; the other reducers take turns
        check(reduction(ReduceOp::Sum, DataType::float_(32), shape, a, keepdims, exclude),
              describe(ReduceOp::Sum, DataType::float_(32), shape, a, keepdims, exclude));
        check(reduction(ReduceOp::ArgMax, DataType::int_(8), shape, a, keepdims, exclude),
              describe(ReduceOp::ArgMax, DataType::int_(8), shape, a, keepdims, exclude));
        const ReduceOp other = kOps[static_cast<size_t>(n++) % 9];
        const DataType t = n % 2 ? DataType::float_(16) : DataType::int_(32);
        check(reduction(other, t, shape, a, keepdims, exclude), describe(other, t, shape, a, keepdims, exclude));
      }
  // select_last_index, both directions
  for (ReduceOp op : {ReduceOp::ArgMax, ReduceOp::ArgMin}) {
    check(reduction(op, DataType::int_(8), {5, 40}, {1}, false, false, true), "last index, reduced innermost");
    check(reduction(op, DataType::float_(32), {40, 5}, {0}, false, false, true), "last index, kept innermost");
  }
}

TEST_CASE("reductions over scalars, size-1 and empty dimensions", "[jit][reduce]") {
  for (ReduceOp op : kOps) {
    const DataType t = DataType::float_(32);
    const std::string name(loops::reduce_op_name(op));
    if (op != ReduceOp::ArgMax && op != ReduceOp::ArgMin) check(reduction(op, t, {}, {}, false, false), name + " scalar");
    check(reduction(op, t, {2, 1, 5}, {1}, true, false), name + " over a size-1 axis");
    check(reduction(op, t, {1, 1}, {}, false, false), name + " of one element");
    check(reduction(op, t, {0, 3}, {0}, false, false), name + " over an empty axis (the identity)");
    check(reduction(op, t, {3, 0}, {1}, true, false), name + " over an empty innermost axis");
    check(reduction(op, t, {0, 3}, {1}, false, false), name + " with no outputs");
  }
}

TEST_CASE("a reduction's element-wise prologue, broadcasting and failures", "[jit][reduce]") {
  // mean(multiply(x, y), axis=[1]) with y broadcast along the rows
  ReductionProgram p = reduction(ReduceOp::Mean, DataType::float_(32), {4, 19}, {1}, false, false);
  p.prologue = binary_program("multiply", DataType::float_(32), DataType::float_(32), {4, 19}, {19}, {4, 19});
  check(p, "mean(multiply(x, y[19]), axis=1)");
  p.axes = {0};
  p.out_shape = {19};
  check(p, "mean(multiply(x, y[19]), axis=0)");
  // float16 sum of an exp: the prologue's rounding and the sum's per-step rounding
  ReductionProgram h = reduction(ReduceOp::Sum, DataType::float_(16), {6, 33}, {1}, true, false);
  h.prologue = unary_program("exp", DataType::float_(16), DataType::float_(16), {6, 33});
  check(h, "sum(exp(x)) float16");
  // a division by zero in the prologue sets the status flag, as the reference throws
  ReductionProgram d = reduction(ReduceOp::Max, DataType::int_(32), {5, 8}, {0}, false, false);
  d.prologue = binary_program("floor_divide", DataType::int_(32), DataType::int_(32), {5, 8}, {5, 8}, {5, 8});
  const Compiled c = compile(d);
  REQUIRE(c.lowered.status_buffer >= 0);
  NDArray x = NDArray::empty({5, 8}, DataType::int_(32)), y = NDArray::empty({5, 8}, DataType::int_(32));
  for (int64_t i = 0; i < 40; ++i) x.set_int(i, i), y.set_int(i, i == 17 ? 0 : 3);
  CHECK(run(c, d, {x, y}).failed);
  y.set_int(17, 2);
  const JitResult ok = run(c, d, {x, y});
  CHECK_FALSE(ok.failed);
  std::string error;
  CHECK(bitwise(*reference(d, {x, y}, error), ok.out) == "");
  CHECK(loops::status_message(d) == "integer division by zero in `floor_divide`");
}

TEST_CASE("reduction kernels split over threads and chunked rows", "[jit][reduce]") {
  // the only kept dimension in parallel chunks
  check(reduction(ReduceOp::Sum, DataType::float_(32), {3, 2000}, {0}, false, false), "row chunks, 2 threads", 2);
  // several kept dimensions and a row longer than kReductionRow: a serial chunk loop
  check(reduction(ReduceOp::ArgMin, DataType::float_(64), {2, 3, 1100}, {1}, false, false), "long row, 2 threads", 2);
  // reduced innermost, outputs in parallel
  check(reduction(ReduceOp::Sum, DataType::float_(32), {64, 100}, {1}, false, false), "rows, 2 threads", 2);
}

TEST_CASE("reductions the reference rejects are not lowered, with the reason", "[jit][reduce]") {
  // int8's count 256 wraps to 0: the reference divides by zero
  const loops::LoweredReduction m =
      loops::lower_reduction(reduction(ReduceOp::Mean, DataType::int_(8), {2, 256}, {1}, false, false), "k");
  CHECK_FALSE(m.ok());
  CHECK(m.error.find("division by zero") != std::string::npos);
  CHECK_FALSE(loops::lower_reduction(reduction(ReduceOp::Mean, DataType::bool_(), {4}, {}, false, false), "k").ok());
  ReductionProgram twice = reduction(ReduceOp::Sum, DataType::float_(32), {4, 5}, {1}, false, false);
  twice.axes = {1, -1};
  CHECK(loops::lower_reduction(twice, "k").error.find("twice") != std::string::npos);
  ReductionProgram wrong = reduction(ReduceOp::Sum, DataType::float_(32), {4, 5}, {1}, false, false);
  wrong.out_shape = {5};
  CHECK_FALSE(loops::lower_reduction(wrong, "k").ok());
}

TEST_CASE("the loop IR of a reduction: reduction loops, and a vectorizable row of outputs inside them",
          "[jit][reduce]") {
  // Reduced innermost: a float sum keeps its order, so the only vectorizable loop is over
  // kInterleavedOutputs outputs, inside the reduction loop (each output folds serially).
  const std::string inner =
      loops::print_kernel(loops::lower_reduction(reduction(ReduceOp::Sum, DataType::float_(32), {16, 64}, {1}, false, false), "k").kernel);
  INFO(inner);
  const size_t fold = inner.find("reduction for");
  REQUIRE(fold != std::string::npos);
  const size_t row = inner.find("vectorizable for", fold);
  REQUIRE(row != std::string::npos);
  CHECK(inner.find("in [0, " + std::to_string(loops::kInterleavedOutputs) + ")", row) != std::string::npos);
  CHECK(inner.find("reduction for", row) == std::string::npos);  // nothing reduces inside the row
  const std::string outer =
      loops::print_kernel(loops::lower_reduction(reduction(ReduceOp::Sum, DataType::float_(32), {8, 64}, {0}, false, false), "k").kernel);
  CHECK(outer.find("reduction for") != std::string::npos);
  CHECK(outer.find("vectorizable for") != std::string::npos);
}

TEST_CASE("a GPU reduction of few long outputs takes a warp or a block per output", "[jit][reduce][gpu]") {
  // Over 3 x 2000 elements (kept dimension outside and inside the reduced ones), a whole
  // 4 x 50 x 21 tensor and two of four axes: a warp each; the same with 20000 elements or
  // more: a block of 256 threads each. Integer sums, maxima, minima and means are the
  // reference's bits; a float32 sum or mean folds in the team's order, within the
  // reference's by n roundings of the sum of |x| (finite values), NaN where it has NaN.
  struct Case {
    rt::Shape shape;
    std::vector<int64_t> axes;
    int64_t team;  // of the sums
  };
  const int64_t warp = loops::kWarpLanes, block = loops::kBlockReductionThreads;
  const Case cases[] = {{{3, 2000}, {1}, warp},          {{2000, 3}, {0}, warp},
                        {{4, 50, 21}, {}, warp},         {{2, 40, 3, 30}, {1, 3}, warp},
                        {{3, 20000}, {1}, block},        {{20000, 2}, {0}, block},
                        {{4, 64, 70}, {}, block},        {{2, 200, 3, 100}, {1, 3}, block}};
  for (const Case& c : cases)
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min})
      for (DataType t : {DataType::int_(32), DataType::float_(32)}) {
        const ReductionProgram p = reduction(op, t, c.shape, c.axes, false, false);
        const std::string label = describe(op, t, c.shape, c.axes, false, false);
        INFO(label);
        const Compiled gpu = compile(p, loops::LoopShape::Gpu);
        const bool shared_fold = gpu.lowered.kernel.team() > 1;
        // float maxima keep the reference's NaN rule by folding in order: no team
        const bool summable = t.is_int() || op == ReduceOp::Sum || op == ReduceOp::Mean;
        CHECK(gpu.lowered.kernel.team() == (summable ? c.team : 1));
        CHECK(gpu.lowered.kernel.has_shared_buffers() == (summable && c.team == block));
        std::mt19937_64 rng(std::hash<std::string>{}(label));
        for (int trial = 0; trial < 2; ++trial) {
          std::vector<NDArray> inputs{random_tensor(t, c.shape, rng, trial == 1)};
          std::string error;
          const std::optional<NDArray> expected = reference(p, inputs, error);
          REQUIRE(expected);
          const JitResult actual = run(gpu, p, inputs);
          if (!shared_fold || t.is_int()) {
            CHECK(bitwise(*expected, actual.out) == "");
            continue;
          }
          if (trial == 0) {  // edge values: a NaN in any order of the additions is a NaN
            for (int64_t i = 0; i < expected->size(); ++i)
              if (std::isnan(expected->get_double(i))) CHECK(std::isnan(actual.out.get_double(i)));
            continue;  // (an overflow to inf may depend on the order)
          }
          // each output's sum of |x| bounds the error of any order of the same additions
          const ReductionProgram magnitude_program = [&] {
            ReductionProgram m = reduction(ReduceOp::Sum, t, c.shape, c.axes, false, false);
            m.prologue = unary_program("abs", t, t, c.shape);
            return m;
          }();
          std::string unused;
          const std::optional<NDArray> magnitude = reference(magnitude_program, inputs, unused);
          REQUIRE(magnitude);
          const int64_t n = inputs[0].size() / expected->size();
          const double scale = op == ReduceOp::Mean ? 1.0 / static_cast<double>(n) : 1.0;
          for (int64_t i = 0; i < expected->size(); ++i) {
            INFO("output " << i);
            CHECK(std::fabs(actual.out.get_double(i) - expected->get_double(i)) <=
                  static_cast<double>(n + 8) * 0x1p-24 * magnitude->get_double(i) * scale * 2 + 1e-30);
          }
        }
      }
  // many outputs, or short reductions, keep a thread per output
  CHECK(compile(reduction(ReduceOp::Sum, DataType::float_(32), {40000, 1100}, {1}, false, false), loops::LoopShape::Gpu)
            .lowered.kernel.team() == 1);
  CHECK(compile(reduction(ReduceOp::Sum, DataType::float_(32), {3, 1000}, {1}, false, false), loops::LoopShape::Gpu)
            .lowered.kernel.team() == 1);
}

TEST_CASE("a GPU reduction of a few outputs over millions of elements splits over blocks, then folds the chunks",
          "[jit][reduce][gpu]") {
  // A sum over a whole tensor of 2^21 elements (one output), over the last axis of
  // 3 x 1.5M (a shorter last chunk) and over the first axis of 1.2M x 2 (the kept axis
  // innermost): the first kernel, a block per chunk of an output, writes the chunks'
  // partial results; the second folds them per output. Integer results are the
  // reference's bits; float32 sums and means within n roundings of the sum of |x|.
  struct Case {
    rt::Shape shape;
    std::vector<int64_t> axes;
    int64_t chunks;  // per output
  };
  const Case cases[] = {{{64, 128, 256}, {}, 128}, {{3, 1500000}, {1}, 91}, {{1200000, 2}, {0}, 73}};
  for (const Case& c : cases)
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max})
      for (DataType t : {DataType::int_(32), DataType::float_(32)}) {
        if (op == ReduceOp::Max && !t.is_int()) continue;  // a float maximum folds in order
        const ReductionProgram p = reduction(op, t, c.shape, c.axes, false, false);
        INFO(describe(op, t, c.shape, c.axes, false, false));
        REQUIRE(loops::reduction_split(p) == c.chunks);
        const std::optional<loops::LoweredSplitReduction> split = loops::lower_split_reduction(p, "red");
        REQUIRE(split);
        REQUIRE(split->ok());
        CHECK(split->chunks == c.chunks);
        CHECK(split->partial.kernel.team() == loops::kBlockReductionThreads);
        CHECK(split->finish.kernel.name == "red_finish");
        const int64_t outputs = rt::shape_size(p.out_shape);
        CHECK(split->partial_bytes == static_cast<size_t>(outputs * c.chunks) * 4);
        // both kernels on the CPU JIT, as the GPU would run them
        std::mt19937_64 rng(7);
        std::vector<NDArray> inputs{random_tensor(t, c.shape, rng, true)};
        std::string error;
        const std::optional<NDArray> expected = reference(p, inputs, error);
        REQUIRE(expected);
        std::vector<char> partials(split->partial_bytes);
        NDArray out = NDArray::empty(p.out_shape, p.out_dtype);
        std::vector<void*> first{inputs[0].raw(), partials.data()}, second{partials.data(), out.raw()};
        compiler::ThreadPool pool(2);
        compiler::run_kernel(compiler::Jit::instance().compile(split->partial.kernel), first.data(), &pool);
        compiler::run_kernel(compiler::Jit::instance().compile(split->finish.kernel), second.data(), &pool);
        if (t.is_int()) {
          CHECK(bitwise(*expected, out) == "");
          continue;
        }
        ReductionProgram magnitude_program = reduction(ReduceOp::Sum, t, c.shape, c.axes, false, false);
        magnitude_program.prologue = unary_program("abs", t, t, c.shape);
        const std::optional<NDArray> magnitude = reference(magnitude_program, inputs, error);
        REQUIRE(magnitude);
        const int64_t n = inputs[0].size() / outputs;
        const double scale = op == ReduceOp::Mean ? 1.0 / static_cast<double>(n) : 1.0;
        for (int64_t i = 0; i < outputs; ++i) {
          INFO("output " << i);
          CHECK(std::fabs(out.get_double(i) - expected->get_double(i)) <=
                static_cast<double>(n + 8) * 0x1p-24 * magnitude->get_double(i) * scale * 2 + 1e-30);
        }
      }
  // not split: many outputs, short ones, and reducers a team does not share
  CHECK(loops::reduction_split(reduction(ReduceOp::Sum, DataType::float_(32), {200, 1 << 20}, {1}, false, false)) == 1);
  CHECK(loops::reduction_split(reduction(ReduceOp::Sum, DataType::float_(32), {4, 100000}, {1}, false, false)) == 1);
  CHECK(loops::reduction_split(reduction(ReduceOp::Max, DataType::float_(32), {1 << 21}, {}, false, false)) == 1);
  CHECK_FALSE(loops::lower_split_reduction(reduction(ReduceOp::Prod, DataType::int_(32), {1 << 21}, {}, false, false), "r"));
}

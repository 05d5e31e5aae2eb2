// The whole compile path against the interpreter (the models: models_compiled_test.cpp;
// every operator's golden cases: golden_compiled_test.cpp): a property test
// over random fused chains of element-wise and broadcast operators with random shapes and
// dtypes — integers bitwise equal, floats within a stated tolerance.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <random>

#include "compiler/graph/passes.h"
#include "compiler/pipeline/compile_function.h"
#include "compiler/pipeline/kernel_fusion.h"
#include "interpreter/value_print.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
namespace t = relay::testing;

namespace {

struct Compiled {
  std::unique_ptr<rt::CompiledCall> code;
  std::vector<std::string> notes;
  std::string reason;
};

Compiled compile_main(t::CompiledModel& m, const std::vector<rt::NDArray>& args, compiler::ThreadPool* pool) {
  std::vector<rt::Value> vals(args.begin(), args.end());
  auto sig = jit::signature_of(vals);
  REQUIRE(sig);
  jit::CompileOutcome out = compiler::compile_function(*m.program, *m.program->entry, *sig, pool);
  return {std::move(out.code), std::move(out.notes), std::move(out.reason)};
}

}  // namespace

TEST_CASE("relay compile's later stages print each group's native kernel", "[compiler][pipeline]") {
  auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/mlp.relay");
  REQUIRE(m->error.empty());
  auto [g, plan] = t::fused_main(*m);
  const std::string loops = compiler::emit_groups(g, plan, "loops", compiler::Jit::instance());
  CHECK(loops.find("group 0 (nn.batch_flatten, 1 ops): one index-mapping kernel") != std::string::npos);
  CHECK(loops.find("nn.dense on its reference kernel, the epilogue native") != std::string::npos);
  CHECK(loops.find("parallel for") != std::string::npos);
  const std::string ir = compiler::emit_groups(g, plan, "llvm", compiler::Jit::instance());
  CHECK(ir.find("define void @main_g1(") != std::string::npos);
  const std::string as = compiler::emit_groups(g, plan, "asm", compiler::Jit::instance());
  CHECK(as.find("main_g1") != std::string::npos);
}

namespace {

struct OpChoice {
  const char* name;
  int arity;
  bool ints;  // defined the same way for int32
};
// Operators whose reference semantics are total on the generated values (divisions get
// a denominator kept away from zero by the generator).
const OpChoice kOps[] = {
    {"add", 2, true},       {"subtract", 2, true},  {"multiply", 2, true}, {"maximum", 2, true},
    {"minimum", 2, true},   {"negative", 1, true},  {"abs", 1, true},      {"nn.relu", 1, true},
    {"tanh", 1, false},     {"sigmoid", 1, false},  {"exp", 1, false},     {"floor", 1, false},
    {"greater", 2, true},   {"divide", 2, false},
};

std::string shape_text(const std::vector<int64_t>& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ")" : ")");
}

}  // namespace

TEST_CASE("random fused element-wise chains compile to what the interpreter computes", "[compiler][pipeline][property]") {
  std::mt19937 rng(1234);
  compiler::ThreadPool pool(2);
  int native_programs = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const bool ints = trial % 3 == 2;
    const char* dtype = ints ? "int32" : trial % 3 == 1 ? "float64" : "float32";
    // The output shape, and each input's shape: a suffix of it with some dims set to 1.
    std::vector<int64_t> out;
    const int rank = 1 + static_cast<int>(rng() % 3);
    for (int d = 0; d < rank; ++d) out.push_back(1 + static_cast<int64_t>(rng() % 37));
    const int inputs = 2 + static_cast<int>(rng() % 2);
    std::string params, body;
    for (int i = 0; i < inputs; ++i) {
      std::vector<int64_t> s(out.begin() + static_cast<long>(i == 0 ? 0 : rng() % out.size()), out.end());
      for (auto& d : s)
        if (i > 0 && rng() % 3 == 0) d = 1;
      params += (i ? ", %x" : "%x") + std::to_string(i) + ": Tensor[" + shape_text(s) + ", " + dtype + "]";
    }
    // A chain of 3..8 steps; the first input has the output's full shape, so the chain does.
    std::string last = "%x0";
    const int steps = 3 + static_cast<int>(rng() % 6);
    for (int k = 0; k < steps; ++k) {
      const OpChoice* op;
      do op = &kOps[rng() % std::size(kOps)];
      while (ints && !op->ints);
      std::string other = "%x" + std::to_string(rng() % inputs);
      std::string v = "%v" + std::to_string(k), call;
      if (std::string(op->name) == "greater") {
        call = "cast(greater(" + last + ", " + other + "), dtype=\"" + dtype + "\")";
      } else if (std::string(op->name) == "divide") {
        call = "divide(" + last + ", add(abs(" + other + "), 1f))";
        if (std::string(dtype) == "float64") call = "divide(" + last + ", add(abs(" + other + "), 1f64))";
      } else if (op->arity == 1) {
        call = std::string(op->name) + "(" + last + ")";
      } else {
        call = std::string(op->name) + "(" + last + ", " + other + ")";
      }
      body += "  let " + v + " = " + call + ";\n";
      last = v;
    }
    const std::string text = "def @main(" + params + ") {\n" + body + "  " + last + "\n}\n";
    INFO(text);
    auto m = t::load_model_text(text);
    REQUIRE(m->error.empty());
    std::vector<rt::NDArray> args = t::random_args(*m, static_cast<uint64_t>(trial));
    if (ints)
      for (auto& a : args)
        for (int64_t i = 0; i < a.size(); ++i) a.set_int(i, static_cast<int64_t>(rng() % 2001) - 1000);
    rt::Value want = t::interpret(*m, args);
    Compiled c = compile_main(*m, args, &pool);
    INFO(c.reason);
    REQUIRE(c.code);
    native_programs += c.notes.empty() || c.notes[0].find(" 0 native") == std::string::npos;
    std::vector<rt::Value> vals(args.begin(), args.end());
    rt::Value got = c.code->call(vals);
    if (ints) {
      CHECK(rt::format_value(got) == rt::format_value(want));
    } else {
      // exp of a few chained values stays finite here; a few ulps of libm difference.
      CHECK(t::max_rel_diff(got.tensor(), want.tensor()) < 1e-5);
    }
  }
  CHECK(native_programs >= 35);  // nearly every chain is one native kernel
}
namespace {

// Compiles @main of `text` at its annotated shapes and checks the call against the
// interpreter: the compile notes' summary, then the result (equal when `exact`).
void check_reductions(const std::string& text, const std::string& summary, bool exact) {
  INFO(text);
  auto m = t::load_model_text(text);
  REQUIRE(m->error.empty());
  std::vector<rt::NDArray> args = t::random_args(*m, 3);
  rt::Value want = t::interpret(*m, args);
  compiler::ThreadPool pool(2);
  Compiled c = compile_main(*m, args, &pool);
  INFO(c.reason);
  REQUIRE(c.code);
  REQUIRE(!c.notes.empty());
  CHECK(c.notes[0] == summary);
  CHECK(c.notes.size() == 1);  // no group on reference kernels, so no further note
  std::vector<rt::Value> vals(args.begin(), args.end());
  rt::Value got = c.code->call(vals);
  const std::vector<rt::Value> gots = got.is_tuple() ? got.tuple().fields : std::vector<rt::Value>{got};
  const std::vector<rt::Value> wants = want.is_tuple() ? want.tuple().fields : std::vector<rt::Value>{want};
  REQUIRE(gots.size() == wants.size());
  for (size_t k = 0; k < gots.size(); ++k) {
    INFO("result " << k);
    CHECK(gots[k].tensor().dtype() == wants[k].tensor().dtype());
    CHECK(gots[k].tensor().shape() == wants[k].tensor().shape());
    // exact: every element equal (the reductions fold in the reference's order); else the
    // exp's libm rounding in the element-wise groups
    if (exact) CHECK(t::max_rel_diff(gots[k].tensor(), wants[k].tensor()) == 0);
    else CHECK(t::max_rel_diff(gots[k].tensor(), wants[k].tensor()) < 1e-6);
  }
}

}  // namespace

TEST_CASE("reductions with their element-wise producers compile to one native kernel each", "[compiler][pipeline]") {
  // the producers fuse into the reduction: one group, one kernel, the reference's bits
  check_reductions("def @main(%x: Tensor[(4, 33), float32]) {\n  mean(multiply(%x, %x), axis=[1])\n}\n",
                   "1 fused groups: 1 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels", true);
  // softmax written out: max and sum reduce over the last axis; exp(x - max) has two
  // consumers, so it is a group of its own (TVM's dominator rule)
  check_reductions(
      "def @main(%x: Tensor[(8, 50), float32]) {\n"
      "  %0 = max(%x, axis=[1], keepdims=True);\n"
      "  %1 = exp(subtract(%x, %0));\n"
      "  %2 = sum(%1, axis=[1], keepdims=True);\n"
      "  divide(%1, %2)\n}\n",
      "4 fused groups: 4 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels", false);
  // keepdims, exclude, argmax and a broadcast producer over integers
  check_reductions(
      "def @main(%x: Tensor[(3, 4, 5), int32], %y: Tensor[(5), int32]) {\n"
      "  %0 = sum(add(%x, %y), axis=[1], keepdims=True);\n"
      "  %1 = argmax(multiply(%x, %y), axis=[2], exclude=True);\n"
      "  add(%0, %1)\n}\n",
      "3 fused groups: 3 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels", true);
  // collapse_sum_like/collapse_sum_to (gradients of broadcasts): sums over the axes the
  // target shape lacks or has as 1, written straight into the target's shape
  check_reductions(
      "def @main(%x: Tensor[(4, 3, 5), float32], %y: Tensor[(3, 1), float32], %w: Tensor[(6, 2), int32], %s: Tensor[(2), int64]) {\n"
      "  %0 = collapse_sum_like(multiply(%x, %x), %y);\n"
      "  %1 = collapse_sum_to(add(%w, %w), %s, shape=[1, 2]);\n"
      "  (%0, %1)\n}\n",
      "2 fused groups: 2 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels", true);
  // a whole-tensor float16 sum over the kept-innermost row form (axis 0)
  check_reductions("def @main(%x: Tensor[(16, 40), float16]) {\n  sum(sigmoid(%x), axis=[0])\n}\n",
                   "1 fused groups: 1 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels", true);
}

TEST_CASE("a reduction fed by tile, repeat or broadcast_to splits into an index kernel and the reduction, both native", "[compiler][pipeline]") {
  // TVM fuses these broadcast-pattern producers into the reduction (one group); the
  // reduction kernel's prologue is element-wise only, so fuse_for_kernels splits them off
  const std::string two = "2 fused groups: 2 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels";
  const std::vector<std::string> bodies = {
      "sum(tile(multiply(%x, %x), reps=[2, 1, 3]), axis=[1])",
      "mean(repeat(%x, repeats=3, axis=0), axis=[0, 2], keepdims=True)",
      "max(broadcast_to(%x, shape=[2, 4, 8, 5]), axis=[0, 3])",
      "argmin(add(tile(%x, reps=[1, 2, 1]), 1f), axis=[2])",
  };
  for (const std::string& body : bodies) {
    const std::string text = "def @main(%x: Tensor[(4, 8, 5), float32]) {\n  " + body + "\n}\n";
    INFO(text);
    auto m = t::load_model_text(text);
    REQUIRE(m->error.empty());
    compiler::Graph g = t::optimized_main(*m);
    CHECK(compiler::fuse(g).groups.size() == 1);
    const compiler::FusionPlan split = compiler::fuse_for_kernels(g);
    REQUIRE(split.groups.size() == 2);
    CHECK(split.groups[1].nodes.size() == 1);
    CHECK(split.groups[1].pattern == FusionPattern::Reduction);
    CHECK(split.groups[1].inputs == split.groups[0].outputs);
    check_reductions(text, two, true);
  }
}

TEST_CASE("a softmax with an epilogue splits into the softmax and the epilogue, both native", "[compiler][pipeline]") {
  // TVM's groups: the add (producers do not join a softmax), softmax + multiply,
  // log_softmax + add, the result tuple. The softmax kernel takes the softmax alone, so each
  // epilogue becomes a kernel of its own (before: the softmax's reference kernel, the
  // epilogue native)
  const std::string text =
      "def @main(%x: Tensor[(4, 8, 33), float32], %m: Tensor[(4, 1, 33), float32], %y: Tensor[(2, 6, 5), float16]) {\n"
      "  %0 = nn.softmax(add(%x, %m), axis=-1);\n"
      "  %1 = nn.log_softmax(%y, axis=1);\n"
      "  (multiply(%0, 3f), add(%1, %y))\n}\n";
  auto m = t::load_model_text(text);
  REQUIRE(m->error.empty());
  compiler::Graph g = t::optimized_main(*m);
  CHECK(compiler::fuse(g).groups.size() == 4);
  CHECK(compiler::fuse_for_kernels(g).groups.size() == 6);
  check_reductions(text, "5 fused groups: 5 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels", true);
}

TEST_CASE("the fields of an operator's tuple result feed native kernels, and their projections count as no group", "[compiler][pipeline]") {
  // topk's (values, indices): TVM's fusion puts each projection with its consumer; split
  // off, the exp reads the field's buffer in a native kernel
  auto m = t::load_model_text("def @main(%x: Tensor[(4, 10), float32]) {\n"
                              "  %0 = topk(%x, k=3, axis=-1, ret_type=\"both\", is_ascend=False, dtype=\"int32\");\n"
                              "  (exp(%0.0), add(%0.1, 1))\n}\n");
  REQUIRE(m->error.empty());
  std::vector<rt::NDArray> args = t::random_args(*m, 3);
  rt::Value want = t::interpret(*m, args);
  compiler::ThreadPool pool(2);
  Compiled c = compile_main(*m, args, &pool);
  REQUIRE(c.code);
  REQUIRE(c.notes.size() == 2);
  CHECK(c.notes[0] == "3 fused groups: 2 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 1 on reference kernels");
  CHECK(c.notes[1].starts_with("group 0 (topk, 1 ops) on reference kernels: opaque"));
  std::vector<rt::Value> vals(args.begin(), args.end());
  rt::Value got = c.code->call(vals);
  REQUIRE(got.is_tuple());
  CHECK(t::max_rel_diff(got.tuple().fields[0].tensor(), want.tuple().fields[0].tensor()) < 1e-6);
  CHECK(t::max_rel_diff(got.tuple().fields[1].tensor(), want.tuple().fields[1].tensor()) == 0);
}

TEST_CASE("1-D convolutions and pools run as 2-D ones over a unit height, none on reference kernels", "[compiler][pipeline]") {
  const std::string text =
      "def @main(%x: Tensor[(2, 8, 37), float32], %w: Tensor[(12, 4, 3), float32], %y: Tensor[(2, 37, 8), float32], "
      "%v: Tensor[(3, 8, 6), float32]) {\n"
      "  %0 = nn.conv1d(%x, %w, strides=[2], padding=[1, 2], dilation=[2], groups=2, channels=12, kernel_size=[3]);\n"
      "  %1 = nn.conv1d(%y, %v, padding=[1], data_layout=\"NWC\", kernel_layout=\"WIO\");\n"
      "  %2 = nn.max_pool1d(%x, pool_size=[3], strides=[2], padding=[1], ceil_mode=True);\n"
      "  %3 = nn.avg_pool1d(%y, pool_size=[4], strides=[3], padding=[2, 1], layout=\"NWC\", count_include_pad=True);\n"
      "  %4 = nn.avg_pool1d(%x, pool_size=[2], dilation=[3]);\n"
      "  (nn.relu(%0), %1, %2, %3, %4)\n}\n";
  auto m = t::load_model_text(text);
  REQUIRE(m->error.empty());
  const compiler::Graph g = t::optimized_main(*m);
  for (const compiler::Node& n : g.nodes)
    if (n.kind == compiler::NodeKind::Call) CHECK(std::string_view(n.op->name).find("1d") == std::string_view::npos);
  std::vector<rt::NDArray> args = t::random_args(*m, 3);
  rt::Value want = t::interpret(*m, args);
  compiler::ThreadPool pool(2);
  Compiled c = compile_main(*m, args, &pool);
  REQUIRE(c.code);
  INFO(c.notes[0]);
  CHECK(c.notes[0].ends_with(" 0 on reference kernels"));
  std::vector<rt::Value> vals(args.begin(), args.end());
  rt::Value got = c.code->call(vals);
  REQUIRE(got.is_tuple());
  for (size_t k = 0; k < 5; ++k) {
    INFO("result " << k);
    const rt::NDArray &a = got.tuple().fields[k].tensor(), &b = want.tuple().fields[k].tensor();
    REQUIRE(a.shape() == b.shape());
    // the convolutions sum 12 or 48 products in the library's order; the pools are exact
    CHECK(t::max_rel_diff(a, b) <= (k < 2 ? 1e-5 : 0.0));
  }
}

TEST_CASE("the report names the library behind a lone matrix product and no reference kernels", "[compiler][pipeline]") {
  auto m = t::load_model_text("def @main(%x: Tensor[(4, 64), float32], %w: Tensor[(32, 64), float32]) {\n"
                              "  nn.dense(%x, %w, units=None)\n}\n");
  REQUIRE(m->error.empty());
  std::vector<rt::NDArray> args = t::random_args(*m, 5);
  compiler::ThreadPool pool(2);
  Compiled c = compile_main(*m, args, &pool);
  REQUIRE(c.code);
  REQUIRE(c.notes.size() == 2);
  INFO(c.notes[1]);
  if (c.notes[0].find("1 a library call alone") != std::string::npos) {  // oneDNN took it
    CHECK(c.notes[1].starts_with("group 0: nn.dense through oneDNN "));
    CHECK(c.notes[1].find("reference") == std::string::npos);
  } else {  // a build without oneDNN: the reference kernel, and the report says why
    CHECK(c.notes[1].find("reference kernel") != std::string::npos);
  }
}

TEST_CASE("layer, instance and group norms, l2_normalize and lrn decompose into kernels that lower, all native", "[compiler][pipeline]") {
  // TVM's SimplifyInference: a mean, a variance and the tail; group_norm's reshape of the
  // data into groups is a group of its own (the three others read it, as in TVM). The
  // reference kernels compute in double, so the results agree to float32 rounding.
  const std::string params =
      "(%x: Tensor[(2, 8, 5, 6), float32], %g: Tensor[(6), float32], %b: Tensor[(6), float32], "
      "%g8: Tensor[(8), float32], %b8: Tensor[(8), float32])";
  const std::string three = "3 fused groups: 3 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels";
  check_reductions("def @main" + params + " {\n  nn.layer_norm(%x, %g, %b, axis=-1)\n}\n", three, false);
  check_reductions("def @main" + params + " {\n  nn.instance_norm(%x, %g8, %b8, axis=1)\n}\n", three, false);
  check_reductions("def @main" + params + " {\n  nn.group_norm(%x, %g8, %b8, num_groups=4, axis=1)\n}\n",
                   "4 fused groups: 4 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels", false);
  // l2_normalize: a sum of squares, then the division (the reference's float64 sequence,
  // so bit for bit); over no axis, each element alone, one element-wise kernel
  check_reductions("def @main" + params + " {\n  nn.l2_normalize(%x, eps=1e-10f, axis=[3, 1])\n}\n",
                   "2 fused groups: 2 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels", true);
  check_reductions("def @main" + params + " {\n  nn.l2_normalize(%x, eps=0.5f, axis=[])\n}\n",
                   "1 fused groups: 1 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels", true);
  // lrn: the squares padded with zeros, `size` slices of them added in window order, then
  // the division (float64, bit for bit), one index-mapping kernel; odd and even windows,
  // one wider than the axis
  for (const char* attrs : {"size=5, axis=1", "size=4, axis=3, alpha=0.5f, beta=0.5f", "size=11, axis=1, bias=1f"})
    check_reductions("def @main" + params + " {\n  nn.lrn(%x, " + attrs + ")\n}\n",
                     "1 fused groups: 1 native, 0 with a native epilogue, 0 with the epilogue inside a library call, 0 a library call alone, 0 on reference kernels", true);
}

TEST_CASE("a reduction the loop IR cannot lower stays on reference kernels with the reason", "[compiler][pipeline]") {
  // int8's element count 256 wraps to 0: the reference divides by zero, so no kernel
  auto m = t::load_model_text("def @main(%x: Tensor[(2, 256), int8]) {\n  mean(%x, axis=[1])\n}\n");
  REQUIRE(m->error.empty());
  auto [g, plan] = t::fused_main(*m);
  const std::string loops = compiler::emit_groups(g, plan, "loops", compiler::Jit::instance());
  CHECK(loops.find("reference kernels (the reference fails: integer division by zero in `mean`") != std::string::npos);
}

TEST_CASE("relay compile --emit=loops prints a reduction group's kernel", "[compiler][pipeline]") {
  auto m = t::load_model_text("def @main(%x: Tensor[(4, 33), float32]) {\n  sum(exp(%x), axis=[1], keepdims=True)\n}\n");
  REQUIRE(m->error.empty());
  auto [g, plan] = t::fused_main(*m);
  const std::string loops = compiler::emit_groups(g, plan, "loops", compiler::Jit::instance());
  CHECK(loops.find("sum with its element-wise producers, one native kernel") != std::string::npos);
  CHECK(loops.find("reduction for") != std::string::npos);
  CHECK(loops.find("exp(") != std::string::npos);
  const std::string as = compiler::emit_groups(g, plan, "asm", compiler::Jit::instance());
  CHECK(as.find("main_g0") != std::string::npos);
}

TEST_CASE("the CPU profile (--profile) times each group and lists the heaviest with their rates", "[compiler][pipeline]") {
  auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/mlp.relay");
  REQUIRE(m->error.empty());
  const std::vector<rt::NDArray> args = t::random_args(*m, 3);
  std::vector<rt::Value> vals(args.begin(), args.end());
  auto sig = jit::signature_of(vals);
  REQUIRE(sig);
  compiler::ThreadPool pool(2);
  jit::CompileOutcome plain = compiler::compile_function(*m->program, *m->program->entry, *sig, &pool);
  jit::CompileOutcome profiled =
      compiler::compile_function(compiler::program_types(*m->program), *m->program->entry, *sig, &pool, {nullptr, nullptr, true});
  REQUIRE(plain.code);
  REQUIRE(profiled.code);
  CHECK(plain.code->run_notes().empty() == profiled.code->run_notes().empty());  // nothing before a call
  const rt::Value want = plain.code->call(vals);
  for (int call = 0; call < 3; ++call) CHECK(t::max_rel_diff(profiled.code->call(vals).tensor(), want.tensor()) == 0);
  for (const std::string& n : plain.code->run_notes()) CHECK(n.find("profile") == std::string::npos);

  const std::vector<std::string> notes = profiled.code->run_notes();
  std::string said;
  for (const std::string& n : notes) said += n + "\n";
  INFO(said);
  const auto first =
      std::find_if(notes.begin(), notes.end(), [](const std::string& n) { return n.starts_with("CPU profile: "); });
  REQUIRE(first != notes.end());
  CHECK(first->find(" a call over 2 call(s) after the first (") != std::string::npos);
  // a row a group: its time, share and rate, the heaviest first; the shares add up to 100%
  double total = 0, shares = 0, previous = 1e300;
  size_t rows = 0, rated_by_flops = 0;
  for (auto row = first + 1; row != notes.end(); ++row) {
    double ms = 0, share = 0;
    char unit[16] = {};
    REQUIRE(std::sscanf(row->c_str(), " %lf ms %lf%% %*f %15s", &ms, &share, unit) == 3);
    CHECK(ms <= previous);
    previous = ms;
    total += ms, shares += share, ++rows;
    CHECK(row->find("group ") != std::string::npos);
    if (row->find("oneDNN") != std::string::npos) {  // a dense layer through the library: its FLOP/s
      CHECK(std::string(unit).ends_with("FLOP/s"));
      ++rated_by_flops;
    } else {
      CHECK(std::string(unit).ends_with("B/s"));
    }
  }
  CHECK(rows >= 4);  // the flatten, three dense layers (with their epilogues), the softmax
  CHECK(shares == Approx(100).margin(0.1 * static_cast<double>(rows)));
  double headline = 0;
  REQUIRE(std::sscanf(first->c_str(), "CPU profile: %lf ms", &headline) == 1);
  CHECK(headline == Approx(total).margin(0.001 * static_cast<double>(rows)));
  // the three dense layers when oneDNN runs them (the compile report says so)
  const bool library = std::any_of(profiled.notes.begin(), profiled.notes.end(),
                                   [](const std::string& n) { return n.find("through oneDNN") != std::string::npos; });
  CHECK(rated_by_flops == (library ? 3u : 0u));
}
#endif

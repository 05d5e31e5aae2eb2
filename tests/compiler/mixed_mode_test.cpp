// Mixed mode (issue 13 §2): the tensor regions of functions that stay interpreted — a
// recursive loop with `if`, a `match` over a List, a closure, a reference updated in a
// loop — compile through the tier (TierUp::at_region) and give the interpreter's results;
// a run-time error inside a region is the interpreter's diagnostic, and with
// --check-numerics a NaN made in a region is reported at the operator.
//
// Float results are compared with a tolerance of 1e-6 relative (max_rel_diff): both sides
// call the same reference kernels for dense and the same libm functions, so they agree
// bitwise in practice; integer results are compared bitwise.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "compiler/pipeline/compile_function.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
namespace t = relay::testing;
using rt::NDArray;
using rt::Value;

namespace {

const char* kProgram = R"(#[version = "0.0.5"]
#[import = "prelude"]
def @rnn(%i: int32, %h: Tensor[(1, 8), float32], %x: Tensor[(1, 8), float32], %w: Tensor[(8, 8), float32],
         %u: Tensor[(8, 8), float32]) -> Tensor[(1, 8), float32] {
  if (less(%i, 10)) {
    let %a = nn.dense(%x, %w, units=8);
    let %b = nn.dense(%h, %u, units=8);
    let %h2 = tanh(add(%a, %b));
    @rnn(add(%i, 1), %h2, %x, %w, %u)
  } else {
    %h
  }
}
def @rnn_main(%x: Tensor[(1, 8), float32], %w: Tensor[(8, 8), float32], %u: Tensor[(8, 8), float32]) -> Tensor[(1, 8), float32] {
  @rnn(0, zeros(shape=[1, 8], dtype="float32"), %x, %w, %u)
}
def @sum_list(%l: List[Tensor[(4), float32]], %acc: Tensor[(4), float32]) -> Tensor[(4), float32] {
  match (%l) {
    Cons(%x, %rest) => {
      let %y = multiply(%x, 2f);
      let %z = add(%acc, exp(negative(%y)));
      @sum_list(%rest, %z)
    },
    Nil => %acc
  }
}
def @list_main(%a: Tensor[(4), float32], %b: Tensor[(4), float32]) -> Tensor[(4), float32] {
  @sum_list(Cons(%a, Cons(%b, Cons(%a, Nil))), zeros(shape=[4], dtype="float32"))
}
def @apply(%f: fn (Tensor[(4), float32]) -> Tensor[(4), float32], %x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  %f(%f(%f(%x)))
}
def @closure_main(%x: Tensor[(4), float32], %w: Tensor[(4), float32]) -> Tensor[(4), float32] {
  let %g = fn (%y: Tensor[(4), float32]) -> Tensor[(4), float32] {
    let %a = multiply(%y, %w);
    let %b = tanh(add(%a, %y));
    %b
  };
  @apply(%g, %x)
}
def @ref_main(%x: Tensor[(4), float32], %w: Tensor[(4), float32]) -> Tensor[(4), float32] {
  let %acc = ref(%x);
  let %loop = fn (%i: int32) -> () {
    if (less(%i, 6)) {
      let %v = ref_read(%acc);
      let %a = multiply(%v, %w);
      let %b = add(tanh(%a), %v);
      ref_write(%acc, %b);
      %loop(add(%i, 1))
    } else {
      ()
    }
  };
  %loop(0);
  ref_read(%acc)
}
def @int_loop(%i: int32, %a: Tensor[(6), int32], %b: Tensor[(6), int32]) -> Tensor[(6), int32] {
  if (less(%i, 4)) {
    let %q = floor_divide(%a, %b);
    let %r = add(multiply(%q, 1000003), %a);
    @int_loop(add(%i, 1), %r, subtract(%b, 1))
  } else {
    %a
  }
}
def @nan_loop(%i: int32, %x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  if (less(%i, 3)) {
    let %y = subtract(%x, %x);
    let %z = divide(%y, %y);
    @nan_loop(add(%i, 1), %z)
  } else {
    %x
  }
}
def @main() -> int32 { 0 }
)";

t::CompiledModel& model() {
  static std::unique_ptr<t::CompiledModel> m = t::load_model_text(kProgram);
  INFO(m->error);
  REQUIRE(m->program);
  return *m;
}

const FuncDef& def_named(t::CompiledModel& m, std::string_view name) {
  const FuncDef* def = m.program->find_global(name);
  if (!def) FAIL("no @" << name);
  return *def;
}

rt::RunOutcome run(t::CompiledModel& m, std::string_view name, std::vector<Value> args, rt::TierUp* tier,
                   bool check_numerics = false) {
  rt::RunOptions options;
  options.tier = tier;
  options.check_numerics = check_numerics;
  return rt::run_function(*m.program->program, m.program->program->global(def_named(m, name)), std::move(args),
                          options, m.sources);
}

Value f32(const rt::Shape& shape, uint64_t seed) {
  NDArray a = NDArray::empty(shape, DataType::float_(32));
  uint64_t s = seed * 2654435761u + 1;
  for (int64_t i = 0; i < a.size(); ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    a.data<float>()[i] = static_cast<float>(static_cast<int64_t>(s >> 40) % 2000 - 1000) / 1000.0f;
  }
  return Value(a);
}

Value i32(std::vector<int32_t> v) {
  NDArray a = NDArray::empty({static_cast<int64_t>(v.size())}, DataType::int_(32));
  std::memcpy(a.data<int32_t>(), v.data(), v.size() * sizeof(int32_t));
  return Value(a);
}

jit::TierOptions eager() { return {jit::JitMode::Eager, 2, 8, false}; }

// The report's region entries of `function`, each native with native calls.
std::vector<jit::TierReportEntry> native_regions(const jit::TieredCompiler& tier, std::string_view function) {
  std::vector<jit::TierReportEntry> out;
  for (const jit::TierReportEntry& e : tier.report())
    if (e.function == "@" + std::string(function) && !e.region.empty()) out.push_back(e);
  return out;
}

// Runs `name` interpreted and through a tier (eager, or auto compiling at the hot call),
// and checks the results agree and that a region of `region_of` ran native.
void check_mixed(std::string_view name, std::vector<Value> args, std::string_view region_of, jit::JitMode mode) {
  t::CompiledModel& m = model();
  rt::RunOutcome want = run(m, name, args, nullptr);
  INFO((want.error ? want.error->message : std::string()));
  REQUIRE(want.value);
  compiler::JitRuntime jit(compiler::program_types(*m.program), {mode, 2, 8, false});
  rt::RunOutcome got = run(m, name, args, &jit.tier());
  INFO((got.error ? got.error->message : std::string()));
  REQUIRE(got.value);
  CHECK(t::max_rel_diff(got.value->tensor(), want.value->tensor()) <= 1e-6);
  INFO(jit.tier().describe());
  auto regions = native_regions(jit.tier(), region_of);
  REQUIRE(regions.size() == 1);
  CHECK(regions[0].state == jit::TierReportEntry::State::Native);
  CHECK(regions[0].native_calls > 0);
  CHECK(regions[0].region.starts_with("region 1"));
}

}  // namespace

TEST_CASE("mixed mode: an RNN cell in a recursive loop with if runs native", "[compiler][mixed]") {
  std::vector<Value> args = {f32({1, 8}, 1), f32({8, 8}, 2), f32({8, 8}, 3)};
  check_mixed("rnn_main", args, "rnn", jit::JitMode::Eager);
  check_mixed("rnn_main", args, "rnn", jit::JitMode::Auto);  // compiled at its second reach
  // Eager compiles at the first reach: all ten iterations are native. With the sources
  // (as in `relay run`) the report names the region's lines.
  t::CompiledModel& m = model();
  compiler::ProgramTypes program = compiler::program_types(*m.program);
  program.sources = &m.sources;
  compiler::JitRuntime jit(program, eager());
  REQUIRE(run(m, "rnn_main", args, &jit.tier()).value);
  auto regions = native_regions(jit.tier(), "rnn");
  REQUIRE(regions.size() == 1);
  CHECK(regions[0].native_calls == 10);
  CHECK(regions[0].interpreted_calls == 0);
  CHECK(regions[0].region == "region 1 (lines 6-8)");
  CHECK(jit.tier().describe().find("@rnn region 1 (lines 6-8) (Tensor[(1, 8), float32], ") != std::string::npos);
  CHECK(regions[0].signature ==
        "(Tensor[(1, 8), float32], Tensor[(8, 8), float32], Tensor[(1, 8), float32], Tensor[(8, 8), float32])");
  // @rnn itself stays interpreted (control flow), with its reason.
  bool function_entry = false;
  for (const auto& e : jit.tier().report())
    if (e.function == "@rnn" && e.region.empty()) {
      function_entry = true;
      CHECK(e.state == jit::TierReportEntry::State::Interpreted);
      CHECK(e.reason.find("control flow") != std::string::npos);
    }
  CHECK(function_entry);
}

TEST_CASE("mixed mode: tensor work in a match over a List runs native", "[compiler][mixed]") {
  check_mixed("list_main", {f32({4}, 4), f32({4}, 5)}, "sum_list", jit::JitMode::Eager);
}

TEST_CASE("mixed mode: a closure capturing a tensor runs its region native", "[compiler][mixed]") {
  check_mixed("closure_main", {f32({4}, 6), f32({4}, 7)}, "closure_main", jit::JitMode::Eager);
  check_mixed("closure_main", {f32({4}, 6), f32({4}, 7)}, "closure_main", jit::JitMode::Auto);
}

TEST_CASE("mixed mode: a reference updated in a loop runs its region native", "[compiler][mixed]") {
  check_mixed("ref_main", {f32({4}, 8), f32({4}, 9)}, "ref_main", jit::JitMode::Eager);
}

TEST_CASE("mixed mode: integer regions are bitwise the interpreter's", "[compiler][mixed]") {
  t::CompiledModel& m = model();
  std::vector<Value> args = {Value(NDArray::scalar_int(0, DataType::int_(32))),
                             i32({2147483000, -2147483000, 7, -7, 0, 123456789}), i32({9, -9, 10, -10, 11, 12})};
  rt::RunOutcome want = run(m, "int_loop", args, nullptr);
  REQUIRE(want.value);
  compiler::JitRuntime jit(compiler::program_types(*m.program), eager());
  rt::RunOutcome got = run(m, "int_loop", args, &jit.tier());
  REQUIRE(got.value);
  const NDArray& a = got.value->tensor();
  const NDArray& b = want.value->tensor();
  REQUIRE(a.size() == b.size());
  CHECK(std::memcmp(a.data<int32_t>(), b.data<int32_t>(), sizeof(int32_t) * static_cast<size_t>(a.size())) == 0);
  auto regions = native_regions(jit.tier(), "int_loop");
  REQUIRE(regions.size() == 1);
  CHECK(regions[0].native_calls == 4);
}

TEST_CASE("mixed mode: a division by zero inside a region is the interpreter's diagnostic", "[compiler][mixed]") {
  t::CompiledModel& m = model();
  // %b reaches 0 in its first element at the third iteration: the first two run native, the
  // third's native call fails and the interpreter runs the region and reports.
  std::vector<Value> args = {Value(NDArray::scalar_int(0, DataType::int_(32))), i32({1, 2, 3, 4, 5, 6}),
                             i32({2, 9, 9, 9, 9, 9})};
  rt::RunOutcome want = run(m, "int_loop", args, nullptr);
  REQUIRE(want.error);
  compiler::JitRuntime jit(compiler::program_types(*m.program), eager());
  rt::RunOutcome got = run(m, "int_loop", args, &jit.tier());
  REQUIRE(got.error);
  CHECK(std::string(got.error->code()) == std::string(want.error->code()));
  CHECK(got.error->message == want.error->message);
  CHECK(got.error->primary().span == want.error->primary().span);
  CHECK(m.sources.get(got.error->primary().span.file).slice(got.error->primary().span).starts_with("floor_divide"));
  auto regions = native_regions(jit.tier(), "int_loop");
  REQUIRE(regions.size() == 1);
  CHECK(regions[0].native_calls == 2);       // the two that succeeded
  CHECK(regions[0].interpreted_calls == 1);  // the one that failed, which the interpreter ran
}

TEST_CASE("mixed mode: with --check-numerics a NaN made in a region names the operator", "[compiler][mixed]") {
  t::CompiledModel& m = model();
  std::vector<Value> args = {Value(NDArray::scalar_int(0, DataType::int_(32))), f32({4}, 10)};
  rt::RunOutcome want = run(m, "nan_loop", args, nullptr, true);
  REQUIRE(want.error);
  CHECK(std::string(want.error->code()) == "E0102");
  compiler::JitRuntime jit(compiler::program_types(*m.program), eager());
  rt::RunOutcome got = run(m, "nan_loop", args, &jit.tier(), true);
  REQUIRE(got.error);
  CHECK(std::string(got.error->code()) == "E0102");
  CHECK(got.error->message == want.error->message);
  CHECK(got.error->message.find("`divide`") != std::string::npos);
  CHECK(got.error->primary().span == want.error->primary().span);
  auto regions = native_regions(jit.tier(), "nan_loop");
  REQUIRE(regions.size() == 1);
  CHECK(regions[0].native_calls == 1);  // ran native, its NaN thrown away, interpreted
  // Without observers the native NaN is the answer, and every iteration is native.
  compiler::JitRuntime plain(compiler::program_types(*m.program), eager());
  rt::RunOutcome nan = run(m, "nan_loop", args, &plain.tier());
  REQUIRE(nan.value);
  CHECK(std::isnan(nan.value->tensor().data<float>()[0]));
  CHECK(native_regions(plain.tier(), "nan_loop").at(0).native_calls == 3);
}

TEST_CASE("mixed mode: a function that compiles whole gets no regions", "[compiler][mixed]") {
  auto loaded = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  let %a = multiply(%x, 2f);
  let %b = tanh(%a);
  add(%b, %x)
}
)");
  REQUIRE(loaded->program);
  compiler::JitRuntime jit(compiler::program_types(*loaded->program), eager());
  rt::RunOptions options;
  options.tier = &jit.tier();
  const rt::Value main = loaded->program->program->global(*loaded->program->entry);
  REQUIRE(rt::run_function(*loaded->program->program, main, {f32({4}, 11)}, options, loaded->sources).value);
  REQUIRE(rt::run_function(*loaded->program->program, main, {f32({4}, 11)}, options, loaded->sources).value);
  for (const auto& e : jit.tier().report()) CHECK(e.region.empty());
}

#endif

// Scalar functions with `if` and recursion compiled to native control flow
// (compiler/llvm/scalar_codegen.h) against the interpreter: fib, factorial (wrapping),
// a float Newton iteration, mutual recursion, exact operator semantics at edge values,
// integer division by zero (the native call throws, the interpreter reports), recursion
// past the native bound (the interpreter's answer through the tier), and refusals.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "compiler/llvm/scalar_codegen.h"
#include "compiler/pipeline/compile_function.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
namespace t = relay::testing;
using rt::NDArray;

namespace {

const char* kProgram = R"(#[version = "0.0.5"]
def @fib(%n: int32) -> int32 {
  if (less(%n, 2)) { %n } else { add(@fib(subtract(%n, 1)), @fib(subtract(%n, 2))) }
}
def @fib64(%n: int64) -> int64 {
  if (less(%n, 2i64)) { %n } else { add(@fib64(subtract(%n, 1i64)), @fib64(subtract(%n, 2i64))) }
}
def @fact(%n: int32) -> int32 {
  if (less_equal(%n, 1)) { 1 } else { multiply(%n, @fact(subtract(%n, 1))) }
}
def @fact64(%n: int64) -> int64 {
  let %one = 1i64;
  if (less_equal(%n, %one)) { %one } else { %0 = subtract(%n, %one); multiply(%n, @fact64(%0)) }
}
def @newton(%x: float64, %g: float64, %i: int32) -> float64 {
  if (greater_equal(%i, 30)) { %g } else { @newton(%x, divide(add(%g, divide(%x, %g)), 2f64), add(%i, 1)) }
}
def @is_even(%n: int32) -> bool {
  if (equal(%n, 0)) { True } else { @is_odd(subtract(%n, 1)) }
}
def @is_odd(%n: int32) -> bool {
  if (equal(%n, 0)) { False } else { @is_even(subtract(%n, 1)) }
}
def @div(%a: int32, %b: int32) -> int32 {
  if (less(%a, -1000)) { 0 } else { add(divide(%a, %b), floor_mod(%a, %b)) }
}
def @mix(%a: float32, %b: float32, %c: int8) -> int8 {
  let %m = maximum(%a, %b);
  if (logical_or(greater(%m, 0f), isnan(%m))) {
    add(cast(%m, dtype="int8"), floor_divide(%c, cast(3, dtype="int8")))
  } else {
    subtract(cast(minimum(%b, %a), dtype="int8"), negative(abs(%c)))
  }
}
def @count(%n: int64) -> int64 {
  if (equal(%n, 0i64)) { 0i64 } else { add(@count(subtract(%n, 1i64)), 1i64) }
}
def @tensor(%x: Tensor[(3), float32]) -> Tensor[(3), float32] {
  if (True) { %x } else { negative(%x) }
}
def @main() -> int32 { @fib(10) }
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

jit::CompileOutcome compile(t::CompiledModel& m, std::string_view name, const std::vector<rt::Value>& args) {
  auto sig = jit::signature_of(args);
  REQUIRE(sig);
  return compiler::compile_function(*m.program, def_named(m, name), *sig, nullptr);
}

rt::RunOutcome interpret(t::CompiledModel& m, std::string_view name, std::vector<rt::Value> args,
                         rt::TierUp* tier = nullptr) {
  rt::RunOptions options;
  options.tier = tier;
  return rt::run_function(*m.program->program, m.program->program->global(def_named(m, name)), std::move(args),
                          options, m.sources);
}

bool same_bits(const NDArray& a, const NDArray& b) {
  if (!(a.dtype() == b.dtype()) || a.ndim() != 0 || b.ndim() != 0) return false;
  const size_t bytes = a.dtype().is_bool() ? 1 : a.dtype().bits / 8;
  if (a.dtype().is_bool()) return (*a.data<uint8_t>() != 0) == (*b.data<uint8_t>() != 0);
  return std::memcmp(a.data<void>(), b.data<void>(), bytes) == 0;
}

// Compiled (once per function: every test calls a function with one signature) and
// interpreted, the same bits.
void check_same(std::string_view name, std::vector<rt::Value> args) {
  t::CompiledModel& m = model();
  static std::map<std::string, std::unique_ptr<rt::CompiledCall>, std::less<>> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    jit::CompileOutcome c = compile(m, name, args);
    INFO("@" << name << ": " << c.reason);
    REQUIRE(c.code);
    REQUIRE(!c.notes.empty());
    CHECK(c.notes[0].find("scalar function: native control flow") != std::string::npos);
    it = cache.emplace(std::string(name), std::move(c.code)).first;
  }
  rt::RunOutcome want = interpret(m, name, args);
  REQUIRE(want.value);
  rt::Value got = it->second->call(args);
  CHECK(same_bits(got.tensor(), want.value->tensor()));
}

rt::Value i32(int64_t v) { return NDArray::scalar_int(v, DataType::int_(32)); }
rt::Value i64(int64_t v) { return NDArray::scalar_int(v, DataType::int_(64)); }

}  // namespace

TEST_CASE("fib and factorial over int32 and int64 compile to native recursion", "[compiler][scalar]") {
  for (int n : {0, 1, 2, 10, 20}) {
    check_same("fib", {i32(n)});
    check_same("fib64", {i64(n)});
  }
  // 13! and beyond wrap in int32, 21! and beyond in int64: both sides wrap the same way.
  for (int n : {-3, 0, 1, 5, 12, 13, 17, 20, 21, 25}) {
    check_same("fact", {i32(n)});
    check_same("fact64", {i64(n)});
  }
}

TEST_CASE("a float Newton iteration with if equals the interpreter bitwise", "[compiler][scalar]") {
  for (double x : {2.0, 0.5, 1e-300, 1e300, 0.0, -1.0}) {
    check_same("newton", {NDArray::scalar(x, DataType::float_(64)), NDArray::scalar(1.0, DataType::float_(64)), i32(0)});
  }
}

TEST_CASE("mutual recursion (is_even / is_odd) compiles into one module", "[compiler][scalar]") {
  for (int n : {0, 1, 7, 100, 1001}) {
    check_same("is_even", {i32(n)});
    check_same("is_odd", {i32(n)});
  }
  jit::CompileOutcome c = compile(model(), "is_even", {i32(3)});
  REQUIRE(!c.notes.empty());
  CHECK(c.notes[0].find("2 functions") != std::string::npos);
}

TEST_CASE("scalar operators keep the reference's semantics at edge values", "[compiler][scalar]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::vector<double> floats = {nan, inf, -inf, 0.0, -0.0, 1.5, -2.5, 127.9, 300.0, -1e9};
  for (double a : floats)
    for (double b : floats)
      for (int64_t c : {-128, -1, 0, 5, 127}) {
        INFO(a << " " << b << " " << c);
        check_same("mix", {NDArray::scalar(a, DataType::float_(32)), NDArray::scalar(b, DataType::float_(32)),
                           NDArray::scalar_int(c, DataType::int_(8))});
      }
  // INT_MIN / -1 wraps, negative floor_mod.
  const int64_t lo = std::numeric_limits<int32_t>::min();
  for (int64_t a : {int64_t{7}, int64_t{-7}, lo + 1000000, int64_t{0}})
    for (int64_t b : {int64_t{3}, int64_t{-3}, int64_t{1}}) check_same("div", {i32(a), i32(b)});
}

TEST_CASE("integer division by zero: the native call throws, the interpreter reports it", "[compiler][scalar]") {
  t::CompiledModel& m = model();
  std::vector<rt::Value> args = {i32(7), i32(0)};
  jit::CompileOutcome c = compile(m, "div", args);
  REQUIRE(c.code);
  CHECK_THROWS_AS(c.code->call(args), rt::RuntimeError);
  // Through the tier: the interpreter replays the call and its diagnostic is the answer.
  compiler::JitRuntime jit(compiler::program_types(*m.program), {jit::JitMode::Eager, 2, 8, false});
  REQUIRE(jit.tier().compile_now(def_named(m, "div"), args));
  rt::RunOutcome want = interpret(m, "div", args);
  rt::RunOutcome got = interpret(m, "div", args, &jit.tier());
  REQUIRE(want.error);
  REQUIRE(got.error);
  CHECK(got.error->message == want.error->message);
}

TEST_CASE("recursion past the native bound gets the interpreter's answer through the tier", "[compiler][scalar]") {
  t::CompiledModel& m = model();
  check_same("count", {i64(1000)});
  const int64_t deep = compiler::kMaxNativeDepth + 50000;
  std::vector<rt::Value> args = {i64(deep)};
  jit::CompileOutcome c = compile(m, "count", args);
  REQUIRE(c.code);
  CHECK_THROWS_AS(c.code->call(args), rt::RuntimeError);
  compiler::JitRuntime jit(compiler::program_types(*m.program), {jit::JitMode::Eager, 2, 8, false});
  REQUIRE(jit.tier().compile_now(def_named(m, "count"), args));
  rt::RunOutcome got = interpret(m, "count", args, &jit.tier());
  INFO((got.error ? got.error->message : std::string()));
  REQUIRE(got.value);
  CHECK(*got.value->tensor().data<int64_t>() == deep);
  // A shallow call through the same tier runs native.
  rt::RunOutcome shallow = interpret(m, "count", {i64(500)}, &jit.tier());
  REQUIRE(shallow.value);
  CHECK(*shallow.value->tensor().data<int64_t>() == 500);
  const std::string report = jit.tier().describe();
  INFO(report);
  CHECK(report.find("scalar function: native control flow") != std::string::npos);
  // Calls that failed natively and calls declined while backing off count as interpreted:
  // six attempts fail (at depths 0, 1025, 3074, ..., 31749, each followed by twice as many
  // declined calls, 1024 to 32768: 64,512), the seventh, 64,518 levels down, has under
  // 100,000 to go and answers, as does the shallow call.
  CHECK(report.find("calls: 2 native, 64518 interpreted") != std::string::npos);
}

TEST_CASE("a function over tensors stays interpreted with both reasons", "[compiler][scalar]") {
  std::vector<rt::Value> args = {NDArray::zeros({3}, DataType::float_(32))};
  jit::CompileOutcome c = compile(model(), "tensor", args);
  CHECK_FALSE(c.code);
  CHECK(c.reason.find("control flow") != std::string::npos);
  CHECK(c.reason.find("not a scalar function") != std::string::npos);
}

#endif  // RELAY_HAVE_PIPELINE

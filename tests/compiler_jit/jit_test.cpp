// The JIT session and the runtime: vector code in the emitted IR, assembly, the verifier,
// compiles from several threads, the perf map, parallel_for's splitting and the C ABI's
// [begin, end) range.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "compiler/loops/verify.h"
#include "compiler/runtime/thread_pool.h"
#include "tests/compiler_jit/support.h"

using namespace relay;
using namespace relay::test;
using relay::rt::NDArray;

namespace {
const DataType f32 = DataType::float_(32);
}

TEST_CASE("float32 kernels vectorise: the optimised IR has <8 x float> or <16 x float>", "[jit][emit]") {
  compiler::Jit& jit = compiler::Jit::instance();
  const loops::LoweredElementwise r =
      loops::lower_elementwise(binary_program("multiply", f32, f32, {1 << 16}, {1 << 16}, {1 << 16}), "mul");
  REQUIRE(r.ok());
  const std::string ir = jit.emit_llvm(r.kernel);
  INFO(ir);
  const std::string width = jit.host().avx512 ? "<16 x float>" : "<8 x float>";
  CHECK(ir.find(width) != std::string::npos);
  if (jit.host().avx512) CHECK(ir.find("\"prefer-vector-width\"=\"512\"") != std::string::npos);
  CHECK(ir.find("define void @mul(ptr") != std::string::npos);  // the C ABI entry
  const std::string asm_text = jit.emit_asm(r.kernel);
  CHECK(asm_text.find("mul:") != std::string::npos);
  CHECK(asm_text.find("vmulps") != std::string::npos);
  compiler::CompileOptions keep;
  keep.keep_llvm_ir = keep.keep_asm = true;
  const compiler::CompiledKernel k = jit.compile(r.kernel, keep);
  CHECK(k.llvm_ir.find(width) != std::string::npos);
  CHECK_FALSE(k.assembly.empty());
  CHECK(k.compile_ms > 0);
  CHECK_FALSE(jit.host().cpu.empty());
}

TEST_CASE("the verifier rejects ill-formed kernels and compile refuses them", "[jit][verify]") {
  loops::Kernel k;
  k.name = "bad";
  const int b = loops::add_param(k, "b", f32, {4}, {1});
  const loops::Var i = loops::new_var(k, "i", loops::i64());
  const loops::Var unbound = loops::new_var(k, "u", loops::i64());
  // float16 arithmetic, an index that is not affine, an unbound variable, a wrong store type
  const loops::Expr half = loops::cast(DataType::float_(16), loops::load(k.buffer(b), loops::var_ref(i)));
  k.body.push_back(loops::for_loop(
      i, loops::int_imm(4), loops::LoopKind::Serial,
      {loops::store(k.buffer(b), loops::binary(loops::BinaryOp::Mul, loops::var_ref(i), loops::var_ref(i)),
                    loops::float_imm(1)),
       loops::store(k.buffer(b), loops::var_ref(unbound), loops::float_imm(1)),
       loops::store(k.buffer(b), loops::var_ref(i), loops::binary(loops::BinaryOp::Add, half, half)),
       loops::store(k.buffer(b), loops::var_ref(i), loops::int_imm(1, DataType::int_(32)))}));
  const std::vector<std::string> errors = loops::verify(k);
  std::string all;
  for (const std::string& e : errors) all += e + "\n";
  INFO(all);
  CHECK(all.find("not affine") != std::string::npos);
  CHECK(all.find("outside its scope") != std::string::npos);
  CHECK(all.find("cast to float32 first") != std::string::npos);
  CHECK(all.find("value is int32, buffer is float32") != std::string::npos);
  CHECK_THROWS_AS(compiler::Jit::instance().compile(k), std::invalid_argument);
}

TEST_CASE("kernels compile concurrently from several threads", "[jit][threads]") {
  std::vector<std::future<double>> results;
  for (int t = 0; t < 4; ++t)
    results.push_back(std::async(std::launch::async, [t] {
      const loops::ElementwiseProgram p = unary_program(t % 2 ? "exp" : "sigmoid", f32, f32, {100 + t});
      std::mt19937_64 rng(static_cast<uint64_t>(t));
      const std::vector<NDArray> in = {random_tensor(f32, {100 + t}, rng)};
      std::string error;
      const NDArray expected = *run_reference(p, in, error);
      const JitResult r = run_jit(p, in);
      return compare(expected, r.out).empty() ? r.compile_ms : -1.0;
    }));
  for (auto& f : results) CHECK(f.get() > 0);
}

TEST_CASE("every compiled kernel is named in the perf map", "[jit][profiler]") {
  compiler::Jit& jit = compiler::Jit::instance();
  const loops::LoweredElementwise r = loops::lower_elementwise(unary_program("negative", f32, f32, {8}), "perfmapped");
  const compiler::CompiledKernel k = jit.compile(r.kernel);
  std::ifstream file(jit.host().perf_map);
  std::stringstream text;
  text << file.rdbuf();
  CHECK(text.str().find(" " + k.symbol + "\n") != std::string::npos);
  // GDB registration is on unless the process does not export ORC's registration entry
  // point; either way the reason is recorded.
  CHECK((jit.host().debugger_support || !jit.host().debugger_note.empty()));
}

TEST_CASE("parallel_for covers 0..n exactly once in chunks, and nests serially", "[runtime]") {
  compiler::ThreadPool pool(3);
  CHECK(pool.threads() == 3);
  for (int64_t n : {0, 1, 5, 1000, 100003}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    std::atomic<int> chunks{0};
    pool.parallel_for(n, [&](int64_t b, int64_t e) {
      ++chunks;
      for (int64_t i = b; i < e; ++i) ++hits[static_cast<size_t>(i)];
      // a nested loop runs on the calling thread
      int inner = 0;
      pool.parallel_for(3, [&](int64_t ib, int64_t ie) { inner += static_cast<int>(ie - ib); });
      CHECK(inner == 3);
    });
    for (auto& h : hits) CHECK(h.load() == 1);
    if (n >= 1000) CHECK(chunks.load() > 1);
  }
  CHECK_THROWS_AS(pool.parallel_for(100, [](int64_t b, int64_t) {
    if (b > 50) throw std::runtime_error("chunk failed");
  }), std::runtime_error);
  CHECK(compiler::default_threads() >= 1);
}

TEST_CASE("a kernel called on begin..end runs only those iterations of its parallel loop", "[jit][abi]") {
  const int64_t n = 3 * loops::kElementwiseChunk + 5;
  const loops::ElementwiseProgram p = unary_program("negative", f32, f32, {n});
  CompiledProgram c = compile_program(p);
  REQUIRE(c.kernel.parallel_extent == 4);
  NDArray in = NDArray::zeros({n}, f32), out = NDArray::zeros({n}, f32);
  for (int64_t i = 0; i < n; ++i) in.set_double(i, 1.0);
  const RelayTensorView views[] = {rt::view_of(in), rt::view_of(out)};
  c.kernel(views, 1, 2);  // the second chunk only
  CHECK(out.get_double(loops::kElementwiseChunk - 1) == 0);
  CHECK(out.get_double(loops::kElementwiseChunk) == -1);
  CHECK(out.get_double(2 * loops::kElementwiseChunk - 1) == -1);
  CHECK(out.get_double(2 * loops::kElementwiseChunk) == 0);
  c.kernel(views, -5, 100);  // clamped to [0, 4)
  CHECK(out.get_double(n - 1) == -1);
  CHECK(out.get_double(0) == -1);
}

TEST_CASE("a kernel reads each buffer at its view's data pointer plus byte offset", "[jit][abi]") {
  const loops::ElementwiseProgram p = unary_program("negative", f32, f32, {4});
  CompiledProgram c = compile_program(p);
  REQUIRE(c.kernel.num_params == 2);
  // Both tensors live inside one larger allocation, at element offsets 3 and 9.
  NDArray storage = NDArray::zeros({16}, f32);
  for (int64_t i = 0; i < 16; ++i) storage.set_double(i, static_cast<double>(i));
  const int64_t shape[] = {4};
  const RelayDType dt = rt::relay_dtype(f32);
  const RelayTensorView views[] = {{storage.raw(), 3 * 4, shape, nullptr, 1, dt},
                                   {storage.raw(), 9 * 4, shape, nullptr, 1, dt}};
  compiler::run_kernel(c.kernel, views, nullptr);
  for (int64_t i = 0; i < 16; ++i) {
    INFO(i);
    CHECK(storage.get_double(i) == (i >= 9 && i < 13 ? -static_cast<double>(i - 6) : static_cast<double>(i)));
  }
}

TEST_CASE("the comparison itself: bitwise for integers, ULPs for floats, NaN only equals NaN", "[jit][support]") {
  NDArray a = NDArray::zeros({3}, DataType::int_(32)), b = NDArray::zeros({3}, DataType::int_(32));
  CHECK(compare(a, b).empty());
  b.set_int(2, 1);
  CHECK_FALSE(compare(a, b).empty());
  NDArray x = NDArray::zeros({2}, f32), y = NDArray::zeros({2}, f32);
  x.set_double(0, 1.0);
  y.set_double(0, std::nextafter(1.0f, 2.0f));  // 1 ULP
  y.set_double(1, -0.0);                        // -0 == +0
  CHECK(compare(x, y).empty());
  y.set_double(0, 1.001);
  CHECK_FALSE(compare(x, y).empty());
  y.set_double(0, std::nan(""));
  CHECK_FALSE(compare(x, y).empty());
  x.set_double(0, -std::nan(""));
  CHECK(compare(x, y).empty());
}

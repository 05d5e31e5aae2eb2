// Programs of several steps and broadcasting shapes: (3, 1) x (1, 4), scalars, rank 0,
// a chain of 8 operators, long outputs split into parallel chunks, and the status flag.
#include <catch2/catch.hpp>

#include "compiler/loops/print.h"
#include "tests/compiler_jit/support.h"

using namespace relay;
using namespace relay::test;
using relay::loops::ElementwiseProgram;
using relay::loops::EwOperand;
using relay::rt::NDArray;

namespace {

const DataType f32 = DataType::float_(32);

std::vector<NDArray> random_inputs(const ElementwiseProgram& p, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<NDArray> v;
  for (const loops::EwInput& in : p.inputs) v.push_back(random_tensor(in.dtype, in.shape, rng));
  return v;
}

// In both loop shapes: the GPU's flat loop (its indices recovered by division) runs on
// the CPU JIT as well.
void check(const ElementwiseProgram& p, uint64_t seed, unsigned threads = 0) {
  const std::vector<NDArray> inputs = random_inputs(p, seed);
  std::string error;
  std::optional<NDArray> expected = run_reference(p, inputs, error);
  REQUIRE(expected);
  for (loops::LoopShape shape : {loops::LoopShape::Cpu, loops::LoopShape::Gpu}) {
    INFO((shape == loops::LoopShape::Gpu ? "GPU loop shape" : "CPU loop shape"));
    JitResult actual = run_compiled(compile_program(p, {}, shape), p, inputs, threads);
    CHECK_FALSE(actual.failed);
    CHECK(compare(*expected, actual.out) == "");
  }
}

// add, multiply, maximum, clip, subtract, nn.relu, divide, minimum over (in0 op in1) with
// in1 broadcast; the benchmark's chain, too.
ElementwiseProgram chain_of_8(DataType t, rt::Shape a, rt::Shape b, rt::Shape out) {
  ElementwiseProgram p;
  p.inputs = {{t, a}, {t, b}};
  auto in = EwOperand::input;
  auto st = EwOperand::step;
  p.steps = {
      {"add", {in(0), in(1)}, {}, t},
      {"multiply", {st(0), in(1)}, {}, t},
      {"maximum", {st(1), in(0)}, {}, t},
      {"clip", {st(2)}, {{"a_min", -5}, {"a_max", 5}}, t},
      {"subtract", {st(3), in(0)}, {}, t},
      {"nn.relu", {st(4)}, {}, t},
      {"multiply", {st(5), in(1)}, {}, t},
      {"minimum", {st(6), st(3)}, {}, t},
  };
  p.out_dtype = t;
  p.out_shape = std::move(out);
  return p;
}

}  // namespace

TEST_CASE("broadcasting (3, 1) x (1, 4), scalars and rank 0", "[jit][broadcast]") {
  for (const char* op : {"add", "subtract", "maximum", "less", "floor_mod"}) {
    const DataType out = std::string(op) == "less" ? DataType::bool_() : f32;
    check(binary_program(op, f32, out, {3, 1}, {1, 4}, {3, 4}), 1);
    check(binary_program(op, f32, out, {}, {2, 5}, {2, 5}), 2);        // rank-0 lhs
    check(binary_program(op, f32, out, {7, 6}, {1}, {7, 6}), 3);       // one-element rhs
    check(binary_program(op, f32, out, {}, {}, {}), 4);                // rank 0 everywhere
    check(binary_program(op, f32, out, {2, 3, 4}, {3, 1}, {2, 3, 4}), 5);
    check(binary_program(op, f32, out, {5000}, {1}, {5000}), 6);       // chunked, scalar rhs
  }
  check(binary_program("add", DataType::int_(32), DataType::int_(32), {4, 1, 3}, {1, 5, 1}, {4, 5, 3}), 7);
  check(binary_program("add", f32, f32, {0, 3}, {1, 3}, {0, 3}), 8);   // empty output
}

TEST_CASE("a chain of 8 operators matches the reference, serially and on threads", "[jit][chain]") {
  for (DataType t : {f32, DataType::float_(16), DataType::int_(32), DataType::float_(64)}) {
    INFO(dtype_name(t));
    check(chain_of_8(t, {100, 64}, {64}, {100, 64}), 10);
    check(chain_of_8(t, {3, 1}, {1, 4}, {3, 4}), 11);
    check(chain_of_8(t, {20000}, {20000}, {20000}), 12, 2);  // chunks split over 2 threads
  }
}

TEST_CASE("integer division by zero sets the status flag, wherever the zero is", "[jit][status]") {
  const DataType i32 = DataType::int_(32);
  ElementwiseProgram p = binary_program("floor_divide", i32, i32, {10000}, {10000}, {10000});
  std::vector<NDArray> inputs = {NDArray::zeros({10000}, i32), NDArray::zeros({10000}, i32)};
  for (int64_t i = 0; i < 10000; ++i) inputs[1].set_int(i, i % 7 + 1);
  CompiledProgram c = compile_program(p);
  REQUIRE(c.lowered.status_buffer == 3);
  CHECK_FALSE(run_compiled(c, p, inputs, 2).failed);
  inputs[1].set_int(9999, 0);  // the last chunk's last element
  CHECK(run_compiled(c, p, inputs, 2).failed);
  // the GPU's loop shape: a thread's own flag reaches the same status word
  CompiledProgram flat = compile_program(p, {}, loops::LoopShape::Gpu);
  CHECK(run_compiled(flat, p, inputs, 2).failed);
  inputs[1].set_int(9999, 5);
  CHECK_FALSE(run_compiled(flat, p, inputs, 2).failed);
  inputs[1].set_int(9999, 0);
  std::string error;
  CHECK_FALSE(run_reference(p, inputs, error));
  CHECK(error.find("division by zero") != std::string::npos);
  CHECK(loops::status_message(p).find("floor_divide") != std::string::npos);
  // float division cannot fail: no status buffer
  CHECK(compile_program(binary_program("divide", f32, f32, {4}, {4}, {4})).lowered.status_buffer == -1);
}

TEST_CASE("the lowered loop nest: parallel outer loop, vectorizable inner loop, zero strides", "[jit][loops]") {
  const ElementwiseProgram p = binary_program("add", f32, f32, {3, 1}, {1, 4}, {3, 4});
  const loops::LoweredElementwise r = loops::lower_elementwise(p, "bcast");
  REQUIRE(r.ok());
  const std::string text = loops::print_kernel(r.kernel);
  INFO(text);
  CHECK(text.find("kernel bcast(in0: float32[3, 1] strides [1, 1], in1: float32[1, 4] strides [4, 1]") !=
        std::string::npos);
  CHECK(text.find("parallel for o0 in [0, 3)") != std::string::npos);
  CHECK(text.find("vectorizable for i1 in [0, 4)") != std::string::npos);
  CHECK(text.find("in0[o0]") != std::string::npos);  // broadcast along the row: no i1
  CHECK(text.find("in1[i1]") != std::string::npos);  // broadcast along the column: no o0
  CHECK(r.kernel.parallel_extent() == 3);
  const loops::LoweredElementwise big = loops::lower_elementwise(unary_program("exp", f32, f32, {10, 1000}), "big");
  REQUIRE(big.ok());
  CHECK(big.kernel.parallel_extent() == (10000 + loops::kElementwiseChunk - 1) / loops::kElementwiseChunk);
}

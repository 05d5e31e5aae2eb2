// Every lowered operator, for every dtype it is defined for, compiled and compared with
// the interpreter's reference kernel on random data with edge values: NaN, +-Inf, 0, -0,
// integer extremes, and zero divisors (where the reference throws, the kernel must set its
// status flag). 67 elements, so vector bodies and scalar remainders both run. Each program
// is lowered in both loop shapes (loops::LoopShape): the GPU's flat loop runs on the CPU
// JIT too, so its indexing meets the reference here, where there is no GPU.
#include <catch2/catch.hpp>

#include <set>

#include "tests/compiler_jit/support.h"

using namespace relay;
using namespace relay::test;
using relay::loops::ElementwiseProgram;
using relay::rt::NDArray;

namespace {

const std::set<std::string_view> kDivides = {"divide", "floor_divide", "trunc_divide", "mod", "floor_mod",
                                             "trunc_mod"};
// Second operands drawn from [-8, 8]: shift counts and exponents in range are the
// interesting cases (the full-range trial covers the out-of-range ones).
const std::set<std::string_view> kSmallRhs = {"left_shift", "right_shift", "power"};

const rt::Shape kShape = {67};

// Replaces zeros (and, for bool, false) with a nonzero value, so division succeeds.
void remove_zeros(NDArray& t) {
  for (int64_t i = 0; i < t.size(); ++i)
    if (t.get_double(i) == 0) t.set_int(i, 3);
}

// Runs one program, lowered in `shape`, on several random inputs against the reference.
void check_shape(const ElementwiseProgram& p, const std::string& label, bool small_last, bool divides,
                 loops::LoopShape shape) {
  INFO(label << (shape == loops::LoopShape::Gpu ? " (GPU loop shape)" : ""));
  CompiledProgram compiled = compile_program(p, {}, shape);
  std::mt19937_64 rng(std::hash<std::string>{}(label));
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<NDArray> inputs;
    for (size_t i = 0; i < p.inputs.size(); ++i) {
      const bool small = (trial == 1) || (small_last && i + 1 == p.inputs.size() && trial == 2);
      inputs.push_back(random_tensor(p.inputs[i].dtype, p.inputs[i].shape, rng, small));
    }
    if (divides && trial == 2) remove_zeros(inputs.back());
    INFO("trial " << trial);
    std::string error;
    std::optional<NDArray> expected = run_reference(p, inputs, error);
    JitResult actual = run_compiled(compiled, p, inputs);
    if (!expected) {
      INFO("the reference failed: " << error);
      CHECK(actual.failed);
      continue;
    }
    CHECK_FALSE(actual.failed);
    const std::string diff = compare(*expected, actual.out);
    CHECK(diff == "");
  }
}

void check_program(const ElementwiseProgram& p, const std::string& label, bool small_last, bool divides) {
  check_shape(p, label, small_last, divides, loops::LoopShape::Cpu);
  check_shape(p, label, small_last, divides, loops::LoopShape::Gpu);
}

}  // namespace

TEST_CASE("every lowered unary and binary operator matches its reference kernel for every dtype", "[jit][ops]") {
  int programs = 0;
  for (std::string_view op_view : loops::lowered_elementwise_ops()) {
    const std::string op(op_view);
    if (op == "cast" || op == "cast_like" || op == "where" || op == "clip" || op == "nn.leaky_relu" ||
        op == "fixed_point_multiply")
      continue;  // attributes or extra operands: their own test cases below
    for (DataType t : all_dtypes()) {
      if (!loops::elementwise_supports(op, t)) continue;
      const DataType out = kBoolResultOps.count(op) ? DataType::bool_() : t;
      const ElementwiseProgram p = kBinaryOps.count(op) ? binary_program(op, t, out, kShape, kShape, kShape)
                                                     : unary_program(op, t, out, kShape);
      check_program(p, op + " " + dtype_name(t), kSmallRhs.count(op) > 0, kDivides.count(op) > 0);
      ++programs;
    }
  }
  CHECK(programs > 300);
}

TEST_CASE("cast between every pair of dtypes matches the reference", "[jit][ops]") {
  for (DataType from : all_dtypes())
    for (DataType to : all_dtypes()) {
      if (from == to) continue;
      check_program(unary_program("cast", from, to, kShape), "cast " + dtype_name(from) + " -> " + dtype_name(to),
                    false, false);
    }
}

TEST_CASE("clip, leaky_relu, fixed_point_multiply, where and cast_like match the reference", "[jit][ops]") {
  for (DataType t : all_dtypes()) {
    const std::string n = dtype_name(t);
    check_program(unary_program("clip", t, t, kShape, {{"a_min", -2.5}, {"a_max", 7.25}}), "clip " + n, false, false);
    check_program(unary_program("clip", t, t, kShape, {{"a_min", -1e30}, {"a_max", 1e30}}), "clip wide " + n, false,
                  false);
    check_program(unary_program("nn.leaky_relu", t, t, kShape, {{"alpha", 0.1}}), "leaky_relu " + n, false, false);
    if (t.is_int() || t.is_uint()) {
      check_program(unary_program("fixed_point_multiply", t, t, kShape, {{"multiplier", 1518500250}, {"shift", -3}}),
                    "fixed_point_multiply " + n, false, false);
      check_program(unary_program("fixed_point_multiply", t, t, kShape, {{"multiplier", 1073741824}, {"shift", 2}}),
                    "fixed_point_multiply left " + n, false, false);
    }
    ElementwiseProgram w;
    w.inputs = {{DataType::float_(32), kShape}, {t, kShape}, {t, kShape}};
    w.steps = {{"where", {loops::EwOperand::input(0), loops::EwOperand::input(1), loops::EwOperand::input(2)}, {}, t}};
    w.out_dtype = t;
    w.out_shape = kShape;
    check_program(w, "where " + n, false, false);
    ElementwiseProgram cl = binary_program("cast_like", t, DataType::int_(16), kShape, kShape, kShape);
    cl.inputs[1].dtype = DataType::int_(16);
    check_program(cl, "cast_like " + n, false, false);
  }
}

TEST_CASE("operators without a lowering are listed with a reason and rejected", "[jit][ops]") {
  for (const loops::NotLowered& n : loops::not_lowered_elementwise_ops()) {
    CHECK_FALSE(n.reason.empty());
    CHECK_FALSE(loops::elementwise_supports(n.op, DataType::float_(32)));
  }
  const ElementwiseProgram p = unary_program("shape_of", DataType::float_(32), DataType::int_(32), {4});
  const loops::LoweredElementwise r = loops::lower_elementwise(p, "k");
  CHECK_FALSE(r.ok());
  CHECK(r.error.find("shape_of") != std::string::npos);
  // float math on integers is rejected as the reference rejects it
  CHECK_FALSE(loops::elementwise_supports("exp", DataType::int_(32)));
  CHECK_FALSE(loops::lower_elementwise(unary_program("exp", DataType::int_(32), DataType::int_(32), {4}), "k").ok());
  // a wrong result dtype is an error, not a silent conversion
  CHECK_FALSE(loops::lower_elementwise(unary_program("less", DataType::int_(32), DataType::int_(32), {4}), "k").ok());
}

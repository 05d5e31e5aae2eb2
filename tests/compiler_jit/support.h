// Differential testing of compiled element-wise kernels against the interpreter's
// reference kernels: random tensors with edge values, the program run both ways, and a
// comparison that is bitwise for integers and booleans and within a few ULPs for floats.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/llvm/jit.h"
#include "compiler/loops/elementwise.h"
#include "interpreter/runtime/ndarray.h"

namespace relay::test {

// Float results may differ from the reference by at most this many units in the last
// place of their storage dtype. Both sides call the same C library and LLVM is given no
// fast-math flags, so in practice they agree exactly; the margin covers a libm call that
// LLVM constant-folds or vectorises differently on another host.
inline constexpr int64_t kMaxUlps = 4;

// Every dtype the runtime stores.
std::vector<DataType> all_dtypes();

// Random values of `dtype`, about a quarter of them edge values: NaN, +-Inf, 0, -0,
// +-1, the smallest subnormal and the largest finite value for floats; MIN, MAX, 0, -1, 1
// for integers. `small` draws integers from [-8, 8] instead of the whole range (shift
// counts, exponents).
rt::NDArray random_tensor(DataType dtype, const rt::Shape& shape, std::mt19937_64& rng, bool small = false);

// The program evaluated by the interpreter's kernels, one step at a time; nullopt with
// `error` set when a kernel throws (the message).
std::optional<rt::NDArray> run_reference(const loops::ElementwiseProgram& p, const std::vector<rt::NDArray>& inputs,
                                         std::string& error);

struct JitResult {
  rt::NDArray out;
  bool failed = false;  // the status flag was set
  double compile_ms = 0;
};
struct CompiledProgram {
  loops::LoweredElementwise lowered;
  compiler::CompiledKernel kernel;
};
// `shape`: the loop shape lowered (the GPU's shape runs on the CPU JIT as well: its
// indexing is checked here, where there is no GPU).
CompiledProgram compile_program(const loops::ElementwiseProgram& p, const compiler::CompileOptions& options = {},
                                loops::LoopShape shape = loops::LoopShape::Cpu);
// Runs a compiled program (over `threads` threads: 0 runs it serially).
JitResult run_compiled(const CompiledProgram& c, const loops::ElementwiseProgram& p,
                       const std::vector<rt::NDArray>& inputs, unsigned threads = 0);
// Lowers, compiles and runs the program.
JitResult run_jit(const loops::ElementwiseProgram& p, const std::vector<rt::NDArray>& inputs, unsigned threads = 0,
                  const compiler::CompileOptions& options = {});

// Empty when equal (see kMaxUlps), else a description of the first differing element.
std::string compare(const rt::NDArray& expected, const rt::NDArray& actual);
// Empty when bitwise equal (any NaN equals any NaN), else the first difference.
std::string bitwise(const rt::NDArray& expected, const rt::NDArray& actual);

// The lowered operators that take two tensors (cast_like aside), and those whose result
// is bool whatever their operands' dtype.
extern const std::set<std::string_view> kBinaryOps;
extern const std::set<std::string_view> kBoolResultOps;

// One-step programs.
loops::ElementwiseProgram unary_program(const std::string& op, DataType in, DataType out, const rt::Shape& shape,
                                        std::map<std::string, double> attrs = {});
loops::ElementwiseProgram binary_program(const std::string& op, DataType in, DataType out, const rt::Shape& a,
                                         const rt::Shape& b, const rt::Shape& result);

// Every lowered element-wise operator at every dtype it supports (clip, leaky_relu and
// fixed_point_multiply with fixed attributes, where with a bool condition), and every
// cast between two dtypes, labelled "op dtype"; the binary ones broadcast (3, 1) x (1, 4),
// the others run over 67 elements.
std::vector<std::pair<std::string, loops::ElementwiseProgram>> every_elementwise_program();

}  // namespace relay::test

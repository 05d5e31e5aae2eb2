// Lowering of fused element-wise and broadcast groups to one loop-IR kernel: the contract
// between the graph layer (compiler/graph, which finds the groups) and code generation.
//
// An ElementwiseProgram is a small SSA program evaluated at every element of the output:
// inputs (dtype + shape each), steps that each apply one Relay operator to inputs or
// earlier steps, and one output, the value of the last step. Inputs are broadcast to the
// output shape with numpy's rules (right-aligned, size-1 dimensions repeat), so a step's
// operands may have different shapes: evaluating pointwise at the output's index gives
// what evaluating each operator on its own broadcast shapes gives.
//
// Kernel ABI (see ir.h): buffers = [inputs..., output, status?]. All buffers are
// contiguous row-major in their own shape and must not overlap. `status` is present when
// the program can fail at run time (integer division by zero, 0 raised to a negative
// integer power): an int32 scalar the caller sets to 0 before the call; a kernel that
// meets the failure stores 1 there (and writes 0 to the affected elements). The caller
// then reports what the reference kernel would have reported (status_message).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/loops/ir.h"

namespace relay::loops {

struct EwInput {
  DataType dtype;
  std::vector<int64_t> shape;
};

struct EwOperand {
  enum Kind : uint8_t { Input, Step } kind = Input;
  int index = 0;  // into ElementwiseProgram::inputs or ::steps (an earlier step)
  static EwOperand input(int i) { return {Input, i}; }
  static EwOperand step(int i) { return {Step, i}; }
};

struct EwStep {
  std::string op;                    // the Relay operator's name: "add", "clip", "nn.relu", ...
  std::vector<EwOperand> operands;   // positional inputs, as the operator takes them
  std::map<std::string, double> attrs;  // scalar attributes: clip a_min/a_max,
                                        // nn.leaky_relu alpha, fixed_point_multiply
                                        // multiplier/shift (cast: the step's dtype)
  DataType dtype;                    // the result's dtype (what the type checker inferred)
};

struct ElementwiseProgram {
  std::vector<EwInput> inputs;
  std::vector<EwStep> steps;  // at least one; the last is the output
  DataType out_dtype;
  std::vector<int64_t> out_shape;
};

using LoweredElementwise = LoweredKernel;

// The elements per chunk of the parallel loop when the output collapses to one long
// dimension (a multiple of every vector width; 16 KiB of float32).
inline constexpr int64_t kElementwiseChunk = 4096;
// The consecutive output elements a GPU thread computes where they divide the output (four
// float32: one 16-byte load of each operand laid out like the output).
inline constexpr int64_t kGpuVector = 4;

LoweredElementwise lower_elementwise(const ElementwiseProgram& p, std::string name, LoopShape shape = LoopShape::Cpu);

// Whether `op` has a lowering for operands of dtype `t` (the first operand's dtype;
// cast/cast_like convert from it). False for ops not in lowered_elementwise_ops().
bool elementwise_supports(std::string_view op, DataType t);

// The scalar attributes `op`'s lowering reads (clip's a_min/a_max, ...): what the graph
// layer copies from the call into EwStep::attrs. Empty for other operators.
const std::vector<std::string_view>& elementwise_attrs(std::string_view op);

// The operators lower_elementwise handles, and the element-wise/broadcast operators of
// reference §3.2/§3.3 it does not, each with the reason (the graph layer runs their
// reference kernel).
const std::vector<std::string_view>& lowered_elementwise_ops();
struct NotLowered {
  std::string_view op;
  std::string_view reason;
};
const std::vector<NotLowered>& not_lowered_elementwise_ops();

// The interpreter's message for a failed kernel (status set): names the first operator of
// the program that can fail.
std::string status_message(const ElementwiseProgram& p);

}  // namespace relay::loops

// Reasons per group of TVM-internal operators (reference §3.9, §3.10); see internal_ops.h.
#include "lang/ops/internal_ops.h"

namespace relay {

std::string_view internal_op_reason(const OpInfo& op) {
  const std::string_view n = op.name;
  auto starts = [&](std::string_view p) { return n.substr(0, p.size()) == p; };
  if (starts("memory."))
    return "memory.* operators exist only inside TVM's compiler, after memory planning (ManifestAlloc) "
           "has made allocations explicit; Relay text never needs them";
  if (starts("vm."))
    return "vm.* operators exist only inside TVM's compiler, in programs lowered for its virtual machine; "
           "Relay text never needs them";
  if (n == "call_lowered")
    return "call_lowered exists only inside TVM's compiler, after operators have been lowered to TIR "
           "functions (LowerTE); Relay text never needs it";
  if (n == "torch_op")
    return "torch_op exists only when TVM is built with its libtorch backend and runs a serialized "
           "TorchScript function, which this toolchain cannot execute";
  if (starts("contrib.ethosu."))
    return "contrib.ethosu.* operators exist only inside TVM's Arm Ethos-U NPU backend, after its "
           "legalization; they describe NPU commands, not Relay computations";
  if (n == "parser.MetaRef")
    return "parser.MetaRef is a placeholder TVM's parser uses while it reads meta[...] references; "
           "it never survives parsing";
  if (n == "annotation.with_funcid")
    return "annotation.with_funcid is an internal marker of TVM's partial evaluator; TVM registers no "
           "type relation for it";
  if (n == "relay.op.annotation.simulated_quantize")
    return "relay.op.annotation.simulated_quantize exists only inside TVM's automatic quantization pass "
           "(relay.quantize); written models use qnn.simulated_quantize";
  if (n == "debug")
    return "debug calls a Python callback of TVM's interpreter, which a Relay text file cannot name";
  return {};
}

}  // namespace relay

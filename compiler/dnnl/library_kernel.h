// Convolutions and matrix products through a kernel library (oneDNN 2.6), the compile
// path's answer to issue 14: LLVM's auto-vectorised loop nest reaches 10-12% of the FP32
// peak on a convolution, oneDNN's JIT kernels about 80% (docs/compiler.md, "Convolutions
// and matrix products"). A LibraryKernel replaces one graph node's reference kernel inside
// compiled code. Its fused group's element-wise epilogue runs inside the library call when
// it is a chain the library takes (compiler/graph/epilogue.h: batch-norm scale and shift
// folded into the weights and bias, activations and a residual add as post-ops); else it
// stays one native kernel after the call.
//
// Built without oneDNN (RELAY_DNNL=OFF, or the library missing), make_library_kernel
// always declines and compiled code keeps the reference kernels.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "compiler/graph/activation_layout.h"
#include "compiler/graph/epilogue.h"
#include "compiler/graph/graph.h"
#include "interpreter/runtime/ndarray.h"

namespace relay::compiler {

class LibraryKernel {
 public:
  virtual ~LibraryKernel() = default;
  // The node's result from its input tensors (in the node's input order, then the fused
  // epilogue's operands: fused_epilogue()), computed on `threads` threads into `dest`
  // when it is defined (it then has the result's shape and dtype: the memory plan's
  // slot), else into a fresh array. With a fused epilogue the result is the epilogue's.
  virtual rt::NDArray run(std::span<const rt::NDArray> inputs, const rt::NDArray& dest, unsigned threads) const = 0;
  // What the library chose for this call, e.g. `oneDNN brgconv:avx512_core`: the report
  // and `relay compile --emit=fused` show it.
  virtual std::string describe() const = 0;
  // How many times weights were put into the library's layout so far: once per distinct
  // weight tensor, not once per call (weight_cache.h). 0 for kernels without prepared weights.
  virtual uint64_t weight_preparations() const { return 0; }
  // Floating-point operations of one run (a multiply-add counts 2): for the rate the tier
  // report prints.
  virtual double flops() const = 0;
  // The group's epilogue this kernel computes inside the call (all of it), or nullptr.
  virtual const EpilogueChain* fused_epilogue() const { return nullptr; }
  // Whether `dest` may be the residual's own buffer (when the epilogue adds one): the
  // memory plan then writes the result over a residual that dies here (issue 14: the
  // residual add in place) instead of copying the residual into a new buffer first. Asked
  // after the layout pass, which decides whether a reorder would read and write one buffer.
  virtual bool can_write_over_residual() const { return false; }

  // One layout between library calls (issue 14's layout pass, compiler/pipeline/
  // library_layouts.h): a result that only library kernels read can stay in the layout
  // the library wrote it in, which saves a reorder on each side.
  // Whether `reader` takes this kernel's result as its run() input `input` (0: the data;
  // after the master's inputs, a fused epilogue's operand such as a residual) in exactly
  // the layout this kernel writes it in.
  virtual bool can_hand_over(const LibraryKernel& reader, size_t input) const {
    (void)reader;
    (void)input;
    return false;
  }
  // From now on this kernel writes its result in its own layout (only library kernels
  // that accepted it read it), and reads its run() input `input` in the layout it wants.
  virtual void keep_result_layout() {}
  virtual void take_input_layout(size_t input) { (void)input; }
  // Through the compiler's own kernels: the layout this kernel would keep its result in
  // (after keep_result_layout), and the one it would take its run() input `input` in
  // (take_input_layout), as compiler/graph/activation_layout.h describes them; Plain when
  // it is neither NHWC nor a whole-block nChw<b>c copy of the NCHW tensor. Such values can
  // also pass through native kernels, which read and write those bytes through layout
  // nodes (native_plan.h: plan_native_held), so the layout reaches across pools, batch
  // norms and concatenations between convolutions.
  virtual ActivationLayout written_layout() const { return ActivationLayout::plain(); }
  virtual ActivationLayout read_layout(size_t input) const {
    (void)input;
    return ActivationLayout::plain();
  }
};

// A library kernel for call node `node` of `g` (nn.conv2d, nn.conv2d_transpose, nn.dense,
// nn.batch_matmul on float32 at the graph's concrete shapes), or nullptr: `why` is left
// empty for an operator the library has no kernel for, and set for one it declines: another dtype or
// layout, attributes the library does not take, or only a slow reference implementation
// on this processor (oneDNN's `ref:*`, which can be 100x slower than the reference
// kernel's im2col + BLAS).
std::unique_ptr<LibraryKernel> make_library_kernel(const Graph& g, NodeId node, std::string* why);
// The same for `group.master`, taking the group's element-wise epilogue into the call too
// when the library can run all of it (fused_epilogue() says whether it did), made for
// `threads` threads (the library splits its work for them when it makes the kernel; the
// first overload makes it for one).
std::unique_ptr<LibraryKernel> make_library_kernel(const Graph& g, const FusedGroup& group, unsigned threads,
                                                   std::string* why);

// Whether this build has a kernel library at all.
bool library_kernels_built();

}  // namespace relay::compiler

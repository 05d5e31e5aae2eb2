// The GPU backend's code generation: loop-IR kernels to PTX through LLVM 19's NVPTX
// target, for NVIDIA GPUs. Nothing here needs a GPU, a driver or a CUDA toolkit; the
// kernels that call math functions (exp, tanh, erf, ...) need NVIDIA's libdevice (its
// math library as LLVM bitcode), which is looked for at run time (find_libdevice).
//
//   gpu::PtxModule m = gpu::emit_ptx(kernels, gpu::PtxTarget{90});
//   // m.ptx: one PTX module with an .entry per kernel; m.kernels: how to launch each
//
// Kernel ABI on the GPU: `.entry NAME(.param .u64 b0, ..., .param .u64 bN)`, one device
// pointer per buffer parameter of the loop-IR kernel (its first element, in the kernel's
// parameter order; the lowering fixed shapes and strides), each aligned to
// kParamAlignment bytes (the start of an allocation: cuMemAlloc aligns to 256), which
// lets neighbouring loads merge into vector loads. The iterations of the kernel's
// top-level parallel loop are spread over every thread of the grid (a grid-stride loop,
// so any grid is correct and consecutive threads take consecutive iterations); a kernel
// without a top-level parallel loop runs on one thread. A kernel with Threads loops
// (loops/ir.h) runs an iteration on a team: on a warp (thread = threadIdx.x % 32, eight
// iterations to a block) when its team is 32 threads sharing no memory, else on a block of
// the team's size (thread = threadIdx.x, an iteration per block). A Threads loop's body
// runs once on each thread, followed by bar.sync when the kernel has shared buffers
// (shared memory); a LaneReduce is warp shuffles (shfl.sync.down, then shfl.sync.idx from
// lane 0); a thread-local buffer is the thread's own slot. The lowerings' "every operation is
// total" contract (loops/ir.h) holds on the GPU as on the CPU.
//
// This header includes no LLVM header.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/loops/ir.h"

namespace relay::compiler::gpu {

// A CUDA architecture (compute capability). sm_80 (A100) and sm_90 (H100, H200) are the
// architectures the project targets and tests with ptxas; others LLVM 19 knows (sm_70
// and later) are accepted.
struct PtxTarget {
  int sm = 80;
  std::string arch() const { return "sm_" + std::to_string(sm); }
};
inline constexpr int kTargetedArchitectures[] = {80, 90};

// Whether `target`'s tensor cores multiply `operands` (the WMMA m16n16k16 shapes the
// lowerings use): float16 from sm_70 (Volta, Turing's T4), bfloat16 from sm_80.
bool tensor_cores_take(const PtxTarget& target, DataType operands);

// Whether LLVM's NVPTX back end knows the architecture (LLVM 19: up to sm_90; a newer GPU
// runs sm_90's PTX, which its driver compiles).
bool llvm_knows(const PtxTarget& target);

// "cuda" (sm_80), "cuda:sm_90", "sm_90", "cuda:90": the target, or nullopt (also for an
// architecture before sm_70 or one LLVM does not know).
std::optional<PtxTarget> parse_ptx_target(std::string_view text);

// How to launch one kernel of a module.
struct PtxKernelInfo {
  std::string entry;         // the .entry's name
  size_t num_params = 0;     // device pointers it takes
  int64_t iterations = 1;    // of its top-level parallel loop (what the threads share)
  unsigned team = 1;         // threads per iteration (Kernel::team())
  bool whole_block = false;  // an iteration per block of `team` threads (a team larger
                             // than a warp, or one sharing memory); else a team of a warp
                             // is packed with others into blocks
  bool one_thread = false;   // no top-level parallel loop: launch <<<1, 1>>>
  unsigned block = 1;        // threads per block
  uint64_t grid = 1;         // blocks
  // The threads its iterations want (at least one iteration's).
  uint64_t threads() const { return static_cast<uint64_t>(iterations > 1 ? iterations : 1) * team; }
};

struct PtxModule {
  std::string ptx;
  std::vector<PtxKernelInfo> kernels;  // in the order of the kernels given
  bool linked_libdevice = false;
};

inline constexpr unsigned kParamAlignment = 16;

// The threads per block of every kernel (the grid-stride loop makes any count correct).
inline constexpr unsigned kThreadsPerBlock = 256;

// How one kernel is launched on a GPU of `multiprocessors` SMs: PtxKernelInfo's grid and
// block, except that a kernel with fewer blocks than multiprocessors gets smaller blocks
// (down to one warp) until it has a block on each, so that its threads spread over the
// whole chip: a batch-1 dense layer has a few thousand threads, each a long serial fold,
// and in blocks of 256 they would run on a tenth of an H200 (measured: 2.2x faster in
// blocks of 32; a grid of more blocks than multiprocessors gained nothing from smaller
// blocks, or lost up to 18%).
struct PtxLaunch {
  uint64_t grid = 1;
  unsigned block = 1;
};
PtxLaunch launch_for(const PtxKernelInfo& k, int multiprocessors);

// libdevice.10.bc: the file $RELAY_LIBDEVICE names when it is set (only that), else the
// first of $CUDA_HOME/nvvm/libdevice, /usr/local/cuda/nvvm/libdevice and Debian's
// /usr/lib/nvidia-cuda-toolkit/libdevice that has it.
// Empty when there is none; `searched` (if given) lists where it looked.
std::string find_libdevice(std::string* searched = nullptr);

// One PTX module for `kernels`, optimised at `opt_level` (0..3). Each kernel's entry is
// its name (made unique in the module). Throws std::runtime_error when a kernel calls a
// math function and no libdevice is found (the message says where it looked) and
// std::invalid_argument when a kernel does not verify or multiplies on tensor cores the
// target lacks (tensor_cores_take).
PtxModule emit_ptx(std::span<const loops::Kernel* const> kernels, const PtxTarget& target, int opt_level = 3);

// The LLVM IR of the same module before code generation (`relay compile --emit=gpu-llvm`).
std::string emit_gpu_llvm(std::span<const loops::Kernel* const> kernels, const PtxTarget& target, int opt_level = 3);

}  // namespace relay::compiler::gpu

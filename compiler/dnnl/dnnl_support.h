// What every oneDNN-backed kernel shares (private to compiler/dnnl): the CPU engine, a
// stream per thread, the thread count, memories kept between calls, and the pieces of a
// call (reorder into the layout the primitive chose, execute, reorder back).
#pragma once

#include <array>
#include <mutex>
#include <optional>
#include <string>

#include <oneapi/dnnl/dnnl.hpp>

#include "compiler/dnnl/library_kernel.h"
#include "compiler/graph/activation_layout.h"

namespace relay::compiler::dnnl_impl {

dnnl::engine& engine();
// This thread's stream (in-order; every execute is followed by wait before returning).
dnnl::stream& stream();
// oneDNN's OpenMP team for this thread's next primitives.
void use_threads(unsigned threads);
// oneDNN names a primitive's implementation (`brgconv:avx512_core`, `ref:any`); the
// reference ones are correct but slow, so the caller declines them.
bool is_reference_impl(const std::string& impl);
// is_reference_impl, with `why` (when given) saying so: what every maker checks last.
bool only_reference_impl(const std::string& impl, std::string* why);

// Denormal floats flushed to zero while a library call runs (FTZ and DAZ in MXCSR, x86),
// as TensorFlow runs its CPU kernels: oneDNN's kernels slow down many times on denormal
// operands, which trained weights and activations produce (ResNet-18 with weights scaled
// as trained ones: 39 ms a call without, 29 ms with, bench/compiler). The caller's mode
// is restored afterwards; OpenMP's worker threads, which run only oneDNN's code, keep it.
// A result that would be a denormal is 0 instead: within 1.2e-38 of the reference.
class FlushDenormals {
 public:
  explicit FlushDenormals(unsigned threads);
  ~FlushDenormals();
  FlushDenormals(const FlushDenormals&) = delete;
  FlushDenormals& operator=(const FlushDenormals&) = delete;

 private:
  unsigned saved_ = 0;
};

// Attributes every primitive here is made with: the scratchpad is the caller's
// (scratchpad_mode::user). With the library's default each primitive owns one scratchpad,
// so two calls of the same compiled code at once (two threads, a re-entered region) would
// share it and corrupt each other's results.
dnnl::primitive_attr caller_scratchpad();

// A float32 memory descriptor of `dims` with a plain `tag` (of `type`, for the quantized kernels).
dnnl::memory::desc plain(const dnnl::memory::dims& dims, dnnl::memory::format_tag tag,
                         dnnl::memory::data_type type = dnnl::memory::data_type::f32);

// Relay's dtype for oneDNN's (float32, int32, int8, uint8; the kernels use no other).
DataType relay_dtype(dnnl::memory::data_type type);

// A buffer of one descriptor kept between calls: a call takes it when no other call holds
// it (a concurrent or re-entered call gets a fresh one), so the steady state allocates
// nothing.
class ScratchMemory {
 public:
  struct Lease {
    dnnl::memory memory;
    std::unique_lock<std::mutex> hold;
  };
  Lease take(const dnnl::memory::desc& desc) const;

 private:
  mutable std::mutex mutex_;
  mutable std::optional<dnnl::memory> kept_;
};

// A memory object of one descriptor over the caller's buffers, kept between calls: making
// a dnnl::memory allocates (the MLP's three dense layers made nine per call, a third of
// its time), so a call points the kept one at its buffer. As with ScratchMemory, a call
// that finds it held (a concurrent call) makes its own. One call wraps one buffer with it.
class UserMemory {
 public:
  struct Lease {
    dnnl::memory memory;
    std::unique_lock<std::mutex> hold;
  };
  UserMemory() = default;
  explicit UserMemory(const dnnl::memory::desc& desc) : desc_(desc) {}
  Lease wrap(const void* data) const;

 private:
  dnnl::memory::desc desc_;
  mutable std::mutex mutex_;
  mutable std::optional<dnnl::memory> kept_;
};

// A primitive's arguments for one execute, in a fixed array: the C++ API's execute takes
// an unordered_map, whose nodes are allocated on every call. It holds a reference to each
// memory until it is destroyed: a memory handed in as a temporary (the prepared weights,
// which a concurrent call with other weights may replace) stays alive through execute.
class ExecArgs {
 public:
  void add(int arg, const dnnl::memory& memory);
  // Runs `primitive` on this thread's stream (in order; the caller waits once at the end).
  void execute(const dnnl::primitive& primitive) const;

 private:
  static constexpr size_t kMax = 24;
  std::array<dnnl_exec_arg_t, kMax> args_{};
  std::array<dnnl::memory, kMax> held_;
  int count_ = 0;
};

// A primitive's scratchpad for one call (kept between calls like ScratchMemory), added to
// its arguments when it needs one.
class Scratchpad {
 public:
  explicit Scratchpad(const dnnl::memory::desc& desc) : desc_(desc) {}
  void add_to(ExecArgs& args, ScratchMemory::Lease& lease) const;

 private:
  dnnl::memory::desc desc_;
  ScratchMemory memory_;
};

// One operand between a tensor's plain buffer and the layout the primitive chose: the
// buffer itself when they are the same, else a scratch memory and a reorder (made once).
class OperandLayout {
 public:
  // PreloadedOutput: an output that preload() fills before the primitive runs.
  enum class Direction { Input, Output, PreloadedOutput };
  // What one call holds of the operand: the memory over its buffer, the scratch.
  struct Leases {
    UserMemory::Lease user;
    ScratchMemory::Lease scratch;
  };
  OperandLayout(const dnnl::memory::desc& user, const dnnl::memory::desc& chosen, Direction direction);
  // An input: the primitive's operand for `data` (reordered into the scratch when needed).
  dnnl::memory into(const void* data, Leases& leases) const;
  // An output: the memory the primitive writes for `data`; after it ran, `finish` reorders
  // that scratch back into `data` when the layouts differ.
  dnnl::memory out(void* data, Leases& leases) const;
  void finish(const dnnl::memory& produced, void* data, Leases& leases) const;
  // A PreloadedOutput: puts the tensor `data` (plain, or in the chosen layout when
  // `data_in_chosen_layout`) into `target` (from out()) before the primitive runs, for a
  // sum post-op that adds to what the destination holds.
  void preload(const void* data, bool data_in_chosen_layout, const dnnl::memory& target,
               UserMemory::Lease& lease) const;
  // The tensor's buffer holds the chosen layout from now on: no reorder either way.
  void adopt_chosen_layout();
  const dnnl::memory::desc& chosen() const { return chosen_; }
  // Whether a buffer in the chosen layout has the plain one's size (no padding), so it can
  // stand in the same planned slot.
  bool chosen_fits() const { return chosen_.get_size() == plain_.get_size(); }
  bool reorders() const { return reorder_.has_value(); }
  bool preload_reorders() const { return preload_.has_value(); }
  // When the plain layout is a dense 4-D `abcd` (NCHW): the layout of the chosen one as
  // the compiler's own kernels can read and write it (library_kernel.h): dense `acdb`
  // (NHWC), or `aBcd16b` / `aBcd8b` (nChw16c, nChw8c) over whole blocks of channels.
  // Plain for anything else (including the plain layout itself).
  ActivationLayout chosen_activation_layout() const;

 private:
  dnnl::memory::desc user_, chosen_, plain_;  // plain_: the plain layout (user_ until adopted)
  std::optional<dnnl::reorder> reorder_;
  std::optional<dnnl::reorder> preload_;  // a PreloadedOutput's reorder the other way
  ScratchMemory scratch_;
  std::optional<UserMemory> user_memory_;  // over the buffer, in user_ (replaced on adoption)
  UserMemory preload_memory_;
};

}  // namespace relay::compiler::dnnl_impl

// A function compiled for one argument signature: its optimised graph cut into fused
// groups, each run either by one native kernel (element-wise and broadcast groups, and
// reductions with their element-wise producers, that the loop IR lowers, JIT-compiled by
// LLVM) or, honestly, by the reference kernels of its operators (everything else for now:
// convolutions and dense (their element-wise epilogues native), layout changes, softmax).
// The interpreter calls it through the tier-up seam as a CompiledCall.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compiler/graph/fuse.h"
#include "compiler/dnnl/library_kernel.h"
#include "compiler/graph/graph.h"
#include "compiler/llvm/jit.h"
#include "compiler/pipeline/kernel_profile.h"
#include "compiler/pipeline/memory_plan.h"
#include "compiler/pipeline/native_plan.h"
#include "compiler/runtime/thread_pool.h"
#include "interpreter/eval/tier.h"

namespace relay::compiler {

// What the layout pass (library_layouts.h) kept out of the plain layout: values handed
// from library call to library call in the library's layout, and values held in the
// network's pinned layout (NHWC or nChw<b>c bytes) with a native kernel writing or reading
// them.
struct LayoutChoices {
  size_t library_values = 0;
  ActivationLayout held_layout;
  size_t held_values = 0;
};

class Executable final : public rt::CompiledCall {
 public:
  // Lowers and compiles what it can of `plan`'s groups; `notes` gets one line per group
  // that stays on reference kernels and why. `pool` may be null (one thread).
  // `shape`: the loop shape of the native kernels; the GPU's runs on the CPU as well, which
  // is how the tests check GPU-shaped kernels on a machine without a GPU.
  Executable(Graph graph, FusionPlan plan, Jit& jit, ThreadPool* pool, std::vector<std::string>* notes,
             loops::LoopShape shape = loops::LoopShape::Cpu);

  // Calls may run on several threads at once (each gets its own storage), as long as no
  // two threads copy one value at the same time: values are reference-counted without
  // atomics (interpreter/runtime/object.h). Each concurrent call needs its own arguments,
  // and a graph with constants (which every call copies into its values) must not be
  // called from two threads at once.
  rt::Value call(std::span<const rt::Value> args) override;
  // The kernel library's share: its kernels per call, their GFLOP, time and rate so far;
  // when profiled, the profile.
  std::vector<std::string> run_notes() const override;
  // From now on each call times each group's step (relay run --profile), for run_notes'
  // profile: the heaviest groups with their rates (kernel_profile.h).
  void profile_calls();

  size_t native_groups() const;
  size_t reference_groups() const;
  size_t epilogue_groups() const;  // reference master operator, native epilogue
  size_t library_groups() const;   // the master operator through the kernel library
  size_t fused_library_groups() const;  // ... with the whole epilogue inside the library call
  size_t library_alone_groups() const;  // ... a group of the master alone
  // Groups that compute nothing: tuples of other groups' values (a result of several
  // fields), projections of them (the fields of a tuple-valued operator's result) and
  // markers (annotation.stop_fusion: its input is its value). Counted in none of the above.
  size_t assembly_groups() const;
  // Values handed from one library call to the next in the library's layout
  // (library_layouts.h).
  size_t library_layout_values() const { return layouts_.library_values; }
  // Values held in the pinned layout with native kernels reading or writing them (the same
  // pass), and that layout.
  size_t held_values() const { return layouts_.held_values; }
  const ActivationLayout& held_layout() const { return layouts_.held_layout; }
  double compile_ms() const { return compile_ms_; }
  const MemoryPlan& memory_plan() const { return memory_; }
  const Graph& graph() const { return graph_; }

 private:
  struct Step;
  static bool library_alone(const Step& s);
  bool assembles_only(const Step& s) const;
  struct Native {
    CompiledKernel kernel;
    int output_buffer = -1, status_buffer = -1;
    DataType out_dtype;
    std::vector<int64_t> out_shape;
    std::string status_message;  // the reference's error when the kernel sets its status
  };
  struct Step {
    const FusedGroup* group = nullptr;
    // The group's first `reference_nodes` nodes run on reference kernels (a convolution
    // or dense and what it needs), the rest as one native kernel (its element-wise
    // epilogue: bias, batch-norm scale and shift, activation, residual add) when `native`.
    size_t reference_nodes = 0;
    FusedGroup native_part;  // the nodes, inputs and output of the native kernel
    std::optional<Native> native;
    bool elementwise = false;  // the native kernel is element-wise (may write in place)
    ActivationLayout held_layout;  // ... reads or writes values held so (StepChoice)
    // The group's master (a convolution or matrix product) through the kernel library
    // (compiler/dnnl) instead of its reference kernel, when the library takes it.
    std::shared_ptr<const LibraryKernel> library;
    // When the library computes the group's epilogue too: the master and the epilogue's
    // nodes (none of them gets a value but the last), the node whose value the call
    // writes (else the master), and the operands it reads after the master's inputs.
    std::vector<NodeId> inside_library;
    NodeId library_output = 0;
    std::vector<NodeId> library_operands;
  };
  // The report's line for a step that is not all native (what runs its master and why),
  // or "" for an all-native one.
  static std::string step_note(const Graph& g, const Step& step, const std::string& native_why,
                               const std::string& library_why);
  // This call's storage for the memory plan's slots (undefined when it has none), and
  // whether it is the arena kept between calls (whose slot views are kept too).
  struct CallArena {
    rt::NDArray storage;
    bool kept = false;
  };
  void run_native(const Step& s, std::vector<rt::Value>& values, const CallArena& arena) const;
  void run_reference(const Step& s, std::vector<rt::Value>& values, const CallArena& arena) const;
  // Node `id`'s planned storage in `arena`, or an undefined array when it has none.
  rt::NDArray planned(NodeId id, const CallArena& arena) const;

  Graph graph_;
  FusionPlan plan_;
  ThreadPool* pool_;
  std::vector<Step> steps_;
  std::vector<int32_t> last_use_;  // per node: the step after which its value is dead
  double compile_ms_ = 0;
  MemoryPlan memory_;
  LayoutChoices layouts_;
  // The arena kept between calls; a call that finds it in use (a re-entered or concurrent
  // call) allocates its own.
  rt::NDArray arena_;
  std::atomic<bool> arena_busy_{false};
  // What the call holding arena_ uses besides (no allocation per call in the steady
  // state): its values' list, and each slot's view, made on first use (fresh_view_: made
  // every call instead).
  std::vector<rt::Value> kept_values_;
  mutable std::vector<rt::NDArray> arena_views_;
  std::vector<bool> fresh_view_;
  // Time in library kernels over all calls, and the calls, for run_notes().
  mutable std::atomic<uint64_t> library_ns_{0};
  std::atomic<uint64_t> calls_{0};
  // profile_calls(): what each step is, and their times
  bool profile_ = false;
  std::vector<ProfiledKernel> profiled_;
  KernelProfile profile_times_;
};

// What runs each part of one group, as the Executable runs it: a native plan (the whole
// group, or the epilogue after `reference_nodes` reference nodes), the master through the
// kernel library (possibly with the whole epilogue inside the call, then no native part).
struct StepChoice {
  std::optional<NativePlan> native;
  std::string native_why;  // why there is no native part (or only an epilogue)
  std::unique_ptr<LibraryKernel> library;
  std::string library_why;  // why the library declined the master, when it is a library operator
  size_t reference_nodes = 0;
  std::vector<NodeId> inside_library;  // see Executable::Step
  NodeId library_output = 0;
  std::vector<NodeId> library_operands;
  // The layout of the held values the native plan reads or writes (library_layouts.h);
  // plain when none.
  ActivationLayout held_layout;
};
// `threads`: what compiled code runs on (library kernels are made for it).
StepChoice choose_step(const Graph& g, const FusedGroup& group, unsigned threads,
                       loops::LoopShape shape = loops::LoopShape::Cpu);

// The memory plan's view of the steps an Executable would run for `plan` (choose_step's
// choices), without compiling native code: for `relay compile --emit=memory` and tests.
std::vector<PlanStep> plan_steps(const Graph& g, const FusionPlan& plan);

}  // namespace relay::compiler

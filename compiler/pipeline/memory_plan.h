// The memory plan of a compiled function (issue 13 §1, the loop IR's memory plan): at
// compile time, every intermediate tensor that compiled code writes gets a place in one
// arena, allocated once per call (or kept between calls), instead of a fresh allocation.
//
// Planned: a native group's output, and the output of a reference node whose kernel writes
// into a destination (rt::writes_destination). Not planned (they keep fresh arrays): the
// function's result and every value it may alias (tuple fields, projections), parameters
// and constants, outputs of kernels that return fresh arrays (adopted as they are), and
// anything whose shape is not concrete.
//
// Lifetimes are in steps (Executable's steps, one per fused group, in order). A planned
// value lives from the step that writes it to the last step that reads it *or any value
// that may alias it*: a tuple or projection holding it, or the output of a reference kernel
// that returns fresh arrays and so might return its input (conservatively, every such
// kernel's output aliases its tensor inputs). A value aliased all the way into the result
// escapes and is not planned.
//
// Placement, in step order, greedy:
//   * in place: a native element-wise step (or epilogue) writes its output into the slot of
//     an input that dies at that step when both have one shape and dtype. Legal because an
//     element-wise kernel reads each element of such an input only at the index it writes
//     (an input read with broadcasting has another shape and never qualifies);
//   * in place too: a library call whose epilogue adds a residual writes its result over
//     that residual when it dies at that step (the sum post-op then adds to what the
//     buffer already holds: no copy);
//   * else best fit: the smallest free slot of at least the value's size (a slot is free
//     once the last reader of its value has run, i.e. from the step after);
//   * else a new slot. Slots are 64-byte aligned and laid out one after another.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"

namespace relay::compiler {

// What the plan needs to know of one step.
struct PlanStep {
  const FusedGroup* group = nullptr;
  size_t reference_nodes = 0;          // the group's first nodes, run on reference kernels
  bool native = false;                 // then one native kernel writes group->outputs[0]
  bool elementwise = false;            // ... an element-wise one (output index = input index)
  std::vector<NodeId> native_inputs;   // the buffers the native kernel reads
  // Reference nodes computed inside one kernel-library call (a convolution with its
  // epilogue): none gets a value but `library_output`, which the call writes into its slot.
  std::vector<NodeId> inside_library;
  NodeId library_output = 0;
  // The residual the library call adds (its sum post-op), when the call may write its
  // result over it (LibraryKernel::can_write_over_residual).
  std::optional<NodeId> library_residual;
};

struct MemoryPlan {
  static constexpr size_t kAlignment = 64;
  struct Slot {
    size_t offset = 0, bytes = 0;
    std::vector<NodeId> values;  // in the order they occupy it
  };
  std::vector<Slot> slots;
  std::vector<int32_t> slot_of;       // per node: its slot, or -1 (not planned)
  std::vector<int32_t> def_step;      // per node: the step that writes it (-1: none)
  std::vector<int32_t> live_until;    // per node: the last step its storage is read (-1: none;
                                      // INT32_MAX: it reaches the result)
  std::vector<std::pair<NodeId, NodeId>> in_place;  // (output, the input whose slot it takes)
  size_t arena_bytes = 0;             // all slots
  size_t planned_bytes = 0;           // the planned values' sizes summed (one buffer each)
  size_t live_peak_bytes = 0;         // most planned bytes live during one step
  size_t before_peak_bytes = 0;       // what the executor held at most without a plan (fresh
                                      // arrays; group inputs dropped after their last step)

  size_t offset_of(NodeId n) const { return slots[static_cast<size_t>(slot_of[n])].offset; }
};

// The tensor bytes of node `n`'s value, 0 when its type is not a tensor of concrete shape.
size_t value_bytes(const Graph& g, NodeId n);

MemoryPlan plan_memory(const Graph& g, std::span<const PlanStep> steps);

// `relay compile --emit=memory`: slots with their values and step ranges, in-place pairs,
// arena bytes against the sum of all planned values and the peaks.
std::string print_memory_plan(const Graph& g, const MemoryPlan& plan);

}  // namespace relay::compiler

#include "compiler/pipeline/library_layouts.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace relay::compiler {
namespace {

struct Reader {
  LibraryKernel* kernel;
  size_t input;  // the run() input that is the value
};

// The library inputs through which group `reader` reads `value` (its master's data, or
// an operand of the epilogue inside its call), appended to `out`; false when the group
// reads it any other way (a weight, a native kernel, a reference kernel).
bool library_reads(const Graph& g, const FusedGroup& group, StepChoice& reader, NodeId value, NodeId user,
                   std::vector<Reader>& out) {
  if (!reader.library) return false;
  const Node& n = g[user];
  if (user == group.master) {
    for (size_t k = 0; k < n.inputs.size(); ++k)
      if (n.inputs[k] == value) {
        if (k != 0) return false;
        out.push_back({reader.library.get(), 0});
      }
    return true;
  }
  if (std::find(reader.inside_library.begin(), reader.inside_library.end(), user) == reader.inside_library.end())
    return false;
  const size_t master_inputs = g[group.master].inputs.size();
  bool found = false;
  for (size_t j = 0; j < reader.library_operands.size(); ++j)
    if (reader.library_operands[j] == value) {
      out.push_back({reader.library.get(), master_inputs + j});
      found = true;
    }
  return found;
}

// The readers of a value (every user's group), sorted into library inputs and native
// groups.
struct Readers {
  std::vector<Reader> library;
  std::vector<size_t> native;  // groups
};

// Whether the group runs a library call with its epilogue native after it (one oneDNN does
// not take, as a transposed convolution's batch norm).
bool has_native_epilogue(const StepChoice& c) { return c.library && c.native && c.reference_nodes > 0; }

// Whether `user` is a node of that native epilogue.
bool in_native_epilogue(const StepChoice& c, NodeId user) {
  return has_native_epilogue(c) &&
         std::find(c.native->part.nodes.begin(), c.native->part.nodes.end(), user) != c.native->part.nodes.end();
}

// Collects the readers of `value` (written by group `producer`) into `out`; false when
// one is neither a library input (library_reads) nor a native group (or a library call's
// native epilogue) that `native_reader` takes, or when there are none.
bool collect_readers(const Graph& g, const FusionPlan& plan, std::vector<StepChoice>& choices, size_t producer,
                     NodeId value, const std::vector<NodeId>& users, const std::function<bool(size_t)>& native_reader,
                     Readers& out) {
  std::vector<NodeId> seen;
  for (NodeId user : users) {
    if (std::find(seen.begin(), seen.end(), user) != seen.end()) continue;  // (one entry per edge)
    seen.push_back(user);
    const int32_t group = plan.group_of[user];
    if (group < 0 || static_cast<size_t>(group) == producer) return false;
    const size_t gi = static_cast<size_t>(group);
    if (choices[gi].library && !in_native_epilogue(choices[gi], user)) {
      if (!library_reads(g, plan.groups[gi], choices[gi], value, user, out.library)) return false;
    } else if (native_reader(gi)) {
      if (std::find(out.native.begin(), out.native.end(), gi) == out.native.end()) out.native.push_back(gi);
    } else {
      return false;
    }
  }
  return !out.library.empty() || !out.native.empty();
}

// Library to library, in whatever layout the library chose: marks the values kept so in
// `kept`; returns how many.
size_t hand_over_between_libraries(const Graph& g, const FusionPlan& plan, std::vector<StepChoice>& choices,
                                   const std::vector<std::vector<NodeId>>& users, std::vector<bool>& kept) {
  size_t kept_values = 0;
  auto no_native = [](size_t) { return false; };
  for (size_t p = 0; p < choices.size(); ++p) {
    StepChoice& producer = choices[p];
    if (!producer.library) continue;
    const NodeId value = producer.library_output;
    if (value == g.output) continue;
    Readers readers;
    if (!collect_readers(g, plan, choices, p, value, users[value], no_native, readers)) continue;
    if (!std::all_of(readers.library.begin(), readers.library.end(),
                     [&](const Reader& r) { return producer.library->can_hand_over(*r.kernel, r.input); }))
      continue;
    producer.library->keep_result_layout();
    for (const Reader& r : readers.library) r.kernel->take_input_layout(r.input);
    kept[value] = true;
    ++kept_values;
  }
  return kept_values;
}

// The layout the network's activations are pinned to: the one most library kernels write
// their results in among those native kernels can hold (NHWC, nChw<b>c), the first
// written on a tie (a network's first convolution, reading few channels, may choose
// another); plain when none writes one.
ActivationLayout pinned_layout(const std::vector<StepChoice>& choices) {
  std::vector<std::pair<ActivationLayout, size_t>> votes;  // in order of first appearance
  for (const StepChoice& c : choices) {
    if (!c.library || c.library->written_layout().is_plain()) continue;
    const ActivationLayout l = c.library->written_layout();
    auto it = std::find_if(votes.begin(), votes.end(), [&](const auto& v) { return v.first == l; });
    if (it == votes.end()) votes.emplace_back(l, 1);
    else ++it->second;
  }
  ActivationLayout best;
  size_t most = 0;
  for (const auto& [layout, count] : votes)
    if (count > most) best = layout, most = count;
  return best;
}

// `layout` through native kernels (library_layouts.h), for the values the first pass did
// not keep; returns how many.
size_t keep_held_layout(const Graph& g, const FusionPlan& plan, std::vector<StepChoice>& choices,
                        const std::vector<std::vector<NodeId>>& users, const std::vector<bool>& kept,
                        const ActivationLayout& layout) {
  // A value written in `layout` (by a library call that chose it, or by a native kernel)
  // when every reader takes it so (a library call that wants it so, or a native kernel,
  // which reads it through a layout node).
  size_t kept_values = 0;
  auto whole_native = [&](size_t gi) {
    const StepChoice& c = choices[gi];
    return c.native && !c.library && c.reference_nodes == 0;
  };
  // A library call's native epilogue is re-planned like a whole group.
  auto native_epilogue = [&](size_t gi) { return has_native_epilogue(choices[gi]); };
  std::vector<int8_t> capable(choices.size(), -1);  // per group, worked out when first asked
  auto native_capable = [&](size_t gi) {
    if (capable[gi] < 0)
      capable[gi] = (whole_native(gi) && held_layout_capable(g, plan.groups[gi])) ||
                    (native_epilogue(gi) && held_layout_capable(g, choices[gi].native->part));
    return capable[gi] == 1;
  };
  // A softmax alone runs channels-last only with its input and its output both so: it takes
  // a channels-last input when its own output can then be kept so too.
  auto softmax_capable = [&](size_t gi) {
    return layout == ActivationLayout::channels_last() && whole_native(gi) &&
           channels_last_softmax(g, plan.groups[gi]);
  };
  std::vector<bool> held(g.size(), false);
  auto holds = [&](NodeId value) {
    const auto shape = concrete_shape(g[value].type);
    return shape && layout.holds(*shape);
  };
  // Whether every reader of `value` (written by group `producer`) takes it in `layout`;
  // `readers` gets them. A softmax reader counts only at depth 0, if its own output passes
  // this test one level down (where a further softmax does not count).
  std::function<bool(size_t, NodeId, int, Readers&)> all_take = [&](size_t producer, NodeId value, int depth,
                                                                    Readers& readers) {
    if (value == g.output || !holds(value)) return false;
    auto native_reader = [&](size_t gi) {
      if (native_capable(gi)) return true;
      if (depth > 0 || !softmax_capable(gi)) return false;
      Readers next;
      return all_take(gi, plan.groups[gi].outputs[0], depth + 1, next);
    };
    if (!collect_readers(g, plan, choices, producer, value, users[value], native_reader, readers)) return false;
    return std::all_of(readers.library.begin(), readers.library.end(),
                       [&](const Reader& r) { return r.kernel->read_layout(r.input) == layout; });
  };
  std::vector<size_t> replan;  // native groups that read or write a held value
  auto touch = [&](size_t gi) {
    if (std::find(replan.begin(), replan.end(), gi) == replan.end()) replan.push_back(gi);
  };
  for (size_t p = 0; p < choices.size(); ++p) {
    StepChoice& producer = choices[p];
    const FusedGroup& group = plan.groups[p];
    NodeId value;
    if (native_epilogue(p)) {
      if (!native_capable(p)) continue;
      // The library's result, which only its own native epilogue reads (fusion keeps it
      // inside the group), then the epilogue's result like any native kernel's.
      const NodeId master = producer.library_output;
      const auto& part = producer.native->part.nodes;
      if (producer.library->written_layout() == layout && holds(master) &&
          std::all_of(users[master].begin(), users[master].end(),
                      [&](NodeId u) { return std::find(part.begin(), part.end(), u) != part.end(); })) {
        held[master] = true;
        producer.library->keep_result_layout();
        touch(p);
        ++kept_values;
      }
      value = group.outputs[0];
    } else if (producer.library) {
      value = producer.library_output;
      if (kept[value] || producer.library->written_layout() != layout) continue;
    } else if (native_capable(p) || (softmax_capable(p) && held[g[group.master].inputs[0]])) {
      value = group.outputs[0];
    } else {
      continue;
    }
    Readers readers;
    if (!all_take(p, value, 0, readers)) continue;
    held[value] = true;
    if (producer.library && !native_epilogue(p)) producer.library->keep_result_layout();  // (its own result)
    else touch(p);
    for (const Reader& r : readers.library) r.kernel->take_input_layout(r.input);
    for (size_t gi : readers.native) touch(gi);
    ++kept_values;
  }
  for (size_t gi : replan) {
    StepChoice& c = choices[gi];
    std::string why;
    const bool epilogue = native_epilogue(gi);
    auto native = plan_native_held(g, epilogue ? c.native->part : plan.groups[gi], held, layout, &why);
    // held_layout_capable said the program exists, and only the layout nodes differ, on
    // values `holds` checked; a softmax was taken with its output (all_take).
    if (!native) throw std::logic_error("group " + std::to_string(gi) + " has no " + layout.name() + " kernel: " + why);
    if (epilogue) {  // still after the library call's reference part
      native->kind = NativePlan::Kind::Epilogue;
      native->reference_nodes = c.native->reference_nodes;
    }
    // An element-wise kernel reads each input of its output's shape at the element it
    // writes; with the layout nodes that is still the same byte when the input is held as
    // the output is, so the memory plan may still write the output over such an input.
    const NodeId out = native->part.outputs[0];
    const auto out_shape = concrete_shape(g[out].type);
    native->pointwise = c.native->pointwise &&
                        std::all_of(native->part.inputs.begin(), native->part.inputs.end(), [&](NodeId in) {
                          return concrete_shape(g[in].type) != out_shape || held[in] == held[out];
                        });
    c.native = std::move(native);
    c.held_layout = layout;
  }
  return kept_values;
}

}  // namespace

LayoutChoices keep_library_layouts(const Graph& g, const FusionPlan& plan, std::vector<StepChoice>& choices) {
  const std::vector<std::vector<NodeId>> users = g.users();
  std::vector<bool> kept(g.size(), false);
  LayoutChoices result;
  result.library_values = hand_over_between_libraries(g, plan, choices, users, kept);
  result.held_layout = pinned_layout(choices);
  if (!result.held_layout.is_plain())
    result.held_values = keep_held_layout(g, plan, choices, users, kept, result.held_layout);
  return result;
}

}  // namespace relay::compiler

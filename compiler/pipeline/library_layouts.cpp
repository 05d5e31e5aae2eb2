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

// Collects the readers of `value` (written by group `producer`) into `out`; false when
// one is neither a library input (library_reads) nor a native group `native_reader` takes,
// or when there are none.
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
    if (choices[gi].library) {
      if (!library_reads(g, plan.groups[gi], choices[gi], value, user, out.library)) return false;
    } else if (native_reader(gi)) {
      if (std::find(out.native.begin(), out.native.end(), gi) == out.native.end()) out.native.push_back(gi);
    } else {
      return false;
    }
  }
  return !out.library.empty() || !out.native.empty();
}

bool rank4(const Graph& g, NodeId id) {
  const auto shape = concrete_shape(g[id].type);
  return shape && shape->size() == 4;
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

// Channels-last through native kernels (library_layouts.h), for the values the first pass
// did not keep; returns how many.
size_t keep_channels_last(const Graph& g, const FusionPlan& plan, std::vector<StepChoice>& choices,
                          const std::vector<std::vector<NodeId>>& users, const std::vector<bool>& kept) {
  // A value written as NHWC bytes (by a library call that chose that layout, or by a native
  // kernel) when every reader takes it so (a library call that wants it so, or a native
  // kernel, which reads it through a transpose).
  size_t kept_values = 0;
  auto whole_native = [&](size_t gi) {
    const StepChoice& c = choices[gi];
    return c.native && !c.library && c.reference_nodes == 0;
  };
  std::vector<int8_t> capable(choices.size(), -1);  // per group, worked out when first asked
  auto native_capable = [&](size_t gi) {
    if (capable[gi] < 0) capable[gi] = whole_native(gi) && channels_last_capable(g, plan.groups[gi]);
    return capable[gi] == 1;
  };
  // A softmax alone runs channels-last only with its input and its output both so: it takes
  // a channels-last input when its own output can then be kept so too.
  auto softmax_capable = [&](size_t gi) { return whole_native(gi) && channels_last_softmax(g, plan.groups[gi]); };
  std::vector<bool> channels_last(g.size(), false);
  // Whether every reader of `value` (written by group `producer`) takes it channels-last;
  // `readers` gets them. A softmax reader counts only at depth 0, if its own output passes
  // this test one level down (where a further softmax does not count).
  std::function<bool(size_t, NodeId, int, Readers&)> all_take = [&](size_t producer, NodeId value, int depth,
                                                                    Readers& readers) {
    if (value == g.output || !rank4(g, value)) return false;
    auto native_reader = [&](size_t gi) {
      if (native_capable(gi)) return true;
      if (depth > 0 || !softmax_capable(gi)) return false;
      Readers next;
      return all_take(gi, plan.groups[gi].outputs[0], depth + 1, next);
    };
    if (!collect_readers(g, plan, choices, producer, value, users[value], native_reader, readers)) return false;
    return std::all_of(readers.library.begin(), readers.library.end(),
                       [](const Reader& r) { return r.kernel->reads_channels_last(r.input); });
  };
  std::vector<size_t> replan;  // native groups that read or write a channels-last value
  auto touch = [&](size_t gi) {
    if (std::find(replan.begin(), replan.end(), gi) == replan.end()) replan.push_back(gi);
  };
  for (size_t p = 0; p < choices.size(); ++p) {
    StepChoice& producer = choices[p];
    NodeId value;
    if (producer.library) {
      value = producer.library_output;
      if (kept[value] || !producer.library->writes_channels_last()) continue;
    } else if (native_capable(p) ||
               (softmax_capable(p) && channels_last[g[plan.groups[p].master].inputs[0]])) {
      value = plan.groups[p].outputs[0];
    } else {
      continue;
    }
    Readers readers;
    if (!all_take(p, value, 0, readers)) continue;
    channels_last[value] = true;
    if (producer.library) producer.library->keep_result_layout();
    else touch(p);
    for (const Reader& r : readers.library) r.kernel->take_input_layout(r.input);
    for (size_t gi : readers.native) touch(gi);
    ++kept_values;
  }
  for (size_t gi : replan) {
    StepChoice& c = choices[gi];
    std::string why;
    auto native = plan_native_channels_last(g, plan.groups[gi], channels_last, &why);
    // channels_last_capable said the program exists, and only the transposes differ; a
    // softmax was taken with its output (all_take).
    if (!native) throw std::logic_error("group " + std::to_string(gi) + " has no channels-last kernel: " + why);
    c.native = std::move(native);
    c.channels_last = true;
  }
  return kept_values;
}

}  // namespace

LayoutChoices keep_library_layouts(const Graph& g, const FusionPlan& plan, std::vector<StepChoice>& choices) {
  const std::vector<std::vector<NodeId>> users = g.users();
  std::vector<bool> kept(g.size(), false);
  LayoutChoices result;
  result.library_values = hand_over_between_libraries(g, plan, choices, users, kept);
  result.channels_last_values = keep_channels_last(g, plan, choices, users, kept);
  return result;
}

}  // namespace relay::compiler

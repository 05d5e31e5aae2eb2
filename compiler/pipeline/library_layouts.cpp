#include "compiler/pipeline/library_layouts.h"

#include <algorithm>

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

}  // namespace

size_t keep_library_layouts(const Graph& g, const FusionPlan& plan, std::vector<StepChoice>& choices) {
  const std::vector<std::vector<NodeId>> users = g.users();
  size_t kept = 0;
  for (StepChoice& producer : choices) {
    if (!producer.library) continue;
    const NodeId value = producer.library_output;
    if (value == g.output || users[value].empty()) continue;
    std::vector<Reader> readers;
    bool ok = true;
    std::vector<NodeId> seen;
    for (NodeId user : users[value]) {
      if (std::find(seen.begin(), seen.end(), user) != seen.end()) continue;  // (one entry per edge)
      seen.push_back(user);
      const int32_t group = plan.group_of[user];
      if (group < 0 || &choices[static_cast<size_t>(group)] == &producer ||
          !library_reads(g, plan.groups[static_cast<size_t>(group)], choices[static_cast<size_t>(group)], value, user,
                         readers)) {
        ok = false;
        break;
      }
    }
    ok = ok && !readers.empty() && std::all_of(readers.begin(), readers.end(), [&](const Reader& r) {
      return producer.library->can_hand_over(*r.kernel, r.input);
    });
    if (!ok) continue;
    producer.library->keep_result_layout();
    for (const Reader& r : readers) r.kernel->take_input_layout(r.input);
    ++kept;
  }
  return kept;
}

}  // namespace relay::compiler

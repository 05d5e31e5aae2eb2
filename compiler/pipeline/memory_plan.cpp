#include "compiler/pipeline/memory_plan.h"

#include <algorithm>
#include <climits>

#include "interpreter/kernels/kernel.h"
#include "interpreter/runtime/ndarray.h"

namespace relay::compiler {

namespace {

constexpr int32_t kForever = INT32_MAX;  // read by the result

size_t align_up(size_t n) { return (n + MemoryPlan::kAlignment - 1) / MemoryPlan::kAlignment * MemoryPlan::kAlignment; }

bool same_tensor_type(const Graph& g, NodeId a, NodeId b) {
  auto sa = concrete_shape(g[a].type), sb = concrete_shape(g[b].type);
  return sa && sb && *sa == *sb &&
         static_cast<const TensorTy*>(g[a].type)->dtype == static_cast<const TensorTy*>(g[b].type)->dtype;
}

}  // namespace

size_t value_bytes(const Graph& g, NodeId n) {
  const Ty t = g[n].type;
  if (!t || t->kind != TyKind::Tensor) return 0;
  auto shape = concrete_shape(t);
  if (!shape) return 0;
  const DataType dt = static_cast<const TensorTy*>(t)->dtype;
  if (!rt::dtype_supported(dt)) return 0;
  size_t elems = 1;
  for (int64_t d : *shape) elems *= static_cast<size_t>(d);
  return elems * rt::dtype_bytes(dt);
}

MemoryPlan plan_memory(const Graph& g, std::span<const PlanStep> steps) {
  const size_t n = g.size();
  MemoryPlan plan;
  plan.slot_of.assign(n, -1);
  plan.def_step.assign(n, -1);
  plan.live_until.assign(n, -1);

  // Which nodes get a value, at which step, and which of them may be planned.
  std::vector<bool> candidate(n, false);
  std::vector<NodeId> order;  // written values, in execution order
  std::vector<int32_t> read(n, -1);  // the last step reading each node's value
  for (size_t s = 0; s < steps.size(); ++s) {
    const PlanStep& st = steps[s];
    const int32_t si = static_cast<int32_t>(s);
    for (size_t k = 0; k < st.reference_nodes; ++k) {
      const NodeId id = st.group->nodes[k];
      const Node& node = g[id];
      for (NodeId in : node.inputs) read[in] = std::max(read[in], si);
      const bool inside = std::find(st.inside_library.begin(), st.inside_library.end(), id) != st.inside_library.end();
      if (inside && id != st.library_output) continue;  // never a value of its own
      plan.def_step[id] = si;
      order.push_back(id);
      candidate[id] = (inside || (node.kind == NodeKind::Call && node.op && rt::writes_destination(*node.op))) &&
                      value_bytes(g, id) > 0;
    }
    if (st.native) {
      for (NodeId in : st.native_inputs) read[in] = std::max(read[in], si);
      const NodeId out = st.group->outputs[0];
      plan.def_step[out] = si;
      order.push_back(out);
      candidate[out] = value_bytes(g, out) > 0;
    }
  }
  read[g.output] = kForever;

  // May-alias roots: the planned candidates whose storage each value may hold.
  std::vector<std::vector<NodeId>> roots(n);
  for (NodeId id : order) {
    const Node& node = g[id];
    if (candidate[id]) {
      roots[id] = {id};
      continue;
    }
    // A tuple, a projection, or a kernel that returns a fresh array (which might be one of
    // its inputs): it may hold any storage its inputs hold.
    for (NodeId in : node.inputs)
      for (NodeId r : roots[in])
        if (std::find(roots[id].begin(), roots[id].end(), r) == roots[id].end()) roots[id].push_back(r);
  }
  for (NodeId id = 0; id < n; ++id)
    for (NodeId r : roots[id]) plan.live_until[r] = std::max(plan.live_until[r], std::max(read[id], plan.def_step[r]));
  for (NodeId id : order)
    if (candidate[id] && plan.live_until[id] == kForever) candidate[id] = false;  // escapes into the result

  // Placement.
  struct Busy {
    int32_t slot;
    NodeId value;
    int32_t until;
  };
  std::vector<Busy> busy;
  std::vector<int32_t> free_slots;
  size_t s_index = 0;
  for (size_t s = 0; s < steps.size(); ++s) {
    const int32_t si = static_cast<int32_t>(s);
    // Slots whose value was last read before this step are free.
    for (size_t i = 0; i < busy.size();) {
      if (busy[i].until < si) {
        free_slots.push_back(busy[i].slot);
        busy[i] = busy.back();
        busy.pop_back();
      } else {
        ++i;
      }
    }
    for (; s_index < order.size() && plan.def_step[order[s_index]] == si; ++s_index) {
      const NodeId id = order[s_index];
      if (!candidate[id]) continue;
      const size_t bytes = value_bytes(g, id);
      int32_t slot = -1;
      const PlanStep& st = steps[s];
      const bool native_out = st.native && st.group->outputs[0] == id;
      std::vector<NodeId> over;  // inputs whose slot the value may take
      if (native_out && st.elementwise) over = st.native_inputs;
      if (!native_out && id == st.library_output && st.library_residual) over = {*st.library_residual};
      for (NodeId in : over) {
        if (plan.slot_of[in] < 0 || plan.live_until[in] != si || !same_tensor_type(g, in, id)) continue;
        auto it = std::find_if(busy.begin(), busy.end(), [&](const Busy& b) { return b.value == in; });
        if (it == busy.end()) continue;
        slot = it->slot;
        *it = busy.back();
        busy.pop_back();
        plan.in_place.emplace_back(id, in);
        break;
      }
      if (slot < 0) {
        size_t best = SIZE_MAX;
        size_t best_i = 0;
        for (size_t i = 0; i < free_slots.size(); ++i) {
          const size_t b = plan.slots[static_cast<size_t>(free_slots[i])].bytes;
          if (b >= bytes && b < best) best = b, best_i = i;
        }
        if (best != SIZE_MAX) {
          slot = free_slots[best_i];
          free_slots.erase(free_slots.begin() + static_cast<long>(best_i));
        }
      }
      if (slot < 0) {
        slot = static_cast<int32_t>(plan.slots.size());
        plan.slots.push_back({0, align_up(bytes), {}});
      }
      plan.slot_of[id] = slot;
      plan.slots[static_cast<size_t>(slot)].values.push_back(id);
      busy.push_back({slot, id, plan.live_until[id]});
      plan.planned_bytes += bytes;
    }
  }
  for (MemoryPlan::Slot& slot : plan.slots) {
    slot.offset = plan.arena_bytes;
    plan.arena_bytes += slot.bytes;
  }

  // Peaks, for the print: planned values live per step, and what the executor held without
  // a plan (every value written stays until it is dropped as a group input after its last
  // reading step; values inside a group are never dropped before the call ends).
  std::vector<bool> group_input(n, false);
  for (const PlanStep& st : steps)
    for (NodeId in : st.group->inputs) group_input[in] = true;
  size_t held = 0;
  for (size_t s = 0; s < steps.size(); ++s) {
    const int32_t si = static_cast<int32_t>(s);
    size_t live = 0;
    for (NodeId id : order)
      if (plan.slot_of[id] >= 0 && plan.def_step[id] <= si && plan.live_until[id] >= si) live += value_bytes(g, id);
    plan.live_peak_bytes = std::max(plan.live_peak_bytes, live);
    for (NodeId id : order)
      if (plan.def_step[id] == si && g[id].kind == NodeKind::Call) held += value_bytes(g, id);
    plan.before_peak_bytes = std::max(plan.before_peak_bytes, held);
    for (NodeId id : order)
      if (group_input[id] && read[id] == si && id != g.output && g[id].kind == NodeKind::Call) held -= value_bytes(g, id);
  }
  return plan;
}

std::string print_memory_plan(const Graph& g, const MemoryPlan& plan) {
  auto name = [&](NodeId id) {
    const Node& n = g[id];
    return "%" + std::to_string(id) + (n.op ? " " + std::string(n.op->name) : "");
  };
  auto range = [&](NodeId id) {
    const int32_t until = plan.live_until[id];
    return "[" + std::to_string(plan.def_step[id]) + ", " + std::to_string(until) + "]";
  };
  std::string out = "// memory plan: " + std::to_string(plan.slots.size()) + " slots, arena " +
                    std::to_string(plan.arena_bytes) + " bytes for " + std::to_string(plan.planned_bytes) +
                    " bytes of planned intermediates (live peak " + std::to_string(plan.live_peak_bytes) +
                    "; without a plan the executor held up to " + std::to_string(plan.before_peak_bytes) + ")\n";
  for (size_t s = 0; s < plan.slots.size(); ++s) {
    const MemoryPlan::Slot& slot = plan.slots[s];
    out += "slot " + std::to_string(s) + " @" + std::to_string(slot.offset) + " (" + std::to_string(slot.bytes) + " bytes):";
    for (NodeId id : slot.values) out += " " + name(id) + " " + range(id) + ",";
    out.back() = '\n';
  }
  for (const auto& [o, i] : plan.in_place) out += "in place: " + name(o) + " overwrites " + name(i) + "\n";
  return out;
}

}  // namespace relay::compiler

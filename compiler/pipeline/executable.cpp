#include "compiler/pipeline/executable.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unordered_map>

#include "interpreter/eval/closure.h"
#include "compiler/graph/run_graph.h"
#include "compiler/pipeline/interpreted_ops.h"
#include "compiler/pipeline/library_layouts.h"
#include "interpreter/kernels/kernel.h"

namespace relay::compiler {

namespace {

bool contains(const std::vector<NodeId>& v, NodeId id) { return std::find(v.begin(), v.end(), id) != v.end(); }

// The residual a library call may write its result over (memory_plan.h), if any: never one
// the call also reads as its data or weights.
std::optional<NodeId> residual_to_overwrite(const Graph& g, const FusedGroup& group, const LibraryKernel& library) {
  const EpilogueChain* chain = library.fused_epilogue();
  if (!chain || !library.can_write_over_residual()) return std::nullopt;
  for (const EpilogueStep& st : chain->steps)
    if (st.kind == EpilogueStep::Kind::Residual && !contains(g[group.master].inputs, st.operand)) return st.operand;
  return std::nullopt;
}

// What the memory plan needs to know of a group's step (memory_plan.h), from its choice
// after the layout pass.
PlanStep plan_step_of(const Graph& g, const FusedGroup& group, const StepChoice& c) {
  PlanStep s{&group, c.reference_nodes, c.native.has_value(), c.native && c.native->pointwise, {},
             c.inside_library, c.library_output, std::nullopt};
  if (c.library) s.library_residual = residual_to_overwrite(g, group, *c.library);
  if (c.native) s.native_inputs = c.native->part.inputs;
  return s;
}

}  // namespace

StepChoice choose_step(const Graph& g, const FusedGroup& group, unsigned threads, loops::LoopShape shape) {
  StepChoice c;
  c.native = plan_native(g, group, &c.native_why, shape);
  c.reference_nodes = c.native ? c.native->reference_nodes : group.nodes.size();
  c.library_output = group.master;
  const auto reference_end = group.nodes.begin() + static_cast<long>(c.reference_nodes);
  if (std::find(group.nodes.begin(), reference_end, group.master) == reference_end) return c;
  c.library = make_library_kernel(g, group, threads, &c.library_why);
  if (c.library && c.library->fused_epilogue()) {
    // The whole epilogue inside the library call: no native part; the group's other nodes
    // (the epilogue's operands: a batch norm's scale from its variance) run on reference
    // kernels before it.
    const EpilogueChain& chain = *c.library->fused_epilogue();
    c.native.reset();
    c.reference_nodes = group.nodes.size();
    c.inside_library.push_back(group.master);
    for (const EpilogueStep& st : chain.steps) c.inside_library.push_back(st.node);
    c.library_output = chain.output;
    c.library_operands = epilogue_operands(chain);
  }
  return c;
}

std::string Executable::step_note(const Graph& g, const Step& step, const std::string& native_why,
                                  const std::string& library_why) {
  const FusedGroup& group = *step.group;
  const std::string id = "group " + std::to_string(group.id);
  const std::string master = g[group.master].op ? std::string(g[group.master].op->name) : "tuple";
  const std::string master_runs =
      step.library ? master + " through " + step.library->describe()
                   : master + " on its reference kernel" + (library_why.empty() ? "" : " (" + library_why + ")");
  if (!step.inside_library.empty()) {
    const size_t side = group.nodes.size() - step.inside_library.size();
    return id + ": " + master_runs +
           (side ? "; " + std::to_string(side) + " op(s) computing its operands on reference kernels" : "");
  }
  if (!step.native && step.library && group.nodes.size() == 1) return id + ": " + master_runs;  // the call alone
  if (!step.native) {
    const std::string how = step.library ? "through " + step.library->describe() + ", the rest on reference kernels: "
                                         : "on reference kernels: ";
    return id + " (" + master + ", " + std::to_string(group.nodes.size()) + " ops) " + how + native_why;
  }
  if (step.reference_nodes > 0)
    return id + ": " + master_runs + ", its " + std::to_string(group.nodes.size() - step.reference_nodes) +
           "-op epilogue native" + (step.held_layout.is_plain() ? "" : " on " + step.held_layout.name() + " values");
  if (!step.held_layout.is_plain())
    return id + " (" + master + ", " + std::to_string(group.nodes.size()) + " ops): one native kernel on " +
           step.held_layout.name() + " values, as the library calls around it keep them";
  return {};  // all native: nothing to say
}

Executable::Executable(Graph graph, FusionPlan plan, Jit& jit, ThreadPool* pool, std::vector<std::string>* notes,
                       loops::LoopShape shape)
    : graph_(std::move(graph)), plan_(std::move(plan)), pool_(pool) {
  std::vector<StepChoice> choices;
  for (const FusedGroup& group : plan_.groups)
    choices.push_back(choose_step(graph_, group, pool_ ? pool_->threads() : 1, shape));
  layouts_ = keep_library_layouts(graph_, plan_, choices);
  std::vector<PlanStep> plan_input;
  for (const FusedGroup& group : plan_.groups) plan_input.push_back(plan_step_of(graph_, group, choices[group.id]));
  std::vector<loops::Kernel> kernels;  // the native parts, compiled together below
  std::vector<size_t> kernel_steps;    // the step of each
  for (const FusedGroup& group : plan_.groups) {
    StepChoice& choice = choices[group.id];
    Step step;
    step.group = &group;
    step.reference_nodes = choice.reference_nodes;
    if (auto& native = choice.native) {
      Native n{CompiledKernel{}, native->output_buffer, native->status_buffer, native->out_dtype,
               std::move(native->out_shape), std::move(native->status_message)};
      kernels.push_back(std::move(native->kernel));
      kernel_steps.push_back(steps_.size());
      step.native = std::move(n);
      step.elementwise = native->pointwise;
      step.native_part = std::move(native->part);
      step.held_layout = choice.held_layout;
    }
    step.library = std::move(choice.library);
    step.inside_library = std::move(choice.inside_library);
    step.library_output = choice.library_output;
    step.library_operands = std::move(choice.library_operands);
    if (notes && !assembles_only(step)) {
      std::string note = step_note(graph_, step, choice.native_why, choice.library_why);
      if (!note.empty()) notes->push_back(std::move(note));
    }
    steps_.push_back(std::move(step));
  }
  // All native parts in one LLVM module (Jit::compile_all): the pass pipeline, code
  // generation and link run once, not once per group (bench/compiler: compile latency).
  std::vector<const loops::Kernel*> to_compile;
  for (const loops::Kernel& k : kernels) to_compile.push_back(&k);
  std::vector<CompiledKernel> compiled = jit.compile_all(to_compile);
  for (size_t i = 0; i < compiled.size(); ++i) {
    compile_ms_ += compiled[i].compile_ms;
    steps_[kernel_steps[i]].native->kernel = std::move(compiled[i]);
  }
  // Free each intermediate value after the last step that reads it (values of the result
  // are kept).
  last_use_.assign(graph_.size(), -1);
  for (size_t s = 0; s < steps_.size(); ++s) {
    for (NodeId in : steps_[s].group->inputs) last_use_[in] = static_cast<int32_t>(s);
    for (NodeId id : steps_[s].group->nodes)
      for (NodeId in : graph_[id].inputs) last_use_[in] = std::max(last_use_[in], static_cast<int32_t>(s));
  }
  memory_ = plan_memory(graph_, plan_input);
  // The kept arena's views are made once, except for what a library call reads as
  // weights: its prepared-weight cache knows a tensor by its serial, and a view kept
  // between calls keeps its serial while its contents change.
  arena_views_.resize(graph_.size());
  fresh_view_.assign(graph_.size(), false);
  for (const Step& s : steps_)
    if (s.library) {
      const std::vector<NodeId>& in = graph_[s.group->master].inputs;
      for (size_t k = 1; k < in.size(); ++k) fresh_view_[in[k]] = true;
    }
}

std::vector<PlanStep> plan_steps(const Graph& g, const FusionPlan& plan) {
  std::vector<StepChoice> choices;
  for (const FusedGroup& group : plan.groups) choices.push_back(choose_step(g, group, 1));
  keep_library_layouts(g, plan, choices);  // (it decides which residuals may be overwritten)
  std::vector<PlanStep> steps;
  for (const FusedGroup& group : plan.groups) steps.push_back(plan_step_of(g, group, choices[group.id]));
  return steps;
}

size_t Executable::native_groups() const {
  size_t n = 0;
  for (const Step& s : steps_) n += s.native.has_value() && s.reference_nodes == 0;
  return n;
}
// A group that is its master alone, computed by the library: neither native nor on a
// reference kernel.
bool Executable::library_alone(const Step& s) {
  return !s.native && s.library && s.inside_library.empty() && s.group->nodes.size() == 1;
}

bool Executable::assembles_only(const Step& s) const {
  if (s.native || s.library) return false;
  for (NodeId id : s.group->nodes) {
    const Node& n = graph_[id];
    const bool marker = n.kind == NodeKind::Call && is_marker(n.op->name);
    if (n.kind != NodeKind::Tuple && n.kind != NodeKind::GetItem && !marker) return false;
  }
  return true;
}

size_t Executable::assembly_groups() const {
  size_t n = 0;
  for (const Step& s : steps_) n += assembles_only(s);
  return n;
}

size_t Executable::reference_groups() const {
  size_t n = 0;
  for (const Step& s : steps_)
    n += !s.native.has_value() && s.inside_library.empty() && !library_alone(s) && !assembles_only(s);
  return n;
}

size_t Executable::library_alone_groups() const {
  size_t n = 0;
  for (const Step& s : steps_) n += library_alone(s);
  return n;
}

size_t Executable::fused_library_groups() const {
  size_t n = 0;
  for (const Step& s : steps_) n += !s.inside_library.empty();
  return n;
}

size_t Executable::epilogue_groups() const {
  return steps_.size() - native_groups() - reference_groups() - fused_library_groups() - library_alone_groups() -
         assembly_groups();
}

size_t Executable::library_groups() const {
  size_t n = 0;
  for (const Step& s : steps_) n += s.library != nullptr;
  return n;
}

std::vector<std::string> Executable::run_notes() const {
  size_t kernels = 0;
  double flops = 0;
  for (const Step& s : steps_)
    if (s.library) ++kernels, flops += s.library->flops();
  const uint64_t calls = calls_.load();
  if (calls == 0) return {};
  std::vector<std::string> notes;
  if (kernels > 0) {
    const double ms = static_cast<double>(library_ns_.load()) / 1e6 / static_cast<double>(calls);
    char line[200];
    std::snprintf(line, sizeof line,
                  "library kernels: %zu per call, %.3f GFLOP; %.2f ms per call on average over %llu calls (%.1f GFLOP/s)",
                  kernels, flops / 1e9, ms, static_cast<unsigned long long>(calls), ms > 0 ? flops / 1e6 / ms : 0.0);
    notes.push_back(line);
  }
  if (profile_) {
    const std::vector<std::string> lines =
        profile_times_.lines(profiled_, "CPU profile", "groups", "each timed on the calling thread");
    notes.insert(notes.end(), lines.begin(), lines.end());
  }
  return notes;
}

void Executable::profile_calls() {
  profiled_.clear();
  for (const Step& s : steps_) {
    ProfiledKernel k;
    k.what = "group " + std::to_string(s.group->id) + " (" + op_names(graph_, s.group->nodes) + ")";
    if (s.library) {
      const std::string library = s.library->describe();
      k.where = library.substr(0, library.find(';'));
      k.flops = s.library->flops();
    } else {
      k.where = s.reference_nodes == 0 ? "native"
                : s.native           ? "reference kernels, then a native epilogue"
                                     : "reference kernels";
    }
    for (NodeId in : s.group->inputs) k.bytes += value_bytes(graph_[in]);
    for (NodeId out : s.group->outputs) k.bytes += value_bytes(graph_[out]);
    profiled_.push_back(std::move(k));
  }
  profile_ = true;
}

rt::NDArray Executable::planned(NodeId id, const CallArena& arena) const {
  if (!arena.storage.defined() || memory_.slot_of[id] < 0) return {};
  const Node& n = graph_[id];
  auto make = [&] {
    return rt::NDArray::view(arena.storage, memory_.offset_of(id), *concrete_shape(n.type),
                             static_cast<const TensorTy*>(n.type)->dtype);
  };
  if (!arena.kept || fresh_view_[id]) return make();
  rt::NDArray& view = arena_views_[id];
  if (!view.defined()) view = make();
  return view;
}

void Executable::run_native(const Step& s, std::vector<rt::Value>& values, const CallArena& arena) const {
  const Native& n = *s.native;
  // One view per kernel parameter (the C ABI shared with reference kernels): inputs, the
  // output, the status flag. (Per thread and kept: a kernel never re-enters this.)
  thread_local std::vector<RelayTensorView> views;
  views.clear();
  for (NodeId in : s.native_part.inputs) views.push_back(rt::view_of(values[in].tensor()));
  // The plan's slot (possibly an input's, written in place), else a fresh array.
  rt::NDArray out = planned(s.group->outputs[0], arena);
  if (!out.defined()) out = rt::NDArray::empty(n.out_shape, n.out_dtype);
  views.push_back(rt::view_of(out));
  int32_t status = 0;
  if (n.status_buffer >= 0) views.push_back(rt::view_of_data(&status));
  run_kernel(n.kernel, views.data(), pool_);
  if (status != 0) throw rt::RuntimeError(n.status_message);
  values[s.group->outputs[0]] = rt::Value(out);
}

void Executable::run_reference(const Step& s, std::vector<rt::Value>& values, const CallArena& arena) const {
  for (size_t k = 0; k < s.reference_nodes; ++k) {
    const NodeId id = s.group->nodes[k];
    if (s.library && id == s.library_output) {
      // The master through the library (and with it its epilogue, when the library
      // computes that too: the operands follow the master's inputs). (The inputs' list is
      // per thread and kept; a library call never re-enters this.)
      thread_local std::vector<rt::NDArray> inputs;
      inputs.clear();
      const Node& master = graph_[s.group->master];
      for (NodeId in : master.inputs) inputs.push_back(values[in].tensor());
      for (NodeId in : s.library_operands) inputs.push_back(values[in].tensor());
      const auto t0 = std::chrono::steady_clock::now();
      values[id] = rt::Value(s.library->run(inputs, planned(id, arena), pool_ ? pool_->threads() : 1));
      library_ns_ += static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
      inputs.clear();  // (holds no tensor between calls)
      continue;
    }
    if (contains(s.inside_library, id)) continue;  // computed inside the library call
    // A destination-passing kernel writes into its planned slot; the others' fresh arrays
    // are adopted (the plan gave them none).
    values[id] = eval_node(graph_, id, values, graph_[id].kind == NodeKind::Call ? planned(id, arena) : rt::NDArray());
  }
}

rt::Value Executable::call(std::span<const rt::Value> args) {
  // The arena: kept between calls, unless another call (re-entered from a mixed-mode
  // region, or on another thread) holds it; then this call allocates its own. The call
  // holding the kept arena also uses the kept values' list and slot views.
  CallArena arena;
  const bool holds_arena = !arena_busy_.exchange(true, std::memory_order_acquire);
  struct Release {
    std::atomic<bool>* busy;
    ~Release() {
      if (busy) busy->store(false, std::memory_order_release);
    }
  } release{holds_arena ? &arena_busy_ : nullptr};
  if (memory_.arena_bytes > 0) {
    if (holds_arena) {
      if (!arena_.defined()) arena_ = rt::NDArray::empty({static_cast<int64_t>(memory_.arena_bytes)}, DataType::uint_(8));
      arena.storage = arena_;
      arena.kept = true;
    } else {
      arena.storage = rt::NDArray::empty({static_cast<int64_t>(memory_.arena_bytes)}, DataType::uint_(8));
    }
  }
  const uint64_t calls_before = calls_.fetch_add(1);
  std::vector<rt::Value> own;
  std::vector<rt::Value>& values = holds_arena ? kept_values_ : own;
  values.assign(graph_.size(), rt::Value());
  for (size_t i = 0; i < graph_.params.size() && i < args.size(); ++i) values[graph_.params[i]] = args[i];
  for (NodeId id = 0; id < graph_.size(); ++id)
    if (graph_[id].kind == NodeKind::Constant) values[id] = rt::Value(graph_[id].constant);
  struct Clear {  // the kept list holds no value between calls (nor after a kernel throws)
    std::vector<rt::Value>& values;
    ~Clear() {
      for (rt::Value& v : values) v = rt::Value();
    }
  } clear{values};
  std::vector<double> step_ms(profile_ ? steps_.size() : 0, 0.0);
  for (size_t s = 0; s < steps_.size(); ++s) {
    const auto began = profile_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    run_reference(steps_[s], values, arena);  // all of the group, or what precedes its native part
    if (steps_[s].native) run_native(steps_[s], values, arena);
    if (profile_) step_ms[s] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
    for (NodeId in : steps_[s].group->inputs)
      if (last_use_[in] == static_cast<int32_t>(s) && in != graph_.output) values[in] = rt::Value();
  }
  if (profile_) profile_times_.add_call(calls_before, step_ms);
  return values[graph_.output];
}

}  // namespace relay::compiler

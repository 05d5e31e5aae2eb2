// The engine while stopped: the stack (with label frames where tail calls replaced
// callers), scopes, variables through the value-inspection model, evaluation in a
// frame, setVariable, completions, step-in targets and tensor memory.
#include <algorithm>
#include <set>

#include "debugger/debugger.h"
#include "ide/scope.h"
#include "interpreter/eval/closure.h"
#include "interpreter/eval/program.h"
#include "lang/ops/op_registry.h"

namespace relay::dbg {

namespace {

// Frame ids: machine frame i is 2i, the label under it (if any) 2i + 1.
int64_t frame_id_of(size_t i) { return static_cast<int64_t>(2 * i); }

bool annotatable(const std::string& type) {
  // Types the checker could only partly infer print with holes (`_`) or unknown
  // dimensions named with a quote; those are left to inference in an expression.
  return !type.empty() && type.find('_') == std::string::npos && type.find('\'') == std::string::npos;
}

// Whether `v` holds a closure whose code is `program`'s, which would outlive the program
// if the value were stored or shown after it is gone. Tuples, constructors, references
// and captured values are looked through; references once each (they may form cycles).
bool holds_code_of(const rt::Value& v, const rt::Program& program, std::set<const rt::Object*>& seen) {
  const std::vector<rt::Value>* inner = nullptr;
  if (v.is_closure()) {
    const rt::ClosureObj& c = v.closure();
    if (c.kind == rt::ClosureObj::Kind::Function && program.owns(c.code)) return true;
    inner = &c.captured;
  } else if (v.is_ref()) {
    return seen.insert(v.get()).second && holds_code_of(v.ref().value, program, seen);
  } else if (v.is_tuple()) {
    inner = &v.tuple().fields;
  } else if (v.is_ctor()) {
    inner = &v.ctor().fields;
  }
  if (inner)
    for (const rt::Value& f : *inner)
      if (holds_code_of(f, program, seen)) return true;
  return false;
}

bool holds_code_of(const rt::Value& v, const rt::Program& program) {
  std::set<const rt::Object*> seen;
  return holds_code_of(v, program, seen);
}

}  // namespace

std::optional<size_t> Debugger::frame_index(int64_t frame_id) const {
  if (state_ != State::Stopped || frame_id < 0 || frame_id % 2 != 0) return std::nullopt;
  size_t i = static_cast<size_t>(frame_id / 2);
  if (i >= machine_->depth()) return std::nullopt;
  return i;
}

std::optional<Position> Debugger::frame_position(const rt::FrameInfo& f, size_t i) const {
  Span span;
  if (i == 0 && stop_span_) span = *stop_span_;
  else if (f.position) span = f.position->span;
  else return std::nullopt;
  if (span.file >= sources_->size()) return std::nullopt;
  return position_of(sources_->get(span.file), span);
}

std::vector<FrameView> Debugger::stack_trace(int64_t start, int64_t levels, int64_t* total) const {
  std::vector<FrameView> out;
  *total = 0;
  if (state_ != State::Stopped || !machine_) return out;
  const size_t depth = machine_->depth();
  // One pass: count every entry, and keep those in the requested window. Cheap per frame,
  // so a million-deep recursion pages in milliseconds.
  int64_t index = 0;
  const int64_t end = levels > 0 && start <= INT64_MAX - levels ? start + levels : INT64_MAX;  // no overflow
  for (size_t i = 0; i < depth; ++i) {
    rt::FrameInfo f = machine_->frame_info(i);
    if (index >= start && index < end) {
      FrameView v;
      v.id = frame_id_of(i);
      v.name = f.code->name;
      v.pos = frame_position(f, i);
      if (i == 0 && stop_span_) v.file = stop_span_->file;
      else if (f.position) v.file = f.position->span.file;
      v.prelude = v.pos && v.file != loaded_->file;
      out.push_back(std::move(v));
    }
    ++index;
    if (f.tail_calls > 0) {
      if (index >= start && index < end) {
        FrameView label;
        label.id = frame_id_of(i) + 1;
        label.label = true;
        label.name = "[" + std::to_string(f.tail_calls) + (f.tail_calls == 1 ? " call" : " calls") +
                     " in tail position replaced this frame's earlier functions]";
        out.push_back(std::move(label));
      }
      ++index;
    }
  }
  *total = index;
  return out;
}

int64_t Debugger::new_handle(Handle h) {
  handles_.push_back(std::move(h));
  return static_cast<int64_t>(handles_.size());
}

std::vector<ScopeView> Debugger::scopes(int64_t frame_id) {
  std::vector<ScopeView> out;
  auto i = frame_index(frame_id);
  if (!i) return out;
  const rt::FrameInfo f = machine_->frame_info(*i);
  int64_t args = 0, locals = 0, captured = 0;
  for (const rt::FrameVariable& v : machine_->frame_variables(*i)) {
    const bool cap = std::find(f.code->capture_slots.begin(), f.code->capture_slots.end(), v.slot) !=
                         f.code->capture_slots.end() ||
                     static_cast<int64_t>(v.slot) == f.code->self_slot;
    if (v.slot < f.code->params) ++args;
    else if (cap) ++captured;
    else ++locals;
  }
  auto add = [&](const char* name, int64_t count, bool expensive = false) {
    out.push_back({name, new_handle({Handle::Kind::Scope, *i, name, {}, "", ""}), count, expensive});
  };
  add("Arguments", args);
  add("Locals", locals);
  if (captured) add("Captured", captured);
  if (*i == 0 && return_value_) add("Return value", 1);
  int64_t globals = 0;
  for (const Definition& d : loaded_->front.module->defs) globals += d.kind == Definition::Func;
  add("Globals", globals, true);
  return out;
}

const InferredTypes* Debugger::types_for(const rt::FunctionCode& code) const {
  if (!code.fn || code.fn->span.file != loaded_->file) return nullptr;
  const FuncDef* g = map_->global_at(code.fn->span.begin);
  return g ? loaded_->types.find(g) : nullptr;
}

std::string Debugger::static_type(const VarDecl* v, size_t frame) const {
  const InferredTypes* types = types_for(*machine_->frame_info(frame).code);
  Ty t = types ? types->type_of(v) : nullptr;
  return t ? type_to_string(t) : "";
}

VariableView Debugger::make_variable(std::string name, const rt::Value& v, std::string type, std::string path) {
  rt::ValueInfo info = rt::inspect(v, type);
  VariableView out;
  out.name = std::move(name);
  out.value = info.summary;
  out.type = info.type;
  out.named = info.named;
  out.indexed = info.indexed;
  if (info.named + info.indexed > 0) out.reference = new_handle({Handle::Kind::Value, 0, "", v, type, path});
  if (v.is_tensor()) {
    out.memory_reference = "tensor-" + std::to_string(memory_.size() + 1);
    memory_.emplace(out.memory_reference, v.tensor());
  }
  out.evaluate_name = std::move(path);
  return out;
}

std::optional<std::vector<VariableView>> Debugger::variables(int64_t reference, rt::ChildFilter filter,
                                                             int64_t start, int64_t count) {
  if (state_ != State::Stopped || reference <= 0 || static_cast<size_t>(reference) > handles_.size())
    return std::nullopt;
  Handle h = handles_[static_cast<size_t>(reference - 1)];  // a copy: new handles may be added below
  std::vector<VariableView> out;
  if (count <= 0) count = INT64_MAX;
  if (h.kind == Handle::Kind::Value) {
    for (rt::Child& c : rt::children(h.value, filter, start, count)) {
      if (c.is_leaf()) {
        VariableView v;
        v.name = c.name;
        v.value = c.text;
        out.push_back(std::move(v));
        continue;
      }
      std::string path;
      if ((h.value.is_tuple()) && !h.path.empty()) path = h.path + "." + c.name;
      out.push_back(make_variable(c.name, c.value, "", path));
    }
    return out;
  }
  if (filter == rt::ChildFilter::Indexed) return out;  // scopes have named children only
  std::vector<VariableView> all;
  if (h.scope == "Return value") {
    all.push_back(make_variable(return_name_ + " returned", *return_value_, "", ""));
  } else if (h.scope == "Globals") {
    for (const Definition& d : loaded_->front.module->defs) {
      if (d.kind != Definition::Func) continue;
      const InferredTypes* t = loaded_->types.find(d.func);
      std::string type = t && t->type ? type_to_string(t->type) : "";
      VariableView v = make_variable("@" + std::string(d.func->name), loaded_->program->global(*d.func), type,
                                     "@" + std::string(d.func->name));
      v.reference = 0;  // a global has no captures to show
      v.named = 0;
      all.push_back(std::move(v));
    }
  } else {
    const rt::FrameInfo f = machine_->frame_info(h.frame);
    for (const rt::FrameVariable& v : machine_->frame_variables(h.frame)) {
      const bool cap = std::find(f.code->capture_slots.begin(), f.code->capture_slots.end(), v.slot) !=
                           f.code->capture_slots.end() ||
                       static_cast<int64_t>(v.slot) == f.code->self_slot;
      const char* scope = v.slot < f.code->params ? "Arguments" : cap ? "Captured" : "Locals";
      if (h.scope != scope) continue;
      std::string name = "%" + std::string(v.decl->name);
      all.push_back(make_variable(name, v.value, static_type(v.decl, h.frame), name));
    }
  }
  const rt::Window w = rt::clip_window(static_cast<int64_t>(all.size()), start, count);
  for (int64_t k = w.lo; k < w.hi; ++k) out.push_back(std::move(all[static_cast<size_t>(k)]));
  return out;
}

std::vector<EnvVar> Debugger::frame_env(size_t frame) const {
  std::vector<EnvVar> env;
  if (state_ != State::Stopped || frame >= machine_->depth()) return env;
  for (const rt::FrameVariable& v : machine_->frame_variables(frame)) {
    // The value's own type is exact (concrete shapes where the checker had `?` or a
    // symbolic dimension) for tensors and tuples; otherwise the checker's.
    std::string type;
    if (v.value.is_tensor() || v.value.is_tuple()) type = rt::value_type(v.value);
    if (!annotatable(type)) type = static_type(v.decl, frame);
    if (!annotatable(type)) type.clear();
    env.push_back({v.decl, type});
  }
  return env;
}

std::vector<EnvVar> Debugger::scope_env(const StopPoint& p) const {
  std::vector<EnvVar> env;
  const InferredTypes* types = loaded_->types.find(p.global);
  for (const VarDecl* v : ide::binders_in_scope(*p.global, sources_->get(loaded_->file).text, p.begin, false)) {
    Ty t = types ? types->type_of(v) : nullptr;
    std::string type = t ? type_to_string(t) : "";
    env.push_back({v, annotatable(type) ? type : ""});
  }
  return env;
}

std::vector<rt::Value> Debugger::frame_args(const CompiledExpression& e, size_t frame) const {
  std::vector<rt::Value> args(e.params.size());
  if (e.params.empty()) return args;
  const rt::FunctionCode* code = machine_->frame_code(frame);
  if (code != e.slots_for) {
    e.slots.clear();
    for (const VarDecl* p : e.params) e.slots.push_back(machine_->frame_slot_of(frame, p));
    e.slots_for = code;
  }
  for (size_t k = 0; k < e.params.size(); ++k)
    if (e.slots[k] >= 0) args[k] = machine_->frame_slot_value(frame, static_cast<uint32_t>(e.slots[k]));
  return args;
}

std::optional<VariableView> Debugger::evaluate(std::string_view expression, std::optional<int64_t> frame_id,
                                               EvalContext context, std::string* error) {
  if (!compiler_) {
    *error = "no program is loaded";
    return std::nullopt;
  }
  std::optional<size_t> frame;
  if (frame_id) {
    frame = frame_index(*frame_id);
    if (!frame) {
      *error = "no such frame (the program is not stopped there)";
      return std::nullopt;
    }
  } else if (state_ == State::Stopped) {
    frame = 0;
  }
  std::vector<EnvVar> env = frame ? frame_env(*frame) : std::vector<EnvVar>{};
  auto compiled = compiler_->compile(expression, env, "evaluate", error);
  if (!compiled) return std::nullopt;
  // A frame's variables that the expression uses must have values now.
  std::vector<rt::Value> args = frame ? frame_args(*compiled, *frame) : std::vector<rt::Value>{};
  for (size_t k = 0; k < args.size(); ++k)
    if (!args[k].defined()) {
      *error = "`%" + std::string(compiled->params[k]->name) + "` has no value yet";
      return std::nullopt;
    }
  const bool pure = context == EvalContext::Watch || context == EvalContext::Hover;
  EvalResult r = compiler_->run(*compiled, args, pure, context == EvalContext::Repl ? 50'000'000 : 1'000'000);
  if (!r.value) {
    *error = r.error;
    return std::nullopt;
  }
  // A `repl` evaluation may also have stored such a closure in the program's references.
  if (!pure || holds_code_of(*r.value, *compiled->program)) escaped_.push_back(compiled);
  std::string path = std::string(expression);
  VariableView v = make_variable(path, *r.value, compiled->type, "(" + path + ")");
  if (context == EvalContext::Clipboard) v.value = rt::full_text(*r.value);
  if (v.type.empty()) v.type = compiled->type;
  return v;
}

std::optional<VariableView> Debugger::set_variable(int64_t reference, std::string_view name, std::string_view value,
                                                   std::string* error) {
  if (state_ != State::Stopped || reference <= 0 || static_cast<size_t>(reference) > handles_.size()) {
    *error = "the variable is gone (the program is not stopped)";
    return std::nullopt;
  }
  const Handle h = handles_[static_cast<size_t>(reference - 1)];
  if (h.kind != Handle::Kind::Scope || (h.scope != "Arguments" && h.scope != "Locals" && h.scope != "Captured")) {
    *error = "only a frame's arguments, locals and captured variables can be set";
    return std::nullopt;
  }
  std::string bare(name);
  if (!bare.empty() && bare[0] == '%') bare.erase(0, 1);
  std::optional<rt::FrameVariable> target;
  for (const rt::FrameVariable& v : machine_->frame_variables(h.frame))
    if (v.decl->name == bare) target = v;
  if (!target) {
    *error = "no variable `%" + bare + "` in this scope";
    return std::nullopt;
  }
  auto env = frame_env(h.frame);
  auto compiled = compiler_->compile(value, env, "new value", error);
  if (!compiled) return std::nullopt;
  EvalResult r = compiler_->run(*compiled, frame_args(*compiled, h.frame), false, 50'000'000);
  if (!r.value) {
    *error = r.error;
    return std::nullopt;
  }
  // The program was checked with this variable's type: a new value must have it.
  const std::string old_type = rt::value_type(target->value), new_type = rt::value_type(*r.value);
  if (old_type != new_type) {
    *error = "`%" + bare + "` has type `" + old_type + "`; the new value has type `" + new_type + "`";
    return std::nullopt;
  }
  machine_->set_frame_variable(h.frame, target->slot, *r.value);
  if (holds_code_of(*r.value, *compiled->program)) escaped_.push_back(compiled);
  return make_variable("%" + bare, *r.value, static_type(target->decl, h.frame), "%" + bare);
}

std::vector<StepInTarget> Debugger::step_in_targets(int64_t frame_id) {
  std::vector<StepInTarget> out;
  if (frame_id != 0 || !stop_node_ || state_ != State::Stopped) return out;
  step_targets_.clear();
  // The calls of closures and globals inside the statement, not inside function literals
  // (those run later, if ever), in source order.
  std::vector<const rt::Node*> stack{stop_node_};
  std::vector<const rt::Node*> calls;
  while (!stack.empty()) {
    const rt::Node* n = stack.back();
    stack.pop_back();
    if (!n || n->kind == rt::NodeKind::Lambda) continue;
    if (n->kind == rt::NodeKind::Call) calls.push_back(n);
    for (const rt::Node* k : n->kids) stack.push_back(k);
    for (const auto& b : n->bindings) stack.push_back(b.value);
    stack.push_back(n->result);
    for (const auto& c : n->clauses) stack.push_back(c.body);
  }
  std::sort(calls.begin(), calls.end(), [](auto* a, auto* b) { return a->expr->span.begin < b->expr->span.begin; });
  for (const rt::Node* n : calls) {
    auto* call = static_cast<const CallExpr*>(n->expr);
    const SourceFile& file = sources_->get(call->span.file);
    out.push_back({static_cast<int64_t>(step_targets_.size()), std::string(file.slice(call->callee->span)),
                   position_of(file, call->span)});
    step_targets_.push_back(call);
  }
  return out;
}

std::optional<std::string> Debugger::read_memory(std::string_view reference, int64_t offset, int64_t count,
                                                 int64_t* unreadable) const {
  auto it = memory_.find(reference);
  if (it == memory_.end()) return std::nullopt;
  auto bytes = rt::raw_bytes(rt::Value(it->second));
  if (!bytes) return std::nullopt;
  // A client may send any 64-bit offset and count: their sum is taken in 128 bits.
  const int64_t size = static_cast<int64_t>(bytes->size());
  const __int128 first = offset, last = first + std::max<int64_t>(count, 0);
  const int64_t begin = static_cast<int64_t>(std::clamp<__int128>(first, 0, size));
  const int64_t end = static_cast<int64_t>(std::clamp<__int128>(last, begin, size));
  *unreadable = std::max<int64_t>(count, 0) - (end - begin);
  return std::string(reinterpret_cast<const char*>(bytes->data()) + begin, static_cast<size_t>(end - begin));
}

}  // namespace relay::dbg

#include "interpreter/eval/machine.h"

#include "interpreter/eval/numerics.h"

#include <algorithm>

namespace relay::rt {

Machine::Machine(Program& program) : program_(program) {}

void Machine::remove_observer(Observer* o) {
  observers_.erase(std::remove(observers_.begin(), observers_.end(), o), observers_.end());
}

void Machine::reset() {
  failed_ = false;
  pause_requested_ = false;
  announced_ = false;
  announced_op_ = false;
  conts_.clear();
  vals_.clear();
  frames_.clear();
  slots_.clear();
}

void Machine::start(const FunctionCode& code) {
  reset();
  frames_.push_back({&code, 0, nullptr, next_serial_++, 0});
  slots_.resize(code.slots);
  conts_.push_back({&return_node_, 0});
  push(code.body);
}

void Machine::start_call(const Value& fn, std::vector<Value> args) {
  reset();
  if (!fn.is_closure()) throw EvalError("the value called is not a function", {}, {}, {});
  invoke(fn, args, nullptr);
}

Value Machine::run() {
  while (step()) pause_requested_ = false;
  pause_requested_ = false;
  return result();
}

Machine::RunStatus Machine::run_until_pause(uint64_t budget) {
  pause_requested_ = false;
  for (uint64_t i = 0; i < budget; ++i) {
    if (!step()) {
      // A hook of the last step may have asked to pause; the run is over all the same.
      pause_requested_ = false;
      return RunStatus::Done;
    }
    if (pause_requested_) {
      pause_requested_ = false;
      return RunStatus::Paused;
    }
  }
  return RunStatus::Budget;
}

const Expr* Machine::current_expr() const {
  for (size_t i = conts_.size(); i-- > 0;)
    if (conts_[i].node->expr) return conts_[i].node->expr;
  return nullptr;
}

Span Machine::span_of_current() const {
  const Expr* e = current_expr();
  return e ? e->span : Span{};
}

std::vector<StackEntry> Machine::stack_trace() const {
  std::vector<StackEntry> out;
  for (size_t i = frames_.size(); i-- > 0;)
    out.push_back({frames_[i].code->name, frames_[i].call_site ? frames_[i].call_site->span : Span{}});
  return out;
}

FrameInfo Machine::frame_info(size_t i) const {
  const Frame& f = frames_[frames_.size() - 1 - i];
  const Expr* position = i == 0 ? current_expr() : frames_[frames_.size() - i].call_site;
  return {f.code, f.call_site, position, f.serial, f.tail_calls};
}

void Machine::set_frame_variable(size_t i, uint32_t slot, Value v) {
  const Frame& f = frames_[frames_.size() - 1 - i];
  slots_[f.base + slot] = std::move(v);
}

std::vector<FrameVariable> Machine::frame_variables(size_t i) const {
  std::vector<FrameVariable> out;
  if (i >= frames_.size()) return out;
  const Frame& f = frames_[frames_.size() - 1 - i];
  // Every binder with a value now: parameters, captured variables, the function itself
  // (a recursive let), and the lets and pattern variables evaluated so far, in slot order.
  for (size_t s = 0; s < f.code->slot_vars.size(); ++s)
    if (f.code->slot_vars[s] && slots_[f.base + s].defined())
      out.push_back({f.code->slot_vars[s], slots_[f.base + s], static_cast<uint32_t>(s)});
  return out;
}

const FunctionCode* Machine::frame_code(size_t i) const {
  return i < frames_.size() ? frames_[frames_.size() - 1 - i].code : nullptr;
}

int64_t Machine::frame_slot_of(size_t i, const VarDecl* decl) const {
  const FunctionCode* code = frame_code(i);
  if (!code) return -1;
  for (size_t s = 0; s < code->slot_vars.size(); ++s)
    if (code->slot_vars[s] == decl) return static_cast<int64_t>(s);
  return -1;
}

Value Machine::frame_slot_value(size_t i, uint32_t slot) const {
  if (i >= frames_.size()) return Value();
  const Frame& f = frames_[frames_.size() - 1 - i];
  return slot < f.code->slot_vars.size() ? slots_[f.base + slot] : Value();
}

void Machine::fail(const std::string& message, Span span, std::vector<std::string> notes, bool interrupted) {
  auto stack = stack_trace();
  if (keep_state_on_error_) {
    failed_ = true;  // frames stay for inspection; step() does nothing more
    announced_ = announced_op_ = false;
  } else {
    reset();
  }
  throw EvalError(message, span, std::move(notes), std::move(stack), interrupted);
}

void Machine::finish(const Node* n, Value v) {
  conts_.pop_back();
  if (!observers_.empty())
    for (Observer* o : observers_) o->after(*this, *n->expr, v);
  vals_.push_back(std::move(v));
}

Value Machine::run_kernel(const Node& n, std::vector<Value>& args) {
  if (!n.op) fail("unknown operator", n.expr->span);
  if (!n.kernel) fail("the operator `" + std::string(n.op->name) + "` has no kernel in the interpreter yet", n.expr->span);
  KernelCall call{*n.op, args, n.attrs, n.out_type};
  Value out;
  try {
    out = n.kernel(call);
    if (!observers_.empty())
      for (Observer* o : observers_) o->after_op(*this, *static_cast<const CallExpr*>(n.expr), *n.op, args, out);
  } catch (const RuntimeError& e) {
    fail(e.what(), n.expr->span, e.notes());
  }
  return out;
}

void Machine::invoke(const Value& callee, std::vector<Value>& args, const CallExpr* site) {
  const Span span = site ? site->span : Span{};
  if (!callee.is_closure()) fail("the value called is not a function", span);
  const ClosureObj& c = callee.closure();
  switch (c.kind) {
    case ClosureObj::Kind::Function: enter(c, callee, args, site); return;
    case ClosureObj::Kind::Op: call_op(*c.op, callee, args, site); return;
    case ClosureObj::Kind::Ctor:
      vals_.push_back(Value(make_ref<CtorObj>(c.ctor, c.ctor->tag, std::move(args))));
      return;
  }
}

void Machine::call_op(const OpInfo& op, const Value&, std::vector<Value>& args, const CallExpr* site) {
  const Span span = site ? site->span : Span{};
  // An operator used as a value runs with the attributes written at the call
  // (`%s(%x, axis=[1])` with `%s = sum`, as the type checker reads them), else with its
  // attributes' defaults.
  KernelFn kernel = find_kernel(op);
  if (!kernel) fail("the operator `" + std::string(op.name) + "` has no kernel in the interpreter yet", span);
  CallAttrs attrs = CallAttrs::from_values(op.attrs, {});
  if (site && (!site->attrs.empty() || site->attrs_meta)) {
    DiagnosticBag diags;
    if (!check_call_attrs(op, *site, attrs, diags))
      fail(diags.items().empty() ? "bad attributes for `" + std::string(op.name) + "`" : diags.items()[0].message,
           span);
  }
  KernelCall call{op, args, attrs, nullptr};
  try {
    Value out = kernel(call);
    // Observers see this call like one written with the operator's name, so that the
    // numerics checker and operator breakpoints do not miss `%f(%x)`.
    if (site && !observers_.empty())
      for (Observer* o : observers_) o->after_op(*this, *site, op, args, out);
    vals_.push_back(std::move(out));
  } catch (const RuntimeError& e) {
    fail(e.what(), span, e.notes());
  }
}

bool Machine::announce_op(const OpInfo& op, const CallExpr* site, size_t argc, size_t above) {
  if (announced_op_) {
    announced_op_ = false;
    return false;
  }
  std::span<const Value> args(vals_.data() + vals_.size() - above - argc, argc);
  for (Observer* o : observers_) o->before_op(*this, site, op, args);
  if (!pause_requested_) return false;
  announced_op_ = true;
  return true;
}

// A call of a global with native code ready: its value replaces the whole call, as an
// operator's does (no frame; a call in tail position then returns through the caller's
// return continuation). False when the call must be interpreted after all.
bool Machine::run_native(const FunctionCode& code, std::vector<Value>& args) {
  CompiledCall* native = tier_->at_call(*code.global, args);
  if (!native || !native->takes_next_call()) return false;
  Value out;
  try {
    out = native->call(args);
  } catch (const RuntimeError&) {
    return false;  // the interpreter reports it, at the operator, with the stack
  }
  // Observers (the numerics checker) must see where a NaN or Inf is produced.
  if (!observers_.empty() && has_non_finite(out)) return false;
  vals_.push_back(std::move(out));
  return true;
}

// A tensor region with native code ready: its outputs' slots are set from the native
// result and the machine goes on after the region's last binding. False when the bindings
// must be interpreted: an input that is not a tensor, no native code (yet), a run-time
// error in native code (the interpreter then reports it at the operator), or, with
// observers attached, NaN or Inf in an output (the numerics checker names the operator).
// Observers see none of the region's bindings, as they see nothing inside a native call.
bool Machine::run_region(const RegionCode& region, uint32_t base) {
  std::vector<Value> inputs;
  inputs.reserve(region.input_slots.size());
  for (uint32_t s : region.input_slots) {
    const Value& v = slots_[base + s];
    if (!v.is_tensor()) return false;
    inputs.push_back(v);
  }
  CompiledCall* native = tier_->at_region(region.info, inputs);
  if (!native || !native->takes_next_call()) return false;
  Value out;
  try {
    out = native->call(inputs);
  } catch (const RuntimeError&) {
    return false;
  }
  if (!out.is_tuple() || out.tuple().fields.size() != region.output_slots.size()) return false;
  if (!observers_.empty() && has_non_finite(out)) return false;
  for (size_t i = 0; i < region.output_slots.size(); ++i)
    slots_[base + region.output_slots[i]] = out.tuple().fields[i];
  return true;
}

void Machine::enter(const ClosureObj& c, const Value& self, std::vector<Value>& args, const CallExpr* site) {
  const FunctionCode& code = *c.code;
  if (args.size() != code.params)
    fail(code.name + " takes " + std::to_string(code.params) + " arguments but was given " + std::to_string(args.size()),
         site ? site->span : Span{});
  if (tier_ && code.global && run_native(code, args)) return;
  // A call in tail position (nothing left to do in the caller but return) reuses the
  // caller's frame: the return continuation on top already belongs to it.
  const bool tail = !frames_.empty() && !conts_.empty() && conts_.back().node == &return_node_;
  if (tail) {
    Frame& f = frames_.back();
    slots_.resize(f.base);
    f.code = &code;
    f.call_site = site;
    f.serial = next_serial_++;
    ++f.tail_calls;
  } else {
    if (frames_.size() >= max_depth_)
      fail("maximum call depth (" + std::to_string(max_depth_) + " frames) exceeded", site ? site->span : Span{},
           {"the recursion does not terminate, or needs more depth: `relay run --max-depth N`"});
    frames_.push_back({&code, static_cast<uint32_t>(slots_.size()), site, next_serial_++, 0});
    conts_.push_back({&return_node_, 0});
  }
  const uint32_t base = frames_.back().base;
  slots_.resize(base + code.slots);
  for (size_t i = 0; i < args.size(); ++i) slots_[base + i] = std::move(args[i]);
  for (size_t k = 0; k < code.capture_slots.size(); ++k) slots_[base + code.capture_slots[k]] = c.captured[k];
  if (code.self_slot >= 0) slots_[base + static_cast<size_t>(code.self_slot)] = self;
  push(code.body);
  if (!observers_.empty())
    for (Observer* o : observers_) o->enter(*this, code, site, tail);
}

bool Machine::bind_pattern(const PatternCode& p, const Value& v, uint32_t base) {
  switch (p.kind) {
    case PatternKind::Wildcard: return true;
    case PatternKind::Var: slots_[base + p.slot] = v; return true;
    case PatternKind::Ctor: {
      if (!v.is_ctor() || !p.ctor || v.ctor().ctor != p.ctor) return false;
      const auto& fields = v.ctor().fields;
      if (fields.size() != p.fields.size()) return false;
      for (size_t i = 0; i < fields.size(); ++i)
        if (!bind_pattern(p.fields[i], fields[i], base)) return false;
      return true;
    }
    case PatternKind::Tuple: {
      if (!v.is_tuple() || v.tuple().fields.size() != p.fields.size()) return false;
      for (size_t i = 0; i < p.fields.size(); ++i)
        if (!bind_pattern(p.fields[i], v.tuple().fields[i], base)) return false;
      return true;
    }
    case PatternKind::Error: return false;
  }
  return false;
}

namespace {

// Pops the last `n` values into a vector (in evaluation order).
std::vector<Value> pop_values(std::vector<Value>& vals, size_t n) {
  std::vector<Value> out(std::make_move_iterator(vals.end() - static_cast<std::ptrdiff_t>(n)),
                         std::make_move_iterator(vals.end()));
  vals.erase(vals.end() - static_cast<std::ptrdiff_t>(n), vals.end());  // never grows, unlike resize
  return out;
}

// How many of a node's kids are operands, evaluated before the node itself: all of them
// for tuples and calls, the first for `if` (its branches are chosen afterwards), `match`,
// projections and reference reads, none for nodes that evaluate nothing first.
size_t operand_count(const Node& n) {
  switch (n.kind) {
    case NodeKind::Tuple:
    case NodeKind::OpCall:
    case NodeKind::CtorCall:
    case NodeKind::Call:
    case NodeKind::RefWrite: return n.kids.size();
    case NodeKind::GetItem:
    case NodeKind::If:
    case NodeKind::Match:
    case NodeKind::RefNew:
    case NodeKind::RefRead: return 1;
    default: return 0;
  }
}

}  // namespace

Value Machine::pop_value() {
  Value v = std::move(vals_.back());
  vals_.pop_back();
  return v;
}

bool Machine::step() {
  if (conts_.empty() || failed_) return false;
  if (interrupt_ && interrupt_->load(std::memory_order_relaxed)) {
    // The innermost call rather than the exact sub-expression: where a loop happens to
    // be when the signal lands is noise; which function it is in is the information.
    Span at = !frames_.empty() && frames_.back().call_site ? frames_.back().call_site->span : span_of_current();
    fail("interrupted", at, {}, /*interrupted=*/true);
  }
  Cont& k = conts_.back();
  const Node* n = k.node;
  if (k.stage == 0 && n->kind != NodeKind::Return) {
    if (announced_) {
      announced_ = false;  // resuming after a pause in before(): the hook has run
    } else {
      ++steps_;
      if (!observers_.empty()) {
        for (Observer* o : observers_) o->before(*this, *n);
        if (pause_requested_) {
          announced_ = true;
          return true;
        }
      }
    }
  }
  const uint32_t base = frames_.empty() ? 0 : frames_.back().base;
  // Operands are evaluated first, left to right, one continuation each; the cases below
  // run once all of them are on the value stack.
  if (k.stage < operand_count(*n)) {
    push(n->kids[k.stage++]);  // `k` is invalid after push
    return true;
  }
  switch (n->kind) {
    case NodeKind::Const:
      if (!n->error.empty()) fail(n->error, n->expr->span);
      finish(n, n->constant);
      break;
    case NodeKind::Local: {
      const Value& v = slots_[base + n->slot];
      if (!v.defined())
        fail("`%" + std::string(static_cast<const RefExpr*>(n->expr)->name) + "` has no value (a free variable)",
             n->expr->span);
      finish(n, v);
      break;
    }
    case NodeKind::Global:
      if (!n->global || !n->global->fn) fail("unknown global", n->expr->span);
      finish(n, program_.global(*n->global));
      break;
    case NodeKind::OpValue:
      if (!n->op) fail("unknown operator", n->expr->span);
      finish(n, Value(make_ref<ClosureObj>(n->op)));
      break;
    case NodeKind::CtorValue:
      if (!n->ctor) fail("unknown constructor", n->expr->span);
      // A constructor without fields written bare (`Nil`) is that value.
      if (n->ctor->fields.empty()) finish(n, Value(make_ref<CtorObj>(n->ctor, n->ctor->tag, std::vector<Value>{})));
      else finish(n, Value(make_ref<ClosureObj>(n->ctor)));
      break;
    case NodeKind::Tuple:
      finish(n, make_tuple(pop_values(vals_, n->kids.size())));
      break;
    case NodeKind::OpCall: {
      if (!observers_.empty() && n->op && announce_op(*n->op, static_cast<const CallExpr*>(n->expr), n->kids.size(), 0))
        return true;
      std::vector<Value> args = pop_values(vals_, n->kids.size());
      Value out = run_kernel(*n, args);
      finish(n, std::move(out));
      break;
    }
    case NodeKind::CtorCall:
      if (!n->ctor) fail("unknown constructor", n->expr->span);
      finish(n, Value(make_ref<CtorObj>(n->ctor, n->ctor->tag, pop_values(vals_, n->kids.size()))));
      break;
    case NodeKind::Call: {
      if (!observers_.empty()) {
        const Value& callee = vals_.back();
        if (callee.is_closure() && callee.closure().kind == ClosureObj::Kind::Op &&
            announce_op(*callee.closure().op, static_cast<const CallExpr*>(n->expr), n->kids.size() - 1, 1))
          return true;
      }
      std::vector<Value> args = pop_values(vals_, n->kids.size());
      Value callee = std::move(args.back());
      args.pop_back();
      conts_.pop_back();  // the call is done once the callee takes over (tail calls)
      const size_t before = vals_.size();
      invoke(callee, args, static_cast<const CallExpr*>(n->expr));
      // Operators and constructors answer at once; report them like other values.
      if (vals_.size() > before && !observers_.empty())
        for (Observer* o : observers_) o->after(*this, *n->expr, vals_.back());
      break;
    }
    case NodeKind::GetItem: {
      Value t = pop_value();
      if (!t.is_tuple() || n->slot >= t.tuple().fields.size())
        fail("tuple index " + std::to_string(n->slot) + " is out of range", n->expr->span);
      finish(n, t.tuple().fields[n->slot]);
      break;
    }
    case NodeKind::Lambda: {
      std::vector<Value> captured;
      captured.reserve(n->captures.size());
      for (uint32_t s : n->captures) captured.push_back(slots_[base + s]);
      finish(n, Value(make_ref<ClosureObj>(n->function, std::move(captured))));
      break;
    }
    case NodeKind::Block: {
      // stage 2i: evaluate binding i; stage 2i+1: store its value.
      const size_t i = k.stage / 2;
      if (i < n->bindings.size()) {
        const auto& b = n->bindings[i];
        // Mixed mode: only with a tier installed, so a run without the JIT pays nothing.
        if (tier_ && b.region && k.stage % 2 == 0 && run_region(*b.region, base)) {
          k.stage = 2 * b.region->end;
          break;
        }
        if (k.stage++ % 2 == 0) {
          push(b.value);
        } else {
          Value v = pop_value();
          if (b.slot >= 0) slots_[base + static_cast<size_t>(b.slot)] = std::move(v);
        }
        break;
      }
      conts_.pop_back();
      push(n->result);  // tail position
      break;
    }
    case NodeKind::If: {
      Value c = pop_value();
      if (!c.is_tensor() || !c.tensor().dtype().is_bool() || c.tensor().size() != 1)
        fail("the condition of `if` must be a bool scalar", static_cast<const IfExpr*>(n->expr)->cond->span);
      const bool taken = c.tensor().data<bool>()[0];
      conts_.pop_back();
      push(taken ? n->kids[1] : n->kids[2]);  // tail position
      break;
    }
    case NodeKind::Match: {
      Value v = pop_value();
      for (const auto& clause : n->clauses)
        if (bind_pattern(clause.pattern, v, base)) {
          conts_.pop_back();
          push(clause.body);  // tail position
          return true;
        }
      fail(n->complete ? "no clause of this `match` matches the value"
                       : "no clause of this `match?` matches the value",
           n->expr->span, {"`match?` does not check that its clauses cover every value"});
    }
    case NodeKind::RefNew:
      finish(n, Value(make_ref<RefObj>(pop_value())));
      break;
    case NodeKind::RefRead: {
      Value r = pop_value();
      if (!r.is_ref()) fail("`!` expects a reference", n->expr->span);
      finish(n, r.ref().value);
      break;
    }
    case NodeKind::RefWrite: {
      Value v = pop_value();
      Value r = pop_value();
      if (!r.is_ref()) fail("`:=` expects a reference on its left", n->expr->span);
      r.ref().value = std::move(v);
      finish(n, unit());
      break;
    }
    case NodeKind::Return: {
      const Frame f = frames_.back();
      frames_.pop_back();
      slots_.resize(f.base);
      conts_.pop_back();
      if (!observers_.empty()) {
        for (Observer* o : observers_) o->leave(*this, *f.code, f.call_site, vals_.back());
        if (f.call_site)
          for (Observer* o : observers_) o->after(*this, *f.call_site, vals_.back());
      }
      break;
    }
  }
  return !conts_.empty();
}

}  // namespace relay::rt

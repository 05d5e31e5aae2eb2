// AST -> Nodes (code.h): slot assignment and closure conversion, operator calls bound
// to kernels and checked attributes, constructor calls to tags.
#include <algorithm>
#include <unordered_map>

#include "interpreter/eval/meta_constant.h"
#include "interpreter/eval/program.h"
#include "interpreter/eval/regions.h"

namespace relay::rt {

namespace {

// Whether a type is fully known (no `?`, symbolic dims, parameters or holes): only then
// is it handed to kernels as the result type.
bool concrete(Ty t) {
  if (!t) return false;
  switch (t->kind) {
    case TyKind::Tensor:
      for (const Dim& d : static_cast<const TensorTy*>(t)->shape)
        if (!d.is_constant()) return false;
      return true;
    case TyKind::Tuple:
      for (Ty f : static_cast<const TupleTy*>(t)->fields)
        if (!concrete(f)) return false;
      return true;
    default: return false;
  }
}

const Expr* strip(const Expr* e) { return e; }

// Marks what a debugger steps by (Node::statement). A block is not itself a statement:
// its bindings and tail are, so a step never stops twice at the same place.
const Node* statement(const Node* n) {
  if (n->kind != NodeKind::Block) const_cast<Node*>(n)->statement = true;  // still being built
  return n;
}

}  // namespace

// The tensor regions found while compiling one global (its body and the closures in it),
// and whether the global may compile whole: then the tier's at_call covers it and its
// regions are dropped, so the same code is not compiled twice.
struct RegionScan {
  const FuncDef* def = nullptr;
  bool may_be_graph = true;
  struct Pending {
    Node* block;
    FoundRegion region;
  };
  std::vector<Pending> found;
};

// Compiles one function literal; nested literals get a Compiler of their own whose
// `parent` resolves the variables they capture.
class Compiler {
 public:
  Compiler(Program& program, FunctionCode& code, const InferredTypes* types, Compiler* parent,
           const VarDecl* self, RegionScan* scan = nullptr)
      : program_(program), code_(code), types_(types), parent_(parent), self_(self), scan_(scan) {}

  void compile(const FunctionExpr& fn) {
    code_.fn = &fn;
    for (const VarDecl* p : fn.params) bind(p);
    code_.params = static_cast<uint32_t>(fn.params.size());
    code_.body = statement(expr(fn.body));
    code_.slots = next_slot_;
    code_.slot_vars.assign(next_slot_, nullptr);
    for (const auto& [decl, slot] : slots_) code_.slot_vars[slot] = decl;
    if (code_.self_slot >= 0) code_.slot_vars[static_cast<size_t>(code_.self_slot)] = self_;
  }

  // The slot holding `decl` in this function's frame, capturing it from the enclosing
  // function when it is bound there.
  uint32_t lookup(const VarDecl* decl) {
    auto it = slots_.find(decl);
    if (it != slots_.end()) return it->second;
    if (decl == self_) {
      if (code_.self_slot < 0) code_.self_slot = next_slot_++;
      return static_cast<uint32_t>(code_.self_slot);
    }
    if (!parent_) {
      // Unbound (a parse that recovered from an error): a slot that stays empty, so
      // reading it is a run-time error rather than a crash.
      return slots_[decl] = next_slot_++;
    }
    uint32_t outer = parent_->lookup(decl);
    uint32_t slot = next_slot_++;
    slots_[decl] = slot;
    code_.capture_slots.push_back(slot);
    captures_.push_back(outer);
    return slot;
  }

  std::vector<uint32_t> take_captures() { return std::move(captures_); }

 private:
  uint32_t bind(const VarDecl* decl) { return slots_[decl] = next_slot_++; }

  // What build_graph refuses outright: a function using it is not compiled whole.
  void not_dataflow() {
    if (scan_) scan_->may_be_graph = false;
  }

  const Node* expr(const Expr* e) {
    switch (e->kind) {
      case ExprKind::GlobalRef:
      case ExprKind::CtorRef:
      case ExprKind::If:
      case ExprKind::Match:
      case ExprKind::RefCreate:
      case ExprKind::RefRead:
      case ExprKind::RefWrite: not_dataflow(); break;
      default: break;
    }
    switch (e->kind) {
      case ExprKind::Constant: return constant(static_cast<const ConstantExpr*>(e));
      case ExprKind::Tuple: {
        Node* n = program_.node(NodeKind::Tuple, e);
        for (const Expr* f : static_cast<const TupleExpr*>(e)->fields) n->kids.push_back(expr(f));
        return n;
      }
      case ExprKind::LocalRef: {
        Node* n = program_.node(NodeKind::Local, e);
        n->slot = lookup(static_cast<const RefExpr*>(e)->decl);
        return n;
      }
      case ExprKind::GlobalRef: {
        Node* n = program_.node(NodeKind::Global, e);
        n->global = static_cast<const RefExpr*>(e)->global;
        return n;
      }
      case ExprKind::OpRef: {
        Node* n = program_.node(NodeKind::OpValue, e);
        n->op = static_cast<const RefExpr*>(e)->op;
        return n;
      }
      case ExprKind::CtorRef: {
        Node* n = program_.node(NodeKind::CtorValue, e);
        n->ctor = static_cast<const RefExpr*>(e)->ctor;
        return n;
      }
      case ExprKind::MetaRef: {
        Node* n = program_.node(NodeKind::Const, e);
        try {
          n->constant = metadata_constant(program_.metadata_, *static_cast<const MetaRefExpr*>(e));
        } catch (const RuntimeError& err) {
          n->error = err.what();  // reported if and when the constant is evaluated
        }
        return n;
      }
      case ExprKind::Function: return lambda(static_cast<const FunctionExpr*>(e), nullptr);
      case ExprKind::Call: return call(static_cast<const CallExpr*>(e));
      case ExprKind::Block: return block(static_cast<const BlockExpr*>(e));
      case ExprKind::If: {
        auto* i = static_cast<const IfExpr*>(e);
        Node* n = program_.node(NodeKind::If, e);
        n->kids = {expr(i->cond), statement(expr(i->then_branch)), statement(expr(i->else_branch))};
        return n;
      }
      case ExprKind::Match: return match(static_cast<const MatchExpr*>(e));
      case ExprKind::TupleGetItem: {
        auto* g = static_cast<const TupleGetItemExpr*>(e);
        Node* n = program_.node(NodeKind::GetItem, e);
        n->kids = {expr(g->tuple)};
        n->slot = g->index;
        return n;
      }
      case ExprKind::RefCreate: {
        Node* n = program_.node(NodeKind::RefNew, e);
        n->kids = {expr(static_cast<const RefCreateExpr*>(e)->value)};
        return n;
      }
      case ExprKind::RefRead: {
        Node* n = program_.node(NodeKind::RefRead, e);
        n->kids = {expr(static_cast<const RefReadExpr*>(e)->ref)};
        return n;
      }
      case ExprKind::RefWrite: {
        auto* w = static_cast<const RefWriteExpr*>(e);
        Node* n = program_.node(NodeKind::RefWrite, e);
        n->kids = {expr(w->ref), expr(w->value)};
        return n;
      }
      case ExprKind::Error:
      case ExprKind::Ident:
        break;
    }
    throw RuntimeError("this expression cannot be evaluated (it did not parse or resolve)");
  }

  const Node* constant(const ConstantExpr* c) {
    Node* n = program_.node(NodeKind::Const, c);
    if (c->dtype.is_float()) n->constant = NDArray::scalar(c->float_value, c->dtype);
    else n->constant = NDArray::scalar_int(c->int_value, c->dtype);
    return n;
  }

  const Node* lambda(const FunctionExpr* fn, const VarDecl* self) {
    FunctionCode* code = program_.new_function();
    code->name = self ? "%" + std::string(self->name) : "fn";
    Compiler inner(program_, *code, types_, this, self, scan_);
    inner.compile(*fn);
    Node* n = program_.node(NodeKind::Lambda, fn);
    n->function = code;
    n->captures = inner.take_captures();
    return n;
  }

  const Node* call(const CallExpr* c) {
    const Expr* callee = strip(c->callee);
    if (callee->kind == ExprKind::OpRef) {
      auto* ref = static_cast<const RefExpr*>(callee);
      Node* n = program_.node(NodeKind::OpCall, c);
      n->op = ref->op;
      for (const Expr* a : c->args) n->kids.push_back(expr(a));
      if (ref->op) {
        n->kernel = find_kernel(*ref->op);
        DiagnosticBag ignored;  // the type checker reported these already
        check_call_attrs(*ref->op, *c, n->attrs, ignored);
        Ty t = types_ ? types_->type_of(c) : nullptr;
        if (concrete(t)) n->out_type = t;
      }
      return n;
    }
    if (callee->kind == ExprKind::CtorRef) {
      not_dataflow();
      Node* n = program_.node(NodeKind::CtorCall, c);
      n->ctor = static_cast<const RefExpr*>(callee)->ctor;
      for (const Expr* a : c->args) n->kids.push_back(expr(a));
      return n;
    }
    Node* n = program_.node(NodeKind::Call, c);
    for (const Expr* a : c->args) n->kids.push_back(expr(a));
    n->kids.push_back(expr(callee));  // arguments first, then the callee (reference §4.3)
    return n;
  }

  const Node* block(const BlockExpr* b) {
    Node* n = program_.node(NodeKind::Block, b);
    for (const Binding& binding : b->bindings) {
      if (binding.kind == BindingKind::FreeVar) {
        bind(binding.var);  // stays empty: reading it is a run-time error
        continue;
      }
      const Node* value;
      // `let %f = fn ...`: the function sees itself as %f (a recursive closure).
      if (binding.var && binding.value->kind == ExprKind::Function)
        value = lambda(static_cast<const FunctionExpr*>(binding.value), binding.var);
      else
        value = expr(binding.value);
      const int64_t slot = binding.var ? static_cast<int64_t>(bind(binding.var)) : -1;
      n->bindings.push_back({&binding, slot, statement(value)});
    }
    n->result = statement(expr(b->result));
    if (scan_)
      for (FoundRegion& r : find_regions(*n, *b)) scan_->found.push_back({n, std::move(r)});
    return n;
  }

  PatternCode pattern(const Pattern* p) {
    PatternCode out;
    out.kind = p->kind;
    if (p->kind == PatternKind::Var) out.slot = bind(p->var);
    if (p->kind == PatternKind::Ctor) out.ctor = p->ctor;
    for (const Pattern* f : p->fields) out.fields.push_back(pattern(f));
    return out;
  }

  const Node* match(const MatchExpr* m) {
    Node* n = program_.node(NodeKind::Match, m);
    n->kids = {expr(m->scrutinee)};
    n->complete = m->complete;
    for (const Clause& c : m->clauses) {
      PatternCode pc = pattern(c.pattern);
      n->clauses.push_back({std::move(pc), statement(expr(c.body))});
    }
    return n;
  }

  Program& program_;
  FunctionCode& code_;
  const InferredTypes* types_;
  Compiler* parent_;
  const VarDecl* self_;
  RegionScan* scan_;
  std::unordered_map<const VarDecl*, uint32_t> slots_;
  std::vector<uint32_t> captures_;  // outer slot of each capture, in capture order
  uint32_t next_slot_ = 0;
};

Program::Program(TypesLookup types, const Metadata* metadata) : types_(std::move(types)), metadata_(metadata) {}

const FunctionCode& Program::function(const FuncDef& def) {
  auto it = compiled_.find(&def);
  if (it != compiled_.end()) return *it->second;
  FunctionCode* code = new_function();
  code->name = "@" + std::string(def.name);
  code->global = &def;
  compiled_[&def] = code;  // before compiling: the body may refer to itself
  const InferredTypes* types = types_ ? types_(&def) : nullptr;
  RegionScan scan;
  scan.def = &def;
  Compiler c(*this, *code, types, nullptr, nullptr, &scan);
  c.compile(*def.fn);
  // A parameter that is not a tensor keeps the tier's at_call from compiling it whole.
  for (const VarDecl* p : def.fn->params)
    if (types && types->type_of(p) && types->type_of(p)->kind != TyKind::Tensor) scan.may_be_graph = false;
  if (!scan.may_be_graph) add_regions(def, scan);
  return *code;
}

void Program::add_regions(const FuncDef& def, RegionScan& scan) {
  std::sort(scan.found.begin(), scan.found.end(), [](const auto& a, const auto& b) {
    return a.region.code.info.span.begin < b.region.code.info.span.begin;
  });
  uint32_t id = 0;
  for (RegionScan::Pending& p : scan.found) {
    RegionCode& r = regions_.emplace_back(std::move(p.region.code));
    r.info.enclosing = &def;
    r.info.id = ++id;
    p.block->bindings[p.region.start].region = &r;
  }
}

Value Program::global(const FuncDef& def) {
  auto it = globals_.find(&def);
  if (it != globals_.end()) return it->second;
  Value v(make_ref<ClosureObj>(&function(def), std::vector<Value>{}));
  globals_[&def] = v;
  return v;
}

const FunctionCode& Program::expression(const Expr& e, const InferredTypes* types) {
  FunctionCode* code = new_function();
  code->name = "<input>";
  FunctionExpr wrapper(e.span);
  wrapper.body = const_cast<Expr*>(&e);
  Compiler c(*this, *code, types, nullptr, nullptr);
  c.compile(wrapper);
  code->fn = nullptr;  // the wrapper does not outlive this call
  return *code;
}

}  // namespace relay::rt

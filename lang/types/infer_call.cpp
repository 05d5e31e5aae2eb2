// Calls, and the types of globals and constructors used as values.
#include <algorithm>

#include "lang/ops/internal_ops.h"
#include "lang/ops/op_registry.h"
#include "lang/ops/op_schema.h"
#include "lang/types/infer_internal.h"

namespace relay {

Ty Inferencer::infer_call(const CallExpr* c) {
  if (auto* r = as_ref(c->callee); r && r->kind == ExprKind::OpRef) {
    exprs_.emplace_back(c->callee, arena_.error());  // an operator has no type of its own here
    return infer_op_call(c, r);
  }
  Ty callee = c->callee->kind == ExprKind::CtorRef
                  ? ctor_value_type(static_cast<const RefExpr*>(c->callee), true)
                  : infer_uncached(c->callee);
  exprs_.emplace_back(c->callee, callee);
  std::vector<Ty> args;
  for (const Expr* a : c->args) args.push_back(infer(a));
  solver_.solve();
  Ty f = solver_.shallow(callee);
  if (f->kind == TyKind::Error) return arena_.error();
  if (f->kind == TyKind::Hole) {
    // An unknown callee (e.g. an unannotated parameter) is a function of these arguments.
    Ty ret = solver_.fresh();
    expect(f, arena_.func({}, std::span<const Ty>(args.data(), args.size()), ret),
           Expectation{c, {}, {}, ""});
    return ret;
  }
  auto* fn = ty_as<FuncTy>(f);
  if (!fn) {
    Diagnostic& d = diags_.emit(DiagKind::NotAFunction, span_of(c->callee), {type_to_string(solver_.resolve(f, true))});
    add_provenance(d, c->callee, f);
    return arena_.error();
  }
  const OpInfo* callee_op = fn->op;  // an operator used as a value (`let %f = add`)
  {
    // An operator value's relation is added here, for this call (add_op_instance).
    const CallExpr* outer = op_call_;
    op_call_ = c;
    fn = static_cast<const FuncTy*>(solver_.instantiate(fn));
    op_call_ = outer;
  }
  // Where the parameter types were declared, for the "expected because" label.
  const FunctionExpr* target = nullptr;
  const FuncDef* target_def = nullptr;
  // Only when it is the definition the signature came from: with a duplicate global the
  // reference and the signature may be different definitions (E0046 reports it).
  if (auto* r = as_ref(c->callee); r && r->kind == ExprKind::GlobalRef && r->global &&
                                      r->global->fn->params.size() == fn->params.size()) {
    target_def = r->global;
    target = r->global->fn;
  }
  if (fn->params.size() != args.size()) {
    // An argument the parser could not read (`f(%x,,)`) was reported already.
    for (const Expr* a : c->args)
      if (a->kind == ExprKind::Error) return fn->ret;
    Diagnostic& d = diags_.emit(DiagKind::CallArity, c->span,
                                {std::to_string(fn->params.size()), std::to_string(args.size())});
    for (size_t i = fn->params.size(); i < c->args.size(); ++i) d.label(span_of(c->args[i]), "unexpected argument");
    auto* callee = as_ref(c->callee);
    if (target_def) {
      d.label(target_def->name_span, "`@" + std::string(target_def->name) + "` is defined here");
      for (size_t i = args.size(); i < target->params.size(); ++i) {
        const VarDecl* p = target->params[i];
        d.note("missing an argument for `%" + std::string(p->name) + "`" +
               (p->annotation ? ": `" + type_to_string(solver_.resolve(fn->params[i], true)) + "`" : ""));
      }
    } else if (const CtorInfo* ctor = callee && callee->kind == ExprKind::CtorRef && callee->ctor
                                          ? env_.ctor(callee->ctor) : nullptr) {
      d.note("the constructor `" + std::string(ctor->name) + "` has type `" + type_to_string(ctor->type) + "`");
    } else if (const OpSignature* sig = callee_op ? find_op_signature(callee_op->name) : nullptr) {
      // The instance's `fn (_) -> _` says nothing: name the operator and its inputs.
      std::string inputs;
      for (size_t i = 0; i < sig->args.size(); ++i) inputs += (i ? ", " : "") + std::string(sig->args[i]);
      d.note("this is the operator `" + std::string(callee_op->name) + "`, whose inputs are (" + inputs + ")");
    } else {
      d.note("the function has type `" + type_to_string(solver_.resolve(fn, true)) + "`");
    }
    return fn->ret;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    Expectation why{c->args[i], {}, {}, ""};
    if (target && i < target->params.size() && target->params[i]->annotation) {
      why.expected_at = target->params[i]->annotation->span;
      why.expected_why = "parameter `%" + std::string(target->params[i]->name) + "` is declared here";
    }
    expect(fn->params[i], args[i], why);
  }
  return fn->ret;
}

Ty Inferencer::infer_op_call(const CallExpr* c, const RefExpr* ref) {
  std::vector<Ty> types;
  for (const Expr* a : c->args) types.push_back(infer(a));
  const OpInfo* op = ref->op;
  if (!op) return arena_.error();
  const OpSignature* sig = find_op_signature(op->name);
  RelationFn rel = find_relation(*op);
  if (!op->supported || !sig || !rel) {
    Diagnostic& d = diags_.emit(DiagKind::OperatorNotSupported, ref->span, {std::string(op->name)});
    if (std::string_view why = internal_op_reason(*op); !why.empty()) d.note(std::string(why));
    d.note("`relay ops` lists the operators this toolchain can check and run");
    return arena_.error();
  }
  if (sig->args.size() != c->args.size()) {
    // An argument the parser could not read (`nn.relu(%x,,)`) was reported already.
    for (const Expr* a : c->args)
      if (a->kind == ExprKind::Error) return arena_.error();
    Diagnostic& d = diags_.emit(DiagKind::OperatorArity, c->span,
                                {std::string(op->name), std::to_string(sig->args.size()),
                                 std::to_string(c->args.size())});
    for (size_t i = sig->args.size(); i < c->args.size(); ++i) d.label(span_of(c->args[i]), "unexpected argument");
    std::string params;
    for (size_t i = 0; i < sig->args.size(); ++i) params += (i ? ", " : "") + std::string(sig->args[i]);
    d.note("the inputs of `" + std::string(op->name) + "` are (" + params + ")" +
           (sig->attrs ? "; attributes are written by name, as in `" + std::string(op->name) + "(..., name=value)`"
                       : ""));
    d.note("rule: " + std::string(sig->doc));
    return arena_.error();
  }
  CallAttrs attrs;
  if (!check_call_attrs(*sig, *c, attrs, diags_)) return arena_.error();
  Ty out = solver_.fresh();
  types.push_back(out);
  relation_sites_.push_back(c);
  solver_.add_relation(op->name, rel, std::move(types), std::move(attrs),
                       [this, c, op](RelError e) { report_relation_error(c, op->name, std::move(e)); });
  return out;
}

namespace {

// Replaces every "not annotated" marker of a signature by a fresh unknown.
Ty open_signature(Ty t, Solver& s) {
  return map_type(t, s.arena(), [&s](Ty x) -> Ty {
    auto* h = ty_as<HoleTy>(x);
    if (!h) return nullptr;
    return h->id == kUnannotatedHole ? s.fresh() : x;
  });
}

}  // namespace

Ty Inferencer::global_type(const RefExpr* r) {
  if (!r->global) return arena_.error();
  if (r->global == self_def_ && self_type_) {
    return solver_.rename_dims(solver_.instantiate(static_cast<const FuncTy*>(self_type_)), self_dims_);
  }
  const GlobalSignature* sig = env_.global(r->global->name);
  if (!sig) return arena_.error();
  if (std::find(out_.keep_alive.begin(), out_.keep_alive.end(), sig->arena) == out_.keep_alive.end())
    out_.keep_alive.push_back(sig->arena);
  // Per use: unannotated parts become fresh unknowns, type parameters and dimension
  // names are instantiated (reference §2.4).
  Ty t = open_signature(sig->type, solver_);
  t = solver_.instantiate(static_cast<const FuncTy*>(t));
  return solver_.rename_dims(t, sig->dim_names);
}

Ty Inferencer::ctor_value_type(const RefExpr* r, bool called) {
  const CtorInfo* ctor = r->ctor ? env_.ctor(r->ctor) : nullptr;
  if (!ctor) return arena_.error();
  auto* fn = static_cast<const FuncTy*>(solver_.instantiate(static_cast<const FuncTy*>(ctor->type)));
  // A constructor without fields written bare (`Nil`) is that value, as TVM prints it.
  if (!called && fn->params.empty()) return fn->ret;
  return fn;
}

}  // namespace relay

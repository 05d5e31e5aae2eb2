// Typing rules for expressions other than calls and matches (reference §2.2).
#include "lang/types/infer_internal.h"

#include <algorithm>

#include "lang/types/meta_type.h"

namespace relay {

namespace {
Ty bool_scalar(TypeArena& a) { return a.scalar(DataType::bool_()); }
}  // namespace

Ty Inferencer::lower(const Type* t) { return lower_type(t, arena_, scope_); }

Ty Inferencer::infer(const Expr* e) {
  Ty t = infer_uncached(e);
  exprs_.emplace_back(e, t);
  return t;
}

Ty Inferencer::infer_uncached(const Expr* e) {
  switch (e->kind) {
    case ExprKind::Error:
    case ExprKind::Ident:  // unresolved name: already reported
      return arena_.error();
    case ExprKind::Constant:
      return arena_.scalar(static_cast<const ConstantExpr*>(e)->dtype);
    case ExprKind::Tuple: {
      std::vector<Ty> fields;
      for (const Expr* f : static_cast<const TupleExpr*>(e)->fields) fields.push_back(infer(f));
      return arena_.tuple(std::span<const Ty>(fields.data(), fields.size()));
    }
    case ExprKind::LocalRef: {
      auto* r = static_cast<const RefExpr*>(e);
      auto it = vars_.find(r->decl);
      if (it != vars_.end()) return it->second;
      if (std::find(defining_.begin(), defining_.end(), r->decl) != defining_.end())
        return vars_[r->decl] = lower(r->decl->annotation);  // unified with the value below
      return arena_.error();
    }
    case ExprKind::GlobalRef: return global_type(static_cast<const RefExpr*>(e));
    case ExprKind::OpRef: return op_value_type(static_cast<const RefExpr*>(e));
    case ExprKind::CtorRef: return ctor_value_type(static_cast<const RefExpr*>(e), false);
    case ExprKind::MetaRef: return infer_meta(static_cast<const MetaRefExpr*>(e));
    case ExprKind::Function: return infer_function(static_cast<const FunctionExpr*>(e), nullptr);
    case ExprKind::Call: return infer_call(static_cast<const CallExpr*>(e));
    case ExprKind::Block: return infer_block(static_cast<const BlockExpr*>(e));
    case ExprKind::If: return infer_if(static_cast<const IfExpr*>(e));
    case ExprKind::Match: return infer_match(static_cast<const MatchExpr*>(e));
    case ExprKind::TupleGetItem: return infer_tuple_get(static_cast<const TupleGetItemExpr*>(e));
    case ExprKind::RefCreate:
      return arena_.ref(infer(static_cast<const RefCreateExpr*>(e)->value));
    case ExprKind::RefRead: {
      auto* r = static_cast<const RefReadExpr*>(e);
      Ty cell = infer(r->ref);
      Ty value = solver_.fresh();
      expect(arena_.ref(value), cell, Expectation{r->ref, {}, e->span, "`ref_read` needs a reference"});
      return value;
    }
    case ExprKind::RefWrite: {
      auto* w = static_cast<const RefWriteExpr*>(e);
      Ty cell = infer(w->ref);
      Ty value = solver_.fresh();
      expect(arena_.ref(value), cell, Expectation{w->ref, {}, e->span, "`ref_write` needs a reference"});
      expect(value, infer(w->value),
             Expectation{w->value, {}, span_of(w->ref), "the reference holds this type"});
      return arena_.unit();
    }
  }
  return arena_.error();
}

Ty Inferencer::infer_function(const FunctionExpr* fn, const FuncDef* global) {
  std::vector<const TyParamDecl*> tps;
  for (const TypeParam* p : fn->type_params) {
    const TyParamDecl* d = arena_.new_param_decl(p->name);
    scope_.params[p] = d;
    tps.push_back(d);
  }
  std::vector<Ty> params;
  for (const VarDecl* p : fn->params) {
    Ty t = lower(p->annotation);
    vars_[p] = t;
    params.push_back(t);
  }
  Ty ret = lower(fn->ret_type);
  Ty type = arena_.func(std::span<const TyParamDecl* const>(tps.data(), tps.size()),
                        std::span<const Ty>(params.data(), params.size()), ret);
  if (global) {
    // Recursive calls see this very type, so the body's result flows into `ret`
    // (reference §2.4); dimension names are renamed per call like type parameters.
    self_type_ = type;
    if (const GlobalSignature* sig = env_.global(global->name)) self_dims_ = sig->dim_names;
  }
  Ty body = infer(fn->body);
  const Expr* result = fn->body;
  while (auto* b = as<BlockExpr>(result)) result = b->result;
  expect(ret, body,
         Expectation{result, {}, fn->ret_type ? fn->ret_type->span : Span{},
                     fn->ret_type ? "expected because of this return type" : ""});
  solver_.solve();
  return type;
}

Ty Inferencer::infer_block(const BlockExpr* b) {
  for (const Binding& bind : b->bindings) {
    switch (bind.kind) {
      case BindingKind::Let:
      case BindingKind::Graph: {
        const VarDecl* var = bind.var;
        var_values_[var] = bind.value;
        if (bind.value->kind == ExprKind::Function) {
          // The variable exists before its value so the function may call itself.
          Ty vt = lower(var->annotation);
          vars_[var] = vt;
          expect(vt, infer(bind.value),
                 Expectation{bind.value, {}, var->annotation ? var->annotation->span : Span{},
                             "expected because of this annotation"});
          break;
        }
        vars_.erase(var);  // a reference to it in its value adds it (infer_uncached)
        defining_.push_back(var);
        Ty value = infer(bind.value);
        defining_.pop_back();
        if (auto self = vars_.find(var); self != vars_.end())  // the value refers to the variable
          expect(self->second, value, Expectation{bind.value, {}, var->span, "the variable whose value this is"});
        if (var->annotation) {
          Ty declared = lower(var->annotation);
          expect(declared, value,
                 Expectation{bind.value, {}, var->annotation->span, "expected because of this annotation"});
          vars_[var] = declared;
        } else {
          vars_[var] = value;
        }
        break;
      }
      case BindingKind::Sequence:
        infer(bind.value);
        break;
      case BindingKind::FreeVar:
        vars_[bind.var] = lower(bind.var->annotation);
        break;
    }
  }
  return infer(b->result);
}

Ty Inferencer::infer_if(const IfExpr* e) {
  expect(bool_scalar(arena_), infer(e->cond),
         Expectation{e->cond, {}, {}, ""});
  Ty then_t = infer(e->then_branch);
  Ty else_t = infer(e->else_branch);
  expect(then_t, else_t,
         Expectation{e->else_branch, {}, span_of(e->then_branch), "expected because of this branch"});
  return then_t;
}

namespace {

// TupleGetItem on a tuple type that is not known yet: a relation over (tuple, field)
// that waits until the tuple's shape is known (TVM's TupleGetItemRel).
RelStatus tuple_get_item_relation(RelationContext& ctx) {
  Ty t = ctx.input(0);
  if (t->kind == TyKind::Hole) return RelStatus::Pending;
  if (t->kind == TyKind::Error) return RelStatus::Solved;
  int64_t index = ctx.attrs().get_int("index");
  auto* tuple = ty_as<TupleTy>(t);
  if (!tuple)
    return ctx.fail(RelError{"expected a tuple, found `" + type_to_string(t) + "`",
                             {{0, "has type `" + type_to_string(t) + "`"}}, {}, {}, {}});
  if (index < 0 || static_cast<size_t>(index) >= tuple->fields.size())
    return ctx.fail(RelError{"index " + std::to_string(index) + " is out of range for a tuple of " +
                                 std::to_string(tuple->fields.size()) + " field(s)",
                             {{0, "has type `" + type_to_string(t) + "`"}}, {}, {}, {}});
  return ctx.assign_output(tuple->fields[index]) ? RelStatus::Solved : RelStatus::Failed;
}

}  // namespace

Ty Inferencer::infer_tuple_get(const TupleGetItemExpr* e) {
  Ty t = solver_.shallow(infer(e->tuple));
  if (t->kind == TyKind::Error) return t;
  if (auto* tuple = ty_as<TupleTy>(t)) {
    if (e->index < tuple->fields.size()) return tuple->fields[e->index];
    diags_.emit(DiagKind::TupleIndexOutOfRange, e->index_span,
                {std::to_string(e->index), std::to_string(tuple->fields.size())})
        .label(span_of(e->tuple), "has type `" + type_to_string(solver_.resolve(t, true)) + "`");
    return arena_.error();
  }
  if (t->kind == TyKind::Hole) {
    Ty out = solver_.fresh();
    AttrVal index;
    index.kind = AttrVal::Kind::Int;
    index.int_value = e->index;
    relation_sites_.push_back(e);
    solver_.add_relation("TupleGetItem", tuple_get_item_relation, {t, out},
                         CallAttrs::from_values(nullptr, {{"index", index}}, e->span),
                         [this, e](RelError err) {
                           report_relation_error(e, "TupleGetItem", std::move(err));
                         });
    return out;
  }
  diags_.emit(DiagKind::NotATuple, span_of(e->tuple), {type_to_string(solver_.resolve(t, true))});
  return arena_.error();
}

Ty Inferencer::infer_meta(const MetaRefExpr* e) {
  if (e->entry && env_.metadata())
    if (Ty t = meta_constant_type(*env_.metadata(), *e->entry, arena_)) return t;
  // Not a readable constant: its type has to come from how it is used.
  metas_.push_back(e);
  return solver_.fresh();
}

}  // namespace relay

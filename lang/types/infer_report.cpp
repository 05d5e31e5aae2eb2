// Turning solver failures into diagnostics that point at the cause (issue: "a type
// mismatch names both types, labels the span that fixed each side, and states the
// operator's rule").
#include "lang/ops/op_schema.h"
#include "lang/types/infer_internal.h"

namespace relay {

Span Inferencer::span_of(const Expr* e) const {
  // A block's type is its result's: point there rather than at the whole block.
  while (auto* b = as<BlockExpr>(e)) e = b->result;
  return e->span;
}

void Inferencer::expect(Ty expected, Ty found, const Expectation& why) {
  UnifyFailure f;
  if (!solver_.unify(expected, found, &f)) report_mismatch(f, why);
  solver_.solve();
}

void Inferencer::add_provenance(Diagnostic& d, const Expr* e, Ty t) {
  auto* r = as_ref(e);
  if (!r || r->kind != ExprKind::LocalRef || !r->decl) return;
  auto it = var_values_.find(r->decl);
  if (it == var_values_.end()) return;
  const Expr* value = it->second;
  std::string what = "`%" + std::string(r->name) + "` has type `" + type_to_string(solver_.resolve(t)) + "`";
  if (auto* c = as<CallExpr>(value)) {
    auto* callee = as_ref(c->callee);
    std::string name = callee ? std::string(callee->kind == ExprKind::GlobalRef ? "@" : "") +
                                    std::string(callee->name)
                              : "call";
    d.label(c->span, what + " because of this `" + name + "`");
  } else {
    d.label(span_of(value), what + " from here");
  }
}

void Inferencer::report_mismatch(const UnifyFailure& f, const Expectation& why) {
  Span at = why.found_expr ? span_of(why.found_expr) : why.found_at;
  std::string expected = type_to_string(f.expected), found = type_to_string(f.found);
  Diagnostic* d = nullptr;
  switch (f.reason) {
    case UnifyFailure::Reason::Dim:
      d = &diags_.emit(DiagKind::DimensionMismatch, at,
                       {expected, found, std::to_string(f.dim), f.expected_dim.to_string(),
                        f.found_dim.to_string()});
      if (!f.expected_dim.is_constant() || !f.found_dim.is_constant())
        d->note("dimension names are fixed within a function: `" + f.expected_dim.to_string() +
                "` and `" + f.found_dim.to_string() + "` are not known to be equal");
      break;
    case UnifyFailure::Reason::Rank: {
      auto rank = [](Ty t) { auto* tt = ty_as<TensorTy>(t); return tt ? tt->rank() : 0; };
      d = &diags_.emit(DiagKind::RankMismatch, at,
                       {expected, found, std::to_string(rank(f.expected)), std::to_string(rank(f.found))});
      break;
    }
    case UnifyFailure::Reason::Infinite:
      d = &diags_.emit(DiagKind::InfiniteType, at, {expected, found});
      break;
    default:
      d = &diags_.emit(DiagKind::TypeMismatch, at, {expected, found});
      if (f.reason == UnifyFailure::Reason::DType) {
        auto* a = ty_as<TensorTy>(f.expected);
        auto* b = ty_as<TensorTy>(f.found);
        if (a && b)
          d->note("the data types differ: " + dtype_name(a->dtype) + " vs " + dtype_name(b->dtype) +
                  "; Relay never converts implicitly (use `cast`, or a literal suffix such as `1f`)");
      }
      break;
  }
  if (!why.expected_why.empty() && why.expected_at.valid() && why.expected_at.size() > 0)
    d->label(why.expected_at, why.expected_why);
  if (why.found_expr) add_provenance(*d, why.found_expr, f.found);
}

void Inferencer::report_relation_error(const Expr* site, std::string_view op, RelError e) {
  Diagnostic& d = diags_.emit(DiagKind::OperatorTypeError, site->span, {e.message, std::string(op)});
  const CallExpr* call = as<CallExpr>(site);
  if (call) {
    for (const auto& [index, text] : e.input_labels) {
      if (index >= call->args.size()) continue;
      const Expr* arg = call->args[index];
      d.label(span_of(arg), text);
      auto* r = as_ref(arg);
      if (r && r->kind == ExprKind::LocalRef) {
        auto it = var_values_.find(r->decl);
        if (it != var_values_.end()) {
          if (auto* c = as<CallExpr>(it->second)) {
            auto* callee = as_ref(c->callee);
            d.label(c->span, "`%" + std::string(r->name) + "` gets its type from this `" +
                                 (callee ? std::string(callee->name) : std::string("call")) + "`");
          }
        }
      }
    }
    if (!e.attr.empty()) {
      for (const Attr& a : call->attrs)
        if (a.key == e.attr) d.label(a.value->span, e.attr_label.empty() ? "this attribute" : e.attr_label);
    }
  }
  if (const OpSignature* sig = find_op_signature(op)) {
    std::string params;
    for (size_t i = 0; i < sig->args.size(); ++i) params += (i ? ", " : "") + std::string(sig->args[i]);
    d.note("rule: " + std::string(sig->doc));
  }
  for (auto& n : e.notes) d.note(std::move(n));
}

void Inferencer::report_unsolved() {
  if (diags_.has_errors()) return;  // unknowns after an error are usually its echo
  // 1. Operator calls whose inputs never became known.
  for (const auto& p : solver_.pending()) {
    const Expr* site = p.id < relation_sites_.size() ? relation_sites_[p.id] : nullptr;
    if (!site) continue;
    Diagnostic& d = diags_.emit(DiagKind::UnsolvedType, site->span, {"this `" + std::string(p.op) + "` call"});
    for (size_t i = 0; i + 1 < p.types.size(); ++i) {
      Ty t = solver_.resolve(p.types[i]);
      if (is_ground(t)) continue;
      std::string name = "input " + std::to_string(i);
      if (const OpSignature* sig = find_op_signature(p.op); sig && i < sig->args.size())
        name = "`" + std::string(sig->args[i]) + "`";
      d.note(name + " has the unknown type `" + type_to_string(t) + "`");
    }
    d.help("annotate the parameter or binding the unknown input comes from");
    return;  // one is enough: the rest usually follow from it
  }
  // 2. Binders whose type nothing determined.
  for (const auto& [e, t] : exprs_) {
    (void)t;
    auto* fn = as<FunctionExpr>(e);
    if (!fn) continue;
    for (const VarDecl* p : fn->params) {
      if (p->annotation) continue;
      Ty pt = solver_.resolve(vars_[p]);
      if (is_ground(pt)) continue;
      Diagnostic& d = diags_.emit(DiagKind::UnsolvedType, p->span, {"parameter `%" + std::string(p->name) + "`"});
      d.help("add a type annotation: `%" + std::string(p->name) + ": Tensor[(...), float32]`");
      return;
    }
  }
  // 3. Metadata constants used where nothing fixes their type.
  for (const MetaRefExpr* m : metas_) {
    for (const auto& [e, t] : exprs_) {
      if (e != m || is_ground(solver_.resolve(t))) continue;
      diags_.emit(DiagKind::MetaConstantType, m->span, {std::string(m->type_key), std::to_string(m->index)});
      return;
    }
  }
  // 4. Anything else: the first expression left unknown.
  for (const auto& [e, t] : exprs_) {
    Ty r = solver_.resolve(t);
    if (is_ground(r)) continue;
    diags_.emit(DiagKind::UnsolvedType, span_of(e), {"this expression"})
        .note("its type is only known to be `" + type_to_string(r) + "`")
        .help("add a type annotation to the binding or parameter it comes from");
    return;
  }
}

}  // namespace relay

// Turning solver failures into diagnostics that point at the cause (issue: "a type
// mismatch names both types, labels the span that fixed each side, and states the
// operator's rule").
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "lang/ops/op_schema.h"
#include "lang/types/infer_internal.h"

namespace relay {

namespace {

// A type annotation that parses, for a type inference knows only in part: a tensor whose
// dtype is known, with `?` for each dimension still unknown (and tuples of such). None
// when even that much is unknown: then the help stays advice without an edit.
std::optional<std::string> annotation_for(Ty t) {
  if (!t) return std::nullopt;
  if (t->kind == TyKind::Tensor) {
    auto* tt = static_cast<const TensorTy*>(t);
    std::string dims;
    for (size_t i = 0; i < tt->shape.size(); ++i)
      dims += (i ? ", " : "") + (dim_has_hole(tt->shape[i]) ? std::string("?") : tt->shape[i].to_string());
    return "Tensor[(" + dims + "), " + dtype_name(tt->dtype) + "]";
  }
  if (t->kind == TyKind::Tuple) {
    std::string out = "(";
    auto fields = static_cast<const TupleTy*>(t)->fields;
    for (size_t i = 0; i < fields.size(); ++i) {
      auto f = annotation_for(fields[i]);
      if (!f) return std::nullopt;
      out += (i ? ", " : "") + *f;
    }
    return out + (fields.size() == 1 ? ",)" : ")");
  }
  return std::nullopt;
}

// The help for an unannotated binder: with an edit inserting `: TYPE` after its name when
// part of its type is known.
void annotation_help(Diagnostic& d, const VarDecl* decl, Ty partial) {
  const std::string name = "%" + std::string(decl->name);
  if (auto text = annotation_for(partial))
    d.help("annotate `" + name + "` (`?` marks the sizes inference could not find)",
           {TextEdit{Span{decl->span.file, decl->span.end, decl->span.end}, ": " + *text}});
  else
    d.help("add a type annotation: `" + name + ": Tensor[(...), float32]`");
}


// A clash between dimensions that still involve a callee's dimension names (`2 * n` for
// a `7`): the names are not fixed here, there is just no size that fits.
std::string no_value_note(const UnifyFailure& f) {
  std::string names;
  for (size_t i = 0; i < f.unknown_names.size(); ++i)
    names += std::string(i == 0 ? "" : i + 1 == f.unknown_names.size() ? " and " : ", ") + "`" +
             f.unknown_names[i] + "`";
  bool one = f.unknown_names.size() == 1;
  return std::string(one ? "no size " : "no sizes ") + names + (one ? " makes `" : " make `") +
         f.expected_dim.to_string() + "` equal to `" + f.found_dim.to_string() + "`";
}

// How a label names the callee of the call a value came from: `@f`, `%f` (an operator
// or closure bound to a variable), `nn.relu`.
std::string callee_name(const CallExpr* c) {
  auto* callee = as_ref(c->callee);
  if (!callee) return "call";
  std::string sigil = callee->kind == ExprKind::GlobalRef ? "@" : callee->kind == ExprKind::LocalRef ? "%" : "";
  return sigil + std::string(callee->name);
}

}  // namespace

Span Inferencer::span_of(const Expr* e) const {
  // A block's type is its result's: point there rather than at the whole block.
  while (auto* b = as<BlockExpr>(e)) e = b->result;
  return e->span;
}

void Inferencer::expect(Ty expected, Ty found, const Expectation& why) {
  UnifyFailure f;
  const Expr* outer_use = op_use_;
  op_use_ = why.found_expr;  // an operator value instantiated here is used there
  size_t equations = solver_.dim_equations().size();
  bool ok = solver_.unify(expected, found, &f);
  op_use_ = outer_use;
  // Equations deferred by this unification are reported (if they fail) as it would be.
  for (size_t i = equations; i < solver_.dim_equations().size(); ++i)
    if (!solver_.dim_equations()[i].relation) equation_why_.emplace(i, why);
  if (!ok) {
    report_mismatch(f, why);
    Diagnostic& d = diags_.items().back();
    // The clash may be deep inside (an element type of a List, a field of a tuple): show
    // the whole types as well, or the header reads as if the annotation said `int32`.
    std::string outer_expected = type_to_string(solver_.show(expected));
    std::string outer_found = type_to_string(solver_.show(found));
    if (f.reason != UnifyFailure::Reason::Infinite &&
        (outer_expected != type_to_string(f.expected) || outer_found != type_to_string(f.found)))
      d.note("the mismatch is inside these types: expected `" + outer_expected + "`, found `" + outer_found + "`");
  }
  solver_.solve();
}

void Inferencer::add_provenance(Diagnostic& d, const Expr* e, Ty) {
  auto* r = as_ref(e);
  if (!r || r->kind != ExprKind::LocalRef || !r->decl) return;
  // The variable's own type (the clash may be inside it).
  auto vt = vars_.find(r->decl);
  if (vt == vars_.end()) return;
  Ty t = vt->second;
  if (r->decl->annotation) {
    // An annotated binder has the annotated type, whatever its value.
    d.label(r->decl->annotation->span, "`%" + std::string(r->name) + "` has type `" +
                                           type_to_string(solver_.resolve(t, true)) + "` from this annotation");
    return;
  }
  auto it = var_values_.find(r->decl);
  if (it == var_values_.end()) return;
  const Expr* value = it->second;
  std::string what = "`%" + std::string(r->name) + "` has type `" + type_to_string(solver_.resolve(t, true)) + "`";
  if (auto* c = as<CallExpr>(value)) {
    d.label(c->span, what + " because of this `" + callee_name(c) + "`");
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
      if (!f.unknown_names.empty())
        d->note(no_value_note(f));
      else if ((!f.expected_dim.is_constant() || !f.found_dim.is_constant()) &&
               !f.expected_dim.is_any() && !f.found_dim.is_any())
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
      d->note("a type cannot contain itself; this happens when a value is used as an argument "
              "of itself, e.g. a function applied to itself");
      break;
    default:
      d = &diags_.emit(DiagKind::TypeMismatch, at, {expected, found});
      if (f.reason == UnifyFailure::Reason::DType) {
        auto* a = ty_as<TensorTy>(f.expected);
        auto* b = ty_as<TensorTy>(f.found);
        if (a && b) {
          std::string want = dtype_name(a->dtype);
          d->note("the data types differ: " + want + " vs " + dtype_name(b->dtype) +
                  "; Relay never converts implicitly: use `cast(..., dtype=\"" + want + "\")`");
          // A literal of the wrong kind (`0f` where an int32 is expected): rewrite it.
          const Expr* found = why.found_expr;
          while (auto* blk = as<BlockExpr>(found)) found = blk->result;
          auto* lit = as<ConstantExpr>(found);
          static const std::pair<const char*, const char*> suffixes[] = {
              {"float32", "f"}, {"float16", "f16"}, {"float64", "f64"},
              {"int32", ""},    {"int16", "i16"},   {"int64", "i64"}};
          bool integral = lit && (lit->dtype.code == DataType::Int ||
                                  (lit->dtype.code == DataType::Float && std::abs(lit->float_value) < 1e15 &&
                                   lit->float_value == std::trunc(lit->float_value)));
          if (integral)
            for (const auto& [dt, suffix] : suffixes)
              if (want == dt) {
                int64_t v = lit->dtype.code == DataType::Int ? lit->int_value
                                                            : static_cast<int64_t>(lit->float_value);
                d->help("write the literal as " + want, {TextEdit{lit->span, std::to_string(v) + suffix}});
              }
        }
      }
      break;
  }
  if (!why.expected_why.empty() && why.expected_at.valid() && why.expected_at.size() > 0)
    d->label(why.expected_at, why.expected_why);
  if (why.found_expr) add_provenance(*d, why.found_expr, f.found);
}

void Inferencer::report_relation_error(const Expr* site, std::string_view op, RelError e) {
  if (auto* get = as<TupleGetItemExpr>(site)) {
    // A projection whose tuple type became known only later: the same errors as when it
    // is known at once (infer_tuple_get).
    Ty t = nullptr;
    for (const auto& [x, xt] : exprs_)
      if (x == get->tuple) t = solver_.resolve(xt);
    if (auto* tuple = t ? ty_as<TupleTy>(t) : nullptr) {
      diags_.emit(DiagKind::TupleIndexOutOfRange, get->index_span,
                  {std::to_string(get->index), std::to_string(tuple->fields.size())})
          .label(span_of(get->tuple), "has type `" + type_to_string(t) + "`");
    } else if (t) {
      diags_.emit(DiagKind::NotATuple, span_of(get->tuple), {type_to_string(t)});
    } else {
      diags_.emit(DiagKind::OperatorTypeError, site->span, {e.message, std::string(op)});
    }
    return;
  }
  const CallExpr* call = as<CallExpr>(site);
  // `%x + 1`: the operator token, so that the operands' labels stay visible.
  Span primary = call && call->syntax == CallSyntax::Infix ? call->callee_span : site->span;
  Diagnostic& d = diags_.emit(DiagKind::OperatorTypeError, primary, {e.message, std::string(op)});
  if (call) {
    for (const auto& [index, text] : e.input_labels) {
      if (index >= call->args.size()) continue;
      const Expr* arg = call->args[index];
      d.label(span_of(arg), text);
      auto* r = as_ref(arg);
      if (r && r->kind == ExprKind::LocalRef) {
        auto it = var_values_.find(r->decl);
        if (it != var_values_.end()) {
          if (auto* c = as<CallExpr>(it->second))
            d.label(c->span, "`%" + std::string(r->name) + "` gets its type from this `" + callee_name(c) + "`");
        }
      }
    }
    if (!e.attr.empty()) {
      for (const Attr& a : call->attrs)
        if (a.key == e.attr) d.label(a.value->span, e.attr_label.empty() ? "this attribute" : e.attr_label);
    }
  }
  if (const OpSignature* sig = find_op_signature(op)) d.note("rule: " + std::string(sig->doc));
  for (auto& n : e.notes) d.note(std::move(n));
}

namespace {

void explain_meta_constant(Diagnostic& d, const MetaRefExpr* m) {
  d.note("its metadata entry gives neither a `_checked_type_` nor a tensor header in "
         "`b64ndarrays`, and nothing in the program fixes its type");
  d.help("bind it with a type annotation: `let %c: Tensor[(...), float32] = meta[" +
         std::string(m->type_key) + "][" + std::to_string(m->index) + "];`");
}

// The global whose missing return annotation leaves `e` unknown: `@f(...)`, or a
// variable bound to such a call. A call sees only the annotations of the function it
// calls (reference §2.4), so an unannotated result is unknown at every call.
const FuncDef* unannotated_result_of(const Expr* e,
                                     const std::unordered_map<const VarDecl*, const Expr*>& values) {
  if (auto* r = as_ref(e); r && r->kind == ExprKind::LocalRef && r->decl && !r->decl->annotation) {
    auto it = values.find(r->decl);
    if (it != values.end()) e = it->second;
  }
  auto* call = as<CallExpr>(e);
  auto* callee = call ? as_ref(call->callee) : nullptr;
  if (!callee || callee->kind != ExprKind::GlobalRef || !callee->global || !callee->global->fn) return nullptr;
  return callee->global->fn->ret_type ? nullptr : callee->global;
}

void explain_unannotated_result(Diagnostic& d, const FuncDef* def) {
  d.label(def->name_span, "`@" + std::string(def->name) + "` has no return type annotation");
  d.note("a call sees only the annotated types of the function it calls, not its body");
  d.help("annotate the result of `@" + std::string(def->name) + "`: `def @" + std::string(def->name) +
         "(...) -> TYPE { ... }`");
}

}  // namespace

void Inferencer::report_unsolved() {
  if (diags_.has_errors()) return;  // unknowns after an error are usually its echo
  // So are unknowns after a metadata reference that was already reported (E0014, E0050).
  for (const MetaRefExpr* m : metas_)
    if (!m->entry) return;
  // 1. Operator calls whose inputs never became known.
  for (const auto& p : solver_.pending()) {
    const Expr* site = p.id < relation_sites_.size() ? relation_sites_[p.id] : nullptr;
    if (!site) continue;
    const CallExpr* call = as<CallExpr>(site);
    auto unknown_arg = [&](size_t i) -> const Expr* {
      if (!call || i >= call->args.size() || is_ground(solver_.resolve(p.types[i]))) return nullptr;
      return call->args[i];
    };
    // The cause is a metadata constant: report it there.
    for (size_t i = 0; i + 1 < p.types.size(); ++i) {
      auto* m = as<MetaRefExpr>(unknown_arg(i));
      if (!m) continue;
      Diagnostic& d = diags_.emit(DiagKind::MetaConstantType, m->span,
                                  {std::string(m->type_key), std::to_string(m->index)});
      d.label(site->span, "its type is needed by this `" + std::string(p.op) + "`");
      explain_meta_constant(d, m);
      return;
    }
    // The cause is a global function without a return annotation: say so.
    for (size_t i = 0; i + 1 < p.types.size(); ++i) {
      const Expr* arg = unknown_arg(i);
      const FuncDef* def = arg ? unannotated_result_of(arg, var_values_) : nullptr;
      if (!def) continue;
      Diagnostic& d = diags_.emit(DiagKind::UnsolvedType, site->span, {"this `" + std::string(p.op) + "` call"});
      d.label(span_of(arg), "the type of this value is not known");
      explain_unannotated_result(d, def);
      return;
    }
    Diagnostic& d = diags_.emit(DiagKind::UnsolvedType, site->span, {"this `" + std::string(p.op) + "` call"});
    std::vector<const VarDecl*> labelled;
    for (size_t i = 0; i + 1 < p.types.size(); ++i) {
      Ty t = solver_.resolve(p.types[i], true);
      if (is_ground(t)) continue;
      std::string name = "input " + std::to_string(i);
      if (const OpSignature* sig = find_op_signature(p.op); sig && i < sig->args.size())
        name = "`" + std::string(sig->args[i]) + "`";
      d.note(name + " has the unknown type `" + type_to_string(t) + "`");
      // An unannotated parameter or binding passed straight in: point at it.
      auto* r = as_ref(unknown_arg(i));
      if (r && r->kind == ExprKind::LocalRef && r->decl && !r->decl->annotation &&
          std::find(labelled.begin(), labelled.end(), r->decl) == labelled.end()) {
        labelled.push_back(r->decl);
        d.label(r->decl->span, "`%" + std::string(r->name) + "` has no type annotation");
        annotation_help(d, r->decl, t);
      }
    }
    if (labelled.empty()) d.help("annotate the parameter or binding the unknown input comes from");
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
      annotation_help(d, p, pt);
      return;
    }
  }
  // 3. Metadata constants used where nothing fixes their type.
  for (const MetaRefExpr* m : metas_) {
    for (const auto& [e, t] : exprs_) {
      if (e != m || is_ground(solver_.resolve(t))) continue;
      explain_meta_constant(
          diags_.emit(DiagKind::MetaConstantType, m->span, {std::string(m->type_key), std::to_string(m->index)}),
          m);
      return;
    }
  }
  // 4. Anything else: the first expression left unknown.
  for (const auto& [e, t] : exprs_) {
    Ty r = solver_.resolve(t);
    if (is_ground(r)) continue;
    if (auto* g = as_ref(e); g && g->kind == ExprKind::GlobalRef && g->global && g->global->fn &&
                             !g->global->fn->ret_type) {
      Diagnostic& d = diags_.emit(DiagKind::UnsolvedType, span_of(e),
                                  {"the result of `@" + std::string(g->global->name) + "`"});
      explain_unannotated_result(d, g->global);
      return;
    }
    diags_.emit(DiagKind::UnsolvedType, span_of(e), {"this expression"})
        .note("its type is only known to be `" + type_to_string(r) + "`")
        .help("add a type annotation to the binding or parameter it comes from");
    return;
  }
}

}  // namespace relay

// Operators used as values (`let %f = add; %f(%x, %y)`, `@apply(add, ...)`): TVM gives
// an Op the polymorphic type `fn [in0, ..., out](in0, ...) -> out` constrained by its
// relation (reference §2.2, §2.4). Every instantiation of that type gets a relation of
// its own, so one operator variable can be used at different types.
#include "lang/ops/internal_ops.h"
#include "lang/ops/op_registry.h"
#include "lang/ops/op_schema.h"
#include "lang/types/infer_internal.h"

namespace relay {

Ty Inferencer::op_value_type(const RefExpr* ref) {
  const OpInfo* op = ref->op;
  const OpSignature* sig = op ? find_op_signature(op->name) : nullptr;
  RelationFn rel = op ? find_relation(*op) : nullptr;
  if (!op || !sig || !rel || !op->supported) {
    if (op) {
      Diagnostic& d = diags_.emit(DiagKind::OperatorNotSupported, ref->span, {std::string(op->name)});
      if (std::string_view why = internal_op_reason(*op); !why.empty()) d.note(std::string(why));
    }
    return arena_.error();
  }
  std::vector<const TyParamDecl*> type_params;
  std::vector<Ty> params;
  for (size_t i = 0; i < sig->args.size(); ++i) {
    type_params.push_back(arena_.new_param_decl("in" + std::to_string(i)));
    params.push_back(arena_.param(type_params.back()));
  }
  type_params.push_back(arena_.new_param_decl("out"));
  Ty t = arena_.func(std::span<const TyParamDecl* const>(type_params.data(), type_params.size()),
                     std::span<const Ty>(params.data(), params.size()), arena_.param(type_params.back()), op);
  op_values_[t] = ref;
  return t;
}

void Inferencer::add_op_instance(const FuncTy* generic, std::vector<Ty> types) {
  const OpInfo* op = generic->op;
  const OpSignature* sig = find_op_signature(op->name);
  RelationFn rel = find_relation(*op);
  const Expr* site = op_call_ ? op_call_ : op_use_;
  if (!site) {
    // Instantiated while solving (no expression at hand): blame where it was written.
    auto it = op_values_.find(generic);
    if (it != op_values_.end()) site = it->second;
  }
  if (!sig || !rel || !site) return;  // op_value_type made every operator type we see
  CallAttrs attrs;
  if (op_call_) {
    // TVM adds the callee's constraints with the call's attributes (reference §2.2).
    if (!check_call_attrs(*sig, *op_call_, attrs, diags_)) {
      solver_.unify(types.back(), arena_.error());
      return;
    }
  } else {
    attrs = CallAttrs::from_values(sig->attrs, {}, site->span);
  }
  relation_sites_.push_back(site);
  solver_.add_relation(op->name, rel, std::move(types), std::move(attrs),
                       [this, site, op](RelError e) { report_relation_error(site, op->name, std::move(e)); });
}

}  // namespace relay

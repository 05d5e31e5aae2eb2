#include "lang/types/relation_eval.h"

#include <algorithm>

namespace relay {

namespace {

// Unification without a substitution: holes in `slot` are replaced by the other side,
// `?` dims are compatible with anything (and stay `?`, as in TVM).
bool merge(Ty& slot, Ty t, TypeArena& arena) {
  if (slot->kind == TyKind::Hole || slot->kind == TyKind::Error) {
    slot = t;
    return true;
  }
  if (t->kind == TyKind::Hole || t->kind == TyKind::Error) return true;
  if (slot->kind != t->kind) return false;
  switch (slot->kind) {
    case TyKind::Tensor: {
      auto* a = static_cast<const TensorTy*>(slot);
      auto* b = static_cast<const TensorTy*>(t);
      if (a->dtype != b->dtype || a->rank() != b->rank()) return false;
      std::vector<Dim> dims;
      for (size_t i = 0; i < a->rank(); ++i) {
        if (a->shape[i].is_any() || b->shape[i].is_any()) dims.push_back(Dim::any());
        else if (a->shape[i] == b->shape[i]) dims.push_back(a->shape[i]);
        else if (dim_has_hole(a->shape[i])) dims.push_back(b->shape[i]);
        else if (dim_has_hole(b->shape[i])) dims.push_back(a->shape[i]);
        else return false;
      }
      slot = arena.tensor(std::span<const Dim>(dims.data(), dims.size()), a->dtype);
      return true;
    }
    case TyKind::Tuple: {
      auto* a = static_cast<const TupleTy*>(slot);
      auto* b = static_cast<const TupleTy*>(t);
      if (a->fields.size() != b->fields.size()) return false;
      std::vector<Ty> fields(a->fields.begin(), a->fields.end());
      for (size_t i = 0; i < fields.size(); ++i)
        if (!merge(fields[i], b->fields[i], arena)) return false;
      slot = arena.tuple(std::span<const Ty>(fields.data(), fields.size()));
      return true;
    }
    default:
      return type_equal(slot, t);
  }
}

class EvalContext final : public RelationContext {
 public:
  EvalContext(std::string_view op, std::vector<Ty> inputs, const CallAttrs& attrs, TypeArena& arena)
      : inputs_(std::move(inputs)), op_(op), attrs_(attrs), arena_(arena) {
    output_ = arena.hole(static_cast<uint32_t>(inputs_.size()));
  }
  std::string_view op_name() const override { return op_; }
  size_t num_inputs() const override { return inputs_.size(); }
  Ty input(size_t i) override { return inputs_.at(i); }
  Ty output() override { return output_; }
  const CallAttrs& attrs() const override { return attrs_; }
  TypeArena& arena() override { return arena_; }
  bool assign_input(size_t i, Ty t) override { return assign(inputs_.at(i), t, "input " + std::to_string(i)); }
  bool assign_output(Ty t) override { return assign(output_, t, "the result"); }
  Ty fresh() override { return arena_.hole(next_hole_++); }
  void report(RelError e) override { errors_.push_back(std::move(e)); }

  std::vector<Ty> inputs_;
  Ty output_;
  std::vector<RelError> errors_;

 private:
  bool assign(Ty& slot, Ty t, const std::string& what) {
    Ty before = slot;
    if (merge(slot, t, arena_)) return true;
    errors_.push_back(RelError{"mismatched types for " + what + ": `" + type_to_string(before) +
                                   "` and `" + type_to_string(t) + "`",
                               {}, {}, {}, {}});
    return false;
  }
  std::string_view op_;
  const CallAttrs& attrs_;
  TypeArena& arena_;
  uint32_t next_hole_ = 1000000;
};

}  // namespace

RelationOutcome eval_relation(std::string_view op, std::span<const Ty> inputs,
                              const CallAttrs& attrs, TypeArena& arena) {
  RelationOutcome out;
  RelationFn fn = find_relation(op);
  if (!fn) {
    out.errors.push_back(RelError{"operator `" + std::string(op) + "` has no type relation", {}, {}, {}, {}});
    return out;
  }
  EvalContext ctx(op, std::vector<Ty>(inputs.begin(), inputs.end()), attrs, arena);
  out.status = fn(ctx);
  if (out.status == RelStatus::Solved && !ctx.errors_.empty()) out.status = RelStatus::Failed;
  out.output = ctx.output_;
  out.inputs = ctx.inputs_;
  out.errors = std::move(ctx.errors_);
  return out;
}

}  // namespace relay

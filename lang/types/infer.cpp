// Driver: one Inferencer per definition; results resolved and written to the side table.
#include "lang/types/infer_internal.h"

namespace relay {

Inferencer::Inferencer(CheckEnv& env, InferredTypes& out)
    : env_(env), out_(out), arena_(*out.arena), solver_(*out.arena) {
  scope_.adt = [this](const TypeDef* d) { return env_.adt(d); };
  scope_.fresh = [this] { return solver_.fresh(); };
  solver_.set_op_instantiation(
      [this](const FuncTy* generic, std::vector<Ty> types) { add_op_instance(generic, std::move(types)); });
}

void Inferencer::run_definition(const FuncDef& def) {
  self_def_ = &def;
  out_.type = infer_function(def.fn, &def);
  exprs_.emplace_back(def.fn, out_.type);
  finish();
}

void Inferencer::run_expression(const Expr& e) {
  out_.type = infer(&e);
  finish();
}

void Inferencer::finish() {
  solver_.solve();
  // Dimension equations left undecided are examined only now, when every other
  // constraint of the definition has contributed what it knows.
  solver_.solve_deferred();
  report_dim_equations();
  report_unsolved();
  out_.type = solver_.resolve(out_.type, true);
  out_.exprs.reserve(exprs_.size());
  for (const auto& [e, t] : exprs_) out_.exprs[e] = solver_.resolve(t, true);
  out_.vars.reserve(vars_.size());
  for (const auto& [v, t] : vars_) out_.vars[v] = solver_.resolve(t, true);
  diags_.sort();
  out_.diagnostics = std::move(diags_.items());
  out_.relations_run = solver_.relations_run();
}

InferredTypes infer_definition(const FuncDef& def, CheckEnv& env) {
  InferredTypes out;
  out.arena = std::make_shared<TypeArena>();
  Inferencer(env, out).run_definition(def);
  return out;
}

InferredTypes infer_expression(const Expr& expr, CheckEnv& env) {
  InferredTypes out;
  out.arena = std::make_shared<TypeArena>();
  Inferencer(env, out).run_expression(expr);
  return out;
}

}  // namespace relay

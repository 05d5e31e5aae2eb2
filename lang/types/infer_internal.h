// The inference walk shared by infer*.cpp (not a public header).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "lang/types/infer.h"
#include "lang/types/lower.h"
#include "lang/types/solver.h"

namespace relay {

// Why a type was expected, for the secondary label of a mismatch.
struct Expectation {
  const Expr* found_expr = nullptr;  // the expression whose type is "found" (primary label)
  Span found_at;                     // used when found_expr is null
  Span expected_at;                  // where the expectation comes from (may be empty)
  std::string expected_why;          // its label
};

class Inferencer {
 public:
  Inferencer(CheckEnv& env, InferredTypes& out);
  void run_definition(const FuncDef& def);
  void run_expression(const Expr& e);

 private:
  // infer_expr.cpp
  Ty infer(const Expr* e);
  Ty infer_uncached(const Expr* e);
  Ty infer_function(const FunctionExpr* fn, const FuncDef* global);
  Ty infer_block(const BlockExpr* b);
  Ty infer_if(const IfExpr* e);
  Ty infer_tuple_get(const TupleGetItemExpr* e);
  Ty infer_meta(const MetaRefExpr* e);
  Ty lower(const Type* t);

  // infer_call.cpp
  Ty infer_call(const CallExpr* c);
  Ty infer_op_call(const CallExpr* c, const RefExpr* op);
  Ty global_type(const RefExpr* r);
  Ty ctor_value_type(const RefExpr* r, bool called);

  // infer_op_value.cpp
  Ty op_value_type(const RefExpr* op);
  void add_op_instance(const FuncTy* generic, std::vector<Ty> types);

  // infer_match.cpp
  Ty infer_match(const MatchExpr* m);
  void check_pattern(const Pattern* p, Ty expected);
  void check_exhaustive(const MatchExpr* m, Ty scrutinee);

  // infer_report.cpp
  void expect(Ty expected, Ty found, const Expectation& why);
  void report_mismatch(const UnifyFailure& f, const Expectation& why);
  void report_relation_error(const Expr* call, std::string_view op, RelError e);
  void add_provenance(Diagnostic& d, const Expr* e, Ty t);
  void report_unsolved();
  // infer_report_dims.cpp
  void report_dim_equations();
  Span span_of(const Expr* e) const;

  void finish();

  CheckEnv& env_;
  InferredTypes& out_;
  TypeArena& arena_;
  Solver solver_;
  LowerScope scope_;
  DiagnosticBag diags_;
  std::unordered_map<const VarDecl*, Ty> vars_;
  std::unordered_map<const VarDecl*, const Expr*> var_values_;  // binder -> bound value
  // The `let` variables whose (non-function) values are being inferred, innermost last:
  // a reference to one in its own value (W0004) gets the variable's type as TVM gives it,
  // a hole unified with the value's type (`let %a = add(%a, 1f)` is float32 and fails
  // only when run; `let %f = %f(%x)` is an infinite type).
  std::vector<const VarDecl*> defining_;
  std::vector<std::pair<const Expr*, Ty>> exprs_;                // in visit order
  std::vector<const Expr*> relation_sites_;                      // by relation id
  std::vector<const MetaRefExpr*> metas_;
  // Where an operator value being instantiated is used (add_op_instance): the call it
  // is the callee of (whose attributes apply), else the expression whose type is being
  // unified, else where the operator was written.
  const CallExpr* op_call_ = nullptr;
  const Expr* op_use_ = nullptr;
  std::unordered_map<Ty, const RefExpr*> op_values_;  // polymorphic op type -> its `add`
  // Provenance of the dimension equations deferred by `expect` (by equation index).
  std::unordered_map<size_t, Expectation> equation_why_;
  const FuncDef* self_def_ = nullptr;
  Ty self_type_ = nullptr;
  std::vector<std::string> self_dims_;
};

}  // namespace relay

// Interim implementation until the evaluator lands: @main's body must be one operator
// call whose arguments are parameters or tuples of parameters.
#include "tests/support/run_program.h"

#include <unordered_map>

#include "interpreter/kernels/kernel.h"
#include "lang/base/source.h"
#include "lang/syntax/frontend.h"
#include "lang/types/call_attrs.h"
#include "lang/types/check_module.h"
#include "lang/types/type.h"

namespace relay::testing {

namespace {

bool concrete(Ty t) {
  if (!t) return false;
  switch (t->kind) {
    case TyKind::Tensor: {
      for (const Dim& d : static_cast<const TensorTy*>(t)->shape)
        if (!d.is_constant()) return false;
      return true;
    }
    case TyKind::Tuple:
      for (Ty f : static_cast<const TupleTy*>(t)->fields)
        if (!concrete(f)) return false;
      return true;
    default: return false;
  }
}

}  // namespace

RunResult run_main(const std::string& program, const std::vector<rt::NDArray>& inputs) {
  RunResult out;
  SourceManager sources;
  FileId file = sources.add("test.relay", program);
  DiagnosticBag diags;
  FrontendResult fe = analyze_file(sources, file, diags);
  ModuleTypes types = check_module(*fe.module, fe.prelude.get(), diags);
  for (const Diagnostic& d : diags.items())
    if (d.severity == Severity::Error) {
      out.error = std::string(d.code()) + ": " + d.message;
      return out;
    }
  const FuncDef* main = nullptr;
  for (const Definition& d : fe.module->defs)
    if (d.kind == Definition::Func && d.func->name == "main") main = d.func;
  if (!main) return out.error = "no @main", out;
  const InferredTypes* inferred = types.find(main);
  auto* call = main->fn->body->kind == ExprKind::Call ? static_cast<const CallExpr*>(main->fn->body) : nullptr;
  auto* callee = call && call->callee->kind == ExprKind::OpRef ? static_cast<const RefExpr*>(call->callee) : nullptr;
  if (!callee) return out.error = "interim runner: @main must be one operator call", out;
  std::unordered_map<const VarDecl*, rt::Value> env;
  if (inputs.size() != main->fn->params.size()) return out.error = "wrong number of inputs", out;
  for (size_t i = 0; i < inputs.size(); ++i) env[main->fn->params[i]] = inputs[i];
  std::vector<rt::Value> args;
  for (const Expr* a : call->args) {
    if (a->kind == ExprKind::LocalRef) {
      args.push_back(env.at(static_cast<const RefExpr*>(a)->decl));
    } else if (a->kind == ExprKind::Tuple) {
      std::vector<rt::Value> fields;
      for (const Expr* f : static_cast<const TupleExpr*>(a)->fields) {
        if (f->kind != ExprKind::LocalRef) return out.error = "interim runner: tuple fields must be parameters", out;
        fields.push_back(env.at(static_cast<const RefExpr*>(f)->decl));
      }
      args.push_back(rt::make_tuple(std::move(fields)));
    } else {
      return out.error = "interim runner: arguments must be parameters or tuples of them", out;
    }
  }
  CallAttrs attrs;
  DiagnosticBag attr_diags;
  if (!check_call_attrs(*callee->op, *call, attrs, attr_diags)) return out.error = "bad attributes", out;
  rt::KernelFn kernel = rt::find_kernel(callee->op->name);
  if (!kernel) return out.error = "no kernel for `" + std::string(callee->op->name) + "`", out;
  Ty result = inferred ? inferred->type_of(call) : nullptr;
  rt::KernelCall kc{*callee->op, args, attrs, concrete(result) ? result : nullptr};
  try {
    out.value = kernel(kc);
  } catch (const rt::RuntimeError& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace relay::testing

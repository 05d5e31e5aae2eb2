#include "lang/types/check_module.h"

namespace relay {

const InferredTypes* ModuleTypes::find(const FuncDef* def) const {
  for (const auto& [d, t] : defs)
    if (d == def) return &t;
  return nullptr;
}

namespace {

bool is_expression_name_error(DiagKind k) {
  return k == DiagKind::UndefinedLocal || k == DiagKind::UndefinedGraphVar || k == DiagKind::UndefinedGlobal ||
         k == DiagKind::UnknownOperator || k == DiagKind::UndefinedConstructor;
}

}  // namespace

bool has_error_within(std::span<const Diagnostic> diags, Span span) {
  for (const Diagnostic& d : diags) {
    if (d.severity != Severity::Error || is_expression_name_error(d.kind)) continue;
    Span s = d.primary().span;
    if (s.file == span.file && s.begin >= span.begin && s.end <= span.end) return true;
  }
  return false;
}

ModuleTypes check_module(const Module& module, const Module* prelude, DiagnosticBag& diags) {
  ModuleTypes out;
  std::vector<const Module*> imports;
  if (prelude) imports.push_back(prelude);
  out.env = std::make_unique<ModuleEnv>(module, imports);
  for (const Definition& d : module.defs) {
    if (d.kind != Definition::Func) continue;
    InferredTypes t = infer_definition(*d.func, *out.env);
    if (!has_error_within(diags.items(), d.func->span))
      for (auto& diag : t.diagnostics) diags.add(std::move(diag));
    t.diagnostics.clear();
    out.defs.emplace_back(d.func, std::move(t));
  }
  if (module.expr) {
    out.expr = std::make_unique<InferredTypes>(infer_expression(*module.expr, *out.env));
    for (auto& diag : out.expr->diagnostics) diags.add(std::move(diag));
    out.expr->diagnostics.clear();
  }
  diags.sort();
  return out;
}

std::string format_global_types(const ModuleTypes& types) {
  std::string out;
  for (const auto& [def, t] : types.defs) {
    out += "@" + std::string(def->name) + ": " + type_to_string(t.type) + "\n";
  }
  return out;
}

}  // namespace relay

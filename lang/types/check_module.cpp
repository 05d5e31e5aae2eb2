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

bool is_syntax_error(DiagKind k) {
  // The lexical and syntax codes are E0001-E0033 (diagnostic_kinds.def).
  std::string_view code = diag_info(k).code;
  return code.size() == 5 && code[0] == 'E' && code.substr(1, 2) == "00" && code[3] < '4';
}

}  // namespace

void EarlierErrors::add(std::span<const Diagnostic> diags) {
  for (const Diagnostic& d : diags) {
    if (d.severity != Severity::Error || is_expression_name_error(d.kind)) continue;
    Span s = d.primary().span;
    if (s.file != def_.file || s.begin < def_.begin || s.end > def_.end) continue;
    if (!is_syntax_error(d.kind)) {
      hide_all_ = true;
      continue;
    }
    for (const Label& l : d.labels)
      if (l.span.file == def_.file) broken_.push_back(l.span);
  }
}

bool EarlierErrors::hides(const Diagnostic& type_error) const {
  if (hide_all_) return true;
  // Any label: a type error explained by broken text ("`%e` has type ... from this
  // annotation") rests on how the parser read it.
  for (const Label& l : type_error.labels) {
    if (l.span.file != def_.file) continue;
    for (Span b : broken_)
      if (b.begin <= l.span.end && l.span.begin <= b.end) return true;  // overlapping or touching
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
    EarlierErrors earlier(d.func->span);
    earlier.add(diags.items());
    for (auto& diag : t.diagnostics)
      if (!earlier.hides(diag)) diags.add(std::move(diag));
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

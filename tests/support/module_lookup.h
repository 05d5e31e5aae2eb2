// Small lookups shared by the unit tests that inspect parsed modules.
#pragma once

#include <string>
#include <string_view>

#include "lang/base/diagnostic.h"
#include "lang/syntax/ast.h"

namespace relay::testing {

// "E0040,W0002": the codes of every diagnostic, in order.
inline std::string diagnostic_codes(const DiagnosticBag& diags) {
  std::string out;
  for (const auto& d : diags.items()) {
    if (!out.empty()) out += ',';
    out += std::string(d.code());
  }
  return out;
}

inline FuncDef* find_def(const Module& m, std::string_view name) {
  for (const auto& d : m.defs)
    if (d.kind == Definition::Func && d.func->name == name) return d.func;
  return nullptr;
}

inline TypeDef* find_type_def(const Module& m, std::string_view name) {
  for (const auto& d : m.defs)
    if (d.kind == Definition::Type && d.type->name == name) return d.type;
  return nullptr;
}

}  // namespace relay::testing

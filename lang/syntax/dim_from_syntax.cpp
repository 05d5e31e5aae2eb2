// DimExpr -> Dim. Recursive: the parser already bounds dimension nesting (E0027).
#include "lang/syntax/dim_from_syntax.h"

#include <string>

namespace relay {

std::optional<Dim> dim_from_syntax(const DimExpr& d) {
  switch (d.kind) {
    case DimKind::Const: return Dim::constant(d.value);
    case DimKind::Any: return Dim::any();
    case DimKind::Name: return Dim::symbol(std::string(d.name));
    case DimKind::Meta:
    case DimKind::Error: return std::nullopt;
    case DimKind::Add:
    case DimKind::Sub:
    case DimKind::Mul:
    case DimKind::Div: break;
  }
  if (!d.lhs || !d.rhs) return std::nullopt;
  std::optional<Dim> lhs = dim_from_syntax(*d.lhs);
  std::optional<Dim> rhs = dim_from_syntax(*d.rhs);
  if (!lhs || !rhs) return std::nullopt;
  switch (d.kind) {
    case DimKind::Add: return *lhs + *rhs;
    case DimKind::Sub: return *lhs - *rhs;
    case DimKind::Mul: return *lhs * *rhs;
    default: break;
  }
  // Div: `? / 2` stays Any, but the divisor itself must be a known positive constant.
  std::optional<int64_t> c = rhs->constant_value();
  if (!c) return std::nullopt;
  return floordiv(*lhs, *c);
}

}  // namespace relay

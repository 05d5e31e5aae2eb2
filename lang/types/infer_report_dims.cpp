// Dimension equations that were undecided when met (`n * m = 6` at a call of
// `@f(%x: Tensor[(n * m), float32], ...)`) and turned out false once the rest of the
// definition fixed their unknowns: reported as the mismatch they are, where they were met.
#include "lang/types/infer_internal.h"

namespace relay {

namespace {

// "`n * m` is `8` here, with `n` = 2 and `m` = 4": why a dimension that was written
// with the callee's names has the value the message shows.
std::string explain_side(const Dim& written, const Dim& shown,
                         const std::vector<std::pair<std::string, Dim>>& bindings) {
  std::string text = "`" + written.to_string() + "` is `" + shown.to_string() + "` here";
  for (size_t i = 0; i < bindings.size(); ++i)
    text += std::string(i == 0 ? ", with " : i + 1 == bindings.size() ? " and " : ", ") + "`" +
            bindings[i].first + "` = " + bindings[i].second.to_string();
  return text;
}

}  // namespace

void Inferencer::report_dim_equations() {
  const std::vector<DimEquation>& equations = solver_.dim_equations();
  for (size_t i = 0; i < equations.size(); ++i) {
    const DimEquation& e = equations[i];
    if (e.state != DimEquation::State::Clash) continue;
    Expectation why;
    if (auto it = equation_why_.find(i); it != equation_why_.end()) {
      why = it->second;
    } else if (e.relation && *e.relation < relation_sites_.size()) {
      why.found_expr = relation_sites_[*e.relation];  // met when the relation assigned a type
    } else {
      continue;  // every unification comes from `expect` or a relation
    }
    UnifyFailure f;
    f.reason = UnifyFailure::Reason::Dim;
    f.expected = solver_.show(e.expected_ty);
    f.found = solver_.show(e.found_ty);
    f.dim = e.axis;
    f.expected_dim = solver_.show_dim(e.expected, &f.unknown_names);
    f.found_dim = solver_.show_dim(e.found, &f.unknown_names);
    report_mismatch(f, why);
    Diagnostic& d = diags_.items().back();
    for (const Dim* side : {&e.expected, &e.found}) {
      Dim written = solver_.named_dim(*side);
      Dim shown = solver_.show_dim(*side);
      if (!(written == shown)) d.note(explain_side(written, shown, solver_.named_bindings(*side)));
    }
  }
}

}  // namespace relay

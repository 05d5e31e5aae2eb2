// `match`: clause patterns against the scrutinee's type, one result type for all bodies,
// and coverage (reference §2.2 pattern rules, §2.5).
#include "lang/types/exhaustive.h"
#include "lang/types/infer_internal.h"

namespace relay {

Ty Inferencer::infer_match(const MatchExpr* m) {
  Ty scrutinee = infer(m->scrutinee);
  Ty result = nullptr;
  const Expr* first_body = nullptr;
  for (const Clause& c : m->clauses) {
    check_pattern(c.pattern, scrutinee);
    Ty body = infer(c.body);
    if (!result) {
      result = body;
      first_body = c.body;
      continue;
    }
    expect(result, body, Expectation{c.body, {}, span_of(first_body), "expected because of the first clause"});
  }
  check_exhaustive(m, scrutinee);
  return result ? result : solver_.fresh();
}

void Inferencer::check_pattern(const Pattern* p, Ty expected) {
  if (!p) return;
  switch (p->kind) {
    case PatternKind::Wildcard:
    case PatternKind::Error:
      return;
    case PatternKind::Var: {
      if (p->var->annotation) {
        Ty declared = lower(p->var->annotation);
        expect(declared, expected, Expectation{nullptr, p->span, p->var->annotation->span,
                                               "expected because of this annotation"});
        vars_[p->var] = declared;
      } else {
        vars_[p->var] = expected;
      }
      return;
    }
    case PatternKind::Tuple: {
      std::vector<Ty> fields;
      for (size_t i = 0; i < p->fields.size(); ++i) fields.push_back(solver_.fresh());
      Ty tuple = arena_.tuple(std::span<const Ty>(fields.data(), fields.size()));
      expect(expected, tuple, Expectation{nullptr, p->span, {}, ""});
      for (size_t i = 0; i < p->fields.size(); ++i) check_pattern(p->fields[i], fields[i]);
      return;
    }
    case PatternKind::Ctor: {
      const CtorInfo* ctor = p->ctor ? env_.ctor(p->ctor) : nullptr;
      if (!ctor) return;
      auto* fn = static_cast<const FuncTy*>(solver_.instantiate(static_cast<const FuncTy*>(ctor->type)));
      expect(expected, fn->ret, Expectation{nullptr, p->span, {}, ""});
      for (size_t i = 0; i < p->fields.size() && i < fn->params.size(); ++i)
        check_pattern(p->fields[i], fn->params[i]);
      return;
    }
  }
}

namespace {

// A pattern the parser or the resolver already reported (a literal, an unknown
// constructor, the wrong number of fields). Coverage reads it as `_`, which may make
// later clauses look unreachable.
bool has_reported_error(const Pattern* p, CheckEnv& env) {
  if (!p) return false;
  switch (p->kind) {
    case PatternKind::Error: return true;
    case PatternKind::Ctor: {
      const CtorInfo* c = p->ctor ? env.ctor(p->ctor) : nullptr;
      if (!c || c->fields.size() != p->fields.size()) return true;
      break;
    }
    default: break;
  }
  for (const Pattern* f : p->fields)
    if (has_reported_error(f, env)) return true;
  return false;
}

}  // namespace

void Inferencer::check_exhaustive(const MatchExpr* m, Ty scrutinee) {
  CoverageResult cov = check_coverage(m->clauses, env_);
  bool reported = false;
  for (const Clause& c : m->clauses) reported = reported || has_reported_error(c.pattern, env_);
  if (!reported)
    for (size_t i : cov.unreachable_clauses)
      diags_.emit(DiagKind::UnreachableClause, m->clauses[i].pattern->span).tag(kTagUnnecessary);
  if (!m->complete || cov.missing.empty()) return;
  std::string listed;
  for (size_t i = 0; i < cov.missing.size(); ++i) {
    if (i) listed += i + 1 == cov.missing.size() && !cov.more_missing ? " and " : ", ";
    listed += "`" + cov.missing[i] + "`";
  }
  if (cov.more_missing) listed += " and more";
  Diagnostic& d = diags_.emit(DiagKind::NonExhaustiveMatch, span_of(m->scrutinee), {listed});
  d.note("the matched value has type `" + type_to_string(solver_.resolve(scrutinee, true)) + "`");
  // A fix: one clause per missing case after the last one. Each new clause starts with
  // the comma that ends the one before it, so the last clause's own trailing comma (if it
  // has one) ends the last new clause.
  // Relay has no expression of every type (no `todo!()`), so the body is `()`: it parses,
  // and unless the match yields `()` the checker flags each one until it is replaced,
  // which is what the user should be led to do (an empty `{ }` would not even parse).
  if (!m->clauses.empty() && !cov.more_missing) {
    std::string text;
    for (const auto& pat : cov.missing) text += ",\n    " + pat + " => () /* TODO: write this case */";
    Span end{m->span.file, m->clauses.back().span.end, m->clauses.back().span.end};
    d.help("add a clause for each missing case and replace its placeholder body `()`, or use "
           "`match?` to fail at run time instead",
           {TextEdit{end, text}});
  } else {
    d.help("add a clause for each missing case, or use `match?` to fail at run time instead");
  }
}

}  // namespace relay

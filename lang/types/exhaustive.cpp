#include "lang/types/exhaustive.h"

#include <algorithm>

namespace relay {

namespace {

constexpr size_t kMaxMissingListed = 5;

struct Pat {
  enum class Kind : uint8_t { Wild, Ctor, Tuple } kind = Kind::Wild;
  const CtorInfo* ctor = nullptr;
  std::vector<Pat> fields;
};
using Row = std::vector<Pat>;

Pat from_syntax(const Pattern* p, CheckEnv& env) {
  Pat out;
  if (!p) return out;
  switch (p->kind) {
    case PatternKind::Ctor: {
      const CtorInfo* c = p->ctor ? env.ctor(p->ctor) : nullptr;
      if (!c) return out;  // unresolved: already reported, treat as `_`
      out.kind = Pat::Kind::Ctor;
      out.ctor = c;
      for (size_t i = 0; i < c->fields.size(); ++i)
        out.fields.push_back(i < p->fields.size() ? from_syntax(p->fields[i], env) : Pat{});
      return out;
    }
    case PatternKind::Tuple:
      out.kind = Pat::Kind::Tuple;
      for (const Pattern* f : p->fields) out.fields.push_back(from_syntax(f, env));
      return out;
    default:
      return out;
  }
}

std::string to_string(const Pat& p) {
  switch (p.kind) {
    case Pat::Kind::Wild: return "_";
    case Pat::Kind::Ctor: {
      std::string s(p.ctor->name);
      if (p.fields.empty()) return s;
      s += "(";
      for (size_t i = 0; i < p.fields.size(); ++i) s += (i ? ", " : "") + to_string(p.fields[i]);
      return s + ")";
    }
    case Pat::Kind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < p.fields.size(); ++i) s += (i ? ", " : "") + to_string(p.fields[i]);
      return s + (p.fields.size() == 1 ? ",)" : ")");
    }
  }
  return "_";
}

// The head constructor a column is split by: a constructor, or a tuple of `arity`.
struct Head {
  const CtorInfo* ctor = nullptr;  // null for a tuple
  size_t arity = 0;
};

bool head_matches(const Pat& p, const Head& h) {
  if (h.ctor) return p.kind == Pat::Kind::Ctor && p.ctor == h.ctor;
  return p.kind == Pat::Kind::Tuple;
}

// Rows whose first pattern matches head `h`, with that pattern replaced by its fields.
std::vector<Row> specialize(const std::vector<Row>& rows, const Head& h) {
  std::vector<Row> out;
  for (const Row& r : rows) {
    const Pat& p = r[0];
    Row nr;
    if (p.kind == Pat::Kind::Wild) {
      nr.assign(h.arity, Pat{});
    } else if (head_matches(p, h)) {
      nr = p.fields;
      nr.resize(h.arity);
    } else {
      continue;
    }
    nr.insert(nr.end(), r.begin() + 1, r.end());
    out.push_back(std::move(nr));
  }
  return out;
}

Row rebuild(const Head& h, Row w) {
  Pat p;
  p.kind = h.ctor ? Pat::Kind::Ctor : Pat::Kind::Tuple;
  p.ctor = h.ctor;
  p.fields.assign(w.begin(), w.begin() + static_cast<ptrdiff_t>(h.arity));
  Row out{std::move(p)};
  out.insert(out.end(), w.begin() + static_cast<ptrdiff_t>(h.arity), w.end());
  return out;
}

// A vector of patterns matched by `q` and by no row of `rows`; nullopt if none exists.
std::optional<Row> witness(const std::vector<Row>& rows, const Row& q) {
  if (q.empty()) return rows.empty() ? std::optional<Row>(Row{}) : std::nullopt;
  auto split = [&](const Head& h) -> std::optional<Row> {
    Row sq = specialize({q}, h)[0];
    auto w = witness(specialize(rows, h), sq);
    if (!w) return std::nullopt;
    return rebuild(h, std::move(*w));
  };
  const Pat& first = q[0];
  if (first.kind == Pat::Kind::Ctor) return split(Head{first.ctor, first.ctor->fields.size()});
  if (first.kind == Pat::Kind::Tuple) return split(Head{nullptr, first.fields.size()});
  // `_` in q: look at what the rows use in this column.
  const AdtInfo* adt = nullptr;
  std::vector<bool> used;
  for (const Row& r : rows) {
    const Pat& p = r[0];
    if (p.kind == Pat::Kind::Tuple) return split(Head{nullptr, p.fields.size()});
    if (p.kind == Pat::Kind::Ctor) {
      adt = p.ctor->adt;
      used.resize(adt->ctors.size());
      if (p.ctor->tag < used.size()) used[p.ctor->tag] = true;
    }
  }
  bool complete = adt && !adt->ctors.empty() &&
                  std::all_of(used.begin(), used.end(), [](bool b) { return b; });
  if (complete) {
    for (const auto& c : adt->ctors)
      if (auto w = split(Head{c.get(), c->fields.size()})) return w;
    return std::nullopt;
  }
  // Some constructor is not mentioned: the rows with `_` here decide the rest.
  std::vector<Row> defaults;
  for (const Row& r : rows)
    if (r[0].kind == Pat::Kind::Wild) defaults.emplace_back(r.begin() + 1, r.end());
  auto w = witness(defaults, Row(q.begin() + 1, q.end()));
  if (!w) return std::nullopt;
  Pat missing;
  if (adt) {
    for (const auto& c : adt->ctors)
      if (!used[c->tag]) {
        missing.kind = Pat::Kind::Ctor;
        missing.ctor = c.get();
        missing.fields.assign(c->fields.size(), Pat{});
        break;
      }
  }
  Row out{std::move(missing)};
  out.insert(out.end(), w->begin(), w->end());
  return out;
}

}  // namespace

CoverageResult check_coverage(std::span<const Clause> clauses, CheckEnv& env) {
  CoverageResult result;
  std::vector<Row> rows;
  for (size_t i = 0; i < clauses.size(); ++i) {
    Row row{from_syntax(clauses[i].pattern, env)};
    if (!witness(rows, row)) result.unreachable_clauses.push_back(i);
    rows.push_back(std::move(row));
  }
  // Each missing case found is added as a row, so the next search finds a different one.
  for (size_t n = 0;; ++n) {
    auto w = witness(rows, Row{Pat{}});
    if (!w) break;
    if (n == kMaxMissingListed) {
      result.more_missing = true;
      break;
    }
    result.missing.push_back(to_string((*w)[0]));
    rows.push_back(std::move(*w));
  }
  return result;
}

}  // namespace relay

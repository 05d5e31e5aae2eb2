#include "ide/navigation.h"

#include <algorithm>

#include "lang/ops/op_registry.h"
#include "lang/syntax/walk.h"
#include "lang/types/adt.h"
#include "lang/types/database_chunks.h"
#include "lang/types/type.h"

namespace relay::ide {

namespace {

const Symbol* symbol_at(const SymbolIndex& index, uint32_t offset) {
  const Occurrence* o = index.at(offset);
  return o ? &index.symbols[o->symbol] : nullptr;
}

// Where the type definition `def` is: in the file (through the index, or the chunks when
// nothing refers to it) or in the prelude.
std::optional<Location> locate_type(const FileCheck& check, const SymbolIndex& index, const TypeDef* def) {
  if (!def) return std::nullopt;
  for (const Symbol& s : index.symbols)
    if (s.key == def) return Location{s.in_prelude, s.def};
  if (check.environment && check.environment->prelude)
    for (const Definition& d : check.environment->prelude->defs)
      if (d.kind == Definition::Type && d.type == def) return Location{true, {def->name_span.begin, def->name_span.end}};
  return std::nullopt;
}

// The type of the innermost binder or expression at `offset`.
Ty type_at(const FileCheck& check, uint32_t offset) {
  for (const CheckedDefinition& d : check.definitions) {
    if (offset < d.chunk_offset || !d.types) continue;
    const uint32_t rel = offset - d.chunk_offset;
    if (rel < d.def->span.begin || rel > d.def->span.end) continue;
    for (const auto& [decl, ty] : d.types->vars)
      if (decl->span.begin <= rel && rel <= decl->span.end) return ty;
    const Expr* best = nullptr;
    walk_expr(d.def->fn, [&](Expr* e) {
      if (e->span.begin <= rel && rel <= e->span.end && (!best || e->span.size() <= best->span.size())) best = e;
    });
    return best ? d.types->type_of(best) : nullptr;
  }
  return nullptr;
}

// The ADT a type is (a function's result, for a constructor or function value: jumping
// from `Cons` lands on `List`).
const TypeDef* adt_of(Ty t) {
  for (int depth = 0; t && depth < 8; ++depth) {
    if (auto* a = ty_as<AdtTy>(t)) return a->adt ? a->adt->def : nullptr;
    if (auto* r = ty_as<RefTy>(t)) t = r->value;
    else if (auto* f = ty_as<FuncTy>(t)) t = f->ret;
    else return nullptr;
  }
  return nullptr;
}

std::string sigil(SymbolKind k) { return k == SymbolKind::Local ? "%" : k == SymbolKind::Global ? "@" : ""; }

std::string kind_word(SymbolKind k) {
  switch (k) {
    case SymbolKind::Local: return "local variable";
    case SymbolKind::Global: return "global function";
    case SymbolKind::Type: return "type";
    case SymbolKind::Ctor: return "constructor";
    case SymbolKind::TypeParam: return "type parameter";
  }
  return "symbol";
}

// Why `s` cannot be renamed at all; empty when it can.
std::string unrenameable(const Symbol& s) {
  if (s.in_prelude) return "`" + sigil(s.kind) + s.name + "` is defined in the prelude and cannot be renamed here";
  if (s.graph) return "graph bindings like `%" + s.name + "` are numbered by position and cannot be renamed";
  return "";
}

// Names defined at the top level of the file and of the prelude, of one kind.
std::vector<std::string_view> top_level_names(const FileCheck& check, SymbolKind kind) {
  std::vector<std::string_view> out;
  auto add = [&](const Module& m) {
    for (const Definition& d : m.defs) {
      if (d.kind == Definition::Func && d.func && kind == SymbolKind::Global) out.push_back(d.func->name);
      if (d.kind != Definition::Type || !d.type) continue;
      if (kind == SymbolKind::Type) out.push_back(d.type->name);
      if (kind == SymbolKind::Ctor)
        for (const CtorDef* c : d.type->ctors) out.push_back(c->name);
    }
  };
  for (const auto& c : check.chunks)
    if (c->module) add(*c->module);
  if (check.environment && check.environment->prelude) add(*check.environment->prelude);
  return out;
}

}  // namespace

std::optional<Location> definition_at(const SymbolIndex& index, uint32_t offset) {
  const Symbol* s = symbol_at(index, offset);
  if (!s) return std::nullopt;
  return Location{s->in_prelude, s->def};
}

std::optional<Location> type_definition_at(const FileCheck& check, const SymbolIndex& index, uint32_t offset) {
  if (const Symbol* s = symbol_at(index, offset)) {
    if (s->kind == SymbolKind::Type) return Location{s->in_prelude, s->def};
    if (s->kind == SymbolKind::Ctor) return locate_type(check, index, static_cast<const CtorDef*>(s->key)->owner);
  }
  return locate_type(check, index, adt_of(type_at(check, offset)));
}

std::vector<Location> references_at(const SymbolIndex& index, uint32_t offset, bool include_declaration) {
  std::vector<Location> out;
  const Symbol* s = symbol_at(index, offset);
  if (!s) return out;
  if (include_declaration) out.push_back({s->in_prelude, s->def});
  for (const Range& r : s->refs) out.push_back({false, r});
  return out;
}

std::vector<Highlight> highlights_at(const SymbolIndex& index, uint32_t offset) {
  std::vector<Highlight> out;
  const Symbol* s = symbol_at(index, offset);
  if (!s) return out;
  if (!s->in_prelude) out.push_back({s->def, true});
  for (const Range& r : s->refs) out.push_back({r, false});
  std::sort(out.begin(), out.end(), [](const Highlight& a, const Highlight& b) { return a.range < b.range; });
  return out;
}

RenameResult prepare_rename(const SymbolIndex& index, uint32_t offset) {
  RenameResult r;
  const Occurrence* o = index.at(offset);
  if (!o) {
    r.error = "there is no variable, function, type or constructor here to rename";
    return r;
  }
  const Symbol& s = index.symbols[o->symbol];
  r.error = unrenameable(s);
  r.range = o->range;
  r.placeholder = sigil(s.kind) + s.name;
  return r;
}

RenameResult rename(const FileCheck& check, const SymbolIndex& index, uint32_t offset, std::string_view new_name) {
  RenameResult r = prepare_rename(index, offset);
  if (!r.error.empty()) return r;
  const Symbol& s = index.symbols[index.at(offset)->symbol];
  const std::string sg = sigil(s.kind);
  std::string_view name = new_name;
  const std::string shown = "`" + std::string(new_name) + "`";
  // The sigil is optional when typed; a wrong one is refused rather than silently dropped.
  if (!name.empty() && (name[0] == '%' || name[0] == '@')) {
    if (sg.empty() || name[0] != sg[0]) {
      r.error = "a " + kind_word(s.kind) + "'s name " +
                (sg.empty() ? std::string("has no sigil") : "starts with `" + sg + "`") + ", so " + shown +
                " is not a valid new name";
      return r;
    }
    name.remove_prefix(1);
  }
  if (!is_identifier(name)) {
    r.error = shown + " is not a valid name: names are letters, digits and `_`, not starting with a digit";
    return r;
  }
  const bool upper = name[0] >= 'A' && name[0] <= 'Z';
  if ((s.kind == SymbolKind::Type || s.kind == SymbolKind::Ctor) && !upper) {
    r.error = "a " + kind_word(s.kind) + " name must start with an uppercase letter, so " + shown + " is not valid";
    return r;
  }
  if ((s.kind == SymbolKind::Type && name == "Tensor") ||
      (s.kind == SymbolKind::Ctor && (name == "True" || name == "False" || find_op(name)))) {
    r.error = shown + " is a built-in name and cannot name a " + kind_word(s.kind);
    return r;
  }
  if (name != s.name) {
    bool taken = false;
    if (s.kind == SymbolKind::Local || s.kind == SymbolKind::TypeParam) {
      // Scope: the top-level definition. Shadowing is legal Relay, but a rename that
      // introduces it could change which binder a use refers to, so it is refused.
      for (const Symbol& o : index.symbols)
        taken |= &o != &s && o.kind == s.kind && !o.in_prelude && o.owner == s.owner && o.name == name;
      if (s.kind == SymbolKind::TypeParam)
        for (std::string_view t : top_level_names(check, SymbolKind::Type)) taken |= t == name;
    } else {
      for (std::string_view t : top_level_names(check, s.kind)) taken |= t == name;
    }
    if (taken) {
      r.error = "a " + kind_word(s.kind) + " named `" + sg + std::string(name) + "` already exists" +
                (s.kind == SymbolKind::Local || s.kind == SymbolKind::TypeParam ? " in this definition" : "");
      return r;
    }
  }
  r.new_text = sg + std::string(name);
  r.edits.push_back(s.def);
  r.edits.insert(r.edits.end(), s.refs.begin(), s.refs.end());
  std::sort(r.edits.begin(), r.edits.end());
  return r;
}

}  // namespace relay::ide

#include "lang/types/database.h"

#include <algorithm>
#include <functional>

#include "lang/syntax/frontend.h"
#include "lang/syntax/parser.h"
#include "lang/syntax/resolve.h"
#include "lang/syntax/walk.h"
#include "lang/types/check_module.h"
#include "lang/types/database_chunks.h"

namespace relay {

namespace {

uint64_t hash_text(std::string_view s) { return std::hash<std::string_view>{}(s); }
uint64_t mix(uint64_t h, uint64_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

bool starts_item(std::string_view line) {
  auto word = [&](std::string_view w) {
    return line.size() > w.size() && line.substr(0, w.size()) == w &&
           (line[w.size()] == ' ' || line[w.size()] == '\t' || line[w.size()] == '@' ||
            line[w.size()] == '\n' || line[w.size()] == '\r');
  };
  return word("def") || word("type") || word("extern") || line.substr(0, 2) == "#[";
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> split_chunks(std::string_view text) {
  std::vector<uint32_t> cuts{0};
  int comment_depth = 0;
  bool in_string = false;
  uint32_t doc_start = UINT32_MAX;  // first line of a run of `///` lines
  size_t i = 0;
  while (i < text.size()) {
    // At a line start outside comments and strings.
    size_t line_end = text.find('\n', i);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(i, line_end - i);
    if (comment_depth == 0 && !in_string) {
      if (line.substr(0, 3) == "///") {
        if (doc_start == UINT32_MAX) doc_start = static_cast<uint32_t>(i);
      } else {
        if (starts_item(text.substr(i, line_end + 1 - i)) && i > 0) {
          uint32_t at = doc_start != UINT32_MAX ? doc_start : static_cast<uint32_t>(i);
          if (at > cuts.back()) cuts.push_back(at);
        }
        if (!line.empty() && line.find_first_not_of(" \t\r") != std::string_view::npos) doc_start = UINT32_MAX;
      }
      if (line.substr(0, 2) == "#[" && line.substr(0, 11) == "#[metadata]") break;  // JSON to the end
    }
    // Track block comments and strings through the line.
    for (size_t k = 0; k < line.size(); ++k) {
      char c = line[k];
      if (in_string) {
        if (c == '\\') ++k;
        else if (c == '"') in_string = false;
      } else if (comment_depth > 0) {
        if (c == '*' && k + 1 < line.size() && line[k + 1] == '/') --comment_depth, ++k;
        else if (c == '/' && k + 1 < line.size() && line[k + 1] == '*') ++comment_depth, ++k;
      } else if (c == '/' && k + 1 < line.size() && line[k + 1] == '/') {
        break;  // line comment
      } else if (c == '/' && k + 1 < line.size() && line[k + 1] == '*') {
        ++comment_depth, ++k;
      } else if (c == '"') {
        in_string = true;
      }
    }
    in_string = false;  // strings do not span lines
    i = line_end + 1;
  }
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (size_t k = 0; k < cuts.size(); ++k)
    out.emplace_back(cuts[k], k + 1 < cuts.size() ? cuts[k + 1] : static_cast<uint32_t>(text.size()));
  return out;
}

// ---- environment ---------------------------------------------------------------------

const GlobalSignature* DbEnvironment::global(std::string_view name) {
  auto f = funcs.find(name);
  if (f != funcs.end()) {
    auto& slot = sigs[std::string(name)];
    if (!slot.sig || slot.header_hash != f->second->header_hash) {
      slot.sig = build_signature(*f->second->def, *this);
      slot.header_hash = f->second->header_hash;
      if (signatures_built) ++*signatures_built;
    }
    return slot.sig.get();
  }
  if (!prelude) return nullptr;
  for (const Definition& d : prelude->defs) {
    if (d.kind != Definition::Func || d.func->name != name) continue;
    auto& sig = prelude_sigs[d.func];
    if (!sig) sig = build_signature(*d.func, *this);
    return sig.get();
  }
  return nullptr;
}

const AdtInfo* DbEnvironment::adt(const TypeDef* def) { return adts.adt(def); }

const CtorInfo* DbEnvironment::ctor(const CtorDef* def) { return adts.ctor(def); }

// ---- the database --------------------------------------------------------------------

struct CheckDatabase::FileState {
  std::vector<std::shared_ptr<DbChunk>> chunks;
  uint64_t env_key = 0;
  std::shared_ptr<DbEnvironment> env;
  uint64_t checked_revision = UINT64_MAX;
  std::shared_ptr<const FileCheck> last;
};

CheckDatabase::CheckDatabase() = default;
CheckDatabase::~CheckDatabase() = default;

void CheckDatabase::set_file(const std::string& path, std::string text) {
  std::lock_guard<std::mutex> lock(inputs_mutex_);
  uint64_t rev = ++revision_;
  inputs_[path] = {std::move(text), rev};
}

void CheckDatabase::remove_file(const std::string& path) {
  std::lock_guard<std::mutex> lock(inputs_mutex_);
  ++revision_;
  inputs_.erase(path);
}

Span CheckDatabase::to_file_span(Span s) const {
  auto it = chunk_origin_.find(s.file);
  if (it == chunk_origin_.end()) return s;
  return Span{it->second.first, s.begin + it->second.second, s.end + it->second.second};
}

void CheckDatabase::remap(Diagnostic& d) const {
  for (Label& l : d.labels) l.span = to_file_span(l.span);
  for (Help& h : d.helps)
    for (TextEdit& e : h.edits) e.span = to_file_span(e.span);
}

namespace {

std::shared_ptr<DbChunk> parse_chunk(SourceManager& sources, const std::string& path, std::string text,
                                     bool first) {
  auto c = std::make_shared<DbChunk>();
  c->text = std::move(text);
  c->first = first;
  c->file = sources.add(path, c->text);
  DiagnosticBag diags;
  ParseOptions opts;
  opts.require_version = first;
  c->module = parse_module(sources.get(c->file), diags, opts);
  c->parse_diags = std::move(diags.items());
  bool structural = false;  // type definitions, file attributes, metadata
  uint64_t h = 0;
  for (const Definition& d : c->module->defs) {
    if (d.kind == Definition::Type) structural = true;
    else h = mix(h, hash_text(d.func->name));
  }
  if (c->module->has_version || !c->module->imports.empty() || c->module->metadata ||
      c->module->defs.empty())
    structural = true;
  c->shape_hash = structural ? mix(h, hash_text(c->text)) : h;
  for (const Definition& d : c->module->defs) {
    if (d.kind != Definition::Func) continue;
    DbChunk::Def def{d.func, 0, {}, 0, nullptr};
    uint32_t body = d.func->fn->body ? d.func->fn->body->span.begin : d.func->span.end;
    uint32_t begin = std::min(d.func->span.begin, body);
    def.header_hash = hash_text(std::string_view(c->text).substr(begin, body - begin));
    c->defs.push_back(std::move(def));
  }
  return c;
}

}  // namespace

std::shared_ptr<const FileCheck> CheckDatabase::check(const std::string& path) {
  std::string text;
  uint64_t rev;
  {
    std::lock_guard<std::mutex> lock(inputs_mutex_);
    auto it = inputs_.find(path);
    if (it == inputs_.end()) return nullptr;
    text = it->second.first;
    rev = it->second.second;
  }
  auto& slot = files_[path];
  if (!slot) slot = std::make_unique<FileState>();
  FileState& st = *slot;
  if (st.last && st.checked_revision == rev) return st.last;
  const uint64_t started = revision_.load();
  auto cancelled = [&] { return revision_.load() != started; };

  FileId file = sources_.add(path, text);
  // 1. Chunks: reuse every chunk whose text (and position class) is unchanged.
  std::unordered_multimap<std::string_view, std::shared_ptr<DbChunk>> old;
  for (auto& c : st.chunks) old.emplace(c->text, c);
  std::vector<std::shared_ptr<DbChunk>> chunks;
  for (auto [b, e] : split_chunks(text)) {
    std::string_view piece = std::string_view(text).substr(b, e - b);
    std::shared_ptr<DbChunk> c;
    auto range = old.equal_range(piece);
    for (auto it = range.first; it != range.second; ++it)
      if (it->second->first == (b == 0)) {
        c = it->second;
        old.erase(it);
        break;
      }
    if (!c) {
      c = parse_chunk(sources_, path, std::string(piece), b == 0);
      ++stats_.chunks_parsed;
    }
    c->offset = b;
    chunk_origin_[c->file] = {file, b};
    chunks.push_back(std::move(c));
  }
  // 2. Resolution environment: if the set of names, a type definition, the header or
  //    the metadata changed, every chunk is re-parsed and re-resolved.
  uint64_t env_key = 0;
  for (auto& c : chunks) env_key = mix(env_key, c->shape_hash);
  if (!st.env || env_key != st.env_key) {
    for (auto& c : chunks) {
      if (!c->resolved) continue;  // fresh parse already
      auto fresh = parse_chunk(sources_, path, c->text, c->first);
      fresh->offset = c->offset;
      chunk_origin_[fresh->file] = {file, c->offset};
      ++stats_.chunks_parsed;
      c = std::move(fresh);
    }
    ++stats_.full_resolves;
    auto env = std::make_shared<DbEnvironment>();
    env->signatures_built = &stats_.signatures_built;
    bool imports_prelude = false;
    for (auto& c : chunks) {
      imports_prelude |= c->module->imports_prelude;
      if (c->module->metadata) env->meta = c->module->metadata.get();
    }
    if (imports_prelude) env->prelude = load_prelude(sources_);
    st.env = env;
    st.env_key = env_key;
  }
  DbEnvironment& env = *st.env;
  env.funcs.clear();
  for (auto& c : chunks)
    for (auto& d : c->defs) env.funcs.emplace(d.def->name, &d);  // first definition wins
  // 3. Resolve new chunks against all the others; re-link every chunk's global refs.
  std::vector<const Module*> modules;
  for (auto& c : chunks) modules.push_back(c->module.get());
  std::shared_ptr<Metadata> metadata;
  for (auto& c : chunks)
    if (c->module->metadata) metadata = c->module->metadata;
  for (auto& c : chunks) {
    if (c->resolved) continue;
    ResolveOptions opts;
    if (env.prelude) opts.imports.push_back(env.prelude.get());
    for (const Module* m : modules)
      if (m != c->module.get()) opts.imports.push_back(m);
    if (!c->module->metadata) c->module->metadata = metadata;
    DiagnosticBag diags;
    resolve_names(*c->module, diags, opts);
    c->resolve_diags = std::move(diags.items());
    c->resolved = true;
    for (auto& d : c->defs)
      walk_expr(d.def->fn, [&](Expr* e) {
        if (e->kind == ExprKind::GlobalRef) d.global_refs.push_back(static_cast<RefExpr*>(e));
      });
  }
  for (auto& c : chunks)
    for (auto& d : c->defs)
      for (RefExpr* r : d.global_refs) {
        auto it = env.funcs.find(r->name);
        if (it != env.funcs.end()) r->global = it->second->def;
      }
  // ADTs of this generation (built once per environment).
  if (!env.adts.built()) {
    std::vector<const TypeDef*> types;
    for (auto& c : chunks)
      for (const Definition& d : c->module->defs)
        if (d.kind == Definition::Type) types.push_back(d.type);
    if (env.prelude)
      for (const Definition& d : env.prelude->defs)
        if (d.kind == Definition::Type) types.push_back(d.type);
    env.adts.build(types, *env.arena, env);
  }
  // 4. Infer each definition whose inputs changed: its chunk (a new chunk means new
  //    Def entries), and the signatures of the globals it refers to.
  for (auto& c : chunks)
    for (auto& d : c->defs) {
      uint64_t key = mix(env_key, 1);
      for (RefExpr* r : d.global_refs) {
        auto it = env.funcs.find(r->name);
        key = mix(key, hash_text(r->name));
        key = mix(key, it == env.funcs.end() ? 0 : it->second->header_hash);
      }
      if (d.types && d.inferred_key == key) continue;
      if (progress_hook_) progress_hook_();
      if (cancelled()) return nullptr;
      d.types = std::make_shared<InferredTypes>(infer_definition(*d.def, env));
      d.inferred_key = key;
      ++stats_.definitions_inferred;
    }
  // 5. The result, with every span moved to the real file.
  auto result = std::make_shared<FileCheck>();
  result->revision = rev;
  result->file = file;
  result->environment = st.env;
  std::unordered_map<std::string_view, const DbChunk::Def*> seen;
  for (auto& c : chunks) {
    for (const Diagnostic& d : c->parse_diags) result->diagnostics.push_back(d);
    for (const Diagnostic& d : c->resolve_diags) result->diagnostics.push_back(d);
    for (auto& d : c->defs) {
      if (auto [it, fresh] = seen.emplace(d.def->name, &d); !fresh) {
        result->diagnostics.push_back(make_diagnostic(DiagKind::DuplicateGlobal, d.def->name_span,
                                                      {std::string(d.def->name)}));
      }
      if (!has_error_within(c->parse_diags, d.def->span) && !has_error_within(c->resolve_diags, d.def->span))
        for (const Diagnostic& diag : d.types->diagnostics) result->diagnostics.push_back(diag);
      result->definitions.push_back(CheckedDefinition{d.def, d.types, c->file, c->offset});
    }
    result->chunks.push_back(c);
  }
  for (Diagnostic& d : result->diagnostics) remap(d);
  DiagnosticBag sorted;
  for (auto& d : result->diagnostics) sorted.add(std::move(d));
  sorted.sort();
  result->diagnostics = std::move(sorted.items());
  st.chunks = std::move(chunks);
  st.checked_revision = rev;
  st.last = result;
  return result;
}

std::string FileCheck::global_types() const {
  std::string out;
  for (const auto& d : definitions)
    out += "@" + std::string(d.def->name) + ": " + type_to_string(d.types->type) + "\n";
  return out;
}

size_t FileCheck::error_count() const {
  return static_cast<size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                           [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

}  // namespace relay

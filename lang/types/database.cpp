#include "lang/types/database.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <unordered_set>

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

// Length of the common prefix of a and b, at most `limit`. Compared a block at a time
// with memcmp (vectorised) before narrowing down: this runs on every keystroke over
// the whole file.
size_t common_prefix(std::string_view a, std::string_view b, size_t limit) {
  constexpr size_t kBlock = 256;
  size_t i = 0;
  while (i + kBlock <= limit && std::memcmp(a.data() + i, b.data() + i, kBlock) == 0) i += kBlock;
  while (i < limit && a[i] == b[i]) ++i;
  return i;
}

// Length of the common suffix of a and b, at most `limit`.
size_t common_suffix(std::string_view a, std::string_view b, size_t limit) {
  constexpr size_t kBlock = 256;
  const char* ea = a.data() + a.size();
  const char* eb = b.data() + b.size();
  size_t i = 0;
  while (i + kBlock <= limit && std::memcmp(ea - i - kBlock, eb - i - kBlock, kBlock) == 0) i += kBlock;
  while (i < limit && ea[-1 - static_cast<std::ptrdiff_t>(i)] == eb[-1 - static_cast<std::ptrdiff_t>(i)]) ++i;
  return i;
}

bool starts_item(std::string_view line) {
  auto word = [&](std::string_view w) {
    return line.size() > w.size() && line.substr(0, w.size()) == w &&
           (line[w.size()] == ' ' || line[w.size()] == '\t' || line[w.size()] == '@' ||
            line[w.size()] == '\n' || line[w.size()] == '\r');
  };
  return word("def") || word("type") || word("extern") || line.substr(0, 2) == "#[";
}

}  // namespace

ChunkCuts split_chunks(std::string_view text) {
  ChunkCuts result;
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
      if (line.substr(0, 11) == "#[metadata]") {  // JSON to the end
        result.clean_end = false;
        break;
      }
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
  if (comment_depth > 0 || doc_start != UINT32_MAX) result.clean_end = false;
  for (size_t k = 0; k < cuts.size(); ++k)
    result.ranges.emplace_back(cuts[k], k + 1 < cuts.size() ? cuts[k + 1] : static_cast<uint32_t>(text.size()));
  return result;
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
  FileId file = UINT32_MAX;                   // one id for every revision of the file
  std::shared_ptr<const SourceFile> source;   // the text `chunks` were cut from
  std::vector<std::shared_ptr<DbChunk>> chunks;
  uint64_t env_key = 0;
  std::shared_ptr<DbEnvironment> env;
  uint64_t checked_revision = UINT64_MAX;
  uint64_t source_revision = UINT64_MAX;  // the revision whose text `file` holds
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
  c->source = sources.add_shared(path, std::move(text));
  c->first = first;
  c->file = c->source->id;
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
  c->shape_hash = structural ? mix(h, hash_text(c->text())) : h;
  for (const Definition& d : c->module->defs) {
    if (d.kind != Definition::Func) continue;
    DbChunk::Def def{d.func, 0, {}, 0, nullptr, {}};
    uint32_t body = d.func->fn->body ? d.func->fn->body->span.begin : d.func->span.end;
    uint32_t begin = std::min(d.func->span.begin, body);
    def.header_hash = hash_text(c->text().substr(begin, body - begin));
    c->defs.push_back(std::move(def));
  }
  return c;
}

}  // namespace

CheckDatabase::ChunkList CheckDatabase::cut_range(const ChunkList& old, size_t from, size_t to,
                                                  std::string_view text,
                                                  const std::vector<std::pair<uint32_t, uint32_t>>& ranges,
                                                  const std::string& path) {
  std::unordered_multimap<std::string_view, std::shared_ptr<DbChunk>> reusable;
  for (size_t i = from; i < to; ++i) reusable.emplace(old[i]->text(), old[i]);
  ChunkList out;
  for (auto [b, e] : ranges) {
    std::string_view piece = text.substr(b, e - b);
    std::shared_ptr<DbChunk> c;
    auto range = reusable.equal_range(piece);
    for (auto it = range.first; it != range.second; ++it)
      if (it->second->first == (b == 0)) {
        c = it->second;
        reusable.erase(it);
        break;
      }
    if (!c) {
      c = parse_chunk(sources_, path, std::string(piece), b == 0);
      ++stats_.chunks_parsed;
    }
    c->offset = b;
    out.push_back(std::move(c));
  }
  return out;
}

CheckDatabase::ChunkList CheckDatabase::recut_chunks(const ChunkList& old, std::string_view before,
                                                     std::string_view text, const std::string& path) {
  if (old.empty() || old.back()->end() != before.size()) return {};
  // The changed bytes: before[prefix, before.size() - suffix) became
  // text[prefix, text.size() - suffix).
  const size_t limit = std::min(before.size(), text.size());
  const size_t prefix = common_prefix(before, text, limit);
  const size_t suffix = common_suffix(before, text, limit - prefix);
  // The chunks touching them, plus the chunk before. The chunk before lies wholly in the
  // unchanged prefix, item line included, so its start is still a cut; the first touched
  // chunk's start may not be (its `///` lines stop being a doc comment when the edit
  // puts another line between them and their `def`), and a chunk ending exactly where
  // the change starts may absorb it (text typed at the start of a `def` line).
  size_t first = 0;
  while (first + 1 < old.size() && old[first]->end() < prefix) ++first;
  if (first > 0) --first;
  size_t last = first;
  while (last + 1 < old.size() && old[last + 1]->offset <= before.size() - suffix) ++last;
  const int64_t delta = static_cast<int64_t>(text.size()) - static_cast<int64_t>(before.size());
  const uint32_t region_begin = old[first]->offset;
  const uint32_t region_end = static_cast<uint32_t>(static_cast<int64_t>(old[last]->end()) + delta);
  ChunkCuts cuts = split_chunks(text.substr(region_begin, region_end - region_begin));
  if (!cuts.clean_end && region_end != text.size()) return {};
  for (auto& [b, e] : cuts.ranges) b += region_begin, e += region_begin;

  ChunkList out(old.begin(), old.begin() + static_cast<std::ptrdiff_t>(first));
  for (auto& c : cut_range(old, first, last + 1, text, cuts.ranges, path)) out.push_back(std::move(c));
  for (size_t i = last + 1; i < old.size(); ++i) {
    old[i]->offset = static_cast<uint32_t>(static_cast<int64_t>(old[i]->offset) + delta);
    out.push_back(old[i]);
  }
  return out;
}

std::vector<DbForeignLabel> CheckDatabase::foreign_labels(const InferredTypes& types, FileId own,
                                                                      const ChunkList& chunks) const {
  std::vector<DbForeignLabel> out;
  for (size_t i = 0; i < types.diagnostics.size(); ++i) {
    const auto& labels = types.diagnostics[i].labels;
    for (size_t k = 0; k < labels.size(); ++k) {
      Span s = labels[k].span;
      if (s.file == own || !chunk_origin_.count(s.file)) continue;
      for (const auto& c : chunks) {
        if (c->file != s.file) continue;
        for (const auto& d : c->defs)
          if (d.def->span.begin <= s.begin && s.end <= d.def->span.end)
            out.push_back({i, k, std::string(d.def->name), s.begin - d.def->span.begin, s.end - d.def->span.begin});
      }
    }
  }
  return out;
}

std::shared_ptr<const FileCheck> CheckDatabase::check(const std::string& path) {
  std::string text;
  uint64_t rev;
  bool text_in_sources = false;
  {
    std::lock_guard<std::mutex> lock(inputs_mutex_);
    auto it = inputs_.find(path);
    if (it == inputs_.end()) return nullptr;
    rev = it->second.second;
    // An unchanged file answers from the cache without copying its text (every LSP
    // request asks for the current check).
    auto known = files_.find(path);
    if (known != files_.end() && known->second->last && known->second->checked_revision == rev)
      return known->second->last;
    // The text moves into the file's SourceFile: keeping a second copy here would cost
    // as much memory as the file again (the language server holds a third). A check of
    // this revision that was given up (for a newer revision of another file) moved it
    // there already.
    text_in_sources = known != files_.end() && known->second->source_revision == rev;
    if (!text_in_sources) {
      text = std::move(it->second.first);
      it->second.first.clear();
    }
  }
  auto& slot = files_[path];
  if (!slot) slot = std::make_unique<FileState>();
  FileState& st = *slot;
  const uint64_t started = revision_.load();
  auto cancelled = [&] { return revision_.load() != started; };

  // The new text replaces the file's text under its one id; the previous text stays
  // alive (in `previous` and in older FileChecks) for as long as it is used.
  std::shared_ptr<const SourceFile> previous = st.source;
  if (!text_in_sources) {
    if (st.file == UINT32_MAX) st.file = sources_.add(path, std::move(text));
    else sources_.replace(st.file, std::move(text));
    st.source_revision = rev;
  }
  const FileId file = st.file;
  std::shared_ptr<const SourceFile> source = sources_.share(file);
  std::string_view current = source->text;

  // 1. Chunks: reuse every chunk whose text (and position class) is unchanged.
  std::vector<std::shared_ptr<DbChunk>> chunks = previous ? recut_chunks(st.chunks, previous->text, current, path)
                                                          : std::vector<std::shared_ptr<DbChunk>>{};
  if (chunks.empty()) chunks = cut_range(st.chunks, 0, st.chunks.size(), current, split_chunks(current).ranges, path);
  for (auto& c : chunks) chunk_origin_[c->file] = {file, c->offset};
  // 2. Resolution environment: if the set of names, a type definition, the header or
  //    the metadata changed, every chunk is re-parsed and re-resolved.
  uint64_t env_key = 0;
  for (auto& c : chunks) env_key = mix(env_key, c->shape_hash);
  if (!st.env || env_key != st.env_key) {
    for (auto& c : chunks) {
      if (!c->resolved) continue;  // fresh parse already
      auto fresh = parse_chunk(sources_, path, std::string(c->text()), c->first);
      fresh->offset = c->offset;
      chunk_origin_.erase(c->file);
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
  // One name index over the prelude and every chunk serves each chunk's resolution (a
  // chunk's own names are found in its own tables first); the same import list gives
  // did-you-mean candidates.
  ResolveOptions opts;
  bool any_unresolved = false;
  for (auto& c : chunks) any_unresolved |= !c->resolved;
  ImportIndex index;
  if (any_unresolved) {
    if (env.prelude) opts.imports.push_back(env.prelude.get());
    opts.imports.insert(opts.imports.end(), modules.begin(), modules.end());
    for (const Module* m : opts.imports) index.add(*m);
    opts.index = &index;
  }
  for (auto& c : chunks) {
    if (c->resolved) continue;
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
  // The state now matches `source` (even if this check is cancelled below): forget
  // the chunks that were not carried over.
  {
    std::unordered_set<const DbChunk*> live;
    for (auto& c : chunks) live.insert(c.get());
    for (auto& c : st.chunks)
      if (!live.count(c.get())) chunk_origin_.erase(c->file);
  }
  st.chunks = chunks;
  st.source = source;
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
      d.foreign_labels = foreign_labels(*d.types, c->file, chunks);
      ++stats_.definitions_inferred;
    }
  // 5. The result, with every span moved to the real file.
  auto result = std::make_shared<FileCheck>();
  result->revision = rev;
  result->file = file;
  result->source = source;
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
      EarlierErrors earlier(d.def->span);
      earlier.add(c->parse_diags);
      earlier.add(c->resolve_diags);
      {
        const size_t first = result->diagnostics.size();
        std::vector<size_t> kept_at(d.types->diagnostics.size(), SIZE_MAX);  // index in result
        for (size_t i = 0; i < d.types->diagnostics.size(); ++i) {
          const Diagnostic& diag = d.types->diagnostics[i];
          if (earlier.hides(diag)) continue;
          kept_at[i] = result->diagnostics.size() - first;
          result->diagnostics.push_back(diag);
        }
        for (const auto& f : d.foreign_labels) {
          if (kept_at[f.diagnostic] == SIZE_MAX) continue;
          Span& span = result->diagnostics[first + kept_at[f.diagnostic]].labels[f.label].span;
          auto it = env.funcs.find(f.callee);
          const FuncDef* callee = it == env.funcs.end() ? nullptr : it->second->def;
          span = callee ? Span{callee->span.file, callee->span.begin + f.begin, callee->span.begin + f.end}
                        : d.def->name_span;  // unreachable: a callee's removal re-infers its callers
        }
      }
      result->definitions.push_back(CheckedDefinition{d.def, d.types, c->file, c->offset});
    }
    result->chunks.push_back(c);
  }
  for (Diagnostic& d : result->diagnostics) remap(d);
  DiagnosticBag sorted;
  for (auto& d : result->diagnostics) sorted.add(std::move(d));
  sorted.sort();
  result->diagnostics = std::move(sorted.items());
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

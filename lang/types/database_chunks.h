// Internals of the checking database (database.h): how a file is cut into chunks and
// what is cached per chunk. Not a public header.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lang/base/source.h"
#include "lang/syntax/ast.h"
#include "lang/types/env.h"
#include "lang/types/infer.h"

namespace relay {

// [begin, end) byte ranges covering `text`, cut before every line that starts (at column
// 0) with `def`, `type`, `extern` or `#[`, together with the `///` lines right above it.
// Block comments and strings are skipped, so a `def` inside them does not cut.
struct ChunkCuts {
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
  // The text ends outside block comments, with no `///` lines waiting for the item they
  // document, and before any `#[metadata]`: a piece of a file that ends cleanly and
  // starts at a cut is cut exactly as the whole file would be there.
  bool clean_end = true;
};
ChunkCuts split_chunks(std::string_view text);

// A label of a definition's diagnostic that points into another definition's header
// (the callee's name, a parameter annotation). The callee's chunk may be re-parsed later
// without changing its header, and hence without re-inferring the caller, so such a
// label is kept as (callee, offset from its start) and placed afresh in each result.
struct DbForeignLabel {
  size_t diagnostic, label;
  std::string callee;
  uint32_t begin, end;  // relative to the callee's FuncDef span
};

struct DbChunk {
  std::shared_ptr<const SourceFile> source;  // its own SourceFile, released with the chunk
  bool first = false;  // parsed as the start of the file (warns about a missing header)
  FileId file = 0;     // source->id
  std::string_view text() const { return source->text; }
  uint32_t end() const { return offset + static_cast<uint32_t>(source->text.size()); }
  uint32_t offset = 0;  // current position in the real file (updated every revision)
  std::unique_ptr<Module> module;
  std::vector<Diagnostic> parse_diags;
  std::vector<Diagnostic> resolve_diags;
  bool resolved = false;
  // Names this chunk defines, and for type/header/metadata chunks their whole text:
  // what other chunks' resolution depends on.
  uint64_t shape_hash = 0;
  struct Def {
    FuncDef* def;
    uint64_t header_hash;             // hash of the text before the body
    std::vector<RefExpr*> global_refs;  // re-linked by name every revision
    uint64_t inferred_key = 0;
    std::shared_ptr<const InferredTypes> types;
    std::vector<DbForeignLabel> foreign_labels;
  };
  std::vector<Def> defs;
};

// The environment of one file at one resolution generation: current definitions by
// name, ADT infos, signatures cached by header.
struct DbEnvironment final : CheckEnv {
  std::unordered_map<std::string_view, DbChunk::Def*> funcs;
  AdtTable adts;
  std::shared_ptr<TypeArena> arena = std::make_shared<TypeArena>();
  const Metadata* meta = nullptr;
  std::shared_ptr<const Module> prelude;
  struct CachedSig {
    uint64_t header_hash;
    std::shared_ptr<GlobalSignature> sig;
  };
  std::unordered_map<std::string, CachedSig> sigs;
  std::unordered_map<const FuncDef*, std::shared_ptr<GlobalSignature>> prelude_sigs;
  size_t* signatures_built = nullptr;

  const GlobalSignature* global(std::string_view name) override;
  const AdtInfo* adt(const TypeDef* def) override;
  const CtorInfo* ctor(const CtorDef* def) override;
  const Metadata* metadata() override { return meta; }
};

}  // namespace relay

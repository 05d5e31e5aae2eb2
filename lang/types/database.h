// The checking database: file texts in, diagnostics and types out, recomputing only what
// an edit invalidates. Shared by the language server, the REPL and the notebook kernel.
//
// Inputs are file texts (`set_file`). Derived results, each cached and keyed by content:
//   * chunks: a file is cut at top-level items (a line starting with `def`, `type`,
//     `extern` or `#[`, with the `///` doc lines above it); each chunk is parsed on its
//     own, as its own SourceFile, so an edit re-parses only the chunk it touches and
//     unchanged chunks are reused even when they move;
//   * resolution: a chunk's names are resolved against the other chunks; references to
//     globals are re-linked by name when another chunk is re-parsed;
//   * signatures: per global, from its header (parameter and result annotations);
//   * inferred bodies: per definition, keyed by the chunk and by the signatures of the
//     globals it calls. Editing a body re-infers that definition only; its callers are
//     re-inferred only when its signature changes (reference §2.4: callers see only
//     annotations).
// Adding, removing or renaming a definition, or editing a type definition, the header
// or the metadata section, re-resolves the whole file (correct, and still cheap).
//
// Threads: `set_file` may be called from any thread; `check` runs on one thread at a
// time. `check` gives up (returns nullptr) between definitions once a newer revision
// exists, so a long check never delays a newer edit.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "lang/base/diagnostic.h"
#include "lang/base/source.h"
#include "lang/syntax/ast.h"
#include "lang/types/infer.h"

namespace relay {

struct CheckStats {
  size_t chunks_parsed = 0;
  size_t full_resolves = 0;       // whole-file re-resolutions
  size_t signatures_built = 0;
  size_t definitions_inferred = 0;
};

struct DbChunk;  // database_chunks.h
struct DbForeignLabel;
struct DbEnvironment;

// One definition's results in a checked file.
struct CheckedDefinition {
  const FuncDef* def = nullptr;
  std::shared_ptr<const InferredTypes> types;
  FileId chunk_file = 0;     // the chunk's SourceFile: spans of `def`'s AST are in it
  uint32_t chunk_offset = 0;  // where that chunk starts in the real file
};

struct FileCheck {
  uint64_t revision = 0;
  FileId file = 0;  // the file's id in the database's SourceManager (later edits reuse it)
  std::shared_ptr<const SourceFile> source;  // the text this check is of
  std::vector<Diagnostic> diagnostics;  // sorted, spans in `file`
  std::vector<CheckedDefinition> definitions;  // global functions, source order
  std::vector<std::shared_ptr<const DbChunk>> chunks;  // keep the ASTs alive
  std::shared_ptr<const DbEnvironment> environment;    // keeps ADT infos alive

  // `@name: TYPE` lines, as `relay check --emit=types` prints them.
  std::string global_types() const;
  size_t error_count() const;
};

class CheckDatabase {
 public:
  CheckDatabase();
  ~CheckDatabase();
  CheckDatabase(const CheckDatabase&) = delete;
  CheckDatabase& operator=(const CheckDatabase&) = delete;

  // Records new text for `path` and starts a new revision. Thread-safe.
  void set_file(const std::string& path, std::string text);
  void remove_file(const std::string& path);
  uint64_t revision() const { return revision_.load(); }

  // Checks `path` at the current revision. nullptr when the file is unknown, or when a
  // newer revision arrived while checking (work done so far stays cached).
  std::shared_ptr<const FileCheck> check(const std::string& path);

  const CheckStats& stats() const { return stats_; }
  // Called before each definition is inferred (tests use it to edit mid-check).
  void set_progress_hook(std::function<void()> hook) { progress_hook_ = std::move(hook); }
  SourceManager& sources() { return sources_; }
  // Maps a span in a chunk's SourceFile to the real file (identity for other spans).
  Span to_file_span(Span s) const;

 private:
  struct FileState;
  using ChunkList = std::vector<std::shared_ptr<DbChunk>>;
  void remap(Diagnostic& d) const;
  // Chunks for `ranges` of `text`, reusing the chunks old[from, to) whose text matches.
  ChunkList cut_range(const ChunkList& old, size_t from, size_t to, std::string_view text,
                      const std::vector<std::pair<uint32_t, uint32_t>>& ranges, const std::string& path);
  // The chunks of `text` when the previous revision was `before` cut into `old`: only the
  // chunks around the changed bytes are cut again. Empty when the edit can move cuts
  // outside that region (an opened block comment, new `#[metadata]`): cut it all then.
  // The labels of a definition's diagnostics that point into other chunks' definitions.
  std::vector<DbForeignLabel> foreign_labels(const InferredTypes& types, FileId own,
                                                  const ChunkList& chunks) const;
  ChunkList recut_chunks(const ChunkList& old, std::string_view before, std::string_view text,
                         const std::string& path);

  SourceManager sources_;
  std::atomic<uint64_t> revision_{0};
  std::mutex inputs_mutex_;
  std::unordered_map<std::string, std::pair<std::string, uint64_t>> inputs_;  // text, revision
  std::unordered_map<std::string, std::unique_ptr<FileState>> files_;
  std::unordered_map<FileId, std::pair<FileId, uint32_t>> chunk_origin_;  // chunk -> (file, offset)
  CheckStats stats_;
  std::function<void()> progress_hook_;
};

}  // namespace relay

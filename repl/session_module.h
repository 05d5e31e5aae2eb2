// The text of a session's module and where each piece of it came from.
//
// The module is a version header, the prelude import, then the session's definitions
// (one item each, in the order they were first defined; a redefinition replaces its item
// in place), and optionally a trailing piece: the temporary function an expression input
// is checked and run as. Each item remembers the file it was written in (an input
// `<input N>` or a loaded file) and its offset there, so a span in the module text maps
// back to the place the user wrote it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/base/source.h"

namespace relay::repl {

// Where a piece of module text was written: a file of the session's display sources.
struct Origin {
  FileId file = 0;
  uint32_t offset = 0;
};

struct SessionItem {
  std::string name;       // `@f` for a function, `T` for a type definition
  std::string text;       // as written, with its `///` doc lines
  Origin origin;
  std::string loaded_from;  // the path for items from `:load`, else empty
  // A function written without a return type: where its body's `{` is in `text`, and
  // the annotation the session adds there once the result type is inferred (`-> T `),
  // so that later inputs can call it (a call sees only its callee's annotations).
  uint32_t body_brace = 0;
  std::string annotation;
};

// A contiguous piece of the module text and where it came from.
struct Region {
  uint32_t begin = 0, end = 0;
  Origin origin;
};

// The module text built from items (plus an optional trailing piece), with its regions.
struct ModuleText {
  std::string text;
  std::vector<Region> regions;
  uint32_t tail_begin = 0;  // where the trailing piece starts (text.size() when none)

  // `s` (in the module text) as written by the user; nullopt when it lies in text the
  // session generated (the header, the temporary function's signature).
  std::optional<Span> to_origin(Span s) const;
  // The item region holding `offset`, or null.
  const Region* region_at(uint32_t offset) const;
};

class SessionModule {
 public:
  const std::vector<SessionItem>& items() const { return items_; }
  std::vector<SessionItem>& items() { return items_; }
  const SessionItem* find(std::string_view name) const;
  // Adds `item`, or replaces the item of the same name. Returns true when it replaced.
  bool put(SessionItem item);
  void clear() { items_.clear(); }

  // The module text; `tail` (with its regions, relative to the tail's start) is appended
  // after the items.
  ModuleText build(std::string_view tail = {}, const std::vector<Region>& tail_regions = {}) const;

 private:
  std::vector<SessionItem> items_;
};

}  // namespace relay::repl

#include "lang/syntax/frontend.h"

#include "lang/prelude/prelude.h"
#include "lang/syntax/resolve.h"

namespace relay {

std::shared_ptr<const Module> load_prelude(SourceManager& sources) {
  // One prelude per SourceManager: its spans name a file id of that manager and its
  // names view that manager's copy of the text. Keyed by serial, not address, since a
  // new manager can reuse a dead one's address.
  struct Cache {
    uint64_t owner = 0;
    std::shared_ptr<const Module> module;
  };
  static thread_local Cache cache;
  if (cache.owner == sources.serial() && cache.module) return cache.module;
  FileId id = sources.add("<prelude>", std::string(prelude_source()));
  DiagnosticBag diags;
  auto m = parse_module(sources.get(id), diags);
  resolve_names(*m, diags);
  // The prelude is part of the toolchain: a diagnostic here is a bug, caught by tests.
  cache.owner = sources.serial();
  cache.module = std::shared_ptr<const Module>(std::move(m));
  return cache.module;
}

FrontendResult analyze_file(SourceManager& sources, FileId file, DiagnosticBag& diags,
                            const ParseOptions& options) {
  FrontendResult r;
  r.module = parse_module(sources.get(file), diags, options);
  ResolveOptions ro;
  if (r.module->imports_prelude) {
    r.prelude = load_prelude(sources);
    ro.imports.push_back(r.prelude.get());
  }
  resolve_names(*r.module, diags, ro);
  diags.sort();
  return r;
}

}  // namespace relay

#include "repl/session_module.h"

#include <algorithm>

namespace relay::repl {

namespace {
// The prelude is always imported: a session starts with `Cons`, `@map`, `@foldl`, ...
constexpr std::string_view kHeader = "#[version = \"0.0.5\"]\n#[import = \"prelude\"]\n";
}  // namespace

const SessionItem* SessionModule::find(std::string_view name) const {
  for (const auto& item : items_)
    if (item.name == name) return &item;
  return nullptr;
}

bool SessionModule::put(SessionItem item) {
  for (auto& existing : items_) {
    if (existing.name == item.name) {
      existing = std::move(item);
      return true;
    }
  }
  items_.push_back(std::move(item));
  return false;
}

ModuleText SessionModule::build(std::string_view tail, const std::vector<Region>& tail_regions) const {
  ModuleText m;
  m.text = kHeader;
  for (const auto& item : items_) {
    // A blank line between items: the checker cuts the module at lines that start a
    // definition, so each item is its own chunk and re-checks on its own.
    m.text += "\n";
    // With an added return annotation, the item is two regions around it: a span in the
    // annotation maps to nothing the user wrote.
    uint32_t split = item.annotation.empty() ? static_cast<uint32_t>(item.text.size()) : item.body_brace;
    Region r;
    r.begin = static_cast<uint32_t>(m.text.size());
    m.text.append(item.text, 0, split);
    r.end = static_cast<uint32_t>(m.text.size());
    r.origin = item.origin;
    m.regions.push_back(r);
    if (!item.annotation.empty()) {
      m.text += item.annotation;
      Region rest;
      rest.begin = static_cast<uint32_t>(m.text.size());
      m.text.append(item.text, split);
      rest.end = static_cast<uint32_t>(m.text.size());
      rest.origin = Origin{item.origin.file, item.origin.offset + split};
      m.regions.push_back(rest);
    }
    m.text += "\n";
  }
  m.text += "\n";
  m.tail_begin = static_cast<uint32_t>(m.text.size());
  m.text += tail;
  for (Region r : tail_regions) {
    r.begin += m.tail_begin;
    r.end += m.tail_begin;
    m.regions.push_back(r);
  }
  return m;
}

const Region* ModuleText::region_at(uint32_t offset) const {
  // Regions are in text order; an offset at a region's end belongs to it (a span that
  // ends a piece, an error at the end of an input).
  auto it = std::lower_bound(regions.begin(), regions.end(), offset,
                             [](const Region& r, uint32_t o) { return r.end < o; });
  if (it == regions.end() || offset < it->begin) return nullptr;
  return &*it;
}

std::optional<Span> ModuleText::to_origin(Span s) const {
  const Region* r = region_at(s.begin);
  if (!r) return std::nullopt;
  uint32_t end = std::min(std::max(s.end, s.begin), r->end);
  return Span{r->origin.file, s.begin - r->begin + r->origin.offset, end - r->begin + r->origin.offset};
}

}  // namespace relay::repl

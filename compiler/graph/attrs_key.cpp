#include "compiler/graph/attrs_key.h"

#include "lang/ops/op_schema.h"

namespace relay::compiler {

std::string attrs_text(const CallAttrs& attrs, bool only_given) {
  std::string out;
  if (!attrs.schema()) return out;
  for (const AttrField& f : attrs.schema()->fields) {
    if (only_given && !attrs.given(f.name)) continue;
    const AttrVal* v = attrs.get(f.name);
    if (!v) continue;
    if (!out.empty()) out += ", ";
    out += std::string(f.name) + "=" + attr_to_string(*v);
  }
  return out;
}

}  // namespace relay::compiler

// `relay ops [--json] [NAME...]`: the operator registry (lang/ops/ops.def) as a reference
// card. Without names, every operator in reference order, grouped; with names, just those,
// each with its full attribute schema. `--json` prints the same entries as data.
// Exit 0 on success, 2 on usage errors (including an unknown operator name).
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "lang/base/diagnostic.h"
#include "lang/autodiff/gradient_rule.h"
#include "lang/ops/op_registry.h"
#include "lang/ops/op_schema.h"
#include "lang/types/relation.h"

namespace relay::cli {
namespace {

using Json = nlohmann::ordered_json;  // keeps the documented key order

constexpr const char* kUsage =
    "usage: relay ops [--json] [NAME...]\n"
    "\n"
    "Lists the operators with their inputs, attrs struct, fusion pattern (TVM's TOpPattern)\n"
    "and shape rule. With NAMEs, lists only those and shows each one's attributes: type,\n"
    "default or `required`.\n"
    "  --json   the same as a JSON array of {name, group, supported, pattern, args,\n"
    "           attrs: {struct, type_key, registered, complete, fields: [{name, type,\n"
    "           default | required}]} | null, doc, has_relation, has_gradient}\n"
    "Exit status: 0 success, 2 usage error (an unknown option or operator name).\n";

std::string str(std::string_view s) { return std::string(s); }

bool has_relation(const OpInfo& op) { return find_relation(op) != nullptr; }
bool has_gradient(const OpInfo& op) { return autodiff::find_gradient(op) != nullptr; }

// `nn.conv2d(data, weight) [Conv2DAttrs] pattern=out-elementwise-fusable`, plus why the
// operator cannot be used yet when it cannot.
std::string headline(const OpInfo& op) {
  std::string line = str(op.name) + "(";
  for (size_t i = 0; i < op.args.size(); ++i) line += (i ? ", " : "") + str(op.args[i]);
  line += ")";
  if (op.attrs) line += " [" + str(op.attrs->name) + (op.attrs_registered ? "]" : ", unregistered]");
  line += " pattern=" + str(fusion_pattern_name(op.pattern));
  if (!op.supported)
    line += "  (not supported yet)";
  else if (!has_relation(op))
    line += "  (no type relation yet)";
  return line;
}

// `channels: IndexExpr = None`, `dtype: DType (required)`.
std::string field_line(const AttrField& f) {
  std::string line = str(f.name) + ": " + str(attr_type_name(f.type));
  if (f.required) return line + " (required)";
  if (f.opaque_default) return line + " (default has no text form; given via meta[...])";
  return line + " = " + str(f.default_text);
}

void print_details(const OpInfo& op) {
  std::printf("    group %.*s; type relation: %s; gradient (relay grad): %s\n",
              static_cast<int>(op_group_name(op.group).size()), op_group_name(op.group).data(),
              has_relation(op) ? "yes" : "none yet", has_gradient(op) ? "yes" : "none");
  if (!op.attrs) {
    std::printf("    no attributes\n");
    return;
  }
  const AttrSchema& s = *op.attrs;
  std::printf("    attrs %.*s (type key %.*s)%s%s\n", static_cast<int>(s.name.size()), s.name.data(),
              static_cast<int>(s.type_key.size()), s.type_key.data(),
              op.attrs_registered ? "" : "; not registered: calls need attrs_type_key",
              s.complete ? "" : "; partial: other keys may exist");
  for (const AttrField& f : s.fields) std::printf("      %s\n", field_line(f).c_str());
}

void print_text(const std::vector<const OpInfo*>& ops, bool detailed) {
  const OpInfo* prev = nullptr;
  for (const OpInfo* op : ops) {
    // A heading at each group change (the table is ordered by group).
    if (!detailed && (!prev || prev->group != op->group)) {
      size_t n = 0;
      for (const OpInfo* o : ops) n += o->group == op->group;
      std::printf("%s# %.*s (%zu)\n", prev ? "\n" : "", static_cast<int>(op_group_name(op->group).size()),
                  op_group_name(op->group).data(), n);
    }
    prev = op;
    std::printf("%s\n    %.*s\n", headline(*op).c_str(), static_cast<int>(op->doc.size()), op->doc.data());
    if (detailed) print_details(*op);
  }
}

Json field_json(const AttrField& f) {
  Json j = {{"name", str(f.name)}, {"type", str(attr_type_name(f.type))}};
  if (f.required)
    j["required"] = true;
  else if (f.opaque_default)
    j["default"] = nullptr;  // declared default without an attribute-value text
  else
    j["default"] = str(f.default_text);
  return j;
}

Json op_json(const OpInfo& op) {
  Json attrs = nullptr;
  if (op.attrs) {
    Json fields = Json::array();
    for (const AttrField& f : op.attrs->fields) fields.push_back(field_json(f));
    attrs = {{"struct", str(op.attrs->name)},
             {"type_key", str(op.attrs->type_key)},
             {"registered", op.attrs_registered},
             {"complete", op.attrs->complete},
             {"fields", std::move(fields)}};
  }
  Json args = Json::array();
  for (std::string_view a : op.args) args.push_back(str(a));
  return {{"name", str(op.name)},
          {"group", str(op_group_name(op.group))},
          {"supported", op.supported},
          {"pattern", str(fusion_pattern_name(op.pattern))},
          {"args", std::move(args)},
          {"attrs", std::move(attrs)},
          {"doc", str(op.doc)},
          {"has_relation", has_relation(op)},
          {"has_gradient", has_gradient(op)}};
}

int unknown_op(std::string_view name) {
  std::fprintf(stderr, "error: no operator is named `%.*s`\n", static_cast<int>(name.size()), name.data());
  std::vector<std::string_view> names;
  for (const OpInfo& op : all_ops()) names.push_back(op.name);
  std::string best = closest_match(name, names);
  if (!best.empty()) std::fprintf(stderr, "help: did you mean `%s`?\n", best.c_str());
  std::fprintf(stderr, "note: `relay ops` lists every operator\n");
  return kExitUsage;
}

}  // namespace

int cmd_ops(const Args& args) {
  bool json = false;
  std::vector<const OpInfo*> selected;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return kExitOk;
    }
    if (a == "--json") {
      json = true;
    } else if (a.size() > 1 && a[0] == '-') {
      std::fprintf(stderr, "error: unknown option `%s`\n\n", a.c_str());
      std::fputs(kUsage, stderr);
      return kExitUsage;
    } else if (const OpInfo* op = find_op(a)) {
      selected.push_back(op);
    } else {
      return unknown_op(a);
    }
  }
  // Named operators get their whole attribute schema; the full listing stays a summary.
  const bool detailed = !selected.empty();
  if (selected.empty())
    for (const OpInfo& op : all_ops()) selected.push_back(&op);

  if (json) {
    Json out = Json::array();
    for (const OpInfo* op : selected) out.push_back(op_json(*op));
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    print_text(selected, detailed);
  }
  return kExitOk;
}

}  // namespace relay::cli

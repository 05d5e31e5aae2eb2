#include "ide/signature_help.h"

#include "ide/context.h"
#include "lang/ops/op_schema.h"
#include "lang/syntax/printer.h"
#include "lang/types/type.h"

namespace relay::ide {

namespace {

uint32_t item_start(std::string_view text, uint32_t offset) {
  uint32_t b = offset;
  while (b > 0) {
    uint32_t l = b;
    while (l > 0 && text[l - 1] != '\n') --l;
    if (text.substr(l).starts_with("def ")) return l;
    if (l == 0) break;
    b = l - 1;
  }
  return 0;
}

void add_param(SignatureInfo& s, const std::string& text, std::string doc) {
  if (!s.parameters.empty()) s.label += ", ";
  const uint32_t b = static_cast<uint32_t>(s.label.size());
  s.label += text;
  s.parameters.push_back({b, static_cast<uint32_t>(s.label.size()), std::move(doc)});
}

SignatureInfo op_signature(const OpInfo& op, const CallArgument& arg) {
  SignatureInfo s;
  s.label = std::string(op.name) + "(";
  for (std::string_view a : op.args) add_param(s, std::string(a), "input `" + std::string(a) + "`");
  uint32_t active = static_cast<uint32_t>(arg.index);
  bool keyed = false;
  if (op.attrs)
    for (size_t i = 0; i < op.attrs->fields.size(); ++i) {
      const AttrField& f = op.attrs->fields[i];
      std::string p(f.name);
      if (!f.default_text.empty()) p += "=" + std::string(f.default_text);
      add_param(s, p, std::string(attr_type_name(f.type)) + (f.required ? ", required" : ""));
      if (!arg.key.empty() && f.name == arg.key) {
        active = static_cast<uint32_t>(op.args.size() + i);
        keyed = true;
      }
    }
  s.label += ")";
  // Past the positional inputs without a key yet: no attribute is known to be active.
  if (!keyed && active >= op.args.size() && !arg.written_keys.empty()) active = static_cast<uint32_t>(s.parameters.size());
  s.active_parameter = active;
  s.documentation = std::string(op.doc);
  return s;
}

SignatureInfo global_signature(const CheckedDefinition& d, const CallArgument& arg) {
  SignatureInfo s;
  s.label = "@" + std::string(d.def->name) + "(";
  const FunctionExpr* fn = d.def->fn;
  for (const VarDecl* p : fn->params) {
    std::string t;
    if (p->annotation) t = print_type(p->annotation);
    else if (d.types && d.types->type_of(p)) t = type_to_string(d.types->type_of(p));
    add_param(s, "%" + std::string(p->name) + (t.empty() ? "" : ": " + t), "");
  }
  s.label += ")";
  if (fn->ret_type) s.label += " -> " + print_type(fn->ret_type);
  s.active_parameter = static_cast<uint32_t>(arg.index);
  s.documentation = std::string(d.def->doc);
  return s;
}

}  // namespace

std::optional<SignatureInfo> signature_help(const FileCheck& check, std::string_view text, uint32_t offset) {
  if (offset > text.size()) offset = static_cast<uint32_t>(text.size());
  const CursorScan scan = scan_to(text, item_start(text, offset), offset);
  if (scan.in_comment || scan.open.bracket != '(') return std::nullopt;
  const std::string& callee = scan.open.callee;
  const CallArgument arg = call_argument(text, scan.open, offset);
  if (const OpInfo* op = find_op(callee)) return op_signature(*op, arg);
  if (callee.size() > 1 && callee[0] == '@')
    for (const CheckedDefinition& d : check.definitions)
      if (d.def->name == std::string_view(callee).substr(1) && d.def->fn) return global_signature(d, arg);
  return std::nullopt;
}

}  // namespace relay::ide

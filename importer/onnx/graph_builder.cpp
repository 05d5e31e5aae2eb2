#include "importer/onnx/graph_builder.h"

#include <cctype>
#include <set>

#include "lang/syntax/frontend.h"
#include "lang/syntax/printer.h"
#include "lang/types/check_module.h"
#include "lang/types/type.h"

namespace relay::importer::onnx {

namespace {

// Where a constant's atom goes in a let's text until the program is assembled: the
// metadata reference in the output, a typed parameter in a probe.
const char kMark = '\x01';

std::string marker(size_t index) { return kMark + std::to_string(index) + kMark; }

std::string probe_param_name(size_t index) { return "%onnx_const_" + std::to_string(index); }

}  // namespace

bool TensorInfo::is_static() const {
  for (int64_t d : shape)
    if (d < 0) return false;
  return true;
}

std::string tensor_type_text(const TensorInfo& t) {
  std::string s = "Tensor[(";
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (i) s += ", ";
    s += t.shape[i] < 0 ? "?" : std::to_string(t.shape[i]);
  }
  return s + "), " + dtype_name(t.dtype) + "]";
}

std::string sanitize_name(const std::string& onnx_name) {
  std::string s;
  for (char c : onnx_name) s += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "v" + s;
  return s;
}

std::string GraphBuilder::add_param(const std::string& onnx_name, const TensorInfo& info) {
  std::string base = sanitize_name(onnx_name);
  // Reserved: the probes' constant parameters.
  if (base.rfind("onnx_const_", 0) == 0) base = "in_" + base;
  // Two ONNX names may sanitise alike (`a.b`, `a_b`): number the later ones.
  std::string name = base;
  for (int k = 1; used_names_.count(name); ++k) name = base + "_" + std::to_string(k);
  used_names_.insert(name);
  std::string atom = "%" + name;
  params_.push_back(atom + ": " + tensor_type_text(info));
  return atom;
}

RValue GraphBuilder::emit(const std::string& expr) {
  RValue v;
  v.let_index = static_cast<int>(lets_.size());
  v.atom = "%" + std::to_string(lets_.size());
  lets_.push_back(Let{expr, std::nullopt, {}});
  return v;
}

std::string GraphBuilder::atom(RValue& v) {
  if (!v.atom.empty()) return v.atom;
  if (!v.constant) throw ImportError("internal error: a value with neither an atom nor a constant");
  const Constant& c = *v.constant;
  if (c.shape.empty() && !c.dtype.is_bool() && c.dtype.code != DataType::BFloat) {
    // Scalars are written inline, as TVM prints them (`1f`, `3i64`).
    v.atom = c.dtype.is_float() ? format_float_literal(c.get_double(0), c.dtype)
                                : format_int_literal(c.get_int(0), c.dtype);
  } else {
    v.atom = marker(constants_.size());
    constants_.push_back(v.constant);
  }
  if (!v.info) v.info = TensorInfo{c.dtype, c.shape};
  return v.atom;
}

std::string GraphBuilder::resolve_constants(const std::string& text, bool as_params) const {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != kMark) {
      out += text[i];
      continue;
    }
    size_t end = text.find(kMark, i + 1);
    size_t index = std::stoul(text.substr(i + 1, end - i - 1));
    out += as_params ? probe_param_name(index) : "meta[relay.Constant][" + std::to_string(index) + "]";
    i = end;
  }
  return out;
}

std::string GraphBuilder::probe_text(size_t first_let, const std::string& result) const {
  std::string body;
  for (size_t i = first_let; i < lets_.size(); ++i) body += "  %" + std::to_string(i) + " = " + lets_[i].expr + ";\n";
  body += "  " + result + "\n}\n";
  // Only what the new lets use becomes a parameter: the earlier lets (`%N`) and the
  // constants (markers) they name. A probe's size is then that of its new lets.
  std::set<size_t> lets_used, constants_used;
  for (size_t i = 0; i < body.size(); ++i) {
    bool let_ref = body[i] == '%' && i + 1 < body.size() && std::isdigit(static_cast<unsigned char>(body[i + 1]));
    if (!let_ref && body[i] != kMark) continue;
    size_t j = i + 1, n = 0;
    while (j < body.size() && std::isdigit(static_cast<unsigned char>(body[j]))) n = n * 10 + static_cast<size_t>(body[j++] - '0');
    if (let_ref && n < first_let) lets_used.insert(n);
    if (!let_ref) {
      constants_used.insert(n);
      ++j;  // the closing mark
    }
    i = j - 1;
  }
  std::string s = "#[version = \"0.0.5\"]\ndef @probe(";
  bool first = true;
  auto param = [&](const std::string& p) {
    s += (first ? "" : ", ") + p;
    first = false;
  };
  for (const std::string& p : params_) param(p);
  for (size_t i : lets_used) param("%" + std::to_string(i) + ": " + lets_[i].type);
  for (size_t i : constants_used)
    param(probe_param_name(i) + ": " + tensor_type_text(TensorInfo{constants_[i]->dtype, constants_[i]->shape}));
  s += ") {\n" + body;
  return resolve_constants(s, true);
}

namespace {

// The function's return type of the checked probe, or ImportError with the checker's
// first error.
struct Probe {
  SourceManager sources;
  ModuleTypes types;
  const FuncTy* fn = nullptr;
};

std::unique_ptr<Probe> check_probe(const std::string& text) {
  auto p = std::make_unique<Probe>();
  FileId id = p->sources.add("onnx-probe.relay", text);
  DiagnosticBag diags;
  FrontendResult front = analyze_file(p->sources, id, diags);
  if (!diags.has_errors()) p->types = check_module(*front.module, front.prelude.get(), diags);
  for (const Diagnostic& d : diags.items())
    if (d.severity == Severity::Error) {
      const SourceFile& f = p->sources.get(id);
      std::string where;
      Span span = d.labels.empty() ? Span{} : d.labels[0].span;
      if (!d.labels.empty() && span.file == id && span.end <= f.text.size()) {
        size_t line_begin = f.text.rfind('\n', span.begin);
        size_t line_end = f.text.find('\n', span.begin);
        line_begin = line_begin == std::string::npos ? 0 : line_begin + 1;
        where = std::string(f.text.substr(line_begin, line_end - line_begin));
      }
      throw ImportError("the converted graph does not type-check: " + d.message +
                        (where.empty() ? "" : " (in `" + where.substr(where.find_first_not_of(' ')) + "`)"));
    }
  const InferredTypes* inferred = p->types.defs.empty() ? nullptr : &p->types.defs.front().second;
  p->fn = inferred ? ty_as<FuncTy>(inferred->type) : nullptr;
  if (!p->fn) throw ImportError("internal error: the probe has no function type");
  // The arena must outlive the types we read: keep the Probe alive while reading.
  return p;
}

std::optional<TensorInfo> to_info(Ty t) {
  const TensorTy* tensor = ty_as<TensorTy>(t);
  if (!tensor) return std::nullopt;
  TensorInfo info{tensor->dtype, {}};
  for (const Dim& d : tensor->shape) info.shape.push_back(d.constant_value().value_or(-1));
  return info;
}

}  // namespace

void GraphBuilder::probe() {
  const size_t count = lets_.size() - probed_;
  std::string tuple = "(";
  for (size_t i = probed_; i < lets_.size(); ++i) tuple += (i > probed_ ? ", %" : "%") + std::to_string(i);
  tuple += count == 1 ? ",)" : ")";
  auto p = check_probe(probe_text(probed_, tuple));
  const TupleTy* fields = ty_as<TupleTy>(p->fn->ret);
  if (!fields || fields->fields.size() != count) throw ImportError("internal error: probe result");
  for (size_t i = 0; i < count; ++i) {
    Let& let = lets_[probed_ + i];
    let.info = to_info(fields->fields[i]);
    let.type = type_to_string(fields->fields[i]);
  }
  probed_ = lets_.size();
}

const TensorInfo& GraphBuilder::info(RValue& v) {
  if (v.info) return *v.info;
  if (v.constant) {
    v.info = TensorInfo{v.constant->dtype, v.constant->shape};
    return *v.info;
  }
  if (v.let_index < 0) throw ImportError("internal error: a value without a type");
  if (static_cast<size_t>(v.let_index) >= probed_) probe();
  const std::optional<TensorInfo>& known = lets_[static_cast<size_t>(v.let_index)].info;
  if (!known) throw ImportError("`" + v.atom + "` is not a tensor");
  v.info = known;
  return *v.info;
}

std::string GraphBuilder::type_text(const std::string& expr) {
  auto p = check_probe(probe_text(probed_, expr));
  return type_to_string(p->fn->ret);
}

std::string GraphBuilder::program(const std::string& result) {
  std::string s = "#[version = \"0.0.5\"]\ndef @main(";
  for (size_t i = 0; i < params_.size(); ++i) s += (i ? ", " : "") + params_[i];
  s += ") -> " + type_text(result) + " {\n";
  for (size_t i = 0; i < lets_.size(); ++i) s += "  %" + std::to_string(i) + " = " + lets_[i].expr + ";\n";
  s += "  " + result + "\n}\n";
  s = resolve_constants(s, false);
  if (constants_.empty()) return s;
  // TVM's SaveJSON layout: node 1 is a Map from type key to an Array (node 2) of the
  // relay.Constant nodes; each names its tensor by index into b64ndarrays.
  s += "#[metadata]\n{\n  \"root\": 1, \n  \"nodes\": [\n    {\"type_key\": \"\"}, \n";
  s += "    {\"type_key\": \"Map\", \"keys\": [\"relay.Constant\"], \"data\": [2]}, \n";
  s += "    {\"type_key\": \"Array\", \"data\": [";
  for (size_t i = 0; i < constants_.size(); ++i) s += (i ? ", " : "") + std::to_string(3 + i);
  s += "]}";
  for (size_t i = 0; i < constants_.size(); ++i)
    s += ", \n    {\"type_key\": \"relay.Constant\", \"attrs\": {\"_checked_type_\": \"0\", \"data\": \"" +
         std::to_string(i) + "\", \"span\": \"0\", \"virtual_device_\": \"0\"}}";
  s += "\n  ], \n  \"b64ndarrays\": [";
  for (size_t i = 0; i < constants_.size(); ++i)
    s += std::string(i ? ", " : "") + "\n    \"" + ndarray_blob_base64(*constants_[i]) + "\"";
  s += "\n  ], \n  \"attrs\": {\"tvm_version\": \"0.14.0\"}\n}\n";
  return s;
}

}  // namespace relay::importer::onnx

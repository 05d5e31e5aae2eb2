#include "importer/onnx/convert.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "lang/syntax/printer.h"

namespace relay::importer::onnx {

RValue& NodeContext::input(size_t i) {
  if (!has_input(i))
    throw ImportError("input " + std::to_string(i + 1) + " of " + node_.op_type + " is required");
  return *inputs_[i];
}

std::vector<int64_t> NodeContext::static_shape(size_t i, std::string_view why) {
  const TensorInfo& t = info(i);
  if (!t.is_static())
    throw ImportError(std::string(why) + " needs the static shape of input " + std::to_string(i + 1) + ", which is " +
                      tensor_type_text(t));
  return t.shape;
}

const Constant& NodeContext::constant(size_t i, std::string_view what) {
  RValue& v = input(i);
  if (!v.constant)
    throw ImportError(std::string(what) + " (input " + std::to_string(i + 1) + ", `" + node_.inputs[i] +
                      "`) must be known when importing, but it is computed at run time");
  return *v.constant;
}

int64_t NodeContext::attr_int(std::string_view name, int64_t fallback) const {
  const Attribute* a = node_.attr(name);
  return a ? a->i : fallback;
}

float NodeContext::attr_float(std::string_view name, float fallback) const {
  const Attribute* a = node_.attr(name);
  return a ? a->f : fallback;
}

std::string NodeContext::attr_string(std::string_view name, std::string fallback) const {
  const Attribute* a = node_.attr(name);
  return a ? a->s : fallback;
}

std::vector<int64_t> NodeContext::attr_ints(std::string_view name, std::vector<int64_t> fallback) const {
  const Attribute* a = node_.attr(name);
  return a ? a->ints : fallback;
}

std::vector<float> NodeContext::attr_floats(std::string_view name) const {
  const Attribute* a = node_.attr(name);
  return a ? a->floats : std::vector<float>{};
}

RValue& NodeContext::emit_output(size_t i, const std::string& expr) {
  set_output(i, b_.emit(expr));
  return outputs_[i];
}

void NodeContext::set_output(size_t i, RValue v) {
  if (outputs_.size() <= i) outputs_.resize(i + 1);
  outputs_[i] = std::move(v);
}

void NodeContext::set_constant(size_t i, Constant c) {
  RValue v;
  v.constant = std::make_shared<const Constant>(std::move(c));
  set_output(i, std::move(v));
}

std::string call(std::string_view op, const std::vector<std::string>& args, const std::string& attrs) {
  std::string s(op);
  s += "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  if (!attrs.empty()) s += (args.empty() ? "" : ", ") + attrs;
  return s + ")";
}

std::string ints_text(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string float_text(double v) { return format_float_literal(v, DataType::float_(32)); }

std::string dtype_attr(DataType t) { return "\"" + dtype_name(t) + "\""; }

std::string literal_text(DataType t, double v) {
  if (t.is_float()) return format_float_literal(v, t);
  if (std::isnan(v)) v = 0;
  double lo = static_cast<double>(integer_min(t)), hi = static_cast<double>(integer_max(t));
  int64_t i = v <= lo ? integer_min(t) : v >= hi ? integer_max(t) : static_cast<int64_t>(v);
  if (t.is_bool()) return i ? "True" : "False";
  return format_int_literal(i, t);
}

int64_t normalize_axis(int64_t axis, size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    throw ImportError("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

namespace {

const std::map<std::string, Converter, std::less<>>& table() {
  static const auto* t = [] {
    ConverterTable entries;
    register_elementwise(entries);
    register_nn(entries);
    register_tensor(entries);
    register_reduce(entries);
    register_more(entries);
    auto* m = new std::map<std::string, Converter, std::less<>>();
    for (auto& [name, c] : entries.entries) m->emplace(name, c);
    return m;
  }();
  return *t;
}

}  // namespace

const Converter* find_converter(std::string_view op_type) {
  auto it = table().find(op_type);
  return it == table().end() ? nullptr : &it->second;
}

std::vector<std::string> supported_operators() {
  std::vector<std::string> out;
  for (const auto& [name, c] : table()) out.push_back(name);
  return out;
}

}  // namespace relay::importer::onnx

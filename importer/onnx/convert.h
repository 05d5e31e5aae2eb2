// One converter per ONNX operator: it reads the node's inputs and attributes through a
// NodeContext and emits the Relay calls that compute its outputs (or folds them when
// every input is known). A converter throws ImportError for what it cannot express; the
// importer reports it against the node and goes on.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "importer/onnx/graph_builder.h"
#include "importer/onnx/onnx_model.h"

namespace relay::importer::onnx {

class NodeContext {
 public:
  NodeContext(const Node& node, int64_t opset, GraphBuilder& builder, std::vector<RValue*> inputs)
      : node_(node), opset_(opset), b_(builder), inputs_(std::move(inputs)) {}

  const Node& node() const { return node_; }
  int64_t opset() const { return opset_; }
  GraphBuilder& builder() { return b_; }

  size_t input_count() const { return inputs_.size(); }
  // Whether optional input i is given (present and not the empty name).
  bool has_input(size_t i) const { return i < inputs_.size() && inputs_[i]; }
  RValue& input(size_t i);
  std::string atom(size_t i) { return b_.atom(input(i)); }
  const TensorInfo& info(size_t i) { return b_.info(input(i)); }
  DataType dtype(size_t i) { return info(i).dtype; }
  size_t rank(size_t i) { return info(i).rank(); }
  // The input's shape; ImportError naming `why` when a dim is not static.
  std::vector<int64_t> static_shape(size_t i, std::string_view why);
  // A constant input's values (ImportError naming `what` when it is computed at run time).
  const Constant& constant(size_t i, std::string_view what);
  bool is_constant(size_t i) { return has_input(i) && input(i).constant != nullptr; }

  bool has_attr(std::string_view name) const { return node_.attr(name) != nullptr; }
  int64_t attr_int(std::string_view name, int64_t fallback) const;
  float attr_float(std::string_view name, float fallback) const;
  std::string attr_string(std::string_view name, std::string fallback) const;
  std::vector<int64_t> attr_ints(std::string_view name, std::vector<int64_t> fallback = {}) const;
  std::vector<float> attr_floats(std::string_view name) const;
  const Attribute* attr(std::string_view name) const { return node_.attr(name); }

  // `%N = expr;` as output i.
  RValue& emit_output(size_t i, const std::string& expr);
  // A value as output i (an input passed through, a folded constant).
  void set_output(size_t i, RValue v);
  void set_constant(size_t i, Constant c);
  // A let for an intermediate value; its atom.
  std::string let(const std::string& expr) { return b_.emit(expr).atom; }

  std::vector<RValue>& outputs() { return outputs_; }

 private:
  const Node& node_;
  int64_t opset_;
  GraphBuilder& b_;
  std::vector<RValue*> inputs_;
  std::vector<RValue> outputs_;
};

using Converter = void (*)(NodeContext&);
const Converter* find_converter(std::string_view op_type);
// Every operator with a converter, sorted (for `relay import --list-ops` and the docs).
std::vector<std::string> supported_operators();

// Call text: `op(a, b, k=v)`.
std::string call(std::string_view op, const std::vector<std::string>& args, const std::string& attrs = "");
std::string ints_text(const std::vector<int64_t>& v);  // `[1, 2]`
std::string float_text(double v);                     // `1e-05f`
std::string dtype_attr(DataType t);                   // `"float32"`
// A literal of dtype `t` for `v` (`1f`, `3i64`, `True`); for an integer dtype `v` is
// truncated and clamped to the dtype's range (a float attribute from the file may be
// anything), NaN is 0.
std::string literal_text(DataType t, double v);
// An axis in [-rank, rank) made non-negative; ImportError outside.
int64_t normalize_axis(int64_t axis, size_t rank);

// Registration, one function per family (ops_*.cpp).
struct ConverterTable;
void register_elementwise(ConverterTable& t);
void register_nn(ConverterTable& t);
void register_tensor(ConverterTable& t);
void register_reduce(ConverterTable& t);
void register_more(ConverterTable& t);

struct ConverterTable {
  std::vector<std::pair<std::string, Converter>> entries;
  void add(std::string name, Converter c) { entries.emplace_back(std::move(name), c); }
};

}  // namespace relay::importer::onnx

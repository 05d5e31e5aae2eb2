// An ONNX model as the importer needs it, decoded from the protobuf file (the field
// numbers of onnx.proto: ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto,
// ValueInfoProto). Fields the importer does not use are skipped; unknown fields are
// allowed, as protobuf requires.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lang/base/dtype.h"

namespace relay::importer::onnx {

// TensorProto.DataType values.
enum class ElemType : int32_t {
  Undefined = 0, Float = 1, Uint8 = 2, Int8 = 3, Uint16 = 4, Int16 = 5, Int32 = 6, Int64 = 7,
  String = 8, Bool = 9, Float16 = 10, Double = 11, Uint32 = 12, Uint64 = 13,
  Complex64 = 14, Complex128 = 15, BFloat16 = 16,
};

// The Relay dtype of an ONNX element type; nullopt for strings, complex and unknown codes.
std::optional<DataType> relay_dtype(int32_t elem_type);
std::string elem_type_name(int32_t elem_type);
// The ONNX element type of a Relay dtype (0 when ONNX has none).
int32_t elem_type_of(DataType t);

// A tensor's contents in the Relay dtype's little-endian layout (bool: one byte each).
struct TensorData {
  std::string name;
  int32_t elem_type = 0;
  std::vector<int64_t> dims;
  std::string bytes;
  bool external = false;  // data_location = EXTERNAL: the bytes live in another file
};

struct Graph;

struct Attribute {
  enum Kind : int32_t { Undefined = 0, Float = 1, Int = 2, String = 3, Tensor = 4, GraphKind = 5,
                        Floats = 6, Ints = 7, Strings = 8, Tensors = 9, Graphs = 10 };
  std::string name;
  Kind kind = Undefined;
  float f = 0;
  int64_t i = 0;
  std::string s;
  std::optional<TensorData> t;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  bool has_subgraph = false;  // g or graphs (control flow): not imported
};

struct Node {
  std::string name, op_type, domain;
  std::vector<std::string> inputs, outputs;  // "" for an omitted optional input
  std::vector<Attribute> attributes;

  const Attribute* attr(std::string_view n) const;
};

// A value's declared type: element type and dims (a dim is a size, or a symbolic name
// with size -1). `has_shape` is false when the shape is not given at all.
struct ValueInfo {
  std::string name;
  int32_t elem_type = 0;
  bool is_tensor = false;
  bool has_shape = false;
  std::vector<int64_t> dims;
  std::vector<std::string> dim_params;  // per dim, "" when the dim is a size
};

struct Graph {
  std::string name;
  std::vector<Node> nodes;
  std::vector<TensorData> initializers;
  std::vector<ValueInfo> inputs, outputs, value_info;
};

struct Model {
  int64_t ir_version = 0;
  std::string producer_name, producer_version;
  std::map<std::string, int64_t> opsets;  // domain ("" for ai.onnx) -> version
  Graph graph;

  int64_t opset() const;  // the default domain's version (1 when not declared)
};

// Throws importer::WireError (protobuf_wire.h) when the bytes are not a well-formed
// model, ModelError when they decode but are not a usable ONNX model.
struct ModelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
Model parse_model(std::string_view bytes);
// A serialized TensorProto (the `input_0.pb` files of ONNX's test data).
TensorData parse_tensor(std::string_view bytes);

}  // namespace relay::importer::onnx

#include "importer/onnx/onnx_model.h"

#include <cstring>

#include "importer/onnx/constant.h"
#include "importer/protobuf_wire.h"

namespace relay::importer::onnx {

std::optional<DataType> relay_dtype(int32_t t) {
  switch (static_cast<ElemType>(t)) {
    case ElemType::Float: return DataType::float_(32);
    case ElemType::Double: return DataType::float_(64);
    case ElemType::Float16: return DataType::float_(16);
    case ElemType::BFloat16: return DataType{DataType::BFloat, 16, 1};
    case ElemType::Int8: return DataType::int_(8);
    case ElemType::Int16: return DataType::int_(16);
    case ElemType::Int32: return DataType::int_(32);
    case ElemType::Int64: return DataType::int_(64);
    case ElemType::Uint8: return DataType::uint_(8);
    case ElemType::Uint16: return DataType::uint_(16);
    case ElemType::Uint32: return DataType::uint_(32);
    case ElemType::Uint64: return DataType::uint_(64);
    case ElemType::Bool: return DataType::bool_();
    default: return std::nullopt;
  }
}

int32_t elem_type_of(DataType t) {
  for (int32_t e = 1; e <= static_cast<int32_t>(ElemType::BFloat16); ++e)
    if (std::optional<DataType> d = relay_dtype(e); d && *d == t) return e;
  return 0;
}

std::string elem_type_name(int32_t t) {
  static const char* names[] = {"undefined", "float", "uint8", "int8", "uint16", "int16", "int32", "int64",
                                "string", "bool", "float16", "double", "uint32", "uint64", "complex64",
                                "complex128", "bfloat16"};
  if (t >= 0 && t < static_cast<int32_t>(std::size(names))) return names[t];
  return "element type " + std::to_string(t);
}

const Attribute* Node::attr(std::string_view n) const {
  for (const Attribute& a : attributes)
    if (a.name == n) return &a;
  return nullptr;
}

int64_t Model::opset() const {
  for (const char* domain : {"", "ai.onnx"}) {
    auto it = opsets.find(domain);
    if (it != opsets.end()) return it->second;
  }
  return 1;
}

namespace {

// Narrows int32_data / uint64_data values to the element's width (two's complement,
// little-endian), as onnx.proto stores the small types there.
void append_narrowed(std::string& out, int64_t v, size_t width) {
  char buf[8];
  std::memcpy(buf, &v, 8);
  out.append(buf, width);
}

TensorData read_tensor(WireReader r) {
  TensorData t;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<int64_t> ints;  // int32_data, int64_data and uint64_data (one is used)
  std::string_view raw;
  bool has_raw = false;
  WireField f;
  while (r.next(f)) {
    switch (f.number) {
      case 1: append_int64s(f, t.dims); break;
      case 2: t.elem_type = static_cast<int32_t>(f.varint); break;
      case 4: append_floats(f, floats); break;
      case 5: case 7: case 11: append_int64s(f, ints); break;
      case 8: t.name = std::string(field_bytes(f)); break;
      case 9: raw = field_bytes(f); has_raw = true; break;
      case 10: append_doubles(f, doubles); break;
      case 14: t.external = f.varint == 1; break;
      default: break;
    }
  }
  for (int64_t d : t.dims)
    if (d < 0) throw ModelError("tensor `" + t.name + "` has a negative dimension");
  if (t.external) return t;
  std::optional<DataType> dtype = relay_dtype(t.elem_type);
  size_t width = dtype ? element_bytes(*dtype) : 0;
  if (width == 0) return t;  // strings, complex: rejected where used
  if (has_raw) {
    t.bytes = std::string(raw);
  } else if (!floats.empty()) {
    t.bytes.assign(reinterpret_cast<const char*>(floats.data()), floats.size() * 4);
  } else if (!doubles.empty()) {
    t.bytes.assign(reinterpret_cast<const char*>(doubles.data()), doubles.size() * 8);
  } else {
    t.bytes.reserve(ints.size() * width);
    for (int64_t v : ints) append_narrowed(t.bytes, v, width);
  }
  // Element count, guarding against overflow from hostile dims.
  uint64_t count = 1;
  for (int64_t d : t.dims) {
    if (d != 0 && count > (uint64_t{1} << 40) / static_cast<uint64_t>(d))
      throw ModelError("tensor `" + t.name + "` is too large");
    count *= static_cast<uint64_t>(d);
  }
  if (t.bytes.size() != count * width)
    throw ModelError("tensor `" + t.name + "` holds " + std::to_string(t.bytes.size() / width) +
                     " element(s) but its shape has " + std::to_string(count));
  return t;
}

ValueInfo read_value_info(WireReader r) {
  ValueInfo v;
  WireField f;
  while (r.next(f)) {
    if (f.number == 1) v.name = std::string(field_bytes(f));
    if (f.number != 2) continue;
    WireReader type = sub_message(f);  // TypeProto
    WireField tf;
    while (type.next(tf)) {
      if (tf.number != 1) continue;  // tensor_type; sequences and maps are not tensors
      v.is_tensor = true;
      WireReader tensor = sub_message(tf);
      WireField xf;
      while (tensor.next(xf)) {
        if (xf.number == 1) v.elem_type = static_cast<int32_t>(xf.varint);
        if (xf.number != 2) continue;
        v.has_shape = true;
        WireReader shape = sub_message(xf);
        WireField df;
        while (shape.next(df)) {
          if (df.number != 1) continue;
          int64_t size = -1;
          std::string param;
          WireReader dim = sub_message(df);
          WireField d;
          while (dim.next(d)) {
            if (d.number == 1) size = static_cast<int64_t>(d.varint);
            if (d.number == 2) param = std::string(field_bytes(d));
          }
          v.dims.push_back(size);
          v.dim_params.push_back(size < 0 && param.empty() ? "?" : size < 0 ? param : "");
        }
      }
    }
  }
  return v;
}

Attribute read_attribute(WireReader r) {
  Attribute a;
  WireField f;
  while (r.next(f)) {
    switch (f.number) {
      case 1: a.name = std::string(field_bytes(f)); break;
      case 2: a.f = field_float(f); break;
      case 3: a.i = static_cast<int64_t>(f.varint); break;
      case 4: a.s = std::string(field_bytes(f)); break;
      case 5: a.t = read_tensor(sub_message(f)); break;
      case 6: case 11: a.has_subgraph = true; break;
      case 7: append_floats(f, a.floats); break;
      case 8: append_int64s(f, a.ints); break;
      case 9: a.strings.emplace_back(field_bytes(f)); break;
      case 20: a.kind = static_cast<Attribute::Kind>(f.varint); break;
      default: break;
    }
  }
  return a;
}

Node read_node(WireReader r) {
  Node n;
  WireField f;
  while (r.next(f)) {
    switch (f.number) {
      case 1: n.inputs.emplace_back(field_bytes(f)); break;
      case 2: n.outputs.emplace_back(field_bytes(f)); break;
      case 3: n.name = std::string(field_bytes(f)); break;
      case 4: n.op_type = std::string(field_bytes(f)); break;
      case 5: n.attributes.push_back(read_attribute(sub_message(f))); break;
      case 7: n.domain = std::string(field_bytes(f)); break;
      default: break;
    }
  }
  return n;
}

Graph read_graph(WireReader r) {
  Graph g;
  WireField f;
  while (r.next(f)) {
    switch (f.number) {
      case 1: g.nodes.push_back(read_node(sub_message(f))); break;
      case 2: g.name = std::string(field_bytes(f)); break;
      case 5: g.initializers.push_back(read_tensor(sub_message(f))); break;
      case 11: g.inputs.push_back(read_value_info(sub_message(f))); break;
      case 12: g.outputs.push_back(read_value_info(sub_message(f))); break;
      case 13: g.value_info.push_back(read_value_info(sub_message(f))); break;
      case 15: throw ModelError("sparse initializers are not supported");
      default: break;
    }
  }
  return g;
}

}  // namespace

Model parse_model(std::string_view bytes) {
  Model m;
  bool has_graph = false;
  WireReader r(bytes);
  WireField f;
  while (r.next(f)) {
    switch (f.number) {
      case 1: m.ir_version = static_cast<int64_t>(f.varint); break;
      case 2: m.producer_name = std::string(field_bytes(f)); break;
      case 3: m.producer_version = std::string(field_bytes(f)); break;
      case 7: m.graph = read_graph(sub_message(f)); has_graph = true; break;
      case 8: {
        std::string domain;
        int64_t version = 0;
        WireReader o = sub_message(f);
        WireField of;
        while (o.next(of)) {
          if (of.number == 1) domain = std::string(field_bytes(of));
          if (of.number == 2) version = static_cast<int64_t>(of.varint);
        }
        m.opsets[domain] = version;
        break;
      }
      default: break;
    }
  }
  if (!has_graph) throw ModelError("the file has no graph (is it an ONNX model?)");
  return m;
}

TensorData parse_tensor(std::string_view bytes) { return read_tensor(WireReader(bytes)); }

}  // namespace relay::importer::onnx

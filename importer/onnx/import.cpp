#include "importer/onnx/import.h"

#include <set>

#include "importer/onnx/convert.h"

namespace relay::importer::onnx {

namespace {

std::string attribute_text(const Attribute& a) {
  auto list = [](const auto& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
  };
  switch (a.kind) {
    case Attribute::Float: return std::to_string(a.f);
    case Attribute::Int: return std::to_string(a.i);
    case Attribute::String: return "\"" + a.s + "\"";
    case Attribute::Ints: return list(a.ints);
    case Attribute::Floats: return list(a.floats);
    case Attribute::Tensor: return "<tensor>";
    default: return "...";
  }
}

// The Relay type of a graph input from its declared type and the user's shapes.
TensorInfo input_info(const ValueInfo& v, const ImportOptions& options) {
  if (!v.is_tensor) throw ImportError("input `" + v.name + "` is not a tensor (sequences and maps are not supported)");
  std::optional<DataType> dtype = relay_dtype(v.elem_type);
  if (!dtype) throw ImportError("input `" + v.name + "` has element type " + elem_type_name(v.elem_type) + ", not supported");
  TensorInfo info{*dtype, v.dims};
  if (auto it = options.input_shapes.find(v.name); it != options.input_shapes.end()) {
    if (v.has_shape && it->second.size() != v.dims.size())
      throw ImportError("--shape gives " + std::to_string(it->second.size()) + " dims for `" + v.name +
                        "`, which has rank " + std::to_string(v.dims.size()));
    info.shape = it->second;
  } else if (!v.has_shape) {
    throw ImportError("input `" + v.name + "` has no declared shape; give one with --shape " + v.name + "=D,D,...");
  }
  return info;
}

}  // namespace

std::string node_line(const Node& node) {
  std::string s = node.domain.empty() || node.domain == "ai.onnx" ? node.op_type : node.domain + "." + node.op_type;
  s += "(";
  for (size_t i = 0; i < node.inputs.size(); ++i) s += (i ? ", " : "") + node.inputs[i];
  s += ") -> ";
  for (size_t i = 0; i < node.outputs.size(); ++i) s += (i ? ", " : "") + node.outputs[i];
  if (!node.attributes.empty()) {
    s += "  [";
    for (size_t i = 0; i < node.attributes.size(); ++i)
      s += (i ? ", " : "") + node.attributes[i].name + "=" + attribute_text(node.attributes[i]);
    s += "]";
  }
  return s;
}

ImportResult import_model(const Model& model, const ImportOptions& options) {
  ImportResult result;
  const Graph& g = model.graph;
  GraphBuilder builder;
  std::map<std::string, RValue> values;
  std::set<std::string> poisoned;  // outputs of nodes that failed
  std::map<std::pair<std::string, std::string>, size_t> seen;  // (op, message) -> problem
  auto report = [&](int node, const std::string& message) {
    std::string op = node >= 0 ? g.nodes[static_cast<size_t>(node)].op_type : "";
    auto [it, fresh] = seen.emplace(std::make_pair(op, message), result.problems.size());
    if (fresh) result.problems.push_back({node, message, 0});
    else ++result.problems[it->second].more;
  };

  std::vector<TensorData> constants = g.initializers;
  for (const auto& [name, t] : options.bound_inputs) {
    constants.push_back(t);
    constants.back().name = name;
  }
  for (const TensorData& t : constants) {
    std::optional<DataType> dtype = relay_dtype(t.elem_type);
    if (!dtype || t.external) {
      // Reported only if a node uses it.
      poisoned.insert(t.name);
      continue;
    }
    RValue v;
    v.constant = std::make_shared<const Constant>(Constant{*dtype, t.dims, t.bytes});
    values[t.name] = std::move(v);
  }
  for (const ValueInfo& in : g.inputs) {
    if (values.count(in.name)) continue;  // an initializer listed as an input (IR < 4)
    try {
      RValue v;
      v.info = input_info(in, options);
      v.atom = builder.add_param(in.name, *v.info);
      values[in.name] = std::move(v);
    } catch (const ImportError& e) {
      report(-1, e.what());
      poisoned.insert(in.name);
    }
  }

  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    auto poison_outputs = [&] {
      for (const std::string& o : node.outputs) poisoned.insert(o);
    };
    std::vector<RValue*> inputs;
    bool skip = false;
    for (const std::string& name : node.inputs) {
      if (name.empty()) {
        inputs.push_back(nullptr);
        continue;
      }
      if (poisoned.count(name)) {
        skip = true;
        for (const TensorData& t : constants)
          if (t.name == name)
            report(static_cast<int>(n), "initializer `" + name + "` " +
                                            (t.external ? "is stored in an external file" : "has element type " + elem_type_name(t.elem_type)) +
                                            ", which is not supported");
        break;
      }
      auto it = values.find(name);
      if (it == values.end()) {
        report(static_cast<int>(n), "input `" + name + "` is not produced by any earlier node, input or initializer");
        skip = true;
        break;
      }
      inputs.push_back(&it->second);
    }
    if (skip) {
      poison_outputs();
      continue;
    }
    if (!node.domain.empty() && node.domain != "ai.onnx") {
      report(static_cast<int>(n), "operators of domain `" + node.domain + "` are not supported");
      poison_outputs();
      continue;
    }
    const Converter* convert = find_converter(node.op_type);
    if (!convert) {
      report(static_cast<int>(n), "the operator `" + node.op_type + "` is not supported");
      poison_outputs();
      continue;
    }
    try {
      NodeContext ctx(node, model.opset(), builder, inputs);
      (*convert)(ctx);
      for (size_t i = 0; i < node.outputs.size(); ++i) {
        if (node.outputs[i].empty()) continue;
        if (i >= ctx.outputs().size() || (ctx.outputs()[i].atom.empty() && !ctx.outputs()[i].constant))
          throw ImportError("output " + std::to_string(i + 1) + " of " + node.op_type + " is not supported");
        values[node.outputs[i]] = ctx.outputs()[i];
      }
    } catch (const ImportError& e) {
      report(static_cast<int>(n), e.what());
      poison_outputs();
    } catch (const std::exception& e) {
      // A converter bug must not take the command down: report it against the node.
      report(static_cast<int>(n), std::string("internal error in the ") + node.op_type + " converter: " + e.what());
      poison_outputs();
    }
  }

  std::vector<std::string> results;
  for (const ValueInfo& out : g.outputs) {
    auto it = values.find(out.name);
    if (poisoned.count(out.name)) continue;  // its node was reported
    if (it == values.end()) {
      report(-1, "graph output `" + out.name + "` is not produced by any node");
      continue;
    }
    results.push_back(builder.atom(it->second));
  }
  if (g.outputs.empty()) report(-1, "the graph has no outputs");
  if (!result.problems.empty()) return result;

  std::string body = results.size() == 1 ? results[0] : "(";
  if (results.size() != 1) {
    for (size_t i = 0; i < results.size(); ++i) body += (i ? ", " : "") + results[i];
    body += ")";
  }
  try {
    result.text = builder.program(body);
  } catch (const ImportError& e) {
    report(-1, e.what());
  }
  return result;
}

}  // namespace relay::importer::onnx

// ONNX model -> Relay text (`relay import`). The graph becomes `@main`: its inputs are
// the parameters (initializers are not: they become constants in the `#[metadata]`
// section, so the file runs by itself), each node the Relay calls its converter emits
// (convert.h), its outputs the result (a tuple when there are several).
//
// Every node is tried: a node that cannot be imported is reported and the nodes that
// depend on it are skipped silently, so one run lists every unsupported operator.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "importer/onnx/onnx_model.h"

namespace relay::importer::onnx {

struct ImportOptions {
  // Sizes for inputs whose dims are symbolic (`batch`), by input name.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // Inputs whose values are fixed when importing (TVM's freeze_params for inputs): they
  // become constants, so shape-like inputs (a Reshape's shape, Resize's sizes) fold.
  std::map<std::string, TensorData> bound_inputs;
};

struct ImportProblem {
  int node = -1;  // index into graph.nodes; -1 for the graph itself (inputs, outputs)
  std::string message;
  int more = 0;   // further nodes with the same operator and message
};

struct ImportResult {
  std::optional<std::string> text;  // the Relay program, when there were no problems
  std::vector<ImportProblem> problems;
};

ImportResult import_model(const Model& model, const ImportOptions& options);

// One line per node, as the import's diagnostics show it:
// `Conv(input, conv1.weight) -> conv1_out  [kernel_shape=[3, 3], pads=[1, 1, 1, 1]]`.
std::string node_line(const Node& node);

}  // namespace relay::importer::onnx

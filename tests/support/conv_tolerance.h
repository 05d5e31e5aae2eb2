// The fold tolerance (product_tolerance.h) of a convolution node whose kernel sums its
// terms in another order than the reference's: the reference convolution of |data| and
// |weight| is each output's sum of its terms' magnitudes.
#pragma once

#include <cmath>
#include <vector>

#include "compiler/graph/run_graph.h"
#include "tests/support/product_tolerance.h"

namespace relay::testing {

// `values`: every node's value (the interpreter's), the convolution's included.
inline double conv2d_tolerance(const compiler::Graph& g, compiler::NodeId conv, const std::vector<rt::Value>& values) {
  std::vector<rt::Value> magnitudes = values;
  for (compiler::NodeId in : g[conv].inputs) {
    rt::NDArray a = values[in].tensor().copy();
    for (int64_t i = 0; i < a.size(); ++i) a.set_double(i, std::fabs(a.get_double(i)));
    magnitudes[in] = rt::Value(a);
  }
  const rt::NDArray& weight = values[g[conv].inputs[1]].tensor();
  const int64_t terms = weight.shape()[1] * weight.shape()[2] * weight.shape()[3];
  return fold_tolerance(values[conv].tensor(), compiler::eval_node(g, conv, magnitudes).tensor(), terms);
}

}  // namespace relay::testing

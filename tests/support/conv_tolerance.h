// The fold bound (product_tolerance.h) of a convolution node whose kernel sums its terms
// in another order than the reference's: the reference convolution of |data| and
// |weight| is each output's sum of its terms' magnitudes.
#pragma once

#include <cmath>
#include <vector>

#include "compiler/graph/run_graph.h"
#include "tests/support/product_tolerance.h"

namespace relay::testing {

// `values`: every node's value (the interpreter's), the convolution's included.
inline FoldBound conv2d_bound(const compiler::Graph& g, compiler::NodeId conv, const std::vector<rt::Value>& values) {
  std::vector<rt::Value> magnitudes = values;
  for (compiler::NodeId in : g[conv].inputs) {
    // in float32, so that the sums of float16 magnitudes neither overflow nor round to float16
    const rt::NDArray& x = values[in].tensor();
    rt::NDArray a = rt::NDArray::empty(x.shape(), DataType::float_(32));
    for (int64_t i = 0; i < a.size(); ++i) a.set_double(i, std::fabs(x.get_double(i)));
    magnitudes[in] = rt::Value(a);
  }
  const rt::NDArray& weight = values[g[conv].inputs[1]].tensor();
  FoldBound r;
  r.terms = weight.shape()[1] * weight.shape()[2] * weight.shape()[3];
  r.magnitude = compiler::eval_node(g, conv, magnitudes).tensor();
  r.storage = storage_rounding(values[conv].tensor());
  return r;
}

}  // namespace relay::testing

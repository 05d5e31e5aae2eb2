// A deterministic generator of large Relay modules shaped like TVM printouts: many
// functions whose bodies are graph bindings `%N = op(args, attrs) /* ty=... */;` over
// conv2d / batch_norm / relu / dense / reshape calls, with lets, tuples, projections,
// closures and `Primitive=1` functions, and Tensor types on every parameter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace relay::bench {

struct GeneratedModule {
  std::string text;
  size_t lines = 0;
  size_t functions = 0;
};

// At least `min_lines` lines (a little more: the last function is completed). The same
// (min_lines, seed) gives the same text on every platform.
GeneratedModule generate_tvm_like_module(size_t min_lines, uint64_t seed);

}  // namespace relay::bench

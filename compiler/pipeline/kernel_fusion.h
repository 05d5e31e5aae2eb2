// The fusion the compiled code runs: TVM's FuseOps groups (compiler/graph/fuse.h) where
// this compiler's kernels can take them whole, split where they cannot.
//
// TVM fuses any broadcast-pattern producer into a reduction and inlines it there; this
// compiler's reduction kernels take an element-wise prologue only (loops/reduction.h), so
// a reduction fed by `tile`, `repeat` or `broadcast_to` would run its whole group on
// reference kernels. Such a group becomes two: its producers (one index-mapping kernel,
// loops/injective.h) and the reduction alone (native), at the cost of one intermediate
// tensor the size of the reduced one.
#pragma once

#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"

namespace relay::compiler {

FusionPlan fuse_for_kernels(const Graph& g);

}  // namespace relay::compiler

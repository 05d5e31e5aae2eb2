// The fusion the compiled code runs: TVM's FuseOps groups (compiler/graph/fuse.h) where
// this compiler's kernels can take them whole, split where they cannot.
//
// TVM fuses any broadcast-pattern producer into a reduction and inlines it there; this
// compiler's reduction kernels take an element-wise prologue only (loops/reduction.h), so
// a reduction fed by `tile`, `repeat` or `broadcast_to` would run its whole group on
// reference kernels. Such a group becomes two: its producers (one index-mapping kernel,
// loops/injective.h) and the reduction alone (native), at the cost of one intermediate
// tensor the size of the reduced one.
//
// Likewise a softmax (log_softmax) group with an element-wise epilogue: the softmax kernel
// takes the softmax alone (loops/softmax.h), so the group becomes the softmax and its
// epilogue, both native, instead of the softmax's reference kernel with a native epilogue
// (16 x 512 x 512 float32, softmax then a multiply: 29.9 -> 10.0 ms, 2 threads).
//
// And first, a projection of a tuple made outside its group (the fields of topk's or a
// detection operator's result) becomes a group of its own, which computes nothing, so
// that the operators after it are a kernel reading the field instead of staying on
// reference kernels ("a tuple projection inside the group").
#pragma once

#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"

namespace relay::compiler {

FusionPlan fuse_for_kernels(const Graph& g);

}  // namespace relay::compiler

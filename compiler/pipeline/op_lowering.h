// The compile path's decision for each operator, by dense id (an OpTable, lang/ops/op_table.h):
// lowered to native code by the loop IR (element-wise/broadcast, or a reduction), or run on
// its reference kernel for the reason interpreted_ops.def gives. Built once from the loop
// IR's lists and interpreted_ops.def; tests/compiler/op_coverage_test.cpp holds every
// supported operator to exactly one of "lowered" or "interpreted with a reason".
#pragma once

#include <string_view>

#include "lang/ops/op_registry.h"

namespace relay::compiler {

struct OpLowering {
  bool elementwise = false;            // in loops::lowered_elementwise_ops()
  bool reduction = false;              // in loops::lowered_reduction_ops()
  bool index = false;                  // in loops::lowered_index_ops() (layout ops, pools)
  bool softmax = false;                // in loops::lowered_softmax_ops()
  std::string_view interpreted_reason; // non-empty: listed in interpreted_ops.def
  bool lowered() const { return elementwise || reduction || index || softmax; }
};

// O(1): an index.
const OpLowering& op_lowering(const OpInfo& op);

}  // namespace relay::compiler

#include "compiler/pipeline/op_lowering.h"

#include "compiler/loops/elementwise.h"
#include "compiler/loops/injective.h"
#include "compiler/loops/softmax.h"
#include "compiler/loops/reduction.h"
#include "compiler/pipeline/interpreted_ops.h"
#include "lang/ops/op_table.h"

namespace relay::compiler {

namespace {
const OpTable<OpLowering>& table() {
  static const OpTable<OpLowering> t = [] {
    OpTable<OpLowering> r;
    // The loop IR's lists and interpreted_ops.def name operators that exist (the coverage
    // test checks it); find_op guards against a stale name all the same.
    for (std::string_view name : loops::lowered_elementwise_ops())
      if (const OpInfo* op = find_op(name)) r[*op].elementwise = true;
    for (std::string_view name : loops::lowered_reduction_ops())
      if (const OpInfo* op = find_op(name)) r[*op].reduction = true;
    for (std::string_view name : loops::lowered_index_ops())
      if (const OpInfo* op = find_op(name)) r[*op].index = true;
    for (std::string_view name : loops::lowered_softmax_ops())
      if (const OpInfo* op = find_op(name)) r[*op].softmax = true;
    for (std::string_view name : interpreted_ops())
      if (const OpInfo* op = find_op(name)) r[*op].interpreted_reason = interpreted_reason(name);
    return r;
  }();
  return t;
}
}  // namespace

const OpLowering& op_lowering(const OpInfo& op) { return table()[op]; }

}  // namespace relay::compiler

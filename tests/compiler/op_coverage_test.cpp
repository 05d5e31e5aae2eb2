// Every supported operator has a decision in the compile path: lowered to native code
// (compiler/loops), or listed with the reason it runs its reference kernel
// (compiler/pipeline/interpreted_ops.def) — never neither, never both.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "compiler/loops/elementwise.h"
#include "compiler/loops/injective.h"
#include "compiler/loops/softmax.h"
#include "compiler/loops/reduction.h"
#include "compiler/pipeline/interpreted_ops.h"
#include "compiler/pipeline/op_lowering.h"
#include "interpreter/kernels/kernel.h"
#include "lang/ops/op_registry.h"

using namespace relay;

TEST_CASE("every supported operator is lowered or runs its reference kernel for a stated reason",
          "[compiler][coverage]") {
  std::set<std::string> lowered;
  for (std::string_view op : loops::lowered_elementwise_ops()) lowered.insert(std::string(op));
  for (std::string_view op : loops::lowered_reduction_ops()) lowered.insert(std::string(op));
  for (std::string_view op : loops::lowered_index_ops()) lowered.insert(std::string(op));
  for (std::string_view op : loops::lowered_softmax_ops()) lowered.insert(std::string(op));
  std::set<std::string> listed;
  for (std::string_view op : compiler::interpreted_ops()) {
    INFO(op);
    CHECK(listed.insert(std::string(op)).second);  // listed once
    CHECK(!compiler::interpreted_reason(op).empty());
  }
  std::string neither, both, unknown;
  for (const OpInfo& op : all_ops()) {
    const std::string name(op.name);
    const bool is_lowered = lowered.count(name) > 0, is_listed = listed.count(name) > 0;
    if (!op.supported) {
      if (is_listed) unknown += " " + name;  // not supported: nothing to run
      continue;
    }
    if (!is_lowered && !is_listed) neither += " " + name;
    if (is_lowered && is_listed) both += " " + name;
    // A listed operator's fallback must exist.
    if (is_listed) CHECK(rt::find_kernel(op) != nullptr);
    // The per-id table the compile path reads says the same as the lists.
    const compiler::OpLowering& by_id = compiler::op_lowering(op);
    INFO(name);
    CHECK(by_id.elementwise == (std::count(loops::lowered_elementwise_ops().begin(), loops::lowered_elementwise_ops().end(), op.name) > 0));
    CHECK(by_id.reduction == (std::count(loops::lowered_reduction_ops().begin(), loops::lowered_reduction_ops().end(), op.name) > 0));
    CHECK(by_id.softmax == (std::count(loops::lowered_softmax_ops().begin(), loops::lowered_softmax_ops().end(), op.name) > 0));
    CHECK(by_id.index == (std::count(loops::lowered_index_ops().begin(), loops::lowered_index_ops().end(), op.name) > 0));
    CHECK(by_id.interpreted_reason == compiler::interpreted_reason(op.name));
  }
  for (const std::string& name : listed)
    if (!find_op(name)) unknown += " " + name;
  INFO("supported, neither lowered nor listed:" << neither);
  CHECK(neither.empty());
  INFO("lowered and also listed as interpreted (a stale entry):" << both);
  CHECK(both.empty());
  INFO("listed but not a supported operator:" << unknown);
  CHECK(unknown.empty());
}
#endif
